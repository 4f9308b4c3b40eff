"""Live indexes for the formats whose units are not blank-line blocks: gettext PO, XLIFF, TMX.

:class:`WholeIndex` reads the whole text again at each edit; :class:`XmlIndex`
(XLIFF and TMX) reads again only the units an edit touched when the XML region
re-read (:mod:`.xml_reread`) can, else the whole text.  Both keep the interface of
:class:`~.live.LiveIndex`.

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Optional

from .index import LiveIndex
from .offsets import Change
from ..model import TMX, Segment, SegmentDocument


class WholeIndex(LiveIndex):
    """The same interface for the formats whose units are not blank-line blocks
    (the fallback of TMX's :class:`XmlIndex`): an edit reads the whole text again and reports the segments between
    those it left as they were and those it moved, so an edit inside a target
    re-scores and re-checks that segment only; reading is the whole file's each time."""

    def __init__(self, fmt: str, text: str) -> None:
        from ..read import parse  # the readers of every format

        super().__init__(fmt, text, reader=lambda t: parse(fmt, b"", "buffer", text=t))

    def _edit(self, start: int, end: int, new: str) -> Change:
        text = self._text
        line_delta = new.count("\n") - text.count("\n", start, end)
        delta = len(new) - (end - start)
        text.replace(start, end, new)
        return self._whole_change(delta, line_delta)

    def _whole_change(self, delta: int, line_delta: int) -> Change:
        """Read the (already edited) text again; the change: the segments between those left and those moved."""
        old, old_problems = self.segments(), self.problems
        self.reset(self._text.value())
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


class _Window:
    """The index's segments as a sequence, each read at its current offsets less ``base``
    (the offsets of a window of the text: :meth:`XmlIndex._edit`)."""

    def __init__(self, index: "XmlIndex", base: int) -> None:
        self.index, self.base = index, base
        self._made: dict[int, Segment] = {}  # the region re-read asks for a few segments several times

    def __len__(self) -> int:
        return len(self.index)

    def _at(self, k: int) -> Segment:
        got = self._made.get(k)
        if got is None:
            got = self._made[k] = self.index._shift(self.index.segment(k), -self.base, 0)
        return got

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self._at(i) for i in range(*k.indices(len(self.index)))]
        if k < 0:
            k += len(self.index)
        if not 0 <= k < len(self.index):
            raise IndexError(k)
        return self._at(k)

    def has_key(self, key: str) -> bool:
        """A segment of the document has this key (counted by the index: no walk over the segments)."""
        return key in self.index._key_count

    def hash_keys(self) -> int:
        """How many segments have a key starting with ``#`` (TMX: a ``tu`` keyed by its place, or a
        ``tuid`` that looks like one): none, and a ``tu`` added or removed moves no other key."""
        return self.index._hash_keys

    def unshifted(self):
        """The segments as kept (keys and texts current, offsets maybe not moved yet)."""
        return self.index.unshifted()


def _uspan(s: Segment) -> tuple[int, int]:
    return s.extra["unit_span"]  # type: ignore[return-value]


def _root_tag(text: str, limit: int, tmx: bool = False) -> Optional[str]:
    """The root's start tag (``xliff``; ``tmx`` for a TMX), when it ends before ``limit`` (the first
    unit), else None."""
    from .xml_reread import _ROOT, _TMX_ROOT
    from ..xmlscan import _TAG

    m = (_TMX_ROOT if tmx else _ROOT).search(text, 0, limit)
    t = _TAG.match(text, m.start()) if m is not None else None
    return text[m.start() : t.end()] if m is not None and t is not None and t.end() <= limit else None


