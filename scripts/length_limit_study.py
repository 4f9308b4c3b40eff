"""How often ``length-limit`` flags real catalogues: findings per 1,000 segments of the PO,
XLIFF and TMX files in ``tests/data/formats``, each file checked alone (``bleu-ls check FILE
--config C``, ``C`` holding only ``[diagnostics.length-limit] maxRatio = R``), for each ratio,
with a sample of the flagged segments to read.

Run: ``python scripts/length_limit_study.py [RATIO ...] [--sample N]`` (default ratios 1.5, 2.0).
"""

from __future__ import annotations

import io
import json
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from bleu_ls.cli.check import main as check_main
from bleu_ls.formats.read import read_document

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "formats"
GROUPS = {"PO": "po/*.po", "XLIFF": "xliff/*.xlf", "TMX": "tmx/*.tmx"}


def flagged(path: Path, ratio: float) -> list[dict]:
    with tempfile.TemporaryDirectory() as d:
        cfg = Path(d) / "bleu-ls.toml"
        cfg.write_text(f"[diagnostics.length-limit]\nmaxRatio = {ratio}\n", encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        rc = check_main([str(path), "--format", "json", "--config", str(cfg), "--fail-on", "never"], out=out, err=err)
        assert rc == 0, err.getvalue()
    return [d for p in json.loads(out.getvalue())["pairs"] for d in p["diagnostics"] if d["code"] == "length-limit"]


def main(argv: list[str]) -> None:
    sample = 0
    if "--sample" in argv:
        i = argv.index("--sample")
        sample = int(argv[i + 1])
        del argv[i:i + 2]
    ratios = [float(a) for a in argv] or [1.5, 2.0]
    rows: dict = defaultdict(dict)
    examples: list = []
    for group, pattern in GROUPS.items():
        files = sorted(DATA.glob(pattern))
        segs = sum(len(read_document(str(f)).segments) for f in files)
        for r in ratios:
            found = []
            for f in files:
                found += [(f.name, d) for d in flagged(f, r)]
            rows[group][r] = (len(files), segs, len(found))
            if r == ratios[0]:
                examples += [(group, name, d) for name, d in found]
    head = " | ".join(f"maxRatio {r:g}: findings (per 1,000)" for r in ratios)
    print(f"| files | segments | {head} |")
    print("|---|---:|" + "---:|" * len(ratios))
    for group, by_r in rows.items():
        n_files, segs = next(iter(by_r.values()))[:2]
        cells = " | ".join(f"{by_r[r][2]} ({1000 * by_r[r][2] / segs:.1f})" if segs else "0" for r in ratios)
        print(f"| {group} ({n_files} files) | {segs} | {cells} |")
    if sample:
        print()
        for group, name, d in random.Random(1).sample(examples, min(sample, len(examples))):
            print(f"{group} {name}:{d['line']}: {d['message']}")


if __name__ == "__main__":
    main(sys.argv[1:])
