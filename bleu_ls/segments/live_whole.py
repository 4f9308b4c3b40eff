"""Live indexes for the formats whose units are not blank-line blocks: gettext PO, XLIFF, TMX.

:class:`WholeIndex` reads the whole text again at each edit; :class:`XmlIndex`
(XLIFF and TMX) reads again only the units an edit touched when the XML region
re-read (:mod:`.xml_reread`) can, else the whole text.  Both keep the interface of
:class:`~.live.LiveIndex`.

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

import dataclasses

from .live import LiveIndex
from .live_offsets import Change
from .model import TMX, SegmentDocument


class WholeIndex(LiveIndex):
    """The same interface for the formats whose units are not blank-line blocks
    (the fallback of TMX's :class:`XmlIndex`): an edit reads the whole text again and reports the segments between
    those it left as they were and those it moved, so an edit inside a target
    re-scores and re-checks that segment only; reading is the whole file's each time."""

    def __init__(self, fmt: str, text: str) -> None:
        from .read import parse  # the readers of every format

        super().__init__(fmt, text, reader=lambda t: parse(fmt, b"", "buffer", text=t))

    def _edit(self, start: int, end: int, new: str) -> Change:
        text = self.text
        old, old_problems = self.segments(), self.problems
        line_delta = new.count("\n") - text.count("\n", start, end)
        delta = len(new) - (end - start)
        self.reset(text[:start] + new + text[end:])
        # the segments the read gave as they were (before the edit) or moved by it (after): the
        # change is the range between them, so the checks and rows of the others stay
        fresh = self._segs
        from .xml_reread import shift_segment as moved

        n_old, n_new = len(old), len(fresh)
        lim = min(n_old, n_new)
        p = 0
        while p < lim and old[p] == fresh[p]:
            p += 1
        q = 0
        while q < lim - p and moved(old[n_old - 1 - q], delta, line_delta) == fresh[n_new - 1 - q]:
            q += 1
        a, b, count = p, n_old - q, n_new - p - q
        problems_changed = self.problems != old_problems
        if count == b - a == 1:
            o, f = old[a], fresh[a]
            if o.key == f.key and o.line == f.line and o.target_span[0] == f.target_span[0]:
                return Change("text", a, a + 1, 1, o.target != f.target, False, problems_changed, delta, line_delta)
        if count == b - a == 0:
            return Change("none", a, b, 0, False, False, problems_changed, delta, line_delta)
        return Change("structure", a, b, count, True, False, problems_changed, delta, line_delta)


class _Segments:
    """The index's segments as a sequence, each moved to its current offsets when read."""

    def __init__(self, index: LiveIndex) -> None:
        self.index = index

    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.index.segment(i) for i in range(*k.indices(len(self.index)))]
        if k < 0:
            k += len(self.index)
        if not 0 <= k < len(self.index):
            raise IndexError(k)
        return self.index.segment(k)

    def __iter__(self):
        return (self.index.segment(i) for i in range(len(self.index)))

    def unshifted(self):
        """The segments as kept (keys and texts current, offsets maybe not moved yet)."""
        return self.index.unshifted()


class XmlIndex(WholeIndex):
    """XLIFF and TMX: an edit reads again only the units (``trans-unit``, ``unit``, ``tu``) it
    touched when the XML reader's region re-read (:mod:`.xml_reread`) can do it safely, else
    the whole text (TMX: the change then names the segments between those the read left and
    those it moved, as :class:`WholeIndex` does; XLIFF: every segment)."""

    def __init__(self, fmt: str, text: str) -> None:
        from .xml_reread import shift_segment as xml_shift

        self._shift = xml_shift  # type: ignore[assignment]
        super().__init__(fmt, text)

    def _edit(self, start: int, end: int, new: str) -> Change:
        from .xml_reread import reread_region

        text = self.text
        removed = text[start:end]
        new_text = text[:start] + new + text[end:]
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - removed.count("\n")
        view = SegmentDocument(format=self.doc_format, segments=_Segments(self), header=self.header,  # type: ignore[arg-type]
                               problems=self.problems)
        try:
            sp = reread_region(new_text, view, start, end, start + len(new), removed)
        except Exception:  # the region reader's own limits: read it all
            sp = None
        if sp is None:
            if self.format == TMX:
                return super()._edit(start, end, new)
            return self._read_whole(new_text, delta, line_delta)
        self._move_lines(start, self.line_of(start), self.line_of(end), new, delta)
        self.text = new_text
        a, b, fresh = sp.first, sp.last, list(sp.segments)
        olds = [self.segment(i) for i in range(a, b)]
        count = len(fresh)
        self._splice(a, b, fresh, delta, sp.line_delta)
        if sp.rekey:  # TMX: tus keyed by their place after tus added or removed: their keys changed too
            for k, key in sp.rekey.items():
                m = k + count - (b - a)
                self._segs[m] = dataclasses.replace(self._segs[m], key=key)
            last = max(sp.rekey) + 1
            return Change("structure", a, last, count + last - b, True, False, False, delta, line_delta)
        if count == len(olds) == 1 and olds[0].key == fresh[0].key and olds[0].line == fresh[0].line:
            return Change("text", a, a + 1, 1, olds[0].target != fresh[0].target, False, False, delta, line_delta)
        if count == len(olds) == 0:
            return Change("none", a, b, 0, False, False, False, delta, line_delta)
        return Change("structure", a, b, count, True, False, False, delta, line_delta)
