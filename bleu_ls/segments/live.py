"""The segments of one open document, kept in step with the editor's edits.

:class:`LiveIndex` holds a document's decoded text and its segments.  An edit
(an offset range replaced by new text, as the editor sends them) re-reads only
the units it touched and shifts the rest:

* the units are the blocks a reader works in: for subtitles (and gettext PO)
  the runs of non-blank lines between blank lines.  The re-read region runs
  from the start of the block holding the edit's start to the end of the block
  holding its end (widened by one block where the edit touches a blank line,
  which may join two blocks), so it starts and ends on a block boundary in the
  old and the new text alike, and the format's own reader reads it;
* the segments after the region keep their objects: their offsets are moved
  by a per-segment delta (numpy arrays, one C-speed add per edit rather than
  a Python loop over 100k cues) and applied when a segment is next read
  (:meth:`LiveIndex.segment`);
* the edit reports what changed (:class:`Change`): the one segment whose
  target text changed (a text edit: the same key, timing and structure), or
  the range of segments replaced (a structural edit).

After every edit the index equals a fresh read of the whole text (segments,
keys, problems, header): the property test in tests/segments/test_live.py
checks it over random edit scripts.

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from .model import SRT, VTT, InlineCode, Problem, Run, Segment, SegmentDocument
from .subtitles import read_srt, read_vtt

#: format -> reader of a decoded text (only the formats whose units are blank-line separated blocks)
READERS: dict[str, Callable[[str], SegmentDocument]] = {SRT: read_srt, VTT: read_vtt}

_NONSPACE = re.compile(r"\S")
#: what a WebVTT region read on its own is prefixed with (the header block)
_VTT_HEAD = "WEBVTT\n\n"


def live_formats() -> tuple[str, ...]:
    """The formats an index can follow edit by edit."""
    return tuple(READERS)


@dataclass(frozen=True)
class Change:
    """What one edit did to the segments.

    ``kind``: ``"none"`` (no segment changed: an edit outside every unit, or
    one that left the units as they were), ``"text"`` (segment ``start`` kept
    its key and structure, its target may have changed: ``text_changed``) or
    ``"structure"`` (segments ``[start, end)`` of the old index were replaced
    by ``count`` new ones, at ``[start, start + count)``).  ``keys_changed``:
    keys of segments outside the range changed too (WebVTT cues without an id
    are numbered, and a cue added or removed renumbers those after it).
    ``problems_changed``: the malformed spots differ.
    """

    kind: str
    start: int = 0
    end: int = 0
    count: int = 0
    text_changed: bool = False
    keys_changed: bool = False
    problems_changed: bool = False
    #: characters added by the edit (negative: removed) and lines added
    delta: int = 0
    line_delta: int = 0


def _shift_span(span: Optional[tuple[int, int]], d: int) -> Optional[tuple[int, int]]:
    return None if span is None else (span[0] + d, span[1] + d)


def _shift_codes(codes: tuple[InlineCode, ...], d: int) -> tuple[InlineCode, ...]:
    if not codes or all(c.span is None for c in codes):
        return codes
    return tuple(dataclasses.replace(c, span=_shift_span(c.span, d)) for c in codes)


def shift_segment(seg: Segment, dc: int, dl: int) -> Segment:
    """``seg`` moved ``dc`` characters and ``dl`` lines further into the file."""
    if not dc and not dl:
        return seg
    extra = seg.extra
    if dl and "timing_line" in extra:
        extra = dict(extra)
        extra["timing_line"] = int(extra["timing_line"]) + dl  # type: ignore[call-overload]
    return dataclasses.replace(
        seg,
        target_span=(seg.target_span[0] + dc, seg.target_span[1] + dc),
        line=seg.line + dl,
        runs=tuple(Run(r.text_start, r.file_start + dc, r.length) for r in seg.runs) if dc else seg.runs,
        target_codes=_shift_codes(seg.target_codes, dc),
        source_codes=_shift_codes(seg.source_codes, dc),
        extra=extra,
    )


def _anchor(seg: Segment) -> int:
    """A line of the segment's own block (the timing line of a cue: its text may be absent)."""
    return int(seg.extra.get("timing_line", seg.line))  # type: ignore[call-overload]


