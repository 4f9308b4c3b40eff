"""Who holds the memory of an open 100k-line pair (issue 12, item 3).

Opens the benchmark pair (benchmarks/.cache, the scale rows' workspace) in
this process the way the server does: a PairManager with a client that only
records, ``open`` (lazy line index, the model built in the background), the
scoring, the first analysis and a diagnostics pull's encoded JSON.  After
each step: the process RSS and, with ``--trace``, the top tracemalloc
holders (by source line) of the memory the step added, in MB and bytes per
line.  tracemalloc roughly doubles the run time; RSS figures without it are
the ones to quote.  BLEU_LS_MANY_HEAPS=1: without ``memory.one_heap()``.

    PYTHONPATH=. .venv/bin/python scripts/memory_profile.py [--lines 100000] [--trace [--frames 8]] [--top 15] [--steps K] [--trim] [--real] [--edits K]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def malloc_trim() -> None:
    import ctypes

    ctypes.CDLL("libc.so.6").malloc_trim(0)


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def biggest_mappings() -> list[tuple[int, str]]:
    """(RSS bytes, mapping) of this process's mappings, largest first."""
    out, head = [], ""
    with open("/proc/self/smaps") as f:
        for line in f:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):
                parts = line.split()
                head = f"{parts[0]} {parts[5] if len(parts) > 5 else '[anon]'}"
            elif first == "Rss:":
                out.append((int(line.split()[1]) * 1024, head))
    return sorted(out, reverse=True)


class FakeClient:
    def __init__(self) -> None:
        self.published = []

    def text_document_publish_diagnostics(self, params) -> None:
        self.published.append(params)

    def window_show_message(self, params) -> None:
        pass

    def __getattr__(self, name):  # any other message to the editor: dropped
        return lambda *a, **k: None


