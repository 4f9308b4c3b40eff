"""The live index of key-value localization files (JSON, ARB, WebExtension…): each reading's
segments given their source values by key from the source-language document
(:func:`~bleu_ls.formats.keyed.fill_sources`), so the checks and rules read sources as in a PO file.

An edit inside one value that neither removes nor types a quote, a backslash or a control
character (a word typed, deleted or pasted inside a value without escapes) changes that value
only: it is spliced in place (no reading).  Any other edit reads the whole text again and pairs
every key (:class:`~.whole.WholeIndex`): linear in the file (on 100,000 keys, seconds; see
docs/formats.md).

Plain Python; imports nothing from the server.
"""

from __future__ import annotations

import re
from typing import Optional

from ..keyed import fill_sources
from ..model import Segment, SegmentDocument
from .index import LiveIndex
from .offsets import Change
from .whole import WholeIndex

#: text that, typed or removed inside a value, leaves the file's structure as it was
_INERT = re.compile(r'[^"\\\x00-\x1f]*\Z')


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
        """Pair with ``source`` (None: with none): the segments as read given their sources (no reading;
        with none, the text read again)."""
        self.source, self.source_name = source, name
        if source is None:
            self.reset(self.text)
            return
        fill_sources(SegmentDocument(self.format, self.segments(), header=self.header), source, name)

    def _edit(self, start: int, end: int, new: str) -> Change:
        i = self.at_offset(start) if not self.problems else None
        if i is not None:
            a, b = self.target_span(i)
            if a <= start and end <= b and _INERT.match(new) and _INERT.match(self._text.slice(start, end)):
                seg = self.segment(i)
                if not seg.runs:  # the value's text is its characters in the file
                    return self._in_value(i, seg, a, b, start, end, new)
        return super()._edit(start, end, new)

    def _in_value(self, i: int, seg: Segment, a: int, b: int, start: int, end: int, new: str) -> Change:
        """``new`` typed over ``[start, end)`` inside segment ``i``'s value ``[a, b)``: that segment only."""
        delta = len(new) - (end - start)
        self._text.replace(start, end, new)
        target = seg.target[: start - a] + new + seg.target[end - a:]
        fresh = Segment(key=seg.key, target=target, target_span=(a, b + delta), line=seg.line, source=seg.source,
                        draft=seg.draft, state=seg.state, state_qualifier=seg.state_qualifier, notes=seg.notes,
                        flags=seg.flags, extra=seg.extra)
        self._splice(i, i + 1, [fresh], delta, 0)
        return Change("text", i, i + 1, 1, target != seg.target, False, False, delta, 0)


class KeyedRereadIndex(KeyedIndex):
    """A :class:`KeyedIndex` that reads the whole text again after every edit: formats whose value text
    is not its characters even without escapes (Android's collapsed white space and apostrophe rule, a
    ``.properties`` value's leading white space)."""

    def _edit(self, start: int, end: int, new: str) -> Change:
        return WholeIndex._edit(self, start, end, new)