def _raw_key(seg: Segment) -> Optional[str]:
    index = seg.extra.get("index")
    return None if index is None else str(index)


def _same_but_target(a: Segment, b: Segment) -> bool:
    """``a`` and ``b`` are the same unit (key, timing, settings…), their target text aside."""
    if a.key != b.key or a.line != b.line or a.target_span[0] != b.target_span[0]:
        return False
    ea, eb = dict(a.extra), dict(b.extra)
    ea.pop("text_lines", None)
    eb.pop("text_lines", None)
    return ea == eb


def _line_starts(text: str) -> np.ndarray:
    if not text:
        return np.zeros(1, np.int64)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    nl = np.flatnonzero(codes == 10)
    out = np.empty(len(nl) + 1, np.int64)
    out[0] = 0
    out[1:] = nl + 1
    return out


class LiveIndex:
    """The segments of one document's decoded text, kept up to date by :meth:`edit`."""

    def __init__(self, fmt: str, text: str, reader: Optional[Callable[[str], SegmentDocument]] = None) -> None:
        if reader is None and fmt not in READERS:
            raise ValueError(f"{fmt} files are not followed edit by edit")
        self.format = fmt
        self._read = reader or READERS[fmt]
        self.reset(text)

    #: how a kept segment is moved (the XML readers' segments carry more spans)
    _shift = staticmethod(shift_segment)

    # -- whole text ---------------------------------------------------------------
    def reset(self, text: str) -> None:
        """Read ``text`` afresh."""
        self.text = text
        doc = self._read(text)
        self.doc_format = doc.format
        self.header = dict(doc.header)
        self.problems: list[Problem] = list(doc.problems)
        self._segs: list[Segment] = list(doc.segments)
        n = len(self._segs)
        self._tstart = np.fromiter((s.target_span[0] for s in self._segs), np.int64, n)
        self._tend = np.fromiter((s.target_span[1] for s in self._segs), np.int64, n)
        self._anchor = np.fromiter((_anchor(s) for s in self._segs), np.int64, n)
        self._dchar = np.zeros(n, np.int64)
        self._dline = np.zeros(n, np.int64)
        self._lines = _line_starts(text)
        self._count_keys()

    def _count_keys(self) -> None:
        self._unnamed = 0
        self._raw: dict[str, int] = {}
        for s in self._segs:
            self._add_raw(s, 1)

    def _add_raw(self, s: Segment, k: int) -> None:
        raw = _raw_key(s)
        if raw is None:
            self._unnamed += k
        else:
            n = self._raw.get(raw, 0) + k
            if n:
                self._raw[raw] = n
            else:
                self._raw.pop(raw, None)

    def _keys_plain(self) -> bool:
        """Every segment's key is its own id (no numbered cue, no id twice)."""
        return self._unnamed == 0 and len(self._raw) == len(self._segs)

    # -- reading --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._segs)

    def segment(self, i: int) -> Segment:
        """Segment ``i`` with its current offsets."""
        seg = self._segs[i]
        dc, dl = int(self._dchar[i]), int(self._dline[i])
        if dc or dl:
            seg = self._shift(seg, dc, dl)
            self._segs[i] = seg
            self._dchar[i] = 0
            self._dline[i] = 0
        return seg

    def segments(self) -> list[Segment]:
        return [self.segment(i) for i in range(len(self._segs))]

    def unshifted(self) -> list[Segment]:
        """The segment objects as kept: texts, keys, times and states current, their
        offsets and lines maybe not yet moved by the edits above them (cheap: no copy
        of a segment)."""
        return self._segs

    def document(self) -> SegmentDocument:
        """The index as a reader's result (what a fresh read of :attr:`text` gives)."""
        return SegmentDocument(
            format=self.format, segments=self.segments(), header=dict(self.header), problems=list(self.problems)
        )

    def target_end(self, i: int) -> int:
        """Offset of the end of segment ``i``'s target text (where its hint goes)."""
        return int(self._tend[i])

    def target_ends(self, which: np.ndarray) -> np.ndarray:
        """The target ends of segments ``which`` (a new array)."""
        return self._tend[which]

    def anchor_line(self, i: int) -> int:
        """The line of segment ``i``'s own block it is found by (a cue's timing line)."""
        return int(self._anchor[i])

    def target_span(self, i: int) -> tuple[int, int]:
        return int(self._tstart[i]), int(self._tend[i])

    def at_offset(self, offset: int) -> Optional[int]:
        """The segment whose target span holds ``offset`` (its end included), or None."""
        k = int(np.searchsorted(self._tstart, offset, "right")) - 1
        if 0 <= k < len(self._segs) and offset <= self._tend[k]:
            return k
        return None

    def at_line(self, line: int) -> Optional[int]:
        """The segment whose block holds ``line`` (its timing line or after, up to the next one's), or None."""
        k = int(np.searchsorted(self._anchor, line, "right")) - 1
        if k < 0:
            return None
        _, end = self.target_span(k)
        last = self.line_of(end)
        return k if line <= max(last, int(self._anchor[k])) else None

    # -- lines -----------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return len(self._lines)

    def line_start(self, j: int) -> int:
        return int(self._lines[j])

    def line_end(self, j: int) -> int:
        """Offset of the end of line ``j``'s content (its ``\\n`` excluded, a ``\\r`` before it included)."""
        if j + 1 < len(self._lines):
            return int(self._lines[j + 1]) - 1
        return len(self.text)

    def line(self, j: int) -> str:
        return self.text[self.line_start(j) : self.line_end(j)]

    def line_of(self, offset: int) -> int:
        return int(np.searchsorted(self._lines, offset, "right")) - 1

    def position(self, offset: int) -> tuple[int, int]:
        """(0-based line, column in characters) of ``offset``."""
        j = self.line_of(offset)
        return j, offset - int(self._lines[j])

    def offset(self, line: int, column: int) -> int:
        """The offset of (line, column in characters), clamped into the text."""
        if line < 0:
            return 0
        if line >= len(self._lines):
            return len(self.text)
        start = int(self._lines[line])
        end = self.line_end(line)
        return min(start + max(0, column), end)

    def _blank(self, j: int) -> bool:
        s = self.line(j)
        if j == 0 and s.startswith("\ufeff"):
            s = s[1:]
        return not s.strip()

    # -- edits -----------------------------------------------------------------------
    def edit(self, start: int, end: int, new: str) -> Change:
        """Replace ``text[start:end]`` by ``new``; what changed."""
        text = self.text
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        if start == end and not new:
            return Change("none")
        ls, le = self.line_of(start), self.line_of(end)
        k = ls
        while k > 0 and not self._blank(k - 1):
            k -= 1
        m = le
        n_lines = len(self._lines)
        while m + 1 < n_lines and not self._blank(m + 1):
            m += 1
        ra = int(self._lines[k])
        head_free = False  # nothing but blanks before the region: it holds the first block
        if k > 0:
            first = 1 if text.startswith("\ufeff") else 0
            if _NONSPACE.search(text, first, ra) is None:
                k, ra, head_free = 0, 0, True
        if self.format == VTT and k == 0 and m + 1 < n_lines:
            # the first block is read as the header: the block after the region may become
            # (or stop being) the first one, so it is read again too
            j = m + 1
            while j < n_lines and self._blank(j):
                j += 1
            while j + 1 < n_lines and not self._blank(j + 1):
                j += 1
            m = min(j, n_lines - 1)
        # the region's end: after line m's line break (a cue without text ends there)
        rb = int(self._lines[m + 1]) if m + 1 < n_lines else len(text)
        delta = len(new) - (end - start)
        new_text = text[:start] + new + text[end:]
        line_delta = new.count("\n") - (le - ls)

        # line starts: those up to the edit's first line, the new ones, the rest moved
        inner = [start + p.start() + 1 for p in re.finditer("\n", new)] if "\n" in new else []
        if len(inner) == le - ls:  # as many line breaks as before: in place, no new array
            self._lines[ls + 1 : le + 1] = inner
            if delta:
                self._lines[le + 1 :] += delta
        else:
            tail = self._lines[le + 1 :] + delta
            self._lines = np.concatenate((self._lines[: ls + 1], np.asarray(inner, np.int64), tail))
        self.text = new_text

        # the region read again
        region = new_text[ra : rb + delta]
        if self.format == VTT and k > 0:
            doc = self._read(_VTT_HEAD + region)
            base_c, base_l = ra - len(_VTT_HEAD), k - 2
        elif k > 0:  # a blank line first: a BOM typed at the region's start is no file's BOM
            doc = self._read("\n" + region)
            base_c, base_l = ra - 1, k - 1
        else:
            doc = self._read(region)
            base_c, base_l = ra, k
        fresh = [shift_segment(s, base_c, base_l) for s in doc.segments]
        new_problems = [
            Problem(p.offset + base_c, p.line + base_l, p.column, p.message) for p in doc.problems
        ]
        if k == 0 or head_free:
            self.header = dict(doc.header)

        # the old segments of the region, and the problems
        a = int(np.searchsorted(self._anchor, k, "left"))
        b = int(np.searchsorted(self._anchor, m, "right"))
        old_problems = self.problems
        kept = [p for p in old_problems if p.line < k]
        later = [Problem(p.offset + delta, p.line + line_delta, p.column, p.message) for p in old_problems if p.line > m]
        self.problems = kept + new_problems + later
        problems_changed = [p for p in old_problems if k <= p.line <= m] != new_problems or bool(later and delta)

        plain_before = self._keys_plain()
        olds = [self.segment(i) for i in range(a, b)]
        for s in olds:
            self._add_raw(s, -1)
        for s in fresh:
            self._add_raw(s, 1)
        count = len(fresh)
        self._segs[a:b] = fresh
        starts = np.fromiter((s.target_span[0] for s in fresh), np.int64, count)
        ends = np.fromiter((s.target_span[1] for s in fresh), np.int64, count)
        anchors = np.fromiter((_anchor(s) for s in fresh), np.int64, count)
        if count == b - a:  # as many segments as before (typing in a cue): in place
            for arr, mid, d in ((self._tstart, starts, delta), (self._tend, ends, delta), (self._anchor, anchors, line_delta)):
                arr[a:b] = mid
                if d:
                    arr[b:] += d
            self._dchar[a:b] = 0
            self._dline[a:b] = 0
            if delta:
                self._dchar[b:] += delta
            if line_delta:
                self._dline[b:] += line_delta
        else:
            zeros = np.zeros(count, np.int64)
            self._tstart = np.concatenate((self._tstart[:a], starts, self._tstart[b:] + delta))
            self._tend = np.concatenate((self._tend[:a], ends, self._tend[b:] + delta))
            self._anchor = np.concatenate((self._anchor[:a], anchors, self._anchor[b:] + line_delta))
            self._dchar = np.concatenate((self._dchar[:a], zeros, self._dchar[b:] + delta))
            self._dline = np.concatenate((self._dline[:a], zeros, self._dline[b:] + line_delta))

        # keys: a local read numbers and tells duplicates apart within the region only
        keys_changed = False
        if self._keys_plain() and plain_before:
            for s in fresh:
                s.key = _raw_key(s)  # type: ignore[assignment]
        elif len(olds) == count and all(_raw_key(o) == _raw_key(s) for o, s in zip(olds, fresh)):
            for o, s in zip(olds, fresh):  # the same units: the same keys as before
                s.key = o.key
        else:
            keys_changed = self._renumber(a + count)

        if count == len(olds) == 1 and _same_but_target(olds[0], fresh[0]):
            old, seg = olds[0], fresh[0]
            same = old.target == seg.target and old.runs == seg.runs and old.target_span == seg.target_span
            if same and old.extra == seg.extra and not problems_changed:
                return Change("none", a, b, count, False, False, False, delta, line_delta)
            return Change("text", a, a + 1, 1, old.target != seg.target, False, problems_changed, delta, line_delta)
        if count == len(olds) == 0:
            return Change("none", a, b, 0, False, False, problems_changed, delta, line_delta)
        return Change("structure", a, b, count, True, keys_changed, problems_changed, delta, line_delta)

    def _renumber(self, after: int) -> bool:
        """Every key as a fresh read gives it; True when one at or after index ``after`` changed."""
        seen: dict[str, int] = {}
        changed = False
        for j, s in enumerate(self._segs):
            raw = _raw_key(s)
            base = raw if raw is not None else f"#{j + 1}"
            n = seen.get(base, 0) + 1
            seen[base] = n
            key = base if n == 1 else f"{base}~{n}"
            if s.key != key:
                s.key = key
                if j >= after:
                    changed = True
        return changed


