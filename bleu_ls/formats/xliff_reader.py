"""The XLIFF reader's shared part: the scanner handler both versions run in.

Element events (start, end, character data), the root element, inline codes
and ``mrk``\\s inside a source or target (what becomes the scored text and its
codes), and the output: one :class:`~bleu_ls.formats.model.Segment` per
segment, keys made unique.  The version-specific structure (which element is a
unit, a segment, a draft) lives in :mod:`.xliff1` and :mod:`.xliff2`; the
entry points in :mod:`.xliff`.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

from .finding import Finding
from .model import XLIFF1, XLIFF2, InlineCode, Segment, pack_ints, pack_names
from .xml_facts import XmlFacts
from .xmlcontent import Content, ContentEvents, LineCounter
from .xmlscan import NS_SEP, Scanner, problem_at

NS_XLIFF1 = "urn:oasis:names:tc:xliff:document:1.2"
NS_XLIFF2 = "urn:oasis:names:tc:xliff:document:2.0"
NS_MTC = "urn:oasis:names:tc:xliff:matches:2.0"

#: XLIFF 1.2 inline elements: code content (not text) / paired / empty
X1_CODE_CONTENT = frozenset({"bpt", "ept", "ph", "it"})
X1_PAIRED = frozenset({"g"})
X1_EMPTY = frozenset({"x", "bx", "ex"})
X1_CLOSING = frozenset({"ept", "ex"})
#: XLIFF 2 inline elements
X2_PAIRED = frozenset({"pc"})
X2_EMPTY = frozenset({"ph", "sc", "ec"})
X2_CLOSING = frozenset({"ec"})


#: Structure elements nothing is read from (outside a source or target): no offset asked.
_PASS = frozenset({
    "body", "group", "header", "context-group", "context", "count-group", "count", "prop-group", "prop",
    "phase-group", "phase", "tool", "skl", "internal-file", "external-file", "originalData", "data",
    "metadata", "metaGroup", "meta", "bin-unit", "bin-source", "bin-target", "reference", "glossary",
})


_intern = sys.intern


def _local(name: str) -> tuple[str, str]:
    ns, _, local = name.rpartition(NS_SEP)
    return ns, local


class XliffUnit:
    __slots__ = (
        "id", "attrs", "start", "source", "segsrc", "segsrc_order", "segsrc_end", "source_end",
        "target", "target_attrs", "target_mrks", "notes", "alts", "segments", "mrk_owner", "skip",
    )

    def __init__(self, uid: str, attrs: dict, start: int):
        self.id = uid
        self.attrs = attrs
        self.start = start
        self.source: Optional[Content] = None
        self.segsrc: dict[str, Content] = {}
        self.segsrc_order: list[str] = []
        self.segsrc_end: Optional[int] = None
        self.source_end: Optional[int] = None
        self.target: Optional[Content] = None
        self.target_attrs: dict = {}
        self.target_mrks: dict[str, Content] = {}
        self.notes: list[str] = []
        #: (ref-or-mid, draft text) in file order
        self.alts: list[tuple[Optional[str], str]] = []
        #: XLIFF 2: one dict per segment
        self.segments: list[dict] = []
        self.mrk_owner: dict[str, int] = {}
        self.skip = False


class StopReading(Exception):
    """Reading ends here (not an XLIFF root, or enough segments read)."""


class XliffHandler(ContentEvents):
    """The scanner's handler: builds segments as units end.

    The version-specific ``_start1``/``_end_unit1``… come from the
    :class:`~.xliff1.Xliff1Structure` and :class:`~.xliff2.Xliff2Structure`
    mixins (composed in :mod:`.xliff`).
    """

    _start1: Callable[..., Any]
    _start2: Callable[..., Any]

    def __init__(self, text: str, scanner: Scanner):
        self.file = text
        self.sc = scanner
        self.version: Optional[str] = None
        self.fmt: Optional[str] = None
        self.segments: list[Segment] = []
        self.keys: dict[str, int] = {}
        self.problems: list[Finding] = []
        self.header: dict[str, str] = {}
        self.source_lang: Optional[str] = None
        self.target_lang: Optional[str] = None
        self.file_key = ""
        self.unit: Optional[XliffUnit] = None
        #: element stack: (local, action or None)
        self.stack: list[tuple[str, Any]] = []
        #: Contents receiving character data
        self.active: list[Content] = []
        self.line = LineCounter(text)
        self.alt: Optional[dict] = None  # XLIFF 1.2 alt-trans / XLIFF 2 mtc:match in progress
        self.seg2: Optional[dict] = None  # XLIFF 2 segment in progress
        self.note: Optional[Content] = None

    # --- events ------------------------------------------------------------------
    def start(self, name: str, attrs: dict) -> None:
        ns, local = _local(name)
        if local in _PASS and not self.active:
            self.stack.append((local, None))
            return
        off = self.pos()
        if self.active:
            self.stack.append((local, self._inline_start(ns, local, attrs, off)))
            return
        action = None
        parent = self.stack[-1][0] if self.stack else None
        if parent is None:
            action = self._root(ns, local, attrs, off)
        elif self.fmt == XLIFF1:
            action = self._start1(local, attrs, off, parent)
        elif self.fmt == XLIFF2:
            action = self._start2(ns, local, attrs, off, parent)
        self.stack.append((local, action))

    def end(self, name: str) -> None:
        local, action = self.stack.pop()
        if action is None:
            return
        off = self.pos()
        kind = action[0]
        if kind == "content":
            c: Content = action[1]
            end, empty = self._end_of_content(c, off)
            c.finish(end)
            self._deactivate(c)
            action[2](c, off, empty)
        elif kind == "paired-multi":
            close = (off, self.sc.close_tag_end(off))
            for c, k, i in action[1]:
                c.code(InlineCode(k, i, close, closing=True))
        elif kind == "code-content-all":
            entries, contents = action[1], action[2]
            for c in contents:
                c.code_depth -= 1
            if entries:
                start = entries[0][4]
                tag_end, is_empty = self.sc.tag_end(start)
                e = tag_end if is_empty else self.sc.close_tag_end(off)
                for c, idx, k, i, start, closing in entries:
                    c.codes[idx] = InlineCode(k, i, (start, e), closing)
        elif kind == "seg-mrk":
            c = action[1]
            end, empty = self._end_of_content(c, off)
            c.finish(end)
            self._deactivate(c)
            action[2](c)
        elif kind == "call":
            action[1](off)

    def _end_of_content(self, c: Content, off: int) -> tuple[int, bool]:
        empty = c.empty if c.empty is not None else self.sc.tag_end(c.tag_start)[1]
        if empty:
            return c.start, True
        return off, False

    # --- root ----------------------------------------------------------------------
    def _root(self, ns, local, attrs, off):
        if local == "xliff":
            v = attrs.get("version") or ""
            if v.startswith("2") or ns == NS_XLIFF2:
                self.fmt = XLIFF2
                self.source_lang = attrs.get("srcLang")
                self.target_lang = attrs.get("trgLang")
                if self.target_lang:
                    self.header["trgLang"] = self.target_lang
            else:
                self.fmt = XLIFF1
            self.version = v or ("2.0" if self.fmt == XLIFF2 else "1.2")
            self.header["version"] = self.version
            return None
        self.problems.append(problem_at(self.file, off, f"This is not an XLIFF file: its root element is <{local}>, not <xliff>."))
        raise StopReading

    # --- inline content --------------------------------------------------------------
    def _inline_start(self, ns, local, attrs, off):
        active = self.active
        fmt = self.fmt
        if fmt == XLIFF1 and local == "mrk" and attrs.get("mtype") == "seg" and self._seg_mrk_ok():
            return self._seg_mrk(attrs, off)
        if fmt == XLIFF1:
            paired, empty, content, closing_set = X1_PAIRED, X1_EMPTY, X1_CODE_CONTENT, X1_CLOSING
        else:
            paired, empty, content, closing_set = X2_PAIRED, X2_EMPTY, frozenset(), X2_CLOSING
            if local == "cp":
                try:
                    ch = chr(int(attrs.get("hex", ""), 16))
                except (ValueError, OverflowError):
                    ch = "\ufffd"
                for c in active:
                    c.add_char(ch)
                return None
            if local == "mrk" and self.seg2 is not None and attrs.get("id") and self.unit is not None:
                self.unit.mrk_owner.setdefault(attrs["id"], len(self.unit.segments))
        cid = (attrs.get("startRef") if local == "ec" else None) or attrs.get("id") or attrs.get("startRef") or attrs.get("rid") or ""
        # kinds repeat thousands of times in a large file: one string each (ids are kept in
        # each segment's one string of names: see model._pack)
        local = _intern(local)
        if local in paired:
            tag_end, is_empty = self.sc.tag_end(off)
            for c in active:
                if not c.code_depth:
                    c.code(InlineCode(local, cid, (off, tag_end)))
            if is_empty:
                for c in active:
                    if not c.code_depth:
                        c.code(InlineCode(local, cid, (tag_end, tag_end), closing=True))
                return None
            return ("paired-multi", [(c, local, cid) for c in active if not c.code_depth])
        if local in empty:
            tag_end, _ = self.sc.tag_end(off)
            for c in active:
                if not c.code_depth:
                    c.code(InlineCode(local, cid, (off, tag_end), closing=local in closing_set))
            return None
        if local in content:
            entries = []
            for c in active:
                if not c.code_depth:
                    idx = c.code(InlineCode(local, cid, (off, off), closing=local in closing_set))
                    entries.append((c, idx, local, cid, off, local in closing_set))
                c.code_depth += 1
            # code_depth is also raised for contents already inside code; undo for those at end
            return ("code-content-all", entries, list(active))
        return None

    def _seg_mrk_ok(self) -> bool:
        u = self.unit
        return u is not None and self.alt is None and self.note is None and bool(self.active) and (
            self._in("seg-source") or (self._in("target") and bool(u.segsrc_order))
        )

    def _in(self, local: str) -> bool:
        return any(s[0] == local for s in self.stack)

    def _seg_mrk(self, attrs, off):
        u = self.unit
        mid = attrs.get("mid") or ""
        tag_end, empty = self.sc.tag_end(off)
        c = Content(self.file, tag_end, off)
        c.empty = empty
        self._activate(c)
        in_segsrc = self._in("seg-source")

        def done(c):
            if in_segsrc:
                if mid not in u.segsrc:
                    u.segsrc_order.append(mid)
                    u.segsrc[mid] = c
            else:
                u.target_mrks.setdefault(mid, c)

        return ("seg-mrk", c, done)

    def _content(self, off, done):
        tag_end, empty = self.sc.tag_end(off)
        c = Content(self.file, tag_end, off)
        c.empty = empty
        self._activate(c)
        return ("content", c, done)

    def _unit_extra(self, u: XliffUnit, off: int) -> tuple[tuple[int, int], int]:
        """The unit's span and line (its ``unit_span`` and ``unit_line`` facts)."""
        empty = self.sc.tag_end(u.start)[1]
        return (u.start, off if empty else self.sc.close_tag_end(off)), self.line(u.start)

    # --- output ---------------------------------------------------------------------
    def _add(self, key, tgt, span, line, src, draft, state, sq, notes, unit_id, segment_id, ux, state_tag):
        """One segment; ``ux``: the unit's span and line."""
        n = self.keys.get(key, 0) + 1
        self.keys[key] = n
        dup = None
        if n > 1:
            # a unit id used twice (Angular files have them): keyed apart, said in extra, not a problem
            dup = n
            key = f"{key}#{n}"
        facts = XmlFacts(self.file_key, unit_id, segment_id, ux[0], ux[1], state_tag,
                         (src.start, src.end) if src is not None else None, dup, key)
        # runs and codes in the segment's compact form (model._pack), offsets from the target's start
        base = span[0]
        tc = tgt.codes if tgt is not None else ()
        sc = src.codes if src is not None else ()
        if tgt is not None and tgt.run_count() or tc or sc:
            vals = [base, span[1], line, tgt.run_count() if tgt is not None else 0, len(tc)]
            if tgt is not None:
                tgt.run_ints(base, vals)
            names = []
            for c in (*tc, *sc):
                s0, s1 = c.span
                vals += (s0 - base, s1 - base, 1 if c.closing else 0)
                names += (c.kind, c.id)
            ints, names = pack_ints(vals), pack_names(names)
        else:
            ints, names = pack_ints([base, span[1], line]), None
        self.segments.append(
            Segment.packed(
                key,
                tgt.text() if tgt is not None else "",
                src.text() if src is not None else None,
                draft,
                _intern(state) if state else state,
                _intern(sq) if sq else sq,
                notes,
                ints,
                names,
                facts,
            )
        )
