"""The peer rows of ``python -m benchmarks``: ``bleu-ls score --format json``
(every line's score and the corpus score) against the compiled peers of the
``bench`` extra, as whole processes run in turn (:func:`benchmarks.run.race`):

* BLEU: bleuscore (Rust, corpus BLEU only);
* chrF: fastchrf (Rust, ``pairwise_chrf``: per line only);
* BLEU + chrF: sacrebleu-mojo (Mojo kernel, corpus only; Python >= 3.12).

bleu-ls runs with ``--jobs 1`` (one core) and with its default (every core).
A peer that is not installed, or cannot be on this Python, is skipped with a
note saying why.  The numbers are compared too: bleu-ls' own are held to
sacrebleu by the other rows; here the peer's corpus score (and fastchrf's
per-line scores) are set beside bleu-ls'.

    python -m benchmarks.peer_table [LINES] [REPEAT]     # these rows alone
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import corpus
from .corpus import CACHE
from .peers import available
from .run import PY, Report, Row, fmt_s, race

SECTION = "Batch scoring against the compiled peers (whole processes)"


def _score(hyp: Path, ref: Path, *args: str) -> list[str]:
    return [PY, "-m", "bleu_ls", "score", str(hyp), str(ref), "--format", "json", *args]


def _peer(mode: str, hyp: Path, ref: Path, out: Path) -> list[str]:
    return [PY, "-m", "benchmarks.peers", mode, str(hyp), str(ref), str(out)]


def _corpus(path: Path, key: str | None = None) -> float:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return (doc[key] if key else doc)["corpus"]["score"]


def _ratio(x: float) -> str:
    return f"{x:.2f}× faster" if x >= 1 else f"{1 / x:.2f}× slower"


def peer_rows(report: Report, n: int, repeat: int) -> None:
    hyp, ref = corpus.ensure(n)
    work = CACHE / "out"
    work.mkdir(parents=True, exist_ok=True)
    print(f"peers: {n:,} pairs x {repeat} (whole processes, in turn)", file=sys.stderr, flush=True)
    for metric, peer, target_note in (("bleu", "bleuscore", "corpus BLEU only"), ("chrf", "fastchrf", "per line only")):
        ok, why = available(peer)
        if not ok:
            report.notes.append(f"Peer row {metric} vs {peer} skipped: {why}.")
            continue
        o1, o2, op = work / f"peer-{metric}-j1.json", work / f"peer-{metric}-jn.json", work / f"peer-{peer}.txt"
        res = race(
            {
                "j1": (_score(hyp, ref, "-m", metric, "--jobs", "1"), o1),
                "jn": (_score(hyp, ref, "-m", metric), o2),
                "peer": (_peer(peer, hyp, ref, op), None),
            },
            repeat,
        )
        same_jobs = o1.read_bytes() == o2.read_bytes()
        ours = _corpus(o1)
        if metric == "bleu":
            theirs = float(op.read_text().split()[0])
            compared = f"corpus {ours!r}; {peer} {theirs!r} (Δ {abs(ours - theirs):.1e})"
        else:
            lines = [rec["score"] for rec in json.loads(o1.read_text(encoding="utf-8"))["lines"]]
            peer_lines = [float(x) for x in op.read_text().split()]
            same = sum(1 for a, b in zip(lines, peer_lines) if a == b)
            compared = f"{same:,}/{len(lines):,} lines equal to {peer}'s"
        compared += "; --jobs 1 and default: same bytes" if same_jobs else "; **--jobs 1 and default differ**"
        wp, cp = res["peer"]
        command = f"`score -m {metric} --format json"
        for key, label in (("j1", f"{command} --jobs 1`"), ("jn", f"{command}` (default: every core)")):
            w, c = res[key]
            report.add(Row(SECTION, f"{label} vs {peer} ({target_note})", f"{n:,}",
                           fmt_s(w, c, n), fmt_s(wp, cp, n), _ratio(wp / w), "≥ 2× faster", wp / w >= 2, compared))
    ok, why = available("mojo_bleu_chrf")
    if not ok:
        report.notes.append(f"Peer row BLEU + chrF vs sacrebleu-mojo skipped: {why}.")
        return
    om, ob = work / "peer-mojo.txt", work / "peer-bleu-chrf.json"  # pragma: no cover - Python >= 3.12
    res = race({"ours": (_score(hyp, ref, "-m", "bleu", "chrf"), ob), "peer": (_peer("mojo_bleu_chrf", hyp, ref, om), None)}, repeat)
    (w, c), (wp, cp) = res["ours"], res["peer"]
    report.add(Row(SECTION, "`score -m bleu chrf --format json` vs sacrebleu-mojo (corpus only)", f"{n:,}",
                   fmt_s(w, c, n), fmt_s(wp, cp, n), _ratio(wp / w), "≥ 2× faster", wp / w >= 2,
                   f"corpus BLEU {_corpus(ob, 'bleu')!r}; mojo {om.read_text().split()[0]}"))


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    repeat = int(argv[1]) if len(argv) > 1 else 3
    report = Report()
    peer_rows(report, n, repeat)
    print(report.table())
    for note in report.notes:
        print("\n" + note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