class XmlIndex(WholeIndex):
    """XLIFF and TMX: an edit reads again only the units (``trans-unit``, ``unit``, ``tu``) it
    touched when the XML reader's region re-read (:mod:`.xml_reread`) can do it safely, else
    the whole text (TMX: the change then names the segments between those the read left and
    those it moved, as :class:`WholeIndex` does; XLIFF: every segment).

    The region re-read is given a window of the text (the unit before the edit to the
    unit after it, the root's start tag before them), not the whole text: an edit
    copies no more than that (the text itself is edited in place, :mod:`.live_text`)."""

    def __init__(self, fmt: str, text: str) -> None:
        from .xml_reread import shift_segment as xml_shift

        self._shift = xml_shift  # type: ignore[assignment]
        super().__init__(fmt, text)

    def reset(self, text: str) -> None:
        super().reset(text)
        self._key_count: dict[str, int] = {}
        self._hash_keys = 0
        for s in self._segs:
            self._count(s.key, 1)
        first = self._segs[0].extra.get("unit_span") if self._segs else None
        self._root = _root_tag(text, first[0], self.format == TMX) if first else None  # type: ignore[index]

    def _count(self, key: str, d: int) -> None:
        """A segment with this key added (``d`` 1) or gone (-1)."""
        c = self._key_count.get(key, 0) + d
        if c:
            self._key_count[key] = c
        else:
            del self._key_count[key]
        if key.startswith("#"):
            self._hash_keys += d

    def _window(self, start: int, end: int) -> Optional[tuple[int, int, str]]:
        """(w0, w1, prefix): the old text ``[w0, w1)`` holds what the region re-read of an edit of
        ``[start, end)`` reads (from the unit before it to the unit after it); ``prefix`` (the root's start
        tag, when the window does not hold it) goes before it.  None: no window (give it the whole text)."""
        n = len(self._segs)
        if not n or self._root is None or any("unit_span" not in self._segs[k].extra for k in (0, n - 1)):
            return None
        segs, dchar = self._segs, self._dchar

        def span(k: int) -> tuple[int, int]:  # segment k's unit now: as kept, moved by what is pending (no copy)
            a, b = _uspan(segs[k])
            d = dchar.get(k)
            return a + d, b + d

        i = bisect_right(range(n), start, key=lambda k: span(k)[1])
        j = bisect_left(range(n), end, key=lambda k: span(k)[0])
        j = max(i, j)
        while j < n and span(j)[0] < end:
            j += 1
        if self.format == TMX and start == end and j < n and span(j)[0] == start:
            tu = span(j)  # typed at a tu's "<": the region re-read reads that tu too (xml_reread), the window
            while j < n and span(j) == tu:  # goes on to the end of the one after it
                j += 1
        w1 = span(j)[1] if j < n else len(self._text)
        if i == 0:
            return 0, w1, ""
        return span(i - 1)[0], w1, self._root

    def _edit(self, start: int, end: int, new: str) -> Change:
        from .xml_reread import reread_region

        text = self._text
        removed = text.slice(start, end)
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - removed.count("\n")
        win = self._window(start, end)
        text.replace(start, end, new)
        if win is None:
            w0, w1, prefix = 0, len(text) - delta, ""
        else:
            w0, w1, prefix = win
        base = w0 - len(prefix)
        window = text.value() if (w0, w1) == (0, len(text) - delta) else prefix + text.slice(w0, w1 + delta)
        view = SegmentDocument(format=self.doc_format, segments=_Window(self, base), header=self.header,  # type: ignore[arg-type]
                               problems=self.problems)
        try:
            sp = reread_region(window, view, start - base, end - base, start + len(new) - base, removed)
        except Exception:  # the region reader's own limits: read it all
            sp = None
        if sp is None:
            if self.format == TMX:
                return self._whole_change(delta, line_delta)
            return self._read_whole(text.value(), delta, line_delta)
        a, b = sp.first, sp.last
        fresh = [self._shift(s, base, 0) for s in sp.segments]
        olds = [self.segment(i) for i in range(a, b)]
        count = len(fresh)
        self._splice(a, b, fresh, delta, sp.line_delta)
        for s in olds:
            self._count(s.key, -1)
        for s in fresh:
            self._count(s.key, 1)
        if sp.rekey:  # TMX: tus keyed by their place after tus added or removed: their keys changed too
            counts, segs, shift = self._key_count, self._segs, count - (b - a)
            for k, key in sp.rekey.items():  # a place for a place: the count of keys starting with "#" stays
                s = segs[k + shift]
                c = counts[s.key] - 1
                if c:
                    counts[s.key] = c
                else:
                    del counts[s.key]
                counts[key] = counts.get(key, 0) + 1
                # the segment with its new key (its packed positions shared: no dataclasses.replace, 100k times)
                segs[k + shift] = s.with_key(key)
            last = max(sp.rekey) + 1
            return Change("structure", a, last, count + last - b, True, False, False, delta, line_delta)
        if a == 0 and self._segs:  # the root's tag is before the first unit: read again where it may have moved
            first = _uspan(self.segment(0))[0]
            self._root = _root_tag(text.slice(0, first), first, self.format == TMX)
        if count == len(olds) == 1 and olds[0].key == fresh[0].key and olds[0].line == fresh[0].line:
            return Change("text", a, a + 1, 1, olds[0].target != fresh[0].target, False, False, delta, line_delta)
        if count == len(olds) == 0:
            return Change("none", a, b, 0, False, False, False, delta, line_delta)
        return Change("structure", a, b, count, True, False, False, delta, line_delta)
