"""Where the terminology check's time goes on a dense glossary: in-process,
``TermIndex.scan`` over the lines of a pair with its source (default: the benchmark's
3,000-line real pair and its 10,000-entry glossary, made by
``python -m benchmarks.terms 3000 --check-only``), timed per line.  With ``--thin``, the same
per-line cost with every 10th and every 100th entry of the glossary kept (1,000 and 100
entries): what a line costs as the terms it meets grow fewer.  (Two changes this script first
measured as proposals are the index's own now: terms of several words indexed by their first
two stems, and a target term's key kept.)

    PYTHONPATH=. .venv/bin/python scripts/term_scan_cost.py [FOLDER GLOSSARY] [--profile] [--thin]
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_ls.qa.terms.load import forget, terms_for  # noqa: E402


def timed(index, src: list[str], hyp: list[str]) -> tuple[float, list]:
    t0 = time.perf_counter()
    got = [index.scan(s, h) for s, h in zip(src, hyp)]
    return (time.perf_counter() - t0) / max(1, len(src)) * 1000, got


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    folder = Path(args[0]) if args else ROOT / "benchmarks" / ".cache" / "real-3000-25-distinct"
    glossary = Path(args[1]) if len(args) > 1 else ROOT / "benchmarks" / ".cache" / "terms-glossary-10000.csv"
    src = (folder / "big.src").read_text(encoding="utf-8").splitlines()
    hyp = (folder / "big.hyp").read_text(encoding="utf-8").splitlines()
    index = terms_for((str(glossary),), "en", "de").termbase
    assert index is not None
    matched = sum(len(index.src.find(s, False)) for s in src)
    print(f"{len(src):,} lines, {len(index.src):,} source terms; {matched / len(src):.1f} source terms matched per line")
    timed(index, src[:200], hyp[:200])  # (the stem caches warm)
    base_ms, base = timed(index, src, hyp)
    print(f"as it is:            {base_ms:.3f} ms per line, {sum(map(len, base)) / len(src):.2f} findings per line")
    if "--thin" in argv:
        import csv
        import tempfile

        with open(glossary, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        for step in (1, 10, 100):
            kept = [rows[0]] + rows[1::step]
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8", newline="") as f:
                csv.writer(f, lineterminator="\n").writerows(kept)
            forget()
            thin = terms_for((f.name,), "en", "de").termbase
            Path(f.name).unlink()
            assert thin is not None
            met = sum(len(thin.src.find(s, False)) for s in src) / len(src)
            timed(thin, src[:200], hyp[:200])
            ms, got = timed(thin, src, hyp)
            print(f"every {step:>3}th row ({len(kept) - 1:,} rows): {met:5.1f} source terms met per line, "
                  f"{ms:.3f} ms per line, {sum(map(len, got)) / len(src):.2f} findings per line")
    if "--profile" in argv:
        forget()
        fresh = terms_for((str(glossary),), "en", "de").termbase
        pr = cProfile.Profile()
        pr.enable()
        timed(fresh, src, hyp)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main(sys.argv[1:])
