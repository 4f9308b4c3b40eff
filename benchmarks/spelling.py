"""The spelling check's cost in ``bleu-ls check``: the real pair (:mod:`benchmarks.realpair`,
the WMT21 TED en-de MQM data drawn at random to N lines, German targets), every line made
distinct as in :mod:`benchmarks.check_qe` (a counter appended: no line's verdict is taken from
another's, the worst case for the rule's memo), checked with the adequacy check off (so that the
ratio is not hidden behind the sentence encoder's time), without and with
``[diagnostics.spelling] enabled = true, language = "de"``: wall seconds and CPU seconds
(user + system of the process: steadier than wall time on a shared machine), the median of
``--repeat`` runs each, run in turn (A B A B …); the ratios of the medians (target ≤ 1.1).

    python -m benchmarks.spelling            # 20,000 lines
    python -m benchmarks.spelling 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
from pathlib import Path
from typing import Optional

from . import realpair
from .check_qe import distinct
from .terms import NO_ADEQUACY, check_once

RATIO_TARGET = 1.1
SPELLING_ON = NO_ADEQUACY + '\n[diagnostics.spelling]\nenabled = true\nlanguage = "de"\n'


def timed(hyp: Path, config: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, output lines) of one ``bleu-ls check``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, lines = check_once(hyp, None, config)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, lines


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lines", nargs="?", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    folder = realpair.build(args.lines)
    if folder is None:
        print("benchmarks.spelling: the WMT21 data are not on this machine", file=sys.stderr)
        return 2
    folder = distinct(folder)
    off, on = folder / "spelling-off.toml", folder / "spelling-on.toml"
    off.write_text(NO_ADEQUACY, encoding="utf-8")
    on.write_text(SPELLING_ON, encoding="utf-8")
    runs: dict[str, list[tuple[float, float, int]]] = {"off": [], "on": []}
    for _ in range(args.repeat):
        runs["off"].append(timed(folder / "big.hyp", off))
        runs["on"].append(timed(folder / "big.hyp", on))
    print(f"bleu-ls check, {args.lines:,} distinct lines, adequacy off")
    ratios = []
    for k, what in ((0, "wall"), (1, "CPU")):
        a = statistics.median(r[k] for r in runs["off"])
        b = statistics.median(r[k] for r in runs["on"])
        ratios.append(b / a)
        print(f"  {what:4} without spelling {a:.2f} s ({', '.join(f'{r[k]:.2f}' for r in runs['off'])}); "
              f"with {b:.2f} s ({', '.join(f'{r[k]:.2f}' for r in runs['on'])}): {b / a:.2f}× (target <= {RATIO_TARGET}×)")
    print(f"  {runs['on'][0][2] - runs['off'][0][2]:,} more output lines")
    return 0 if min(ratios) <= RATIO_TARGET else 1

if __name__ == "__main__":
    sys.exit(main())
