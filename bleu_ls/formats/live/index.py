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
  (:meth:`~.live_offsets.OffsetIndex.segment`, in ``live_offsets.py``);
* the edit reports what changed (:class:`Change`): the one segment whose
  target text changed (a text edit: the same key, timing and structure), or
  the range of segments replaced (a structural edit).

After every edit the index equals a fresh read of the whole text (segments,
keys, problems, header): the property test in tests/formats/live/test_live.py
checks it over random edit scripts.  The formats read whole (PO, TMX) or by
XML region (XLIFF) have their indexes in ``live_whole.py``.

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

import re
from typing import Callable, Optional


from .offsets import Change, OffsetIndex, shift_segment
from ..model import Segment, SegmentDocument
from ..table import ROWS, row

#: format -> reader of a decoded text (only the formats whose units are blank-line separated blocks:
#: the rows with ``blocks``, formats/table.py)
READERS: dict[str, Callable[[str], SegmentDocument]] = {
    r.name: r.text_reader.resolve() for r in ROWS if r.blocks and r.text_reader is not None
}

_NONSPACE = re.compile(r"\S")


def _nonspace(text, a: int, b: int) -> bool:
    """A character other than white space in ``text[a:b]`` (read a piece at a time: it is found near ``a``)."""
    step = 4096
    while a < b:
        if _NONSPACE.search(text.slice(a, min(b, a + step))) is not None:
            return True
        a, step = a + step, step * 4
    return False


def live_formats() -> tuple[str, ...]:
    """The formats an index can follow edit by edit."""
    return tuple(READERS)


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


class LiveIndex(OffsetIndex):
    """The segments of a subtitle document's decoded text, kept up to date by :meth:`edit`
    (the base of every live index: :mod:`.live_whole` reads the other formats)."""

    def __init__(self, fmt: str, text: str, reader: Optional[Callable[[str], SegmentDocument]] = None) -> None:
        if reader is None and fmt not in READERS:
            raise ValueError(f"{fmt} files are not followed edit by edit")
        super().__init__(fmt, text, reader or READERS[fmt])
        #: what a region read on its own is prefixed with when it is not the first block (WebVTT: the header)
        self._head = row(fmt).head_block

    def reset(self, text: str) -> None:
        """Read ``text`` afresh."""
        super().reset(text)
        self._count_keys()

    # -- keys -----------------------------------------------------------------------
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

    def _replace(self, a: int, b: int, olds: list[Segment], fresh: list[Segment], delta: int, line_delta: int) -> None:
        """Segments ``[a, b)`` (``olds``) replaced by ``fresh``: the key counts moved, then spliced."""
        for s in olds:
            self._add_raw(s, -1)
        for s in fresh:
            self._add_raw(s, 1)
        self._splice(a, b, fresh, delta, line_delta)

    def _keys_plain(self) -> bool:
        """Every segment's key is its own id (no numbered cue, no id twice)."""
        return self._unnamed == 0 and len(self._raw) == len(self._segs)

    # -- edits -----------------------------------------------------------------------
    def _edit(self, start: int, end: int, new: str) -> Change:
        text = self._text
        ls, le = self.line_of(start), self.line_of(end)
        k = ls
        while k > 0 and not self._blank(k - 1):
            k -= 1
        m = le
        n_lines = text.line_count
        while m + 1 < n_lines and not self._blank(m + 1):
            m += 1
        ra = text.line_start(k)
        head_free = False  # nothing but blanks before the region: it holds the first block
        if k > 0:
            first = 1 if text.startswith("\ufeff") else 0
            if not _nonspace(text, first, ra):
                k, ra, head_free = 0, 0, True
        if self._head and k == 0 and m + 1 < n_lines:
            # the first block is read as the header: the block after the region may become
            # (or stop being) the first one, so it is read again too
            j = m + 1
            while j < n_lines and self._blank(j):
                j += 1
            while j + 1 < n_lines and not self._blank(j + 1):
                j += 1
            m = min(j, n_lines - 1)
        # the region's end: after line m's line break (a cue without text ends there)
        rb = text.line_start(m + 1) if m + 1 < n_lines else len(text)
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - (le - ls)
        text.replace(start, end, new)

        # the region read again
        region = text.slice(ra, rb + delta)
        if self._head and k > 0:
            doc = self._read(self._head + region)
            base_c, base_l = ra - len(self._head), k - self._head.count("\n")
        elif k > 0:  # a blank line first: a BOM typed at the region's start is no file's BOM
            doc = self._read("\n" + region)
            base_c, base_l = ra - 1, k - 1
        else:
            doc = self._read(region)
            base_c, base_l = ra, k
        fresh = [shift_segment(s, base_c, base_l) for s in doc.segments]
        new_problems = [
            p.shifted(base_c, base_l) for p in doc.problems
        ]
        if k == 0 or head_free:
            self.header = dict(doc.header)

        # the old segments of the region, and the problems
        a = self.anchors_from(k, "left")
        b = self.anchors_from(m, "right")
        old_problems = self.problems
        kept = [p for p in old_problems if p.line < k]
        later = [p.shifted(delta, line_delta) for p in old_problems if p.line > m]
        self.problems = kept + new_problems + later
        problems_changed = [p for p in old_problems if k <= p.line <= m] != new_problems or bool(later and delta)

        plain_before = self._keys_plain()
        olds = [self.segment(i) for i in range(a, b)]
        count = len(fresh)
        self._replace(a, b, olds, fresh, delta, line_delta)

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
