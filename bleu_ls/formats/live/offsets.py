"""The lazy-offset machinery under every live index: segments whose offsets are moved when read.

:class:`OffsetIndex` holds a document's decoded text, its segments and, per
segment, the characters and lines it has moved since it was last read (numpy
arrays: an edit moves the segments after it with one C-speed add rather than
a Python loop over 100k cues); :meth:`OffsetIndex.segment` applies them.  It
also keeps the text's line starts (offset ↔ line, column).  How an edit is
read again is each index's own: :class:`~.live.LiveIndex` (subtitle blocks),
:class:`~.live_whole.WholeIndex` and :class:`~.live_whole.XmlIndex`.

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Literal, Optional

import numpy as np

from .arrays import Shifted
from .text import ChunkText
from ..finding import Finding
from ..model import InlineCode, Segment, SegmentDocument


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
    return seg.moved(dc, dl, extra)  # its runs and codes shared: kept relative to the target (model.Segment)


def anchor_of(seg: Segment) -> int:
    """A line of the segment's own block (the timing line of a cue: its text may be absent)."""
    return int(seg.extra.get("timing_line", seg.line))  # type: ignore[call-overload]


def _spans(segs: list[Segment]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The target starts, target ends and anchor lines of ``segs``."""
    n = len(segs)
    return (np.fromiter((s.target_span[0] for s in segs), np.int64, n),
            np.fromiter((s.target_span[1] for s in segs), np.int64, n),
            np.fromiter((anchor_of(s) for s in segs), np.int64, n))


class OffsetIndex:
    """A document's segments and lines, their offsets moved lazily; how an edit is read (:meth:`_edit`) is the subclass's."""

    def __init__(self, fmt: str, text: str, reader: Callable[[str], SegmentDocument]) -> None:
        self.format = fmt
        self._read = reader
        self.reset(text)

    #: how a kept segment is moved (the XML readers' segments carry more spans)
    _shift = staticmethod(shift_segment)

    # -- whole text ---------------------------------------------------------------
    @property
    def text(self) -> str:
        """The whole text (joined on demand after an edit: the hot paths read :attr:`buf`)."""
        return self._text.value()

    @property
    def buf(self) -> ChunkText:
        """The text as edited in place: ``len``, slices, lines, without a copy of the whole."""
        return self._text

    def reset(self, text: str) -> None:
        """Read ``text`` afresh."""
        self._text = ChunkText(text)
        doc = self._read(text)
        self.doc_format = doc.format
        self.header = dict(doc.header)
        self.problems: list[Finding] = list(doc.problems)
        self._segs: list[Segment] = list(doc.segments)
        self._tstart, self._tend, self._anchor = (Shifted(a) for a in _spans(self._segs))
        self._dchar = Shifted(np.zeros(len(self._segs), np.int64))
        self._dline = Shifted(np.zeros(len(self._segs), np.int64))
        #: the in-place splices since :meth:`hints_snapshot` (None: no snapshot)
        self._undo: Optional[list[tuple[int, int, np.ndarray, int]]] = None

    # -- reading --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._segs)

    def segment(self, i: int) -> Segment:
        """Segment ``i`` with its current offsets."""
        seg = self._segs[i]
        dc, dl = self._dchar.get(i), self._dline.get(i)
        if dc or dl:
            seg = self._shift(seg, dc, dl)
            self._segs[i] = seg
            self._dchar.set(i, 0)
            self._dline.set(i, 0)
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
        return self._tend.get(i)

    def target_ends(self, which: np.ndarray) -> np.ndarray:
        """The target ends of segments ``which`` (a new array)."""
        return self._tend.take(which)

    def anchor_line(self, i: int) -> int:
        """The line of segment ``i``'s own block it is found by (a cue's timing line)."""
        return self._anchor.get(i)

    def target_span(self, i: int) -> tuple[int, int]:
        return self._tstart.get(i), self._tend.get(i)

    def first_ending_at(self, offset: int) -> int:
        """The first segment whose target ends at or after ``offset`` (``len``: none)."""
        return self._tend.searchsorted(offset, "left")

    def at_offset(self, offset: int) -> Optional[int]:
        """The segment whose target span holds ``offset`` (its end included), or None."""
        k = self._tstart.searchsorted(offset, "right") - 1
        if 0 <= k < len(self._segs) and offset <= self._tend.get(k):
            return k
        return None

    def at_line(self, line: int) -> Optional[int]:
        """The segment whose block holds ``line`` (its timing line or after, up to the next one's), or None."""
        k = self._anchor.searchsorted(line, "right") - 1
        if k < 0:
            return None
        _, end = self.target_span(k)
        last = self.line_of(end)
        return k if line <= max(last, self._anchor.get(k)) else None

    def anchors_from(self, line: int, side: Literal["left", "right"] = "left") -> int:
        """``np.searchsorted`` of the segments' anchor lines."""
        return self._anchor.searchsorted(line, side)

    # -- lines -----------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return self._text.line_count

    def line_start(self, j: int) -> int:
        return self._text.line_start(j)

    def line_end(self, j: int) -> int:
        """Offset of the end of line ``j``'s content (its ``\\n`` excluded, a ``\\r`` before it included)."""
        return self._text.line_end(j)

    def line(self, j: int) -> str:
        return self._text.line(j)

    def line_of(self, offset: int) -> int:
        return self._text.line_of(offset)

    def position(self, offset: int) -> tuple[int, int]:
        """(0-based line, column in characters) of ``offset``."""
        j = self.line_of(offset)
        return j, offset - self.line_start(j)

    def offset(self, line: int, column: int) -> int:
        """The offset of (line, column in characters), clamped into the text."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return len(self._text)
        start = self.line_start(line)
        end = self.line_end(line)
        return min(start + max(0, column), end)

    def _blank(self, j: int) -> bool:
        s = self.line(j)
        if j == 0 and s.startswith("\ufeff"):
            s = s[1:]
        return not s.strip()

    # -- edits ------------------------------------------------------------------------
    def edit(self, start: int, end: int, new: str) -> Change:
        """Replace ``text[start:end]`` by ``new``; what changed.  ``start`` and
        ``end`` are moved into the text (``end`` not before ``start``)."""
        n = len(self._text)
        start = max(0, min(start, n))
        end = max(start, min(end, n))
        if start == end and not new:
            return Change("none")
        return self._edit(start, end, new)

    def _edit(self, start: int, end: int, new: str) -> Change:
        """:meth:`edit` of a range inside the text that changes it: the index's own."""
        raise NotImplementedError

    # -- the steps of an edit (the subclasses' :meth:`_edit`) ---------------------------

    def _read_whole(self, text: str, delta: int, line_delta: int) -> Change:
        """Read the edited ``text`` afresh: every segment replaced."""
        old_n, old_problems = len(self._segs), self.problems
        self.reset(text)
        return Change("structure", 0, old_n, len(self._segs), True, True, self.problems != old_problems,
                      delta, line_delta)

    # -- where the hints were before an edit --------------------------------------------------
    def hints_snapshot(self) -> tuple:
        """What :meth:`hints_before` needs after the next edit (nothing copied: the arrays'
        references, and from now on the old values of the splices made in place)."""
        self._undo = []
        return self._tend.state()

    def hints_before(self, snap: tuple, which: np.ndarray) -> np.ndarray:
        """The target ends of segments ``which`` (numbered as before the edit) as they were
        when ``snap`` was taken; a new array."""
        which = np.asarray(which, np.int64)
        if not self._tend.holds(snap) or self._undo is None:  # made again since: the old numbers are intact
            return Shifted.take_from(snap, which)
        out = self._tend.take(which)
        for a, b, old, delta in reversed(self._undo):
            out[which >= b] -= delta
            mid = (which >= a) & (which < b)
            out[mid] = old[which[mid] - a]
        return out

    def _splice(self, a: int, b: int, fresh: list[Segment], delta: int, line_delta: int) -> None:
        """Segments ``[a, b)`` replaced by ``fresh`` (read at their current offsets);
        those after them moved by ``delta`` characters and ``line_delta`` lines (lazily:
        :class:`~.live_arrays.Shifted`)."""
        count = len(fresh)
        if self._undo is not None and count == b - a:  # in place: the old ends kept for hints_before
            if len(self._undo) >= 64:  # edits with no snapshot since (the server took none: the text was malformed)
                self._undo = None
            else:
                self._undo.append((a, b, self._tend.take(np.arange(a, b)), delta))
        self._segs[a:b] = fresh
        starts, ends, anchors = _spans(fresh)
        zeros = np.zeros(count, np.int64)
        self._tstart.splice(a, b, starts, delta)
        self._tend.splice(a, b, ends, delta)
        self._anchor.splice(a, b, anchors, line_delta)
        self._dchar.splice(a, b, zeros, delta)
        self._dline.splice(a, b, zeros, line_delta)
