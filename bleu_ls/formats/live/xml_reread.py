"""Re-reading only the XLIFF units an edit touched.

After an edit, a server holding a large XLIFF document should not read the
whole file again: :func:`reread_region` reads the units the edit touched (and
any units typed or pasted between them) inside the root element's start tag,
and says which old segments they replace; the segments after them keep their
content and move by the edit's length.  When that cannot be done safely it
returns None and the caller reads the whole text (:func:`apply_edit` does the
one or the other).

The result always equals a fresh read of the new text: the region read is
bounded by untouched units (or by the tags around the first / last unit), it
must hold nothing but whole units at its top level (no ``<file>``,
``<group>``, ``<body>`` tag, no ``</…>`` of the container), must be
well-formed, must not change the document's keys into duplicates; otherwise
None.  TMX is read the same way, ``tu`` by ``tu`` (:func:`_read_tmx`): a ``tu``
without a ``tuid`` is keyed by its place (``#n``), so a region holding one is read
only where that place is known (from the old key of the ``tu`` the region starts
at, or of the one before it), and a region that adds or removes ``tu``\\s only
where no ``tu`` after it is keyed by its place.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Optional, cast

from ..model import TMX, InlineCode, Run, Segment, SegmentDocument
from ..table import row
from ..tmx import _Reader as _TmxReader
from ..xml_facts import XmlFacts
from ..xliff import _Reader
from ..xliff_reader import NO_LIMIT_CONTEXT
from ..xmlcontent import LineCounter
from ..xmlscan import _TAG, NS_SEP, Scanner

_ROOT = re.compile(r"<((?:[A-Za-z_][\w.-]*:)?xliff)\b")
_TMX_ROOT = re.compile(r"<((?:[A-Za-z_][\w.-]*:)?tmx)\b")
_UNITS = ("trans-unit", "unit")


@dataclass
class Splice:
    """Old segments ``[first:last]`` are replaced by ``segments`` (offsets of the new text); the old
    segments from ``last`` on move by ``delta`` characters and ``line_delta`` lines."""

    first: int
    last: int
    segments: list[Segment]
    delta: int
    line_delta: int
    #: [start, end) of the text read again, in the new text
    region: tuple[int, int]
    #: TMX: old segment -> its new key (a tu keyed by its place, after tus added or removed before it)
    rekey: dict[int, str] = dataclasses.field(default_factory=dict)


def _uspan(s: Segment) -> tuple[int, int]:
    return s.extra["unit_span"]  # type: ignore[return-value]


class _RegionReader(_Reader):
    """The XLIFF reader, flagging anything but whole units at the region's top level."""

    bad = False

    def start(self, name: str, attrs: dict) -> None:
        if len(self.stack) == 1 and name.rpartition("}")[2] not in _UNITS:
            self.bad = True
        super().start(name, attrs)


def reread_region(text: str, doc: SegmentDocument, start: int, old_end: int, new_end: int,
                  removed: Optional[str] = None) -> Optional[Splice]:
    """After ``old_text[start:old_end]`` became ``text[start:new_end]``: the splice, or None (read it all).

    ``removed`` (the old text of the edited range), when given, lets an edit between
    units that removed no markup be read alone (a unit pasted after a ``</group>``).
    """
    if not row(doc.format).xml or doc.problems or doc.header.get("partial") or doc.header.get("duplicate-keys"):
        return None
    segs = doc.segments
    if not segs or any("unit_span" not in s.extra for s in (segs[0], segs[-1])):
        return None
    delta = new_end - old_end
    n = len(segs)
    i = bisect_right(segs, start, key=lambda s: _uspan(s)[1])  # first unit ending after the edit's start
    j = bisect_left(segs, old_end, key=lambda s: _uspan(s)[0])  # first unit starting at or after its end
    if j < i:  # an edit inside one unit: i is that unit, j the next
        j = i
    while j < n and _uspan(segs[j])[0] < old_end:
        j += 1
    if doc.format == TMX and start == old_end and j < n and _uspan(segs[j])[0] == start:
        j = _tu_after(segs, j)  # typed at a tu's "<": read with that tu (before the first tu, no gap to check)
    sp = _narrow(text, doc, i, j, start, old_end, new_end, delta, removed)
    if sp is not None:
        return sp
    # anything else (markup removed between units and ``removed`` not given, an edit in the
    # file's header or around the first or last unit's container): read it all
    return None


