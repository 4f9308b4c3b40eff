"""Parse throughput of bleu-ls's segment readers beside polib (PO) and translate-toolkit
(PO, XLIFF, TMX) on the same files: seconds (the median of 3) and units per second.

The files are synthetic (``N`` units of eight words, as in ``segments_open``), written
under the benchmark cache.  Each library reads the file from disk as its users do
(bleu-ls: ``read_document``, bytes → decoded text → segments with their positions;
polib: ``polib.pofile``; translate-toolkit: ``<store>.parsefile`` and each unit's
``source`` and ``target`` asked for, as its units make them on demand).  polib (MIT) and
translate-toolkit (GPL) are no dependencies of bleu-ls: install them to measure
(``pip install polib translate-toolkit``); a library that is not installed is said so
in its row.  Run: ``python -m benchmarks.segments_parse [N] [REPEAT]``.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from .corpus import CACHE
from .segments_open import po
from .segments_xliff import W, xlf


def tmx(n: int, seed: int) -> str:
    rng = random.Random(seed)
    tus = "\n".join(
        f'    <tu tuid="t{i}">\n      <tuv xml:lang="en"><seg>{" ".join(rng.choice(W) for _ in range(8))}</seg></tuv>\n'
        f'      <tuv xml:lang="de"><seg>{" ".join(rng.choice(W) for _ in range(8))}</seg></tuv>\n    </tu>'
        for i in range(n)
    )
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="bench" creationtoolversion="1" '
            'segtype="sentence" o-tmf="none" adminlang="en" srclang="en" datatype="plaintext"/>\n'
            f"  <body>\n{tus}\n  </body>\n</tmx>\n")


FILES = {"po": po, "xlf": xlf, "tmx": tmx}


def _file(ext: str, n: int) -> Path:
    path = CACHE / "segments-parse" / f"synthetic-{n}.{ext}"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FILES[ext](n, 1), encoding="utf-8")
    return path


def _bleu_ls(path: Path) -> int:
    from bleu_ls.formats.read import read_document

    return len(read_document(str(path)).segments)


def _polib(path: Path) -> int:
    import polib

    return len(polib.pofile(str(path)))


def _tt(store: str) -> Callable[[Path], int]:
    def parse(path: Path) -> int:
        import importlib

        mod, cls = store.rsplit(".", 1)
        units = getattr(importlib.import_module(mod), cls).parsefile(str(path)).units
        n = 0
        for u in units:  # each unit's source and target text made, as bleu-ls makes them
            if not u.isheader():
                _ = u.source, u.target
                n += 1
        return n

    return parse


def _installed(module: str) -> Optional[str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module)
    except PackageNotFoundError:
        return None


#: (format, library, its distribution, reader)
READERS = [
    ("po", "bleu-ls", None, _bleu_ls),
    ("po", "polib", "polib", _polib),
    ("po", "translate-toolkit", "translate-toolkit", _tt("translate.storage.pypo.pofile")),
    ("xlf", "bleu-ls", None, _bleu_ls),
    ("xlf", "translate-toolkit", "translate-toolkit", _tt("translate.storage.xliff.xlifffile")),
    ("tmx", "bleu-ls", None, _bleu_ls),
    ("tmx", "translate-toolkit", "translate-toolkit", _tt("translate.storage.tmx.tmxfile")),
]


def measure(fn: Callable[[Path], int], path: Path, repeat: int) -> tuple[float, int]:
    times, units = [], 0
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        units = fn(path)
        times.append(time.perf_counter() - t)
    return statistics.median(times), units


def rows(n: int, repeat: int = 3, formats: Optional[list[str]] = None) -> list[str]:
    out = ["| file | library | seconds (median of %d) | units | units/s |" % repeat, "|---|---|---|---|---|"]
    print("\n".join(out), flush=True)
    for ext, lib, dist, fn in READERS:
        if formats and ext not in formats:
            continue
        path = _file(ext, n)
        what = f".{ext}, {n:,} units, {path.stat().st_size / 1e6:.1f} MB"
        version = "" if dist is None else _installed(dist)
        if dist is not None and version is None:
            out.append(f"| {what} | {lib} | not installed (`pip install {dist}` to measure it) | | |")
        else:
            secs, units = measure(fn, path, repeat)
            name = lib + (f" {version}" if version else "")
            out.append(f"| {what} | {name} | {secs:.2f} s | {units:,} | {units / secs:,.0f} |")
        print(out[-1], flush=True)
    return out


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    repeat = int(argv[1]) if len(argv) > 1 else 3
    rows(n, repeat, argv[2:] or None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
