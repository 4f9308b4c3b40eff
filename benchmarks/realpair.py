"""A large pair of real MT lines with a source: ``big.hyp`` / ``big.ref`` /
``big.src`` built from the WMT21 TED en-de MQM data (../shared/data), each
line a random system's output of a random segment (same seed, same files).

    python -m benchmarks.realpair 100000      # prints the folder it wrote

The data are not part of the project: :func:`data_dir` is None when they are
absent, and the tests that use the pair skip.  The folder is looked up as
``$BLEU_LS_SHARED_DATA`` (the ``data`` folder itself), else ``../shared/data``
beside the checkout (or beside the folder holding a git worktree).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "benchmarks" / ".cache"
SET = "wmt21-ted-mqm-en-de"
SEED = 25
#: the CI size and the size of the issue's measurements
SMALL, LARGE = 3_000, 100_000


def data_dir() -> Optional[Path]:
    """The WMT21 en-de folder, or None when it is not on this machine."""
    env = os.environ.get("BLEU_LS_SHARED_DATA")
    candidates = [Path(env) / SET] if env else []
    candidates += [ROOT.parent / "shared" / "data" / SET, ROOT.parent.parent / "shared" / "data" / SET]
    for c in candidates:
        if (c / "src.txt").is_file() and (c / "ref.txt").is_file():
            return c
    return None


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def build(n: int, out: Optional[Path] = None, seed: int = SEED) -> Optional[Path]:
    """The folder holding ``big.hyp``, ``big.ref`` and ``big.src`` of ``n``
    lines (written once per size and seed), or None without the data."""
    data = data_dir()
    if data is None:
        return None
    out = out or CACHE / f"real-{n}-{seed}"
    names = ("big.hyp", "big.ref", "big.src")
    if all((out / f).is_file() for f in names):
        return out
    src, ref = _lines(data / "src.txt"), _lines(data / "ref.txt")
    systems = [_lines(p) for p in sorted(data.glob("*.hyp"))]
    rng = random.Random(seed)
    hyp_l, ref_l, src_l = [], [], []
    for _ in range(n):
        seg = rng.randrange(len(src))
        sys_lines = systems[rng.randrange(len(systems))]
        hyp_l.append(sys_lines[seg])
        ref_l.append(ref[seg])
        src_l.append(src[seg])
    out.mkdir(parents=True, exist_ok=True)
    for name, lines in zip(names, (hyp_l, ref_l, src_l)):
        tmp = out / (name + ".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(out / name)
    return out


if __name__ == "__main__":
    folder = build(int(sys.argv[1]) if len(sys.argv) > 1 else LARGE)
    if folder is None:
        sys.exit("the WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) are not on this machine")
    print(folder)
