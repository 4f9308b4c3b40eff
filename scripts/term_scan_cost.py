"""Where the terminology check's time and memory go on a dense glossary: in-process,
``TermIndex.scan`` over the lines of a pair with its source (default: the benchmark's
3,000-line real pair and its 10,000-entry glossary, made by
``python -m benchmarks.terms 3000 --check-only``), timed per line.  With ``--thin``, the same
per-line cost with every 10th and every 100th entry of the glossary kept (1,000 and 100
entries): what a line costs as the terms it meets grow fewer.  (Two changes this script first
measured as proposals are the index's own now: terms of several words indexed by their first
two stems, and a target term's key kept.  Since: terms of three words or more by their first
three, each line split once, the source searched for its outermost terms only, the target only
for forbidden terms and for the terms asked for, one by one; benchmarks/RESULTS.md,
"Terminology at scale, run 5".)

``--dump FILE`` writes every line's findings (code, columns, sentence, data) as one JSON line
per line of the pair; ``--same-as FILE`` compares them with such a file line by line and stops
at the first difference: the findings of one version of the index against another's
(``--tree DIR`` imports ``bleu_ls`` from another checkout, e.g. an older commit's
``git archive``).  ``--memory N`` measures, with tracemalloc, what the findings of the first N
lines hold once scanned (the scan's memo) and once made into the rules' findings, as the
analysis keeps them (MB, and the top allocation sites).

    PYTHONPATH=. .venv/bin/python scripts/term_scan_cost.py [FOLDER GLOSSARY] [--profile] [--thin]
        [--dump FILE | --same-as FILE] [--tree DIR] [--memory 10000]
"""

from __future__ import annotations

import cProfile
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _option(argv: list[str], name: str):
    return argv[argv.index(name) + 1] if name in argv else None


_TREE = _option(sys.argv, "--tree")
sys.path.insert(0, str(Path(_TREE).resolve() if _TREE else ROOT))

from bleu_ls.qa.terms.load import forget, terms_for  # noqa: E402


def timed(index, src: list[str], hyp: list[str]) -> tuple[float, list]:
    """(ms of CPU time per line, the findings): CPU time, which other work on a busy machine
    adds less to than to the wall clock's."""
    t0 = time.process_time()
    got = [index.scan(s, h) for s, h in zip(src, hyp)]
    return (time.process_time() - t0) / max(1, len(src)) * 1000, got


def as_json(findings) -> str:
    return json.dumps([[f.code, f.start_col, f.end_col, f.message, dict(f.data)] for f in findings],
                      ensure_ascii=False, sort_keys=True)


def same_as(path: Path, got: list) -> None:
    want = path.read_text(encoding="utf-8").splitlines()
    if len(want) != len(got):
        raise SystemExit(f"{path}: {len(want)} lines, this run {len(got)}")
    for i, (a, b) in enumerate(zip(want, got), 1):
        if a != as_json(b):
            raise SystemExit(f"line {i}: the findings differ\n  before: {a}\n  now:    {as_json(b)}")
    print(f"the findings of all {len(got):,} lines are the same as {path}'s")


def memory(glossary: Path, src: list[str], hyp: list[str], n: int) -> None:
    """tracemalloc: what the scan's results of ``n`` lines hold, then the rules' findings made
    of them (term_rules: one Finding per hit, with the line and the severity)."""
    import gc
    import tracemalloc

    from bleu_ls.qa.findings import Finding

    forget()
    gc.collect()
    tracemalloc.start(8)
    start = tracemalloc.take_snapshot()
    index = terms_for((str(glossary),), "en", "de").termbase
    assert index is not None
    gc.collect()
    built = tracemalloc.take_snapshot()
    tracemalloc.stop()
    reps = (n + len(src) - 1) // len(src)
    pairs = [(f"{s} ({k})", f"{h} ({k})") for k in range(reps) for s, h in zip(src, hyp)][:n]
    gc.collect()
    tracemalloc.start(8)
    before = tracemalloc.take_snapshot()
    memo = {(h, s): index.scan(s, h) for s, h in pairs}
    gc.collect()
    mid = tracemalloc.take_snapshot()
    made = [Finding(f.code, "warning", f.message, line=i, start_col=f.start_col, end_col=f.end_col, data=f.data)
            for i, hits in enumerate(memo.values()) for f in hits]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    keys = sys.getsizeof(memo) + sum(map(sys.getsizeof, memo))

    def total(a, b) -> float:
        return sum(s.size_diff for s in b.compare_to(a, "filename")) / 2**20

    print(f"{n:,} lines, {len(made):,} findings ({len(made) / n:.2f} per line)")
    print(f"the glossary read and indexed:             {total(start, built):.2f} MB")
    print(f"the scan's results (memo of {n:,} lines): {total(before, mid):.2f} MB "
          f"(of it the memo's dict and keys: {keys / 2**20:.2f} MB)")
    print(f"the rules' findings made of them:          {total(mid, after):.2f} MB")
    for s in mid.compare_to(before, "lineno")[:8]:
        print(f"  {s.size_diff / 2**20:7.2f} MB {s.count_diff:>9,} blocks  {s.traceback[0]}")


def main(argv: list[str]) -> None:
    skip = {_option(argv, o) for o in ("--dump", "--same-as", "--tree", "--memory")}
    args = [a for a in argv if not a.startswith("--") and a not in skip]
    folder = Path(args[0]) if args else ROOT / "benchmarks" / ".cache" / "real-3000-25-distinct"
    glossary = Path(args[1]) if len(args) > 1 else ROOT / "benchmarks" / ".cache" / "terms-glossary-10000.csv"
    src = (folder / "big.src").read_text(encoding="utf-8").splitlines()
    hyp = (folder / "big.hyp").read_text(encoding="utf-8").splitlines()
    if "--memory" in argv:
        memory(glossary, src, hyp, int(_option(argv, "--memory")))
        return
    t0 = time.process_time()
    index = terms_for((str(glossary),), "en", "de").termbase
    built = time.process_time() - t0
    assert index is not None
    first_ms, _ = timed(index, src, hyp)
    print(f"the glossary read and indexed: {built:.2f} s; the first pass (each entry's facts made, each word "
          f"looked up the first time): {first_ms:.3f} ms per line")
    matched = sum(len(index.src.find(s, False)) for s in src)
    print(f"{len(src):,} lines, {len(index.src):,} source terms; {matched / len(src):.1f} source terms matched per line")
    runs = [timed(index, src, hyp) for _ in range(3)]
    base_ms, base = min(runs, key=lambda r: r[0])
    print(f"as it is:            {base_ms:.3f} ms per line (the best of {', '.join(f'{r[0]:.3f}' for r in runs)}), "
          f"{sum(map(len, base)) / len(src):.2f} findings per line")
    if "--dump" in argv:
        Path(_option(argv, "--dump")).write_text("".join(as_json(b) + "\n" for b in base), encoding="utf-8")
    if "--same-as" in argv:
        same_as(Path(_option(argv, "--same-as")), base)
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
