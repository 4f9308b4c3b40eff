"""Benchmark rows for TER and the paired significance test.

    python -m benchmarks.ter_paired ter HYP REF OUT          sacrebleu TER loop (per line + corpus)
    python -m benchmarks.ter_paired paired WHO BASE HYP REF N   WHO = ours | sacrebleu

The ``ter`` mode is the baseline process of the TER batch row: per-line
``TER().sentence_score`` and the corpus score, written as reprs beside what
``bleu-ls score -m ter --format tsv`` writes.  The ``paired`` mode runs one
paired bootstrap test (BLEU, N resamples) after reading the files and prints
a JSON line: seconds of the test alone, the process's peak memory, and the
numbers (compared between the two).
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

from . import corpus
from .baselines import read
from .corpus import CACHE


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def ter_baseline(hyp_path: str, ref_path: str, out_path: str) -> None:
    from sacrebleu.metrics import TER

    hyps, refs = read(hyp_path), read(ref_path)
    ter = TER()
    out = [repr(ter.sentence_score(h, [r]).score) for h, r in zip(hyps, refs)]
    out.append("corpus " + repr(TER().corpus_score(hyps, [refs]).score))
    Path(out_path).write_text("\n".join(out) + "\n", encoding="utf-8")


def paired(who: str, base_path: str, hyp_path: str, ref_path: str, n: int) -> dict:
    base, hyp, ref = read(base_path), read(hyp_path), read(ref_path)
    t0 = time.perf_counter()
    if who == "sacrebleu":
        from sacrebleu.metrics import BLEU
        from sacrebleu.significance import PairedTest

        _, res = PairedTest([("b", base), ("s", hyp)], {"BLEU": BLEU()}, [ref], test_type="bs", n_samples=n)()
        b, s = res["BLEU"]
        numbers = [b.score, b.mean, b.ci, s.score, s.mean, s.ci, s.p_value]
    else:
        from bleu_ls.engine import BleuMetric
        from bleu_ls.engine.batch import first_pass
        from bleu_ls.engine.significance import paired_bs

        metric = BleuMetric(effective_order=False)
        rows = [first_pass({"bleu": metric}, side, [ref], workers=1)["bleu"][0] for side in (base, hyp)]
        b, (s,) = paired_bs(metric, rows[0], rows[1:], n=n)
        numbers = [b.score, b.mean, b.ci, s.score, s.mean, s.ci, s.p_value]
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "peak_mb": _peak_mb(), "numbers": [repr(float(x)) for x in numbers]}


# -- rows of the benchmark table ----------------------------------------------------------


def ter_rows(report, n: int, repeat: int) -> None:
    """TER per line + corpus: `bleu-ls score -m ter` (both cores) vs a sacrebleu TER loop."""
    from .run import PY, Row, fmt_s, race, same_lines, tsv_scores, _norm

    hyp, ref = corpus.ensure(n)
    work = CACHE / "out"
    work.mkdir(parents=True, exist_ok=True)
    ours_out, sb_out = work / f"ours_ter-{n}.txt", work / f"ter-{n}.txt"
    res = race(
        {
            "ours": ([PY, "-m", "bleu_ls", "score", str(hyp), str(ref), "-m", "ter", "--format", "tsv"], ours_out),
            "sacrebleu": ([PY, "-m", "benchmarks.ter_paired", "ter", str(hyp), str(ref), str(sb_out)], None),
        },
        repeat,
    )
    ours_lines, ours_corpus = tsv_scores(ours_out)
    theirs = sb_out.read_text(encoding="utf-8").splitlines()
    sb_corpus = theirs.pop().split(" ", 1)[1]
    same, total = same_lines(ours_lines, theirs)
    corpus_same = _norm(ours_corpus) == _norm(sb_corpus)
    w, c = res["ours"]
    wb, cb = res["sacrebleu"]
    ident = f"{same:,}/{total:,} lines; corpus {'yes' if corpus_same else '**NO**'}"
    if same != total:
        ident = "**" + ident + "**"
    report.add(Row("TER and significance", "TER per line + corpus vs `TER().sentence_score` loop", f"{n:,}",
                   fmt_s(w, c, n), fmt_s(wb, cb, n), f"{wb / w:.2f}× faster", "≥ 1.8× faster", wb / w >= 1.8, ident))


def paired_rows(report, sizes: list[int], n_resamples: int, sacrebleu_max: int) -> None:
    """Paired bootstrap (BLEU) at each size: time of the test and peak memory, ours vs sacrebleu."""
    import subprocess

    from .run import PY, ROOT, Row

    for size in sizes:
        ref_path, hyp_path = corpus.ensure(size)[1], corpus.ensure(size)[0]
        base_path = CACHE / f"paired-base-{size}.txt"
        if not base_path.exists():
            lines = read(str(hyp_path))
            base_path.write_text("\n".join(" ".join(line.split()[::-1][:1] + line.split()[1:]) for line in lines) + "\n",
                                 encoding="utf-8")

        def one(who: str) -> dict:
            argv = [PY, "-m", "benchmarks.ter_paired", "paired", who, str(base_path), str(hyp_path), str(ref_path),
                    str(n_resamples)]
            proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=True)
            return json.loads(proc.stdout)

        ours = one("ours")
        if size <= sacrebleu_max:
            theirs = one("sacrebleu")
            base_cell = f"{theirs['seconds']:.2f} s, peak {theirs['peak_mb']:.0f} MB"
            ratio = f"{theirs['seconds'] / ours['seconds']:.1f}× faster, {theirs['peak_mb'] / ours['peak_mb']:.1f}× less memory"
            same = ours["numbers"] == theirs["numbers"]
            ident = "p, means, cis yes" if same else "**p, means, cis differ**"
            met = same
        else:
            base_cell, ratio, ident, met = f"not run (over {sacrebleu_max:,} lines)", "", "", None
        report.add(Row("TER and significance", f"paired bootstrap BLEU ({n_resamples} resamples) vs `PairedTest`",
                       f"{size:,}", f"{ours['seconds']:.2f} s, peak {ours['peak_mb']:.0f} MB", base_cell, ratio,
                       "identical, O(lines) memory", met, ident))


def main(argv: list[str]) -> int:
    if argv and argv[0] == "ter":
        ter_baseline(*argv[1:4])
        return 0
    if argv and argv[0] == "paired":
        who, base, hyp, ref, n = argv[1:6]
        print(json.dumps(paired(who, base, hyp, ref, int(n))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
