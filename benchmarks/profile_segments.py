"""Profile the edits of a large segment file in the real server, the edits only:
``python -m benchmarks.profile_segments [N] [EDITS] [FORMAT]`` (format: xlf or po);
or time the server's own steps in process, no client and no pipe:
``python -m benchmarks.profile_segments inprocess [FORMAT] [EDITS]`` (the edit, the
diagnostics, the hints of the 60 lines around it: p50 / p95).

The server runs under a small wrapper (``--serve``) whose profiler a signal turns
on (SIGUSR1) once the file is open and wholly read, and off (SIGUSR2, the stats
written) after the edits of :mod:`.segments_open`; prints where the edits' time
went on the server's main thread (the event loop), per edit.
"""

from __future__ import annotations

import os
import pstats
import signal
import sys
import time

from . import segments_open
from .run import PY, ROOT

OUT = ROOT / "benchmarks" / ".cache" / "segments-edit.prof"


def serve() -> None:
    import cProfile

    prof = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: prof.enable())

    def stop(*_):
        prof.disable()
        prof.dump_stats(str(OUT))

    signal.signal(signal.SIGUSR2, stop)
    from bleu_ls.cli import main

    main(["serve", "--stdio"])


def in_process(fmt: str, edits: int) -> int:
    import random
    import statistics
    from types import SimpleNamespace

    from lsprotocol import types

    from bleu_ls.server.segdocs.docs import SegmentDocs
    from bleu_ls.config.settings import Settings

    ws, path, text = segments_open.workspace(fmt, 100_000)
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: ws, client=None)
    docs = SegmentDocs(manager)  # type: ignore[arg-type]
    uri = path.as_uri()
    docs.open(uri, text, 1)
    docs.docs[uri].index.buf.cut()  # as the thread of a two-step open does
    docs.diagnostics(uri)
    lines, rng = text.split("\n"), random.Random(7)
    times: dict[str, list[float]] = {"edit": [], "diagnostics": [], "hints": []}
    pos = lambda p: types.Position(line=p["line"], character=p["character"])  # noqa: E731
    for k in range(edits):
        change, line = segments_open._edit(fmt, lines, rng, False, k)
        r = change["range"]
        params = types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=k + 2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=pos(r["start"]), end=pos(r["end"])), text=change["text"])])
        t = time.perf_counter()
        docs.change(params)
        times["edit"].append(time.perf_counter() - t)
        t = time.perf_counter()
        docs.diagnostics(uri)
        times["diagnostics"].append(time.perf_counter() - t)
        hp = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(
            start=types.Position(line=max(0, line - 30), character=0), end=types.Position(line=line + 30, character=0)))
        t = time.perf_counter()
        docs.hints(hp)
        times["hints"].append(time.perf_counter() - t)
    for name, v in times.items():
        v.sort()
        print(f"{fmt} {name}: p50 {statistics.median(v) * 1000:.2f} ms, p95 {v[int(len(v) * 0.95)] * 1000:.2f} ms")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "inprocess":
        return in_process(argv[1] if len(argv) > 1 else "xlf", int(argv[2]) if len(argv) > 2 else 40)
    n = int(argv[0]) if argv else 100_000
    edits = int(argv[1]) if len(argv) > 1 else 50
    fmt = argv[2] if len(argv) > 2 else "xlf"
    ws, path, text = segments_open.workspace(fmt, n)
    if OUT.exists():
        OUT.unlink()
    hooks = {
        "before_edits": lambda c: (os.kill(c.proc.pid, signal.SIGUSR1), time.sleep(0.2)),
        "after_edits": lambda c: (os.kill(c.proc.pid, signal.SIGUSR2), time.sleep(2)),
    }
    out = segments_open.run([PY, "-m", "benchmarks.profile_segments", "--serve"], fmt, ws, path, text, edits, hooks=hooks)
    t, p = out["typing"], out["pasting"]
    print(f"{fmt}: typing p50 {sorted(t)[len(t) // 2] * 1000:.1f} ms, paste p50 {sorted(p)[len(p) // 2] * 1000:.1f} ms "
          f"(under the profiler); {len(t) + len(p)} edits")
    st = pstats.Stats(str(OUT))
    st.sort_stats("cumulative").print_stats(45)
    st.sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve()
    else:
        raise SystemExit(main(sys.argv[1:]))
