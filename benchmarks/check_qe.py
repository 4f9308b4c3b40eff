"""``bleu-ls check`` at 100k lines with a source: the real pair of
:mod:`benchmarks.realpair` (``big.hyp`` beside ``big.ref`` and ``big.src``),
default settings (``adequacy`` on: the sentence encoder runs in the process).

    python -m benchmarks.check_qe            # 100,000 lines; prints the rows
    python -m benchmarks.check_qe 3000       # another size

Two rows: the pair as built (a random system's output of a random segment:
the 529 segments repeat, so most pairs are seen again), and the same lines
made distinct (a counter appended to every line, its source and its
reference), which is what a real test set of that size costs.  Each row is
one whole process: wall seconds, CPU seconds, peak RSS (``wait4``).
Target (issue 25): at most 30 s wall and 500 MB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

from . import realpair
from .run import PY, ROOT, Report, Row

WALL_TARGET, RSS_TARGET_MB = 30.0, 500.0


def check_once(hyp: Path) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, findings) of ``bleu-ls check hyp``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([PY, "-m", "bleu_ls", "check", str(hyp)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    out = proc.stdout.read() if proc.stdout else b""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):  # 1: findings were reported
        raise RuntimeError(f"bleu-ls check {hyp} failed ({proc.returncode})")
    findings = sum(1 for line in out.splitlines() if line.strip())
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, findings


def distinct(folder: Path) -> Path:
    """The pair of ``folder`` with a counter appended to every line (each
    line, source and reference text distinct): written once beside it."""
    out = folder.parent / (folder.name + "-distinct")
    names = ("big.hyp", "big.ref", "big.src")
    if all((out / f).is_file() for f in names):
        return out
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        lines = (folder / name).read_text(encoding="utf-8").splitlines()
        tmp = out / (name + ".tmp")
        tmp.write_text("\n".join(f"{t} ({i + 1})" for i, t in enumerate(lines)) + "\n", encoding="utf-8")
        tmp.replace(out / name)
    return out


def check_rows(report: Report, n: int = realpair.LARGE) -> Optional[dict]:
    folder = realpair.build(n)
    if folder is None:
        report.notes.append("`check` with a source: skipped (the WMT21 data are not on this machine).")
        return None
    got = {}
    for label, where in (("real pair", folder), ("lines made distinct", distinct(folder))):
        wall, cpu, rss, findings = check_once(where / "big.hyp")
        got[label] = (wall, cpu, rss, findings)
        met = wall <= WALL_TARGET and rss <= RSS_TARGET_MB
        report.add(Row("check", f"`check` with a source, adequacy on ({label})", f"{n:,}",
                       f"{wall:.1f} s wall, {cpu:.1f} s CPU, {rss:.0f} MB peak", "", "",
                       f"<= {WALL_TARGET:.0f} s, <= {RSS_TARGET_MB:.0f} MB", met, f"{findings:,} output lines"))
    return got


def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else realpair.LARGE
    report = Report()
    check_rows(report, n)
    print(report.table())
    for note in report.notes:
        print("\n" + note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
