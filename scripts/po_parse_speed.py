"""Parse throughput of the PO reader beside polib's on a generated 100k-entry catalogue.

The catalogue is the django-allauth German catalogue of tests/data/formats/po
repeated with numbered msgids until it holds ``--entries`` entries.  polib is
a test-only dependency: its row is skipped when it is not installed.

    python scripts/po_parse_speed.py [--entries 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from bleu_ls.formats.po import read_po

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "tests" / "data" / "formats" / "po" / "allauth-de-2023-11-03.po"


def catalogue(entries: int) -> str:
    src = SEED.read_text(encoding="utf-8")
    head, body = src.split("\n\n", 1)
    body = "\n".join(line for line in body.split("\n") if not line.startswith("#~"))
    per = len(re.findall(r'^msgid "', body, flags=re.M))
    parts = [re.sub(r'^msgid "', f'msgid "{i}:', body, flags=re.M) for i in range(-(-entries // per))]
    return head + "\n\n" + "\n\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    text = catalogue(args.entries)
    print(f"catalogue: {len(text.encode()) / 1e6:.1f} MB")
    best = min(_timed(lambda: read_po(text)) for _ in range(args.repeat))
    doc = read_po(text)
    print(f"bleu_ls.formats.po.read_po  {best:6.2f} s  {len(doc.segments):,} segments (positions and runs kept)")
    try:
        import polib
    except ImportError:
        print("polib                        not installed")
        return
    with tempfile.NamedTemporaryFile("w", suffix=".po", encoding="utf-8", delete=False) as fh:
        fh.write(text)
    best = min(_timed(lambda: polib.pofile(fh.name)) for _ in range(args.repeat))
    print(f"polib.pofile                 {best:6.2f} s  {len(polib.pofile(fh.name)):,} entries (no positions)")
    Path(fh.name).unlink()


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
