"""`bleu-ls score --format json` on the real pair (benchmarks/realpair.py),
with and without ``PYTHONUNBUFFERED=1``, runs interleaved (one of each in
turn, so a change in the machine's load falls on both): wall, user and
system seconds of each run, their medians, and whether the outputs agree.

    PYTHONPATH=. python scripts/score_unbuffered.py [--n 100000] [--runs 5] [--format json]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _run(cmd: list[str], env: dict[str, str], out: Path) -> tuple[float, float, float, str]:
    """Wall, user and system seconds of one run, and its output's md5."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        subprocess.run(cmd, env=env, stdout=f, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    digest = hashlib.md5(out.read_bytes()).hexdigest()
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, digest


def main() -> None:
    from benchmarks import realpair

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=realpair.LARGE)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--format", default="json", choices=("json", "tsv"))
    args = ap.parse_args()
    folder = realpair.build(args.n)
    if folder is None:
        sys.exit("the WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) are not on this machine")
    cmd = [sys.executable, "-m", "bleu_ls", "score", str(folder / "big.hyp"), str(folder / "big.ref"),
           "--format", args.format]
    base = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [base.get("PYTHONPATH")])])
    cases = {"buffered": base, "PYTHONUNBUFFERED=1": {**base, "PYTHONUNBUFFERED": "1"}}
    times: dict[str, list[tuple[float, float, float]]] = {c: [] for c in cases}
    digests = set()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            for name, env in cases.items():
                wall, user, sys_s, digest = _run(cmd, env, Path(tmp) / "out")
                times[name].append((wall, user, sys_s))
                digests.add(digest)
                print(f"run {i + 1} {name:>18}: wall {wall:.2f} s, user {user:.2f} s, sys {sys_s:.2f} s", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}; outputs identical: {len(digests) == 1}")
    for name, rows in times.items():
        wall, user, sys_s = (statistics.median(col) for col in zip(*rows))
        print(f"{name:>18}: median wall {wall:.2f} s, user {user:.2f} s, sys {sys_s:.2f} s over {len(rows)} runs")
    a, b = (statistics.median(r[0] for r in rows) for rows in times.values())
    ca, cb = (statistics.median(r[1] + r[2] for r in rows) for rows in times.values())
    print(f"PYTHONUNBUFFERED=1 / buffered: median wall {b / a:.3f}, median CPU (user + sys) {cb / ca:.3f} "
          f"({cb:.2f} / {ca:.2f} s)")


if __name__ == "__main__":
    main()
