"""``bleu-ls check`` of one large segment file alone, per format: wall and CPU seconds of the
whole command (read, the rule table, the format's own checks, every finding placed at its line
and column, the report written), at N units and, with ``--growth``, at N/4 and N/2 too, so that
a cost that grows faster than the file shows as a ratio above 2 from one size to the next.

The files: the XLIFF 1.2 of :mod:`benchmarks.length_limit` (eight words a unit, no limits), the
PO catalogue of :mod:`benchmarks.segments_po_live` (plural, ``c-format`` and fuzzy entries among
them) and the TMX of :mod:`benchmarks.segments_tmx_live`, both with 30 % of the target's words
changed; adequacy off (``[diagnostics.adequacy] enabled = false``: the sentence encoder would
dominate, and it is measured by :mod:`benchmarks.check_qe`), the other checks at their defaults.

    PYTHONPATH=. python -m benchmarks.check_segments [N] [--repeat R] [--growth] [--formats xlf po tmx]

``PYTHONPATH`` says which tree is measured (each run a fresh process, from a neutral folder).
CPU: user + system seconds of the child (``RUSAGE_CHILDREN``), steadier than wall time on a
shared machine.  ``--timeout S`` gives up on a run after S seconds (a tree with a quadratic
step) and prints that it did not end.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .corpus import CACHE
from .length_limit import xlf
from .segments_po_live import catalogue
from .segments_tmx_live import memory

MAKERS = {"xlf": lambda n: xlf(n, 1, False), "po": lambda n: catalogue(n, 1, change=0.3),
          "tmx": lambda n: memory(n, 1, change=0.3)}
NO_ADEQUACY = "[diagnostics.adequacy]\nenabled = false\n"


def segment_file(fmt: str, n: int) -> Path:
    ws = CACHE / f"check-segments-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    path = ws / f"big.{fmt}"
    if not path.exists():
        path.write_text(MAKERS[fmt](n), encoding="utf-8")
    return path


def check_once(path: Path, config: Path, timeout: float) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, diagnostics printed) of one ``bleu-ls check``; wall -1 when it
    did not end within ``timeout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "bleu_ls", "check", "--config", str(config), "--fail-on", "never",
                                 str(path)], stdout=out, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(),
                                env=dict(os.environ))
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return -1.0, -1.0, 0
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        printed = sum(1 for line in out if b": " in line and not line.startswith(b" "))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, printed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("units", nargs="?", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--growth", action="store_true", help="also at N/4 and N/2")
    ap.add_argument("--formats", nargs="+", default=list(MAKERS), choices=list(MAKERS))
    ap.add_argument("--timeout", type=float, default=1800.0)
    args = ap.parse_args(argv)
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as cfg:
        cfg.write(NO_ADEQUACY)
    config = Path(cfg.name)
    sizes = [args.units // 4, args.units // 2, args.units] if args.growth else [args.units]
    tree = os.path.abspath(os.environ.get("PYTHONPATH", "."))
    print(f"bleu-ls check FILE (alone, adequacy off), tree {tree}, load {os.getloadavg()[0]:.2f}", flush=True)
    try:
        for fmt in args.formats:
            last = None
            for n in sizes:
                path = segment_file(fmt, n)
                runs = [check_once(path, config, args.timeout) for _ in range(args.repeat)]
                if any(r[0] < 0 for r in runs):
                    print(f"  {fmt:4} {n:>7,} units: did not end in {args.timeout:.0f} s", flush=True)
                    break
                wall = statistics.median(r[0] for r in runs)
                cpu = statistics.median(r[1] for r in runs)
                grow = f"; CPU {cpu / last:.2f}× the run at {sizes[sizes.index(n) - 1]:,}" if last else ""
                print(f"  {fmt:4} {n:>7,} units: wall {wall:6.2f} s, CPU {cpu:6.2f} s (median of {len(runs)}: "
                      f"{', '.join(f'{r[1]:.2f}' for r in runs)}), {runs[0][2]:,} diagnostics{grow}", flush=True)
                last = cpu
    finally:
        config.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