_GAP_TAG = re.compile(r"<(/?)([^\s/>]+)")
_CONTAINERS = ("group", "body")


def _in_char_data(text: str, pos: int, gap_start: int, root: str = "xliff", containers=_CONTAINERS) -> bool:
    """Is ``pos`` (after the unit ending at ``gap_start``) in character data between units: not in a
    tag, a comment, CDATA, a PI, nor inside an element other than a container (``group``, ``body``)
    that opened since — such as a unit that is not a segment (``translate="no"``)?"""
    gap = text[gap_start:pos]
    if text.rfind("<", gap_start, pos) > text.rfind(">", gap_start, pos):
        return False
    for m in _GAP_TAG.finditer(gap):
        name = m.group(2)
        if m.group(1):
            if name.rpartition(":")[2] == root:  # past the root: nothing may follow
                return False
            continue
        if name[0] in "!?" or name.rpartition(":")[2] not in containers:
            return False
    return True


def _narrow(text, doc, i, j, start, old_end, new_end, delta, removed) -> Optional[Splice]:
    """The edited range itself, widened to the units it cuts into: read when nothing but units and
    text between them was removed (``removed`` tells, when the edit reaches outside a unit)."""
    segs = doc.segments
    spans: list[tuple[int, int]] = []
    for s in segs[i:j]:
        if not spans or spans[-1] != _uspan(s):
            spans.append(_uspan(s))
    # the parts of the removed range outside every unit must hold no markup
    outside = []
    cur = start
    for us, ue in spans:
        if us > cur:
            outside.append((cur, min(us, old_end)))
        cur = max(cur, ue)
    if cur < old_end:
        outside.append((cur, old_end))
    outside = [(x, y) for x, y in outside if y > x]
    if outside:
        if removed is None:
            return None
        for x, y in outside:
            part = removed[x - start:y - start]
            if "<" in part or ">" in part:
                return None
    a, b = start, new_end
    tmx = doc.format == TMX
    if spans and (spans[0][0] < start or tmx and spans[0][0] == start):  # (TMX: a tu's "<" is a place a tu may be)
        a = spans[0][0]
    elif not (_in_char_data(text, start, _uspan(segs[i - 1])[1] if i > 0 else 0, "tmx", ("body",)) if tmx else
              _in_char_data(text, start, _uspan(segs[i - 1])[1] if i > 0 else 0)):
        return None
    # the end needs no check of its own: between the start and the old end there were only whole
    # units and text without markup, so the old end was in the same place as the start
    if spans and spans[-1][1] > old_end:
        b = spans[-1][1] + delta
    if tmx:
        return _read_tmx(text, doc, i, j, a, b, delta, len(spans))
    return _read(text, doc, i, j, a, b, delta)


def _root_before(root: re.Pattern, text: str, a: int) -> Optional[tuple[re.Match, int]]:
    """The root element's start (its match) and the end of its start tag, when that tag ends before ``a``."""
    m = root.search(text, 0, a)
    if m is None:
        return None
    t = _TAG.match(text, m.start())
    root_end = t.end() if t else len(text)
    return None if root_end > a else (m, root_end)


def _read(text: str, doc: SegmentDocument, i: int, j: int, a: int, b: int, delta: int) -> Optional[Splice]:
    """Read ``text[a:b]`` (whole units only) as the replacement of old segments ``[i:j]``."""
    segs = doc.segments
    n = len(segs)
    found = _root_before(_ROOT, text, a)
    if found is None:
        return None
    m, root_end = found
    before, after = text[m.start():root_end], f"</{m.group(1)}>"
    # the file the region is in: its neighbours' (they must agree)
    near = [segs[k] for k in (i - 1, j) if 0 <= k < n]
    originals = {s.extra.get("original") for s in near}
    if len(originals) != 1:
        return None
    sc = Scanner(text, (a, b, before, after))
    r = _RegionReader(text, sc)
    r.file_key = originals.pop() or ""
    # and the length limits its units inherit (a group's, the file's profiles): its neighbours' too
    contexts = {s.extra.limit_context if isinstance(s.extra, XmlFacts) else None for s in near}
    if len(contexts) != 1:
        return None
    r.limit_context = contexts.pop() or NO_LIMIT_CONTEXT
    if i > 0:  # lines counted from the unit before (untouched: its offset and line are the same)
        r.line = LineCounter(text)
        r.line.off, r.line.line = _uspan(segs[i - 1])[0], cast(int, segs[i - 1].extra["unit_line"])
    problem = sc.run(r)
    if problem is not None or r.bad or r.problems or r.fmt != doc.format:
        return None
    new = r.segments
    if any(s.extra.get("duplicate") for s in new):
        return None
    if _added_keys_elsewhere(segs, i, j, new):
        return None
    line_delta = 0
    if j < n:
        line_delta = r.line(_uspan(segs[j])[0] + delta) - cast(int, segs[j].extra["unit_line"])
    return Splice(i, j, new, delta, line_delta, (a, b))


