"""The terminology check at scale: a 10,000-entry glossary on the 100k-line real pair with its
source (:mod:`benchmarks.realpair`: the WMT21 TED en-de MQM data, 529 segments drawn at random
to 100,000 lines; the lines made distinct as in :mod:`benchmarks.check_qe`, a counter appended
to every line of the hypothesis, reference and source, so that no line is seen twice).

    python -m benchmarks.terms              # 100,000 lines; prints the rows
    python -m benchmarks.terms 3000         # another size
    python -m benchmarks.terms --check-only # the `check` rows alone
    python -m benchmarks.terms 20000 --server-only   # the server rows alone (latency, RSS)
    python -m benchmarks.terms --adequacy   # also the `check` rows with the default settings
    python -m benchmarks.terms 20000 --profile-server   # the server's edits with the glossary, profiled
    python -m benchmarks.terms 20000 --every 100 # every 100th entry of the glossary kept (a
                                                 # project's density: well under one term a line)

The glossary is made from the same real data (:func:`build_glossary`): the 10,000 most
frequent English words and word pairs of the source (``src.txt``; a pair of two words of a
short stop list, and a word of it alone, left out), each given the German word or word pair
that co-occurs with it best over the reference and the 13 systems' outputs (the Dice
coefficient over the 529 × 14 line pairs; a crude aligner, but real words on both sides).
Every 20th entry also has its second-best German candidate as a ``forbidden`` term, and the
source's capitalised words seen capitalised at least twice in the targets are
``do-not-translate`` (names kept as written).  The CSV is ``en,de,status``.

That glossary is dense, a worst case: every word and word sequence of the source is a term,
a line of the pair meets about 28 of them (a project's glossary meets a few per line).  The
cost per line follows the terms a line meets, not the glossary's size:
``scripts/term_scan_cost.py --thin`` measures it on every 10th and every 100th entry.

Rows, each a whole process or a whole server session:

* ``bleu-ls check big.hyp`` (with ``big.ref`` and ``big.src`` beside it) without and with
  ``--glossary``: wall seconds, the median of 3 runs each, run in turn (A B A B A B); the
  ratio of the medians (target ≤ 1.2).  With a config switching the adequacy check off (so
  that the ratio is not hidden behind the sentence encoder's time), and with ``--adequacy``
  also with the default settings;
* the server (``bleu-ls serve --stdio``) with the pair open, a workspace ``bleu-ls.toml``
  with and without ``[terms] files``: edit → pulled diagnostics latency over 60 edits of
  the benchmark's edit script (p50 / p95; target p95 ≤ 10 ms), the inlay hints' latency on
  the same edits, and the server's RSS once the first full diagnostics are in (the growth
  with the glossary: target ≤ 50 MB).
"""

from __future__ import annotations

import csv
import os
import random
import resource
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Optional

from . import realpair
from .check_qe import distinct
from .run import PY, ROOT, Report, Row, _mutate, _range

ENTRIES = 10_000
RATIO_TARGET, P95_TARGET_MS, RSS_TARGET_MB = 1.2, 10.0, 50.0
STOP = frozenset("""a an the and or but of to in on at for with by from as is are was were be been it its this that
these those i you he she we they me him her us them my your our their not no so if then than there here what which who
do does did have has had will would can could should just about into out up down over all any some very too also""".split())
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _words(line: str) -> list[str]:
    return _WORD.findall(line)


