"""How long the Android strings.xml and Java .properties readers take, beside the XLIFF and PO readers
on the same 10,000 strings (a placeholder, an escaped quote, a non-ASCII character each).

    PYTHONPATH=. python scripts/keyvalue_read_speed.py [N]

CPU time (``time.process_time``), the best of five reads: the ratios hold on a busy machine.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

from bleu_ls.formats.android import read_android_text
from bleu_ls.formats.po import read_po
from bleu_ls.formats.properties import read_properties
from bleu_ls.formats.xliff import read_xliff_text


def texts(n: int) -> list[tuple[str, Callable[[str], Any], str]]:
    android = '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n' + "".join(
        f'<string name="s{i}">Die Datei <xliff:g id="f">%1$s</xliff:g> wurde \\"gespeichert\\" — {i}</string>\n'
        for i in range(n)) + "</resources>\n"
    xliff = '<xliff version="1.2"><file original="f" source-language="en" target-language="de"><body>\n' + "".join(
        f'<trans-unit id="s{i}"><source>x</source><target>Die Datei <g id="f">%1$s</g> wurde &quot;gespeichert&quot;'
        f' — {i}</target></trans-unit>\n' for i in range(n)) + "</body></file></xliff>\n"
    props = "".join(f'key.{i}=Die Datei {{0}} wurde \\"gespeichert\\" \\u00e4 {i}\n' for i in range(n))
    po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + "".join(
        f'msgid "s{i}"\nmsgstr "Die Datei %s wurde \\"gespeichert\\" {i}"\n\n' for i in range(n))
    return [("android", read_android_text, android), ("xliff 1.2", read_xliff_text, xliff),
            ("properties", read_properties, props), ("po", read_po, po)]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    best: dict[str, float] = {}
    for _ in range(5):
        for name, read, text in texts(n):
            t0 = time.process_time()
            doc = read(text)
            dt = time.process_time() - t0
            assert len(doc.segments) == n, name
            best[name] = min(best.get(name, float("inf")), dt)
    for name, dt in best.items():
        print(f"{name:11s} {dt * 1000:8.1f} ms for {n} strings ({dt / n * 1e6:.1f} µs each)")


if __name__ == "__main__":
    main()
