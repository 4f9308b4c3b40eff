"""Cost of re-reading the units an edit touched in a large XLIFF (vs reading it all again).

    PYTHONPATH=. python scripts/xml_reread_cost.py [--units 100000] [--edits 200]

Types one character inside the text of random targets of the synthetic file of
``xml_parse_throughput.py`` (each edit on the file as read); reports p50 / p95 of
``reread_region`` (what a server needs: the replacement segments and the shift
of the rest) and, for three edits, ``apply_splice`` (a new list with every
later segment moved: O(segments after), the tests' reference, not the server's way).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from xml_parse_throughput import synthetic_xliff  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--edits", type=int, default=200)
    a = ap.parse_args()
    from bleu_ls.formats.xliff import read_xliff_text
    from bleu_ls.formats.live.xml_reread import apply_splice, reread_region

    text = synthetic_xliff(a.units)
    t0 = time.perf_counter()
    doc = read_xliff_text(text)
    t_full = time.perf_counter() - t0
    rnd = random.Random(3)
    t_region, t_splice = [], []
    for k in range(a.edits):
        s = rnd.choice(doc.segments)
        r = rnd.choice(s.runs)  # inside the target's text, not inside an inline tag
        i = r.file_start + rnd.randint(0, r.length)
        edited = text[:i] + "x" + text[i:]  # each edit measured on the file as read (the document stays valid)
        t0 = time.perf_counter()
        sp = reread_region(edited, doc, i, i, i + 1, "")
        t1 = time.perf_counter()
        assert sp is not None and sp.last - sp.first == len(sp.segments)
        t_region.append(t1 - t0)
        if k < 3:
            t2 = time.perf_counter()
            apply_splice(doc, sp)
            t_splice.append(time.perf_counter() - t2)

    def q(xs, p):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000

    print(f"{a.units} units, {len(text) / 1e6:.1f} M chars, {a.edits} one-character edits inside targets")
    print(f"read_xliff_text (the whole file again): {t_full:.2f} s")
    print(f"reread_region: p50 {q(t_region, .5):.2f} ms  p95 {q(t_region, .95):.2f} ms")
    print(f"apply_splice:  p50 {q(t_splice, .5):.2f} ms  p95 {q(t_splice, .95):.2f} ms")
    print(f"(load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
