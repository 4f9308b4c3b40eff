"""Profile the edits of a large segment file in the real server, the edits only:
``python -m benchmarks.profile_segments [N] [EDITS] [FORMAT]`` (format: xlf or po).

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
from pathlib import Path

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


def main(argv: list[str]) -> int:
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