class WholeIndex(LiveIndex):
    """The same interface for the formats whose units are not blank-line blocks
    (gettext PO, XLIFF, TMX): an edit reads the whole text again and reports every
    segment replaced.  The server splices only the rows whose texts changed, so an
    edit inside a target still re-scores that segment only; reading is the whole
    file's each time."""

    def __init__(self, fmt: str, text: str) -> None:
        from .read import parse  # the readers of every format

        super().__init__(fmt, text, reader=lambda t: parse(fmt, b"", "buffer", text=t))

    def edit(self, start: int, end: int, new: str) -> Change:
        text = self.text
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        if start == end and not new:
            return Change("none")
        old_n, old_problems = len(self._segs), self.problems
        line_delta = new.count("\n") - text.count("\n", start, end)
        self.reset(text[:start] + new + text[end:])
        return Change(
            "structure", 0, old_n, len(self._segs), True, True, self.problems != old_problems,
            len(new) - (end - start), line_delta,
        )


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


class XmlIndex(LiveIndex):
    """XLIFF: an edit reads again only the units it touched when the XML reader's
    region re-read (:mod:`.xml_reread`) can do it safely, else the whole text."""

    def __init__(self, fmt: str, text: str) -> None:
        from .read import parse
        from .xml_reread import shift_segment as xml_shift

        self._shift = xml_shift  # type: ignore[assignment]
        super().__init__(fmt, text, reader=lambda t: parse(fmt, b"", "buffer", text=t))

    def edit(self, start: int, end: int, new: str) -> Change:
        from .xml_reread import reread_region

        text = self.text
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        if start == end and not new:
            return Change("none")
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
            old_n, old_problems = len(self._segs), self.problems
            self.reset(new_text)
            return Change("structure", 0, old_n, len(self._segs), True, True, self.problems != old_problems,
                          delta, line_delta)
        ls, le = self.line_of(start), self.line_of(end)
        inner = [start + p.start() + 1 for p in re.finditer("\n", new)] if "\n" in new else []
        if len(inner) == le - ls:
            self._lines[ls + 1 : le + 1] = inner
            if delta:
                self._lines[le + 1 :] += delta
        else:
            tail = self._lines[le + 1 :] + delta
            self._lines = np.concatenate((self._lines[: ls + 1], np.asarray(inner, np.int64), tail))
        self.text = new_text
        a, b, fresh = sp.first, sp.last, list(sp.segments)
        olds = [self.segment(i) for i in range(a, b)]
        count = len(fresh)
        starts = np.fromiter((s.target_span[0] for s in fresh), np.int64, count)
        ends = np.fromiter((s.target_span[1] for s in fresh), np.int64, count)
        anchors = np.fromiter((_anchor(s) for s in fresh), np.int64, count)
        zeros = np.zeros(count, np.int64)
        d_line = sp.line_delta
        self._segs[a:b] = fresh
        self._tstart = np.concatenate((self._tstart[:a], starts, self._tstart[b:] + delta))
        self._tend = np.concatenate((self._tend[:a], ends, self._tend[b:] + delta))
        self._anchor = np.concatenate((self._anchor[:a], anchors, self._anchor[b:] + d_line))
        self._dchar = np.concatenate((self._dchar[:a], zeros, self._dchar[b:] + delta))
        self._dline = np.concatenate((self._dline[:a], zeros, self._dline[b:] + d_line))
        if count == len(olds) == 1 and olds[0].key == fresh[0].key and olds[0].line == fresh[0].line:
            return Change("text", a, a + 1, 1, olds[0].target != fresh[0].target, False, False, delta, line_delta)
        if count == len(olds) == 0:
            return Change("none", a, b, 0, False, False, False, delta, line_delta)
        return Change("structure", a, b, count, True, False, False, delta, line_delta)