def _added_keys_elsewhere(segs, i: int, j: int, new: list[Segment]) -> bool:
    """Does the region's read give a key that a segment outside ``[i, j)`` has (the document's keys
    are unique: one not in ``[i, j)`` is outside)?"""
    added = {s.key for s in new} - {s.key for s in segs[i:j]}
    if not added:
        return False
    if hasattr(segs, "has_key"):  # a live index counts its keys: no walk over them
        return any(segs.has_key(k) for k in added)
    # keys only: a live index's segments as kept (their offsets not moved: no copy made)
    plain = segs.unshifted() if hasattr(segs, "unshifted") else segs
    return any(s.key in added for s in plain)


def _tu_after(segs, j: int) -> int:
    """The first segment after the ``tu`` of segment ``j`` (its alternatives share its ``tu``)."""
    span, n = _uspan(segs[j]), len(segs)
    j += 1
    while j < n and _uspan(segs[j]) == span:
        j += 1
    return j


class _TmxRegionReader(_TmxReader):
    """The TMX reader, flagging anything but whole ``tu``\\s at the region's top level."""

    bad = False

    def start(self, name: str, attrs: dict) -> None:
        if len(self.stack) == 1 and name.rpartition(NS_SEP)[2] != "tu":
            self.bad = True
        super().start(name, attrs)


def _place(seg: Segment) -> Optional[int]:
    """The 1-based place of a segment's ``tu`` when its key says it (a ``tu`` without a ``tuid``)."""
    if seg.extra.get("tuid") is not None or seg.extra.get("duplicate"):
        return None
    try:
        return int(seg.key[1:].split("#", 1)[0])
    except ValueError:
        return None


def _read_tmx(text: str, doc: SegmentDocument, i: int, j: int, a: int, b: int, delta: int, old_tus: int) -> Optional[Splice]:
    """Read ``text[a:b]`` (whole ``tu``\\s only, ``old_tus`` of them before the edit) as the
    replacement of old segments ``[i:j]``."""
    segs = doc.segments
    n = len(segs)
    found = _root_before(_TMX_ROOT, text, a)
    if found is None:
        return None
    m, root_end = found
    # the tus before the region (the place of a tu without a tuid): the old key of the tu the
    # region starts at, or of the one before it when the region starts in the text after that one
    before = None
    if i < n and _uspan(segs[i])[0] == a:
        p = _place(segs[i])
        before = None if p is None else p - 1
    elif i > 0:
        before = _place(segs[i - 1])
    sc = Scanner(text, (a, b, text[m.start():root_end], f"</{m.group(1)}>"))
    r = _TmxRegionReader(text, sc)
    r.srclang = doc.header.get("srclang")
    r.n_tu = before or 0
    if i > 0:  # lines counted from the tu before (untouched: its offset and line are the same)
        r.line.off, r.line.line = _uspan(segs[i - 1])[0], cast(int, segs[i - 1].extra["unit_line"])
    problem = sc.run(r)
    if problem is not None or r.bad or r.problems or r.tu is not None:
        return None
    new = r.segments
    if any(s.extra.get("duplicate") for s in new):
        return None
    if before is None and any(s.extra.get("tuid") is None for s in new):
        return None  # a tu keyed by a place not known here
    moved = r.n_tu - (before or 0) - old_tus  # tus added (removed): those after keyed by their place move
    rekey: dict[int, str] = {}
    added = {s.key for s in new} - {s.key for s in segs[i:j]}
    if added and not moved and hasattr(segs, "has_key"):  # a live index counts its keys: no walk over them
        if any(segs.has_key(k) for k in added):
            return None
        added = set()
    if moved and hasattr(segs, "hash_keys") and segs.hash_keys() == sum(s.key.startswith("#") for s in segs[i:j]):
        moved = 0  # no key starting with "#" outside the region: none to move, none that looks like a place
        if any(cast(Any, segs).has_key(k) for k in added):  # a live index (hash_keys) has has_key
            return None
        added = set()
    if moved or added:
        # one pass over the keys (a live index's segments as kept: no copy made): a tu after the
        # region keyed by its place gets its new place; a key the region added must be nobody
        # else's, nor may a tuid look like a place
        plain = segs.unshifted() if hasattr(segs, "unshifted") else segs
        for k in range(n):
            if i <= k < j:
                continue
            s = plain[k]
            tuid = cast("Optional[str]", s.extra.get("tuid"))
            if moved and tuid is None and k >= j:
                p = _place(s)
                if p is None:
                    return None
                rest = s.key[1:].partition("#")
                rekey[k] = f"#{p + moved}" + (rest[1] + rest[2] if rest[1] else "")
            elif s.key in added or moved and tuid is not None and tuid.startswith("#"):
                return None
    line_delta = 0
    if j < n:
        line_delta = r.line(_uspan(segs[j])[0] + delta) - cast(int, segs[j].extra["unit_line"])
    return Splice(i, j, new, delta, line_delta, (a, b), rekey)