def build_glossary(data: Path, out: Path, entries: int = ENTRIES) -> Path:
    """The 10,000-entry CSV glossary made from the WMT21 en-de folder ``data`` (see above)."""
    if out.is_file():
        return out
    src = (data / "src.txt").read_text(encoding="utf-8").splitlines()
    targets = [(data / "ref.txt").read_text(encoding="utf-8").splitlines()]
    targets += [p.read_text(encoding="utf-8").splitlines() for p in sorted(data.glob("*.hyp"))]
    # source terms: the n-grams of 1 to 3 words, by frequency (none made of stop words alone)
    freq: Counter = Counter()
    src_sets: list[set[str]] = []
    for line in src:
        ws = [w.lower() for w in _words(line)]
        grams = set()
        for k in (1, 2, 3):
            for i in range(len(ws) - k + 1):
                gram = ws[i:i + k]
                if all(w in STOP for w in gram) or any(len(w) < 2 for w in gram):
                    continue
                grams.add(" ".join(gram))
        src_sets.append(grams)
        freq.update(grams)
    # target candidates per line pair (the reference and each system's output of a segment)
    tgt_sets: list[list[set[str]]] = []
    tfreq: Counter = Counter()
    for i in range(len(src)):
        per = []
        for t in targets:
            ws = [w.lower() for w in _words(t[i])] if i < len(t) else []
            grams = {w for w in ws if len(w) > 2} | {f"{a} {b}" for a, b in zip(ws, ws[1:]) if len(a) > 2 and len(b) > 2}
            per.append(grams)
            tfreq.update(grams)
        tgt_sets.append(per)
    n_pairs = len(targets)
    chosen = [g for g, _n in sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))]
    rows: list[tuple[str, str, str]] = []
    concepts = 0
    for g in chosen:
        if concepts >= entries:
            break
        co: Counter = Counter()
        for i, s in enumerate(src_sets):
            if g in s:
                for per in tgt_sets[i]:
                    co.update(per)
        if not co:
            continue
        gn = freq[g] * n_pairs
        ranked = sorted(co, key=lambda t: (-2 * co[t] / (gn + tfreq[t]), t))
        if len(ranked[0].split()) != len(g.split()) and len(ranked) > 1 and len(ranked[1].split()) == len(g.split()):
            ranked[0], ranked[1] = ranked[1], ranked[0]
        concepts += 1
        rows.append((g, ranked[0], "preferred"))
        if concepts % 20 == 0 and len(ranked) > 1:
            rows.append((g, ranked[1], "forbidden"))
    # names kept as written: capitalised source words (not at a line start) written alike in the targets
    names: Counter = Counter()
    for i, line in enumerate(src):
        for w in _words(line)[1:]:
            if w[:1].isupper() and w.lower() not in STOP:
                names[w] += sum(1 for t in targets if i < len(t) and w in t[i])
    dnt = [w for w, n in names.most_common() if n >= 2][: entries // 50]  # (a few hundred at most)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["en", "de", "status"])
        w.writerows(rows)
        w.writerows((name, name, "do-not-translate") for name in dnt)
    tmp.replace(out)
    return out


def glossary_size(path: Path) -> tuple[int, Counter]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))[1:]
    return len(rows), Counter(r[2] for r in rows)


# -- check -------------------------------------------------------------------------------
NO_ADEQUACY = "[diagnostics.adequacy]\nenabled = false\n"


