"""Where an edit → inlay hint goes with TER on, in-process: the edits of
benchmarks/scale.py's ``ter`` row replayed on a real PairManager (draft,
HTER, hints, everything the server runs), each phase timed in CPU time of
the event-loop thread and in wall time: the didChange handling, the loop
turns before the hint request is read (background tasks that run then),
the hint request, and encoding the reply as pygls would.  ``--ter off``
gives the same with BLEU alone; ``--profile`` prints cProfile's top entries
of the edits (``CALLERS=regex`` also prints who called the functions it
matches); ``--busy`` keeps a background thread running Python code during the
edits, as the first analysis of a large file does, so every place where the
event loop lets go of the interpreter (a system call, a lock) costs a wait.

    PYTHONPATH=. .venv/bin/python scripts/ter_edit_cost.py [--n 1000] [--edits 60] [--ter on|off] [--profile] [--busy]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # PYTHONPATH (another checkout) first

#: event-loop turns between a didChange and the hint request being handed
#: over (pygls reads a stdio message in about six executor round trips)
TURNS = 6


class _Client:
    def __getattr__(self, name):
        return lambda *a, **k: None


def _range(a: int, b: int):
    from lsprotocol import types

    return types.Range(start=types.Position(line=a, character=0), end=types.Position(line=b, character=0))


async def replay(args) -> None:
    from lsprotocol import converters, types

    from benchmarks.run import _mutate, workspace
    from bleu_ls.server.features.hints import inlay_hints_encoded, wait_for_heavy_lines
    from bleu_ls.server.wire.protocol import Encoded
    from bleu_ls.server.pairs.manager import PairManager

    n = args.n
    ws, path, text = workspace(n)
    manager = PairManager(_Client())
    manager.roots = [ws]
    manager.init_options = {"bleuLs": {"ter": {"enabled": args.ter == "on"}}}
    manager.reload_settings()
    uri = path.as_uri()
    manager.open(uri, text, 1)
    await manager.wait_opened(uri)
    pair = manager.pair_for(uri)
    await manager.wait_scored(pair)
    await manager.wait_effort(pair)
    await asyncio.sleep(0.5)
    conv = converters.get_converter()
    lines = text.split("\n")
    rng = random.Random(5)
    w0 = max(0, n // 2 - 30)
    prof = cProfile.Profile() if args.profile else None
    busy = _busy_thread() if args.busy else None
    rows = []
    cpu, wall = time.thread_time, time.perf_counter
    for v in range(2, args.edits + 2):
        i = w0 + rng.randrange(min(60, n - w0 - 1))
        lines[i] = _mutate(lines[i], rng)
        params = types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangePartial(range=_range(i, i + 1), text=lines[i] + "\n")],
        )
        hp = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=_range(w0, w0 + 60))
        if prof:
            prof.enable()
        c0, t0 = cpu(), wall()
        manager.change(params)
        c1, _t1 = cpu(), wall()
        for _ in range(TURNS):
            await asyncio.sleep(0)
        c2, _t2 = cpu(), wall()
        await wait_for_heavy_lines(manager, hp)
        c3, _t3 = cpu(), wall()
        hints = inlay_hints_encoded(manager, hp)
        c4, _t4 = cpu(), wall()
        if isinstance(hints, Encoded):  # as the server's protocol sends it
            body = '{"jsonrpc":"2.0","id":' + json.dumps(v) + ',"result":' + hints.json + "}"
        else:
            body = json.dumps({"jsonrpc": "2.0", "id": v, "result": conv.unstructure(hints)}, separators=(",", ":"))
        body = body.encode("utf-8")
        c5, t5 = cpu(), wall()
        if prof:
            prof.disable()
        rows.append((c1 - c0, c2 - c1, c3 - c2, c4 - c3, c5 - c4, t5 - t0, len(body), i))
        await asyncio.sleep(0.002)  # the client's next edit
    if busy is not None:
        busy.set()
    manager.shutdown()
    names = ["change", "turns", "wait", "hints", "encode"]
    tot = sorted(sum(r[:5]) for r in rows)
    med = [sorted(r[k] for r in rows)[len(rows) // 2] * 1e3 for k in range(5)]
    mx = [max(r[k] for r in rows) * 1e3 for k in range(5)]
    print(f"{n:,} lines, TER {args.ter}: loop-thread CPU per edit p50 {tot[len(tot) // 2] * 1e3:.2f} ms, "
          f"p95 {tot[int(0.95 * (len(tot) - 1))] * 1e3:.2f} ms, max {tot[-1] * 1e3:.2f} ms; reply {rows[0][6]:,} bytes")
    walls = sorted(r[5] for r in rows)
    print(f"  wall time per edit p50 {walls[len(walls) // 2] * 1e3:.2f} ms, p95 {walls[int(0.95 * (len(walls) - 1))] * 1e3:.2f} ms")
    print("  median ms:", " ".join(f"{a} {b:.2f}" for a, b in zip(names, med)))
    print("  max ms:   ", " ".join(f"{a} {b:.2f}" for a, b in zip(names, mx)))
    for r in sorted(rows, key=lambda r: -sum(r[:5]))[:args.slowest]:
        print(f"  line {r[7]}: " + " ".join(f"{a} {b * 1e3:.2f}" for a, b in zip(names, r)) + f" (wall {r[5] * 1e3:.2f})")
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        if os.environ.get("CALLERS"):
            pstats.Stats(prof).print_callers(os.environ["CALLERS"])


def _busy_thread() -> threading.Event:
    """A thread running Python code until the event is set (the server's
    background passes run in such threads, at their priority), with the
    server's switch interval."""
    from bleu_ls.server.background.pools import lower_priority
    from bleu_ls.server.main import SWITCH_INTERVAL

    sys.setswitchinterval(SWITCH_INTERVAL)
    done = threading.Event()

    def spin() -> None:
        lower_priority()
        while not done.is_set():
            sum(range(200))

    threading.Thread(target=spin, daemon=True).start()
    return done


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=60)
    ap.add_argument("--ter", choices=("on", "off"), default="on")
    ap.add_argument("--slowest", type=int, default=6)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--busy", action="store_true")
    args = ap.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bleu-ls-cost-")
    asyncio.run(replay(args))


if __name__ == "__main__":
    main()
