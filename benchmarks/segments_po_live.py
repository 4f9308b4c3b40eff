"""A large PO catalogue edited in place (issue 22): the cost of one edit to the live
index — read whole again (``WholeIndex``, before) against entry by entry
(``PoIndex``) — and of the checks kept in step (``LiveChecks.update``), then the
whole server-side edit (``SegmentDocs._apply``: index, checks, the row re-scored)
with a reference beside it.  No client: what the server does per edit, without
the wire.

The catalogue is synthetic: ``N`` entries of 5–9 words from a small vocabulary,
one in 20 with ``c-format`` and a ``%d``, one in 50 a plural entry, one in 10
fuzzy with a ``#|`` previous msgid; the reference is the same catalogue with
one word in three changed.  Run: ``python -m benchmarks.segments_po_live [N] [EDITS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from types import SimpleNamespace

from .corpus import CACHE

WORDS = "the cat sat on a mat dog ran fast and slow we will meet at noon rain today piano station".split()
HEADER = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'


def catalogue(n: int, seed: int, change: float = 0.0) -> str:
    rng = random.Random(seed)
    words = random.Random(99)
    out = [HEADER]
    for i in range(n):
        src = " ".join(words.choice(WORDS) for _ in range(words.randint(5, 9)))
        tgt = " ".join(w if rng.random() >= change else rng.choice(WORDS) for w in src.split())
        if i % 50 == 7:
            out.append(f'#: app.py:{i}\n#, c-format\nmsgid "%d {src} {i}"\nmsgid_plural "%d {src}s {i}"\n'
                       f'msgstr[0] "%d {tgt}"\nmsgstr[1] "%d {tgt}e"\n\n')
        elif i % 20 == 3:
            out.append(f'#: app.py:{i}\n#, c-format\nmsgid "{src} %d {i}"\nmsgstr "{tgt} %d"\n\n')
        elif i % 10 == 1:
            out.append(f'#: app.py:{i}\n#, fuzzy\n#| msgid "{src}"\nmsgid "{src} {i}"\nmsgstr "{tgt}"\n\n')
        else:
            out.append(f'#: app.py:{i}\nmsgid "{src} {i}"\nmsgstr "{tgt}"\n\n')
    return "".join(out)


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"p50 {statistics.median(xs):.2f} ms, p95 {xs[int(0.95 * (len(xs) - 1))]:.2f} ms"


def _edits(index, rng: random.Random, k: int):
    """``k`` edits: a word typed at the end of a random entry's msgstr (each placed after the one before is made)."""
    for _ in range(k):
        i = rng.randrange(len(index))
        b = index.target_span(i)[1]
        yield "text", b, b, " x"


def main(n: int = 100_000, edits: int = 200) -> None:
    from bleu_ls.qa.formats.format_checks import severities
    from bleu_ls.qa.formats.live_checks import LiveChecks
    from bleu_ls.formats.live.po import PoIndex
    from bleu_ls.formats.live.whole import WholeIndex
    from bleu_ls.formats.model import PO
    from bleu_ls.config.settings import Settings

    text = catalogue(n, 1)
    print(f"catalogue: {n} entries, {len(text) / 1e6:.1f} MB, {text.count(chr(10))} lines")
    rng = random.Random(5)
    for name, make in (("WholeIndex (read whole)", lambda t: WholeIndex(PO, t)), ("PoIndex (entry by entry)", PoIndex)):
        t0 = time.perf_counter()
        index = make(text)
        opened = time.perf_counter() - t0
        k = edits if name.startswith("Po") else min(edits, 3)  # seconds each
        times, kinds = [], set()
        for _, a, b, new in _edits(index, random.Random(rng.random()), k):
            t0 = time.perf_counter()
            ch = index.edit(a, b, new)
            times.append((time.perf_counter() - t0) * 1000)
            kinds.add(ch.kind)
        paste = []
        for j in range(min(k, 20)):
            i = len(index) // 2 + j
            b = index.target_span(i)[1] + 1
            entry = f'\nmsgid "pasted entry {j}"\nmsgstr "eingefügt {j}"\n'
            t0 = time.perf_counter()
            index.edit(b, b, entry)
            index.edit(b, b + len(entry), "")
            paste.append((time.perf_counter() - t0) * 1000 / 2)
        print(f"{name}: open {opened:.2f} s; typing in a msgstr ({k} edits, {sorted(kinds)}): {_ms(times)}; "
              f"an entry pasted / deleted: {_ms(paste)}")

    index = PoIndex(text)
    live = LiveChecks(PO, severities(Settings().diagnostics))
    t0 = time.perf_counter()
    live.full(index)
    full = time.perf_counter() - t0
    times = []
    for _, a, b, new in _edits(index, random.Random(3), edits):
        ch = index.edit(a, b, new)
        t0 = time.perf_counter()
        live.update(index, ch)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"checks: all counted {full:.2f} s; kept in step after a msgstr edit: {_ms(times)}")

    # the server's whole edit, with a reference to score against
    from bleu_ls.server.segdocs.checks import findings
    from bleu_ls.server.segdocs.docs import SegmentDocs

    ws = CACHE / f"segments-po-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    hyp = ws / "app.hyp.po"
    hyp.write_text(text, encoding="utf-8")
    (ws / "app.ref.po").write_text(catalogue(n, 2, change=0.3), encoding="utf-8")
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: ws, client=None)
    docs = SegmentDocs(manager)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    docs.open(hyp.as_uri(), text, 1)
    sp = docs.docs[hyp.as_uri()]
    opened = time.perf_counter() - t0
    findings(sp)
    times = []
    for _, a, b, new in _edits(sp.index, random.Random(4), edits):
        t0 = time.perf_counter()
        docs._apply(sp, a, b, new)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"server (SegmentDocs, {type(sp.index).__name__}): open and pair {opened:.2f} s; "
          f"an edit in a msgstr (index, checks, row spliced): {_ms(times)}")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