def check_once(hyp: Path, glossary: Optional[Path], config: Optional[Path]) -> tuple[float, int, float]:
    """(wall seconds, output lines, CPU seconds) of one ``bleu-ls check`` process (its CPU time,
    user and system, is what a busy machine's other work does not add to)."""
    argv = [PY, "-m", "bleu_ls", "check", str(hyp), "--fail-on", "never"]
    if glossary is not None:
        argv += ["--glossary", str(glossary)]
    if config is not None:
        argv += ["--config", str(config)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    got = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if got.returncode != 0:
        raise RuntimeError(f"bleu-ls check {hyp} failed ({got.returncode})")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, got.stdout.count(b"\n"), cpu


def check_rows(report: Report, folder: Path, glossary: Path, n: int, repeat: int = 3,
               adequacy: bool = False, what: str = "a 10,000-entry glossary") -> dict[str, Any]:
    out: dict[str, Any] = {}
    config = folder / "no-adequacy.toml"
    config.write_text(NO_ADEQUACY, encoding="utf-8")
    variants = [("adequacy off", config)]
    if adequacy:
        variants.append(("default settings (adequacy on)", None))
    for label, cfg in variants:
        plain, terms, lines, cpu0, cpu1 = [], [], (0, 0), [], []
        for _ in range(repeat):
            w0, l0, c0 = check_once(folder / "big.hyp", None, cfg)
            w1, l1, c1 = check_once(folder / "big.hyp", glossary, cfg)
            plain.append(w0)
            terms.append(w1)
            cpu0.append(c0)
            cpu1.append(c1)
            lines = (l0, l1)
        a, b = statistics.median(plain), statistics.median(terms)
        ca, cb = statistics.median(cpu0), statistics.median(cpu1)
        out[label] = {"plain": plain, "terms": terms, "ratio": b / a, "lines": lines, "cpu": (cpu0, cpu1)}
        report.add(Row("terms", f"`check` with {what}, {label}", f"{n:,}",
                       f"{b:.1f} s ({', '.join(f'{x:.1f}' for x in terms)})",
                       f"{a:.1f} s without ({', '.join(f'{x:.1f}' for x in plain)})", f"{b / a:.2f}×",
                       f"<= {RATIO_TARGET}×", b / a <= RATIO_TARGET,
                       f"{lines[1] - lines[0]:,} more output lines; CPU (user + system) {cb:.1f} s / {ca:.1f} s: "
                       f"{cb / ca:.2f}×"))
    return out


# -- the server ------------------------------------------------------------------------
def _workspace(folder: Path, glossary: Optional[Path], tag: str) -> Path:
    ws = folder.parent / f"{folder.name}-ws-{tag}"
    ws.mkdir(exist_ok=True)
    for name in ("big.hyp", "big.ref", "big.src"):
        dst = ws / name
        if not dst.exists():
            os.link(folder / name, dst) if hasattr(os, "link") else shutil.copyfile(folder / name, dst)
    toml = ws / "bleu-ls.toml"
    if glossary is not None:
        shutil.copyfile(glossary, ws / "glossary.csv")
        toml.write_text('[terms]\nfiles = ["glossary.csv"]\n', encoding="utf-8")
    elif toml.exists():
        toml.unlink()
    return ws


def server_session(folder: Path, glossary: Optional[Path], edits: int = 60, seed: int = 11,
                   profile: Optional[Path] = None) -> dict[str, Any]:
    """Open the pair, pull its diagnostics, then ``edits`` edits each followed by a pull and a
    hint request (as VS Code sends them), timed from the edit."""
    from .lsp_client import RawClient

    ws = _workspace(folder, glossary, "terms" if glossary else "plain")
    path = ws / "big.hyp"
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    n = len(lines) - 1
    prof = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
    c = RawClient(cwd=ROOT, argv=[PY, *prof, "-m", "bleu_ls", "serve", "--stdio"])
    out: dict[str, Any] = {}
    try:
        c.initialize(ws, pull=True, configuration=True)
        time.sleep(0.3)
        out["rss_start"] = c.rss_kib() * 1024
        uri = path.as_uri()
        doc = {"uri": uri}
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        full = c.result("textDocument/diagnostic", {"textDocument": doc}, timeout=900)
        result_id = (full or {}).get("resultId")
        items = (full or {}).get("items") or []
        out["items"] = len(items)
        out["term_items"] = sum(1 for d in items if d.get("code") in ("term-missing", "term-forbidden", "do-not-translate"))
        time.sleep(1.0)
        out["rss"] = c.rss_kib() * 1024
        rng = random.Random(seed)
        w0 = max(0, n // 2 - 30)
        diag_lat, hint_lat = [], []
        for v in range(2, edits + 2):
            i = w0 + rng.randrange(min(60, n - w0 - 1))
            lines[i] = _mutate(lines[i], rng)
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]})
            params: dict[str, Any] = {"textDocument": doc}
            if result_id:
                params["previousResultId"] = result_id
            rid_d = c.request_async("textDocument/diagnostic", params)
            rid_h = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(w0, w0 + 60)})
            hint = c.answer(rid_h, timeout=120)
            diag = c.answer(rid_d, timeout=120)
            hint_lat.append(hint["_t"] - t_edit)
            diag_lat.append(diag["_t"] - t_edit)
            result_id = (diag.get("result") or {}).get("resultId") or result_id
        out["diag_lat"], out["hint_lat"] = diag_lat, hint_lat
        out["rss_end"] = c.rss_kib() * 1024
    finally:
        c.close()
    return out


