"""Parse throughput of the XLIFF / TMX readers on a synthetic file (default 100k units, ~30 MB).

    PYTHONPATH=. python scripts/xml_parse_throughput.py [--units 100000] [--repeat 3]

Units look like an Angular / CAT-tool export: a source and a target of ~25 words
with an inline code or two, an entity, a note (100k units: ~33 MB).  Prints the
file size, the best wall time of each reader over ``--repeat`` runs, MB/s and
units/s, and the time to the first 1000 segments (``max_segments=1000``: what the
first hints of the visible range wait for).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time

WORDS = ("the quick brown fox jumps over lazy dog translation memory segment editor review "
         "Zürich naïve café 東京 会議 machine post-edit quality estimate").split()


def synthetic_xliff(units: int, seed: int = 1) -> str:
    rnd = random.Random(seed)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
             ' <file original="app.json" source-language="en" target-language="de" datatype="plaintext">\n  <body>\n']
    for i in range(units):
        def sent():
            w = [rnd.choice(WORDS) for _ in range(rnd.randint(4, 8))]
            k = rnd.randrange(len(w))
            w[k] = f'<g id="{i}a">{w[k]}</g>'
            w.insert(rnd.randrange(len(w)), '<x id="PH"/>')
            w.insert(rnd.randrange(len(w)), "&amp;")
            return " ".join(w)
        parts.append(
            f'   <trans-unit id="u{i}" datatype="html">\n'
            f'    <source>{sent()}</source>\n'
            f'    <target state="translated">{sent()}</target>\n'
            f'    <note priority="1" from="description">note {i}</note>\n'
            f'   </trans-unit>\n'
        )
    parts.append("  </body>\n </file>\n</xliff>\n")
    return "".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from bleu_ls.formats.xliff import read_xliff, read_xliff_text

    text = synthetic_xliff(a.units)
    data = text.encode("utf-8")
    mb = len(data) / 1e6
    print(f"synthetic XLIFF 1.2: {a.units} units, {mb:.1f} MB, {len(text)} chars")
    # first 1000 segments: what the first hints of the visible range wait for (the reader stops quietly)
    t0, c0 = time.perf_counter(), time.process_time()
    doc = read_xliff_text(text, max_segments=1000)
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(f"read_xliff_text(max_segments=1000): {len(doc.segments)} segments, wall {dt * 1000:.0f} ms, CPU {dc * 1000:.0f} ms")
    for name, fn, arg, gc_off in (("read_xliff_text(str)", read_xliff_text, text, False),
                                  ("read_xliff(bytes)", read_xliff, data, False),
                                  ("read_xliff_text, gc off", read_xliff_text, text, True)):
        best = cpu = float("inf")
        for _ in range(a.repeat):
            doc = None
            gc.collect()
            if gc_off:
                gc.disable()
            t0, c0 = time.perf_counter(), time.process_time()
            doc = fn(arg)
            best = min(best, time.perf_counter() - t0)
            cpu = min(cpu, time.process_time() - c0)
            gc.enable()
        assert len(doc.segments) == a.units and not doc.problems, (len(doc.segments), doc.problems[:1])
        print(f"{name:24s} best of {a.repeat}: wall {best:.2f} s, CPU {cpu:.2f} s  "
              f"{mb / cpu:.1f} MB/s  {a.units / cpu:,.0f} units/s (CPU)")
    # a floor for comparison: ElementTree builds the tree and the texts are pulled out, no positions
    import xml.etree.ElementTree as ET

    def et_extract(data: bytes) -> int:
        ns = "{urn:oasis:names:tc:xliff:document:1.2}"
        n = 0
        for tu in ET.fromstring(data).iter(ns + "trans-unit"):
            for el in (tu.find(ns + "source"), tu.find(ns + "target")):
                "".join(el.itertext())
            n += 1
        return n

    doc = None
    gc.collect()
    best = cpu = float("inf")
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        assert et_extract(data) == a.units
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    print(f"{'ElementTree (no pos.)':24s} best of {a.repeat}: wall {best:.2f} s, CPU {cpu:.2f} s  "
          f"{mb / cpu:.1f} MB/s  {a.units / cpu:,.0f} units/s (CPU)")
    print(f"(load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
