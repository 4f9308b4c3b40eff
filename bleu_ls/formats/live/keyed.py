"""The live index of key-value localization files (JSON, ARB, WebExtension…): the whole text read
again at each edit (:class:`~.whole.WholeIndex`), each reading's segments given their source
values by key from the source-language document (:func:`~bleu_ls.formats.keyed.fill_sources`),
so the checks and rules read sources as in a PO file.  An edit costs a reading of the whole file
and a pairing of every key: linear in the file (a first version; see docs/formats.md).

Plain Python; imports nothing from the server.
"""

from __future__ import annotations

from typing import Optional

from ..keyed import fill_sources
from ..model import SegmentDocument
from .index import LiveIndex
from .whole import WholeIndex


class KeyedIndex(WholeIndex):
    """A :class:`WholeIndex` whose segments carry the source values of :attr:`source` (None: no source)."""

    def __init__(self, fmt: str, text: str) -> None:
        from ..read import parse  # the readers of every format

        self.source: Optional[SegmentDocument] = None
        self.source_name = ""

        def read(t: str) -> SegmentDocument:
            doc = parse(fmt, b"", "buffer", text=t)
            if self.source is not None:
                fill_sources(doc, self.source, self.source_name)
            return doc

        LiveIndex.__init__(self, fmt, text, reader=read)

    def set_source(self, source: Optional[SegmentDocument], name: str = "") -> None:
        """Pair with ``source`` (None: with none) and read the text again."""
        self.source, self.source_name = source, name
        self.reset(self.text)