def _p(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000


def server_rows(report: Report, folder: Path, glossary: Path, n: int, what: str = "the 10,000-entry glossary") -> dict[str, Any]:
    plain = server_session(folder, None)
    terms = server_session(folder, glossary)
    for label, r in (("without a glossary", plain), (f"with {what}", terms)):
        p95 = _p(r["diag_lat"], 0.95)
        report.add(Row("terms", f"server: edit → pulled diagnostics, {label}", f"{n:,}",
                       f"p50 {_p(r['diag_lat'], 0.5):.1f} ms, p95 {p95:.1f} ms",
                       f"hints p50 {_p(r['hint_lat'], 0.5):.1f} ms, p95 {_p(r['hint_lat'], 0.95):.1f} ms", "",
                       f"p95 <= {P95_TARGET_MS:.0f} ms", p95 <= P95_TARGET_MS if r is terms else None,
                       f"{r['items']:,} diagnostics ({r['term_items']:,} of terms)"))
    growth = (terms["rss"] - plain["rss"]) / 2**20
    report.add(Row("terms", "server RSS, pair open and its diagnostics pulled", f"{n:,}",
                   f"{terms['rss'] / 2**20:.0f} MB with the glossary", f"{plain['rss'] / 2**20:.0f} MB without",
                   f"+{growth:.0f} MB", f"<= +{RSS_TARGET_MB:.0f} MB", growth <= RSS_TARGET_MB,
                   f"after the edits: {terms['rss_end'] / 2**20:.0f} / {plain['rss_end'] / 2**20:.0f} MB"))
    return {"plain": plain, "terms": terms}


def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    sizes = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or args[i - 1] != "--every")]
    n = int(sizes[0]) if sizes else realpair.LARGE
    data = realpair.data_dir()
    folder = realpair.build(n)
    if data is None or folder is None:
        print("the WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) are not on this machine: nothing measured")
        return 0
    folder = distinct(folder)
    glossary = build_glossary(data, realpair.CACHE / f"terms-glossary-{ENTRIES}.csv")
    every = int(args[args.index("--every") + 1]) if "--every" in args else 1
    if every > 1:  # every Nth entry kept (the header too)
        rows = glossary.read_text(encoding="utf-8").splitlines(keepends=True)
        glossary = realpair.CACHE / f"terms-glossary-{ENTRIES}-every-{every}.csv"
        glossary.write_text("".join([rows[0], *rows[1::every]]), encoding="utf-8")
    size, statuses = glossary_size(glossary)
    report = Report()
    what = f"{size:,}-entry glossary" + (f" (every {every}th entry of the 10,000)" if every > 1 else "")
    if "--server-only" not in args:
        check_rows(report, folder, glossary, n, adequacy="--adequacy" in args, what=f"a {what}")
    if "--profile-server" in args:  # the edits' path with the glossary, under cProfile
        import pstats

        prof = realpair.CACHE / f"terms-server-{n}.prof"
        r = server_session(folder, glossary, profile=prof)
        print(f"edit → diagnostics p50 {_p(r['diag_lat'], 0.5):.1f} ms, p95 {_p(r['diag_lat'], 0.95):.1f} ms (profiled)")
        time.sleep(1.0)
        pstats.Stats(str(prof)).sort_stats("tottime").print_stats(25)
        return 0
    if "--check-only" not in args:
        server_rows(report, folder, glossary, n, what=f"the {what}")
    print(f"glossary: {glossary} ({size:,} rows: {dict(statuses)}); pair: {folder}")
    print(report.table())
    for note in report.notes:
        print("\n" + note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