def shift_segment(s: Segment, delta: int, line_delta: int) -> Segment:
    """The segment moved by ``delta`` characters and ``line_delta`` lines."""
    if not delta and not line_delta:
        return s
    if isinstance(s.extra, XmlFacts):  # as the reader keeps them: runs and codes shared, the facts moved
        return s.moved(delta, line_delta, s.extra.shifted(delta, line_delta))

    def span(p):
        return None if p is None else (p[0] + delta, p[1] + delta)

    extra: dict[str, Any] = dict(s.extra)
    for k in ("source_span", "unit_span", "state_tag"):
        if k in extra:
            extra[k] = span(extra[k])
    if "unit_line" in extra:
        extra["unit_line"] += line_delta
    return dataclasses.replace(
        s,
        target_span=span(s.target_span),
        line=s.line + line_delta,
        runs=tuple(Run(r.text_start, r.file_start + delta, r.length) for r in s.runs),
        target_codes=tuple(InlineCode(c.kind, c.id, span(c.span), c.closing) for c in s.target_codes),
        source_codes=tuple(InlineCode(c.kind, c.id, span(c.span), c.closing) for c in s.source_codes),
        extra=extra,
    )


def apply_splice(doc: SegmentDocument, sp: Splice) -> SegmentDocument:
    """A new document: the splice applied and the segments after it moved.

    O(segments after the edit), with a new ``Segment`` for each (seconds at 100k units): the
    reference the tests compare with a fresh read.  A server keeps the segments after an edit as
    they are and adds the splice's ``delta`` / ``line_delta`` to their offsets when it reads them.
    """
    segs = doc.segments
    tail = [shift_segment(s, sp.delta, sp.line_delta) for s in segs[sp.last:]]
    for k, key in sp.rekey.items():
        tail[k - sp.last] = dataclasses.replace(tail[k - sp.last], key=key)
    return dataclasses.replace(doc, segments=segs[:sp.first] + sp.segments + tail, problems=list(doc.problems),
                               header=dict(doc.header))


def apply_edit(text: str, doc: SegmentDocument, start: int, old_end: int, new_end: int,
               removed: Optional[str] = None) -> tuple[SegmentDocument, bool]:
    """The document of the new ``text``: (document, True when only the touched units were read)."""
    sp = reread_region(text, doc, start, old_end, new_end, removed)
    if sp is None:
        fresh = row(doc.format).text_reader(text, doc.header.get("path", ""))  # type: ignore[misc]
        if "encoding" in doc.header:
            fresh.header["encoding"] = doc.header["encoding"]
        return fresh, False
    new = apply_splice(doc, sp)
    new.text = text
    return new, True
