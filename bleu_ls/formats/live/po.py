"""A gettext PO catalogue kept in step with the editor's edits, entry by entry.

:class:`PoIndex` re-reads only the entries an edit touched.  The PO reader
(:mod:`.po`) is a line machine whose entries are not always blank-line blocks
(a comment block before a blank line still belongs to the next msgid, a
``msgstr`` after a blank line to the msgid above), so the index keeps the
lines where the reader starts afresh — its *boundaries*: a line read with no
entry open, or a comment, ``msgctxt`` or ``msgid`` line that closes an entry
holding a msgstr.  Reading from a boundary with a new reader gives what the
whole read gives from there.  An edit re-reads from the last boundary above
its first line to the first old boundary below its last line, and checks
that the new text still closes there (else the region grows to the next
boundary); the segments after it keep their objects, moved lazily as in
:class:`~.live.LiveIndex`.

Read whole again (correct first): an edit that touches the header entry or
makes another entry the header, and one where a msgid (with its msgctxt and
plural form) is in the catalogue twice before or after it (the second one's
key and problem name the first's line).  After every edit the index equals a
fresh :func:`~.po.read_po` of the text (tests/formats/live/test_live_po.py).

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

import dataclasses
from typing import cast

import numpy as np

from .index import LiveIndex
from .arrays import Shifted
from .offsets import Change, shift_segment
from ..model import PO, Segment, SegmentDocument
from ..po import CTXT_SEP, _KEYWORD, _Reader

#: how far a region may grow (boundaries) before the whole text is read instead
_GROW = 8


def _closes(s: str) -> bool:
    """Line ``s`` closes an entry that holds a msgstr (a comment, ``msgctxt`` or ``msgid`` line)."""
    if s and s[0] == '"':
        return False
    t = s.lstrip(" \t")
    if t[:1] == "#":
        return True
    m = _KEYWORD.match(t)
    if m is None or m.group(1) not in ("msgctxt", "msgid") or (m.end() < len(t) and t[m.end()] not in ' \t"'):
        return False
    return True


class _BoundaryReader(_Reader):
    """The PO reader, noting the lines it reads afresh from."""

    def __init__(self, text: str, header_seen: bool = False) -> None:
        super().__init__(text)
        self.header_seen = header_seen
        self.boundaries: list[int] = []
        self.header_line = -1

    def fresh(self, s: str) -> bool:
        e = self.entry
        if e.empty() and self.target is None and self.prev_target is None:
            return True
        return bool(e.msgstr) and _closes(s)

    def read_lines(self) -> None:
        """Every line but the last one's close (``finish``): the caller looks at the state first."""
        text = self.text
        self.line_starts = starts = []
        start = 0
        pieces = text.split("\n")
        if pieces and pieces[-1] == "" and len(pieces) > 1:
            pieces.pop()  # the region's last line break: no line after it
        for ln, s in enumerate(pieces):
            starts.append(start)
            n = len(s)
            if s and s[-1] == "\r":
                s = s[:-1]
            if self.fresh(s):
                self.boundaries.append(ln)
            self.line(ln, start, s)
            start += n + 1
        starts.append(start)

    def finish(self) -> None:
        e = self.entry
        seen = self.header_seen
        super().finish()
        if not seen and self.header_seen:
            self.header_line = e.msgid.line if e.msgid is not None else -1

    def document(self) -> SegmentDocument:
        self.finish()
        lang = self.header.get("Language") or None
        return SegmentDocument(PO, self.segments, target_lang=lang, header=self.header, problems=self.problems)


def _raw_key(s: Segment) -> str:
    x = s.extra
    ctxt = x.get("msgctxt")
    base = cast(str, x.get("msgid", "")) if ctxt is None else f"{ctxt}{CTXT_SEP}{x.get('msgid', '')}"
    i = x.get("plural_index")
    return base if i is None else f"{base}[{i}]"


def shift_po(seg: Segment, dc: int, dl: int) -> Segment:
    """``seg`` moved, with the offsets of its ``#,`` and ``#|`` lines."""
    out = shift_segment(seg, dc, dl)
    x = seg.extra
    if dc and ("flag_lines" in x or "previous_lines" in x):
        extra = dict(x)
        for name in ("flag_lines", "previous_lines"):
            if name in extra:
                extra[name] = tuple(o + dc for o in extra[name])  # type: ignore[attr-defined]
        out = dataclasses.replace(out, extra=extra)
    return out


_OFFSETS = ("flag_lines", "previous_lines", "msgstr")


