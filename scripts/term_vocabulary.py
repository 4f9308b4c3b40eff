"""What the term index's word caches cost on a file of many distinct words, in-process.

The benchmark's 100,000-line pair (``python -m benchmarks.terms``) repeats about 1,000 real lines
with a counter, so the index meets few distinct words.  This script scans the pair's first
2,000 lines (every word seen), then 12,000 pairs of the same lines in which one word of three
was given a new two-letter ending (about 120,000 distinct words), and prints the process's
RSS growth over those pairs and the scan's CPU time: once with the bounds of the caches as
they are (``index.LOOK_CACHE`` words a side, ``words.STEM_CACHE`` stems a language), and once
with the bounds given on the command line, each in a process of its own.

    PYTHONPATH=. .venv/bin/python scripts/term_vocabulary.py [LOOK STEM]   # e.g. 200000 500000
"""

from __future__ import annotations

import gc
import random
import string
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAIR = ROOT / "benchmarks" / ".cache" / "real-100000-25-distinct"
GLOSSARY = ROOT / "benchmarks" / ".cache" / "terms-glossary-10000.csv"


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(look: int = 0, stem: int = 0) -> str:
    sys.path.insert(0, str(ROOT))
    from bleu_ls.formats.glossary.read import read_glossary
    from bleu_ls.qa.terms import index as I
    from bleu_ls.qa.terms import words as W

    if look:
        I.LOOK_CACHE, W.STEM_CACHE = look, stem
    ix = I.TermIndex([read_glossary(str(GLOSSARY))], "en", "de")
    src = (PAIR / "big.src").read_text(encoding="utf-8").split("\n")[:2000]
    hyp = (PAIR / "big.hyp").read_text(encoding="utf-8").split("\n")[:2000]
    for s, h in zip(src, hyp):
        ix.scan(s, h)
    rng = random.Random(1)

    def renamed(line: str) -> str:
        return " ".join(w + rng.choice(string.ascii_lowercase) + rng.choice(string.ascii_lowercase)
                        if rng.random() < 0.33 else w for w in line.split())

    pairs = [(renamed(src[k % len(src)]), renamed(hyp[k % len(hyp)])) for k in range(12_000)]
    distinct = len({w for s, h in pairs for w in (s + " " + h).lower().split()})
    gc.collect()
    before = _rss_mb()
    t = time.process_time()
    for s, h in pairs:
        ix.scan(s, h)
    cpu = time.process_time() - t
    gc.collect()
    return (f"bounds {I.LOOK_CACHE:,} words a side, {W.STEM_CACHE:,} stems a language: {distinct:,} distinct "
            f"words, +{_rss_mb() - before:.1f} MB, scan {cpu:.2f} s CPU")


def main(argv: list[str]) -> int:
    if not GLOSSARY.is_file() or not (PAIR / "big.src").is_file():
        print("run `python -m benchmarks.terms --check-only` first: it makes the pair and the glossary")
        return 0
    if argv and argv[0] == "--child":
        print(measure(*map(int, argv[1:3])))
        return 0
    runs = [[]] + ([argv[:2]] if len(argv) >= 2 else [])
    for extra in runs:
        got = subprocess.run([sys.executable, __file__, "--child", *extra], capture_output=True, text=True, check=False)
        print(got.stdout.strip() or got.stderr.strip().splitlines()[-1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
