"""Reading and live-editing cost of localization JSON on a generated file of ``--keys`` keys.

The file is i18next-style nested JSON: ``--keys`` string values in objects of 100, each value eight
words (and a ``{{count}}`` placeholder now and then), its source-language file the same keys in
English.  Printed: ``read_json`` beside ``json.loads``; pairing every key with the source
(``fill_sources``); the live index built and paired; a character typed inside a value (the value
spliced alone), a line break typed between two members (the text between the values around it read
alone: ``live.keyed.JsonIndex``) and a member pasted (read alone, the keys paired again); peak RSS.

    python scripts/l10n_json_speed.py [--keys 100000] [--edits 5]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import time

from bleu_ls.formats.keyed import fill_sources
from bleu_ls.formats.l10n_json import read_json
from bleu_ls.formats.live.keyed import JsonIndex

WORDS = "the quick brown fox jumps over lazy dog with some more words {{count}} items".split()


def document(keys: int, tail: str, seed: int = 1) -> str:
    rnd = random.Random(seed)
    d: dict = {}
    for i in range(keys):
        d.setdefault(f"section{i // 100}", {})[f"key{i}"] = " ".join(rnd.choice(WORDS) for _ in range(8)) + tail
    return json.dumps(d, indent=2, ensure_ascii=False)


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=100_000)
    ap.add_argument("--edits", type=int, default=5)
    args = ap.parse_args()
    src_text, text = document(args.keys, ""), document(args.keys, " de")
    print(f"{args.keys} keys, {len(text) / 1e6:.1f} M characters")
    print(f"read_json: {timed(lambda: read_json(text)):.2f} s (json.loads: {timed(lambda: json.loads(text)):.2f} s)")
    doc, src = read_json(text), read_json(src_text)
    print(f"fill_sources: {timed(lambda: fill_sources(doc, src, 'en.json')):.2f} s")
    idx = JsonIndex("json", "{}")
    print(f"live index read and paired: {timed(lambda: (idx.reset(text), idx.set_source(src, 'en.json'))):.2f} s")
    at = text.index(f'"key{args.keys // 2}"')
    inside = text.index(": ", at) + 3
    typed = [timed(lambda k=k: idx.edit(inside + k, inside + k, "x")) for k in range(args.edits)]
    print(f"a character typed inside a value: median {statistics.median(typed) * 1000:.2f} ms, "
          f"max {max(typed) * 1000:.2f} ms ({args.edits} edits)")
    between = idx.text.index("\n", inside)
    breaks = [timed(lambda: idx.edit(between, between, "\n")) for _ in range(args.edits)]
    print(f"a line break typed between members: median {statistics.median(breaks) * 1000:.2f} ms")
    pasted = [timed(lambda k=k: idx.edit(between + 1, between + 1, f'"pasted{k}": "x",\n')) for k in range(args.edits)]
    print(f"a member pasted (its key paired): median {statistics.median(pasted) * 1000:.2f} ms")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