def _facts(s: Segment) -> tuple:
    """What a segment says, its target text and offsets aside."""
    return (s.key, s.flags, s.state, s.notes, s.source, s.draft,
            {k: v for k, v in s.extra.items() if k not in _OFFSETS})


def _same_unit(a: Segment, b: Segment) -> bool:
    """The same entry's same string, its text aside (the offsets as they are)."""
    return a.line == b.line and a.target_span[0] == b.target_span[0] and _facts(a) == _facts(b)


class PoIndex(LiveIndex):
    """The segments of a PO catalogue, read again entry by entry (see the module's text)."""

    _shift = staticmethod(shift_po)

    def __init__(self, text: str) -> None:
        super().__init__(PO, text, reader=self._read_all)

    def _read_all(self, text: str) -> SegmentDocument:
        r = _BoundaryReader(text)
        r.read_lines()
        doc = r.document()
        self._bounds = Shifted(r.boundaries)
        self._header_line = r.header_line
        return doc

    def reset(self, text: str) -> None:
        super().reset(text)
        self._quoted = self._quotes(self._tend.tolist())
        self._keys: dict[str, int] = {}
        for s in self._segs:
            k = _raw_key(s)
            self._keys[k] = self._keys.get(k, 0) + 1
        self._dups = len(self._keys) != len(self._segs)

    # -- edits -----------------------------------------------------------------------
    def edit(self, start: int, end: int, new: str) -> Change:
        text = self._text
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        if start == end and not new:
            return Change("none")
        ls, le = self.line_of(start), self.line_of(end)
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - (le - ls)
        n_lines = text.line_count  # the old text's
        text.replace(start, end, new)  # the text edited in place: the region is read in it
        # a msgid twice in the catalogue: the second's problem names the first's line, which lines added move
        dup = line_delta != 0 and self._dups
        got = None if dup else self._region(ls, le, line_delta)
        if got is None:
            return self._read_whole(text.value(), delta, line_delta)
        k, m_old, reader, doc, hdr = got
        base_c, base_l = text.line_start(k), k
        fresh = [shift_po(s, base_c, base_l) for s in doc.segments]
        new_problems = [p.shifted(base_c, base_l) for p in doc.problems]
        if hdr:
            self.header = dict(doc.header)
            self._header_line = reader.header_line + base_l
        elif self._header_line >= m_old:
            self._header_line += line_delta
        # boundaries: those above the region, the region's, those below moved
        lo = self._bounds.searchsorted(k, "left")
        hi = self._bounds.searchsorted(m_old, "left") if m_old < n_lines else len(self._bounds)
        self._bounds.splice(lo, hi, np.asarray(reader.boundaries, np.int64) + k, line_delta)
        # problems
        old_problems = self.problems
        kept = [p for p in old_problems if p.line < k]
        later = [p.shifted(delta, line_delta) for p in old_problems if p.line >= m_old]
        self.problems = kept + new_problems + later
        problems_changed = [p for p in old_problems if k <= p.line < m_old] != new_problems or bool(later and delta)
        # segments of the region: those whose anchor line is in [k, m_old)
        a = self.anchors_from(k)
        b = self.anchors_from(m_old)
        olds = [self.segment(i) for i in range(a, b)]
        count = len(fresh)
        self._splice(a, b, fresh, delta, line_delta)
        for s in olds:
            self._keys[_raw_key(s)] -= 1
            if not self._keys[_raw_key(s)]:
                del self._keys[_raw_key(s)]
        for s in fresh:
            self._keys[_raw_key(s)] = self._keys.get(_raw_key(s), 0) + 1
        self._dups = len(self._keys) != len(self._segs)
        if count == len(olds) and count:
            changed = [i for i, (o, f) in enumerate(zip(olds, fresh)) if not _moved_same(o, f, delta, line_delta)]
            if len(changed) == 1 and _same_unit(olds[changed[0]], fresh[changed[0]]):
                i = changed[0]
                return Change("text", a + i, a + i + 1, 1, olds[i].target != fresh[i].target, False, problems_changed,
                              delta, line_delta)
            if not changed:
                return Change("none", a, b, count, False, False, problems_changed, delta, line_delta)
        if count == len(olds) == 0:
            return Change("none", a, b, 0, False, False, problems_changed, delta, line_delta)
        return Change("structure", a, b, count, True, False, problems_changed, delta, line_delta)

    def _region(self, ls: int, le: int, line_delta: int):
        """(k, m, reader, header read) for the region [k, m) of old lines read in the new text
        (:attr:`buf`, edited already: the old line ``m`` below the edit is its ``m + line_delta``), or None: read it all."""
        bounds = self._bounds
        new_text = self._text
        n_lines = new_text.line_count - line_delta  # the old text's
        j = bounds.searchsorted(ls, "left") - 1  # the last boundary strictly above the edit's line
        k = bounds.get(j) if j >= 0 else 0
        h = bounds.searchsorted(le, "right")  # the first boundary strictly below its last line
        header_before = 0 <= self._header_line < k
        for _ in range(_GROW):
            m = bounds.get(h) if h < len(bounds) else n_lines
            a = new_text.line_start(k)
            if m < n_lines:
                # the old line m, in the new text
                b = new_text.line_start(m + line_delta)
                nxt = new_text.line(m + line_delta)
                if nxt.endswith("\r"):
                    nxt = nxt[:-1]
            else:
                b, nxt = len(new_text), None
            reader = _BoundaryReader(new_text.slice(a, b), header_seen=header_before)
            reader.read_lines()
            if nxt is None or reader.fresh(nxt):
                break
            h += 1
            if h > len(bounds):
                return None
        else:
            return None
        doc = reader.document()  # the last entry closed: its segments and header are in
        found = reader.header_line >= 0
        in_region = k <= self._header_line < m
        if found and not in_region and self._header_line >= 0:
            return None  # another entry becomes the header
        if in_region and not found:
            return None  # the header entry gone: a later one may take its place
        # duplicates: a key twice in the catalogue is numbered by file order
        a_seg = self.anchors_from(k)
        b_seg = self.anchors_from(m)
        keys = self._keys
        for s in self._segs[a_seg:b_seg]:
            if keys.get(_raw_key(s), 0) > 1:
                return None
        seen: set[str] = set()
        for s in doc.segments:
            rk = _raw_key(s)
            if rk in seen or keys.get(rk, 0) - sum(1 for o in self._segs[a_seg:b_seg] if _raw_key(o) == rk) > 0:
                return None
            seen.add(rk)
        return k, m, reader, doc, found

    def _quotes(self, ends: list[int]) -> np.ndarray:
        text = self._text
        return np.fromiter((text.startswith('"', e) for e in ends), np.int64, len(ends))

    def quoted(self, which: np.ndarray) -> np.ndarray:
        """1 where segment ``which``'s msgstr string is closed (its closing quote right after the
        target's end, where the hint goes after it), else 0: kept per segment, not looked up per edit."""
        return self._quoted[which]

    def hints_snapshot(self) -> tuple:
        self._undo_q: list[tuple[int, int, np.ndarray]] = []
        return super().hints_snapshot(), self._quoted

    def hints_before(self, snap: tuple, which: np.ndarray) -> np.ndarray:
        """:meth:`OffsetIndex.hints_before`, after the closing quote as the hints were."""
        which = np.asarray(which, np.int64)
        ends = super().hints_before(snap[0], which)
        if snap[1] is not self._quoted:  # made again: intact
            return ends + snap[1][which]
        q = self._quoted[which]
        for a, b, old in reversed(self._undo_q):
            mid = (which >= a) & (which < b)
            q[mid] = old[which[mid] - a]
        return ends + q

    def _splice(self, a: int, b: int, fresh: list[Segment], delta: int, line_delta: int) -> None:
        """:meth:`OffsetIndex._splice`, and whether a closing quote follows each new target."""
        mid = self._quotes([s.target_span[1] for s in fresh])
        if len(fresh) == b - a:
            if self._undo is not None and len(self._undo_q) < 64:
                self._undo_q.append((a, b, self._quoted[a:b].copy()))
            self._quoted[a:b] = mid
        else:
            self._quoted = np.concatenate((self._quoted[:a], mid, self._quoted[b:]))
        super()._splice(a, b, fresh, delta, line_delta)


def _moved_same(o: Segment, f: Segment, delta: int, line_delta: int) -> bool:
    """``f`` is ``o`` as it was (before the edit) or moved by it (after)."""
    if o.target != f.target or o.extra.get("msgstr") != f.extra.get("msgstr") or _facts(o) != _facts(f):
        return False
    return (o.target_span == f.target_span and o.line == f.line) or (
        o.target_span == (f.target_span[0] - delta, f.target_span[1] - delta) and o.line == f.line - line_delta)


def po_index(fmt: str, text: str) -> PoIndex:
    """The live index of a PO text (the PO row's ``live_index``)."""
    return PoIndex(text)
