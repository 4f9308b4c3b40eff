"""The live index of key-value localization files (JSON, ARB, WebExtension…): each reading's
segments given their source values by key from the source-language document
(:func:`~bleu_ls.formats.keyed.fill_sources`), so the checks and rules read sources as in a PO file.

An edit inside one value that neither removes nor types a quote, a backslash or a control
character (a word typed, deleted or pasted inside a value without escapes) changes that value
only: it is spliced in place (no reading).  In a localization JSON file (:class:`JsonIndex`) any
other edit reads the text from the end of the last value before it to the start of the first
value after it alone (:func:`~..l10n_json.scan_region`), from the state the file's scan was in
there, and splices the values it holds, when that read ends where the value after it is
expected, at the same path, says no problem and names no member the rest of the file has;
the source values of the spliced segments are those they had when their keys are the same, else
the file is paired with its source again (no reading).  Otherwise, and in the other formats, the
whole text is read again and every key paired (:class:`~.whole.WholeIndex`): linear in the file
(on 100,000 keys, seconds; see docs/formats.md).

Plain Python; imports nothing from the server.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import numpy as np

from ..keyed import fill_sources
from ..l10n_json import AFTER, VALUE, Frame, read_json_live, scan_region, split_key
from ..model import Segment, SegmentDocument
from .index import LiveIndex
from .offsets import Change, shift_segment
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
            doc = self._parse(t) if self._parse is not None else parse(fmt, b"", "buffer", text=t)
            if self.source is not None:
                fill_sources(doc, self.source, self.source_name)
            return doc

        LiveIndex.__init__(self, fmt, text, reader=read)

    #: the index's own reader of a whole text (None: the format's)
    _parse: Optional[Callable[[str], SegmentDocument]] = None

    #: a value's closing quote is right after its target's end, always (the JSON family's readers and the
    #: splices above keep it: a value is read only once closed, a word typed in it is no quote)
    _closing_quote = True

    def quoted(self, which: np.ndarray) -> np.ndarray:
        """1 for each segment of ``which`` whose target's end is followed by its closing quote (where a
        quoted value's hint goes, after it: the server's ``hint_offsets``), else 0; no text read for the
        JSON family."""
        if self._closing_quote:
            return np.ones(len(which), np.int64)
        text = self._text
        return np.fromiter((text.startswith('"', e) for e in self.target_ends(which).tolist()), np.int64, len(which))

    def set_source(self, source: Optional[SegmentDocument], name: str = "") -> None:
        """Pair with ``source`` (None: with none): the segments as read given their sources (no reading;
        with none, the text read again)."""
        self.source, self.source_name = source, name
        if source is None:
            self.reset(self.text)
            return
        fill_sources(SegmentDocument(self.format, self.segments(), header=self.header), source, name)

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._typed_in_value(start, end, new)
        return got if got is not None else super()._edit(start, end, new)

    def _typed_in_value(self, start: int, end: int, new: str) -> Optional[Change]:
        """The edit spliced into one value when it is typed inside it and leaves it plain, else None."""
        i = self.at_offset(start) if not self.problems else None
        if i is not None:
            a, b = self.target_span(i)
            if a <= start and end <= b and _INERT.match(new) and _INERT.match(self._text.slice(start, end)):
                seg = self.segment(i)
                if not seg.runs:  # the value's text is its characters in the file
                    return self._in_value(i, seg, a, b, start, end, new)
        return None

    def _splice_read(self, a: int, b: int, fresh: list[Segment], delta: int, line_delta: int) -> Change:
        """Segments ``[a, b)`` replaced by ``fresh``, read alone (the edit already made in the text): their
        sources those the old ones had when the keys are the same, else the file paired again (no reading)."""
        olds = [self.segment(k) for k in range(a, b)]
        same_keys = [s.key for s in fresh] == [s.key for s in olds]
        if self.source is not None and same_keys:
            for f, o in zip(fresh, olds):
                f.source = o.source
        count = len(fresh)
        self._replace(a, b, olds, fresh, delta, line_delta)
        if self.source is not None and not same_keys:  # keys added or gone: the file paired again
            before = [s.source for s in self._segs]
            # the segments as kept (a pending move applied later keeps the source set here): no copy of each
            fill_sources(SegmentDocument(self.format, self._segs, header=self.header), self.source, self.source_name)
            moved = [k for k, s in enumerate(self._segs) if (k < a or k >= a + count) and s.source != before[k]]
            if moved:  # sources of segments outside the splice changed: the change covers them
                lo, hi = min(moved[0], a), max(moved[-1] + 1, a + count)
                return Change("structure", lo, hi - count + (b - a), hi - lo, True, False, False, delta, line_delta)
        if count == b - a == 1 and fresh[0].key == olds[0].key and fresh[0].line == olds[0].line \
                and fresh[0].target_span[0] == olds[0].target_span[0]:
            return Change("text", a, b, 1, fresh[0].target != olds[0].target, False, False, delta, line_delta)
        if count == b - a == 0:
            return Change("none", a, b, 0, False, False, False, delta, line_delta)
        return Change("structure", a, b, count, True, False, False, delta, line_delta)

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

    _closing_quote = False

    def _edit(self, start: int, end: int, new: str) -> Change:
        return WholeIndex._edit(self, start, end, new)


class JsonIndex(KeyedIndex):
    """A :class:`KeyedIndex` of localization JSON (i18next…) whose edits outside a value read the
    text between the values around them alone (the module's doc)."""

    def __init__(self, fmt: str, text: str) -> None:
        #: the paths of every object member and every array of the file (kept while it has no problem)
        self._members: set[tuple[str, ...]] = set()
        self._arrays: set[tuple[str, ...]] = set()
        super().__init__(fmt, text)

    def _parse(self, t: str) -> SegmentDocument:
        doc, self._members, self._arrays = read_json_live(t)
        return doc

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._typed_in_value(start, end, new)
        if got is None and not self.problems:
            got = self._between_values(start, end, new)
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _frames(self, key: str) -> Optional[list[Frame]]:
        """The containers open at the value of the segment keyed ``key`` (None: a key that does not say them)."""
        if not key:  # the file's one value, or a member named "": read the whole
            return None
        parts = tuple(split_key(key))
        out: list[Frame] = []
        for k in range(len(parts)):
            path = parts[:k]
            if path in self._arrays:
                if not parts[k].isdigit():
                    return None
                out.append(["a", path, int(parts[k]) + 1])
            else:
                out.append(["o", path, 0])
        return out

    def _between_values(self, start: int, end: int, new: str) -> Optional[Change]:
        """The edit of ``[start, end)`` read from the end of the last value before it to the start of
        the first value after it, and the values between spliced; None: read the whole text."""
        n = len(self._segs)
        if not n:
            return None
        i = int(self._tend.searchsorted(start, "left")) - 1  # the last value closed before the edit
        j = int(self._tstart.searchsorted(end, "right"))  # the first value opened after it
        text = self._text
        if i >= 0:
            w0 = self._tend.get(i) + 1  # after its closing quote
            frames = self._frames(self._segs[i].key)
            if frames is None:
                return None
            state, pending, skip = AFTER, (), 0
        else:
            w0, frames, state, pending = 0, [], VALUE, ()
        w1 = self._tstart.get(j) - 1 if j < n else len(text)  # its opening quote
        if j < n:
            want = self._frames(self._segs[j].key)
            if want is None:
                return None
            want_path = tuple(split_key(self._segs[j].key))
        old = text.slice(w0, w1)
        fresh_text = old[: start - w0] + new + old[end - w0:]
        regions = []
        for piece in (old, fresh_text):
            skip = 1 if w0 == 0 and piece.startswith("\ufeff") else 0
            r = scan_region(piece, skip, frames, state, pending)
            if r is None:
                return None
            if j < n:
                if r.state != VALUE or r.frames != want or r.pending != want_path:
                    return None
            elif r.state != AFTER or r.frames:
                return None
            regions.append(r)
        was, now = regions
        gone = set(was.members)
        if len(set(now.members)) != len(now.members):  # a member named twice: the whole read says it
            return None
        members = self._members
        if any(m in members and m not in gone for m in now.members):
            return None

        # the edit holds: apply it
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - text.count("\n", start, end)
        text.replace(start, end, new)
        members.difference_update(gone)
        members.update(now.members)
        self._arrays.difference_update(was.arrays)
        self._arrays.update(now.arrays)
        base_line = text.line_of(w0)
        fresh = [shift_segment(s, w0, base_line) for s in now.segments]
        return self._splice_read(i + 1, j, fresh, delta, line_delta)


def _continues(piece: str) -> bool:
    """The natural line ending ``piece`` (with its line break) goes on on the next one: it ends in an odd
    number of backslashes (a comment's too: the region read is then only longer, never wrong)."""
    body = piece[:-2] if piece.endswith("\r\n") else piece[:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


_LONE_CR = re.compile(r"\r(?!\n)")


class PropertiesIndex(KeyedIndex):
    """A ``.properties`` file: an edit reads again the logical lines it touched (from the natural line
    after one that does not end in a backslash to the next such line end, in the old text and the new),
    and splices their segments, when the file has no problem, no key twice and no lone ``\\r`` line
    break (which the reader counts as a line, the editor not), and the lines read have none either and
    none of their keys is a key of the rest of the file; else it reads the whole text."""

    _closing_quote = False

    def reset(self, text: str) -> None:
        super().reset(text)
        self._keys = {s.key for s in self._segs}
        self._plain = (not self.problems and "" not in self._keys and _LONE_CR.search(text) is None
                       and not any("duplicate" in s.extra for s in self._segs))

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._lines(start, end, new) if self._plain else None
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _lines(self, start: int, end: int, new: str) -> Optional[Change]:
        from ..properties import read_properties

        text = self._text
        n, lines = len(text), text.line_count
        first = text.line_of(start)
        while first > 0 and _continues(text.slice(text.line_start(first - 1), text.line_start(first))):
            first -= 1
        r0 = text.line_start(first)
        last = text.line_of(end)
        while True:  # to a line end that continues nothing, in the old text and the new alike
            e = text.line_start(last + 1) if last + 1 < lines else n
            old = text.slice(r0, e)
            region = old[: start - r0] + new + old[end - r0:]
            if e >= n or not (_continues(old) or _continues(region)):
                break
            last += 1
        if _LONE_CR.search(region) is not None or (e < n and region.endswith("\r")):
            return None
        doc = read_properties(region)
        a = self.anchors_from(first, "left")
        b = self.anchors_from(last, "right") if e < n else len(self._segs)
        gone = {self._segs[k].key for k in range(a, b)}
        keys = [s.key for s in doc.segments]
        if doc.problems or doc.header or "" in keys or len(set(keys)) != len(keys) or any(
                k in self._keys and k not in gone for k in keys):
            return None
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - old.count("\n", start - r0, end - r0)
        text.replace(start, end, new)
        self._keys.difference_update(gone)
        self._keys.update(keys)
        fresh = [shift_segment(s, r0, first) for s in doc.segments]
        return self._splice_read(a, b, fresh, delta, line_delta)
