"""The effort of a large PO catalogue against its drafts (issue 22, item 4): every entry
fuzzy (its msgstr the MT draft as first seen), edited in place.  Measured without a client,
what the server does for ``bleuLs/corpusScore`` and the lens: the corpus HTER counted once on
opening, then after one edit and after 100; the paired test against the drafts (debounce
included) from the last edit to its result; the HTER hints of a screen without a reference.

The catalogue is :mod:`.segments_po_live`'s, every entry flagged fuzzy; the reference the same
catalogue with one word in three changed.  Run: ``python -m benchmarks.segments_effort [N]``.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from .segments_po_live import catalogue


def _docs(root: Path):
    from bleu_ls.postedit import DraftStore
    from bleu_ls.server.segdocs.docs import SegmentDocs
    from bleu_ls.config.settings import Settings

    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: root,
                              client=None, drafts=DraftStore(root / "cache"))
    return SegmentDocs(manager)  # type: ignore[arg-type]


async def _run(n: int) -> None:
    from lsprotocol import types

    from bleu_ls.server.segdocs import effort

    root = Path(tempfile.mkdtemp())
    text = re.sub(r"(#: app\.py:\d+\n)(msgid)", r"\1#, fuzzy\n\2", catalogue(n, 1))
    (root / "c.ref.po").write_text(catalogue(n, 1, 0.3), encoding="utf-8")
    for ref in (True, False):
        docs = _docs(root)
        uri = (root / ("c.hyp.po" if ref else "alone.po")).as_uri()
        t0 = time.perf_counter()
        docs.open(uri, text, 1)
        sp = docs.docs[uri]
        if sp.loading is not None:
            await sp.loading
        opened = time.perf_counter() - t0
        t0 = time.perf_counter()
        rec = await effort.hter(sp)
        first = time.perf_counter() - t0
        print(f"{'with' if ref else 'without'} a reference: {n} entries, opened in {opened:.2f} s; "
              f"corpus HTER of {rec['segments']} drafts first counted in {first * 1000:.0f} ms")
        rng = random.Random(5)

        def edit() -> None:
            i = rng.randrange(len(sp.index))
            b = sp.index.target_span(i)[1]
            docs._apply(sp, b, b, " xx")
            docs._changed(sp)

        edit()
        t0 = time.perf_counter()
        await effort.hter(sp)
        print(f"  after one edit: {(time.perf_counter() - t0) * 1000:.1f} ms")
        for _ in range(100):
            edit()
        t0 = time.perf_counter()
        rec = await effort.hter(sp)
        print(f"  after 100 more: {(time.perf_counter() - t0) * 1000:.1f} ms ({rec['segmentsEdited']} segments edited)")
        if ref:
            await docs.corpus(uri)  # the rows scored, the test started
            t0 = time.perf_counter()
            while "paired" not in effort.tests(sp).get("bleu", {}):
                await asyncio.sleep(0.1)
            print(f"  paired test against the drafts: {time.perf_counter() - t0:.1f} s after the last edit "
                  f"(debounce {min(effort.DEBOUNCE_MAX, max(effort.DEBOUNCE_SECONDS, len(sp.row_hs) * effort.DEBOUNCE_PER_ROW)):.1f} s)")
        else:
            mid = sp.index.line_count // 2
            rng_ = types.Range(start=types.Position(line=mid, character=0), end=types.Position(line=mid + 60, character=0))
            params = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=rng_)
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                docs.hints(params)
                times.append((time.perf_counter() - t0) * 1000)
            times.sort()
            print(f"  HTER hints of 60 lines: p50 {times[10]:.2f} ms, max {times[-1]:.2f} ms")


def main(n: int = 100_000) -> None:
    asyncio.run(_run(n))


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:2]))
