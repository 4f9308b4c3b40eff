"""A large TMX edited in place (issue 22): the cost of one edit to the live index —
read whole again (``WholeIndex``, before) against ``tu`` by ``tu`` (``XmlIndex`` over
``xml_reread``) — for a word typed in a target and a ``tu`` pasted then deleted,
in a memory whose ``tu``\\s carry a ``tuid`` and in one keyed by place (no ``tuid``:
a ``tu`` pasted moves the keys of every one after it, which is read whole again);
then the whole server-side edit (``SegmentDocs._apply``: index, checks, the row
re-scored) with a reference beside it.  No client: what the server does per edit.

Synthetic: ``N`` ``tu``\\s of an English source and a German target (5–9 words from a
small vocabulary), the reference the same ``tuid``\\s with one word in three changed.
Run: ``python -m benchmarks.segments_tmx_live [N] [EDITS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from types import SimpleNamespace

from .corpus import CACHE

WORDS = "the cat sat on a mat dog ran fast and slow we will meet at noon rain today piano station".split()
#: a target's line up to its text, and the line that ends a tu (benchmarks/segments_open.py types and pastes there)
TARGET = '      <tuv xml:lang="de"><seg>'
TU_END = "    </tu>"


def memory(n: int, seed: int, change: float = 0.0, tuids: bool = True) -> str:
    rng = random.Random(seed)
    words = random.Random(99)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="bench" segtype="sentence" '
           'o-tmf="none" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n']
    for i in range(n):
        src = " ".join(words.choice(WORDS) for _ in range(words.randint(5, 9)))
        tgt = " ".join(w if rng.random() >= change else rng.choice(WORDS) for w in src.split())
        tuid = f' tuid="{i}"' if tuids else ""
        out.append(f'    <tu{tuid}>\n      <tuv xml:lang="en"><seg>{src} {i}</seg></tuv>\n{TARGET}{tgt}</seg></tuv>\n{TU_END}\n')
    out.append("  </body>\n</tmx>\n")
    return "".join(out)


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"p50 {statistics.median(xs):.2f} ms, p95 {xs[int(0.95 * (len(xs) - 1))]:.2f} ms"


def _typing(index, rng: random.Random, k: int):
    for _ in range(k):
        b = index.target_span(rng.randrange(len(index)))[1]
        yield b, b, " x"


def main(n: int = 100_000, edits: int = 200) -> None:
    from bleu_ls.formats.live.whole import WholeIndex, XmlIndex
    from bleu_ls.formats.model import TMX

    for tuids in (True, False):
        text = memory(n, 1, tuids=tuids)
        print(f"memory: {n} tus {'with' if tuids else 'without'} tuid, {len(text) / 1e6:.1f} MB")
        for name, make in (("WholeIndex (read whole, before)", WholeIndex), ("XmlIndex (tu by tu)", XmlIndex)):
            t0 = time.perf_counter()
            index = make(TMX, text)
            opened = time.perf_counter() - t0
            k = edits if make is XmlIndex else min(edits, 3)  # seconds each
            times, kinds = [], set()
            for a, b, new in _typing(index, random.Random(5), k):
                t0 = time.perf_counter()
                kinds.add(index.edit(a, b, new).kind)
                times.append((time.perf_counter() - t0) * 1000)
            paste = []
            for j in range(min(k, 20)):
                seg = index.segment(len(index) // 2 + j)
                us, ue = seg.extra["unit_span"]
                unit = "\n    " + index.text[us:ue].replace('tuid="', f'tuid="p{j}-', 1)
                t0 = time.perf_counter()
                index.edit(ue, ue, unit)
                index.edit(ue, ue + len(unit), "")
                paste.append((time.perf_counter() - t0) * 1000 / 2)
            print(f"  {name}: open {opened:.2f} s; a word typed in a target ({k} edits, {sorted(kinds)}): {_ms(times)}; "
                  f"a tu pasted / deleted: {_ms(paste)}", flush=True)

    # the server's whole edit, with a reference to score against
    from bleu_ls.server.segdocs.checks import findings
    from bleu_ls.server.segdocs.docs import SegmentDocs
    from bleu_ls.config.settings import Settings

    text = memory(n, 1)
    ws = CACHE / f"segments-tmx-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    hyp = ws / "tm.hyp.tmx"
    hyp.write_text(text, encoding="utf-8")
    (ws / "tm.ref.tmx").write_text(memory(n, 2, change=0.3), encoding="utf-8")
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: ws, client=None)
    docs = SegmentDocs(manager)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    docs.open(hyp.as_uri(), text, 1)
    sp = docs.docs[hyp.as_uri()]
    opened = time.perf_counter() - t0
    findings(sp)
    times = []
    for a, b, new in _typing(sp.index, random.Random(4), edits):
        t0 = time.perf_counter()
        docs._apply(sp, a, b, new)
        times.append((time.perf_counter() - t0) * 1000)
    paste = []
    for j in range(20):
        seg = sp.index.segment(len(sp.index) // 2 + j)
        us, ue = seg.extra["unit_span"]
        unit = "\n    " + sp.index.text[us:ue].replace('tuid="', f'tuid="p{j}-', 1)
        t0 = time.perf_counter()
        docs._apply(sp, ue, ue, unit)
        docs._apply(sp, ue, ue + len(unit), "")
        paste.append((time.perf_counter() - t0) * 1000 / 2)
    print(f"server (SegmentDocs, {type(sp.index).__name__}): open and pair {opened:.2f} s; "
          f"a word typed in a target (index, checks, row spliced): {_ms(times)}; a tu pasted / deleted: {_ms(paste)}")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