class Steps:
    def __init__(self, n: int, trace: bool, top: int, trim: bool = False, frames: int = 1, stop: int = 0) -> None:
        self.n, self.trace, self.top, self.trim, self.frames, self.stop = n, trace, top, trim, frames, stop
        self.pymalloc = False
        self.maps = False
        self.t0 = time.perf_counter()
        self.last_rss = rss()
        self.base_rss = self.last_rss
        self.snap = tracemalloc.take_snapshot() if trace else None
        self.rows: list[tuple[str, int, int]] = []

    def step(self, name: str) -> None:
        t = time.perf_counter()
        gc.collect()
        took = time.perf_counter() - t
        print(f"   gc: {len(gc.get_objects()):,} objects tracked, a full collection took {took * 1e3:.0f} ms")
        if self.trim:
            before = rss()
            malloc_trim()
            print(f"   malloc_trim: {before / 2**20:,.0f} -> {rss() / 2**20:,.0f} MB")
        now = rss()
        print(f"\n== {name}: RSS {now / 2**20:,.0f} MB (+{(now - self.last_rss) / 2**20:,.0f} MB, "
              f"{(now - self.base_rss) / self.n:,.0f} B/line since start) at {time.perf_counter() - self.t0:.1f} s", flush=True)
        if self.pymalloc:
            import io
            import os

            r, w = os.pipe()  # sys._debugmallocstats writes to the C stderr
            saved = os.dup(2)
            os.dup2(w, 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(w)
            with io.open(r, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line in text.splitlines():
                if line.startswith(("# arenas allocated current", "# bytes in allocated blocks", "# bytes in available blocks",
                                    "Total ")):
                    print("   pymalloc", line)
        if self.maps:
            for size, what in biggest_mappings()[:8]:
                print(f"   mapping {size / 2**20:7.1f} MB  {what}")
        if self.trace:
            snap = tracemalloc.take_snapshot()
            cur, _peak = tracemalloc.get_traced_memory()
            print(f"   traced now {cur / 2**20:,.0f} MB (tracemalloc's own bookkeeping {tracemalloc.get_tracemalloc_memory() / 2**20:,.0f} MB)")
            group = "lineno" if self.frames <= 1 else "traceback"
            for stat in snap.compare_to(self.snap, group)[: self.top]:
                where = " <- ".join(f"{Path(fr.filename).name}:{fr.lineno}" for fr in reversed(stat.traceback))
                print(f"   {stat.size_diff / 2**20:+8.1f} MB {stat.size_diff / self.n:+7.0f} B/line "
                      f"(total {stat.size / 2**20:7.1f} MB, {stat.count:>9,} blocks) {where}")
            self.snap = snap
        self.rows.append((name, now, now - self.last_rss))
        self.last_rss = now
        if self.stop and len(self.rows) >= self.stop:
            raise SystemExit(0)


async def run(n: int, trace: bool, top: int, trim: bool, frames: int, stop: int, pymalloc: bool = False, maps: bool = False,
              real: bool = False, edits: int = 0) -> None:
    from benchmarks.run import workspace
    from bleu_ls.server.pairs.manager import PairManager

    from bleu_ls.server.background import memory

    if not os.environ.get("BLEU_LS_MANY_HEAPS"):
        memory.one_heap()  # as `bleu-ls serve` does at start
    if real:  # the real pair with its source (benchmarks/realpair.py)
        from benchmarks.realpair import build

        ws = build(n)
        if ws is None:
            raise SystemExit("the WMT21 data are not on this machine")
        path = ws / "big.hyp"
        text = path.read_text(encoding="utf-8")
    else:
        ws, path, text = workspace(n)
    if trace:
        tracemalloc.start(frames)
    steps = Steps(n, trace, top, trim, frames, stop)
    steps.pymalloc = pymalloc
    steps.maps = maps
    manager = PairManager(FakeClient())
    manager.roots = [ws]
    manager.reload_settings()
    uri = path.as_uri()
    manager.open(uri, text, 1)
    del text
    steps.step("didOpen (lazy document)")
    await manager.wait_opened(uri)
    pair = manager.pair_for(uri)
    assert pair is not None and pair.model is not None
    steps.step("opened (split, references read, model built)")
    await manager.wait_scored(pair)
    steps.step("scored")
    if pair.effort_task is not None:
        try:
            await pair.effort_task
        except Exception:
            pass
    steps.step("effort rows (if any)")
    await manager.wait_analysed(pair)
    steps.step("first analysis (findings)")
    items, rid = manager.publisher.encoded(pair)
    body = "[" + ",".join(items) + "]"
    steps.step(f"pull: {len(items):,} encoded diagnostics")
    del body
    steps.step("reply body dropped")
    if edits:  # typed in: one-line edits of the middle line, then their background work
        from lsprotocol import types

        line = n // 2
        text = manager.docs[uri].engine_lines()[line]
        for j in range(edits):
            new = f"{text} neu{j}"
            manager.change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=j + 2),
                content_changes=[types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(line, 0), types.Position(line, len(text))), text=new)]))
            text = new
            await asyncio.sleep(0.125)
        for _ in range(600):  # the debounced jobs the edits started (the paired test, the effort rows)
            await asyncio.sleep(0.5)
            busy = [t for t in (pair.paired_task, pair.effort_task, pair.bg_task) if t is not None and not t.done()]
            if not busy:
                break
        await manager.wait_analysed(pair)
        steps.step(f"typed: {edits} edits and their background work")
    print(f"\nsummary ({n:,} lines): " + ", ".join(f"{name} {r / 2**20:.0f} MB" for name, r, _ in steps.rows))
    print(f"final RSS {steps.last_rss / 2**20:.0f} MB, {steps.last_rss / n:,.0f} B/line")
    if trace:
        print("\nwhat is held at the end (tracemalloc, largest first):")
        for stat in steps.snap.statistics("lineno" if frames <= 1 else "traceback")[:top]:
            where = " <- ".join(f"{Path(fr.filename).name}:{fr.lineno}" for fr in reversed(stat.traceback))
            print(f"   {stat.size / 2**20:8.1f} MB {stat.size / n:6.0f} B/line ({stat.count:>9,} blocks) {where}")
    manager.shutdown()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--frames", type=int, default=1, help="traceback depth of a holder (with --trace)")
    ap.add_argument("--steps", type=int, default=0, help="stop after this many steps (0: all)")
    ap.add_argument("--pymalloc", action="store_true", help="the interpreter's small-object heap after each step")
    ap.add_argument("--maps", action="store_true", help="the largest memory mappings (RSS) after each step")
    ap.add_argument("--edits", type=int, default=0, help="then this many one-line edits and their background work")
    ap.add_argument("--real", action="store_true", help="the real pair with a source (benchmarks/realpair.py)")
    ap.add_argument("--trim", action="store_true", help="malloc_trim(0) before each RSS reading (what glibc holds freed)")
    args = ap.parse_args(argv)
    asyncio.run(run(args.lines, args.trace, args.top, args.trim, args.frames, args.steps, args.pymalloc, args.maps, args.real, args.edits))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
