"""The XLIFF reader's shared part: the scanner handler both versions run in.

Element events (start, end, character data), the root element, inline codes
and ``mrk``\\s inside a source or target (what becomes the scored text and its
codes), and the output: one :class:`~bleu_ls.formats.model.Segment` per
segment, keys made unique.  The version-specific structure (which element is a
unit, a segment, a draft) lives in :mod:`.xliff1` and :mod:`.xliff2`; the
entry points in :mod:`.xliff`.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, Optional

from .finding import Finding
from .model import XLIFF1, XLIFF2, InlineCode, Segment, pack_ints, pack_names
from .xml_facts import BYTES, CHARS, Limit, XmlFacts
from .xmlcontent import Content, ContentEvents, LineCounter
from .xmlscan import NS_SEP, Scanner, problem_at

NS_XLIFF1 = "urn:oasis:names:tc:xliff:document:1.2"
NS_XLIFF2 = "urn:oasis:names:tc:xliff:document:2.0"
NS_MTC = "urn:oasis:names:tc:xliff:matches:2.0"
NS_SLR = "urn:oasis:names:tc:xliff:sizerestriction:2.0"
SLR_SIZE = NS_SLR + NS_SEP + "sizeRestriction"
SLR_STORAGE = NS_SLR + NS_SEP + "storageRestriction"

#: The XLIFF 2 standard profiles of the Size and Length Restriction module that can be counted:
#: the general profile (code points) and the storage profiles (bytes in an encoding, no BOM).
SLR_GENERAL = {"xliff:codepoints"}
SLR_STORAGE_ENCODING = {"xliff:utf8": "utf-8", "xliff:utf16": "utf-16", "xliff:utf32": "utf-32"}
#: what a file without ``<slr:profiles>`` (or without one of its attributes) uses
SLR_DEFAULT_PROFILES = ("xliff:codepoints", "xliff:utf8", "", "")
_NORMALIZATION = {"nfc": "NFC", "nfd": "NFD"}

#: What a unit inherits that its limits are made of: (XLIFF 1.2 ``maxwidth``, ``size-unit``,
#: ``maxbytes`` of the enclosing groups; XLIFF 2 ``sizeRestriction``, ``storageRestriction`` of the
#: enclosing file and groups; the file's ``<slr:profiles>``: general, storage, and the
#: ``<slr:normalization>`` general, storage), each None where nothing is declared.
NO_LIMIT_CONTEXT: tuple = (None, None, None)
_X1_ATTRS = ("maxwidth", "size-unit", "maxbytes")
_NO_X1 = (None, None, None)

_ENCODING_DECL = re.compile(r"""\ufeff?\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def declared_encoding(text: str) -> str:
    """The encoding the file's XML declaration names (what ``maxbytes`` counts in), UTF-8 without one."""
    m = _ENCODING_DECL.match(text, 0, 300)
    return m.group(1).lower() if m else "utf-8"


def _count(v: Optional[str]) -> Optional[int]:
    """A limit's value as a count (None: absent, not a whole number, or 0: the Business Central
    compiler writes ``maxwidth="0"`` on every unit whose label sets no ``MaxLength``, and no
    target of a unit with a source can be 0 long)."""
    if v is None:
        return None
    v = v.strip()
    return int(v) if v.isdigit() and int(v) > 0 else None

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
        "target", "target_attrs", "target_mrks", "notes", "alts", "segments", "mrk_owner", "skip", "limits",
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
        #: its length limits and their context (the facts' ``limits``), or None
        self.limits: Optional[tuple] = None


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
        #: length limits: what the units inherit (NO_LIMIT_CONTEXT), the file's encoding, the
        #: limits made so far by what they are made of (units of a group share theirs)
        self.limit_context: tuple = NO_LIMIT_CONTEXT
        self.encoding = declared_encoding(text)
        self._limit_memo: dict = {}

    # --- events ------------------------------------------------------------------
    def start(self, name: str, attrs: dict) -> None:
        ns, local = _local(name)
        if local in _PASS and not self.active:
            self.stack.append((local, self._group_limits(attrs) if local == "group" and attrs else None))
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
        elif kind == "limits":  # a group with limits ends: its units' context is over
            self.limit_context = action[1]

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

    # --- length limits ----------------------------------------------------------------
    def _group_limits(self, attrs: dict):
        """A ``<group>`` declaring limits: its units inherit them (the action restoring the context
        at its end); None for a group that declares none."""
        ctx = self.limit_context
        if self.fmt == XLIFF1:
            if not ("maxwidth" in attrs or "maxbytes" in attrs or "size-unit" in attrs):
                return None
            old = ctx[0] or (None, None, None)
            x1 = tuple(attrs.get(a, o) for a, o in zip(_X1_ATTRS, old))
            self.limit_context = (x1, ctx[1], ctx[2])
        else:
            if not (SLR_SIZE in attrs or SLR_STORAGE in attrs):
                return None
            self.limit_context = (ctx[0], self._x2_attrs(attrs, ctx[1]), ctx[2])
        return ("limits", ctx)

    @staticmethod
    def _x2_attrs(attrs: dict, old: Optional[tuple]) -> tuple:
        old = old or (None, None)
        return (attrs.get(SLR_SIZE, old[0]), attrs.get(SLR_STORAGE, old[1]))

    def _limits1(self, attrs: dict) -> Optional[tuple]:
        """An XLIFF 1.2 unit's limits with their context (its own ``maxwidth``/``size-unit``/``maxbytes``
        over its groups'), or None where it has none and inherits nothing."""
        ctx = self.limit_context
        get = attrs.get
        if ctx is NO_LIMIT_CONTEXT:
            if not ("maxwidth" in attrs or "maxbytes" in attrs):
                return None
            key: tuple = (get("maxwidth"), get("size-unit"), get("maxbytes"))
        else:
            old = ctx[0] or _NO_X1
            key = (get("maxwidth", old[0]), get("size-unit", old[1]), get("maxbytes", old[2]), ctx)
        got = self._limit_memo.get(key)
        if got is None:
            mw, su, mb = key[:3]
            lims = []
            width = _count(mw)
            unit = (su or "pixel").strip()
            if width is not None and unit == "char":
                lims.append(Limit(CHARS, width, "maxwidth"))
            elif width is not None and unit == "byte":
                lims.append(Limit(BYTES, width, "maxwidth", self.encoding))
            nbytes = _count(mb)
            if nbytes is not None:
                lims.append(Limit(BYTES, nbytes, "maxbytes", self.encoding))
            got = self._limit_memo[key] = (tuple(lims), ctx)
        return got

    def _limits2(self, attrs: dict) -> Optional[tuple]:
        """An XLIFF 2 unit's limits with their context (its own ``slr:sizeRestriction`` /
        ``slr:storageRestriction`` over its file's and groups', under the file's profiles)."""
        ctx = self.limit_context
        if ctx is NO_LIMIT_CONTEXT and not (SLR_SIZE in attrs or SLR_STORAGE in attrs):
            return None
        size, storage = self._x2_attrs(attrs, ctx[1])
        key = (size, storage, ctx, 2)  # (XLIFF 1.2's keys have 3 or 4 items, the last not 2)
        got = self._limit_memo.get(key)
        if got is None:
            general, store, ngen, nsto = ctx[2] or SLR_DEFAULT_PROFILES
            lims = []
            n = _count(size)
            if n is not None and general in SLR_GENERAL:
                lims.append(Limit(CHARS, n, "slr:sizeRestriction", normalization=_NORMALIZATION.get(ngen, "")))
            n = _count(storage)
            enc = SLR_STORAGE_ENCODING.get(store)
            if n is not None and enc is not None:
                lims.append(Limit(BYTES, n, "slr:storageRestriction", enc, _NORMALIZATION.get(nsto, "")))
            got = self._limit_memo[key] = (tuple(lims), ctx)
        return got

    def _slr_profiles(self, local: str, attrs: dict) -> None:
        """``<slr:profiles>`` (the profiles the file's restrictions use) and its ``<slr:normalization>``."""
        x1, x2, prof = self.limit_context
        general, store, ngen, nsto = prof or SLR_DEFAULT_PROFILES
        if local == "profiles":
            general = attrs.get("generalProfile", SLR_DEFAULT_PROFILES[0])
            store = attrs.get("storageProfile", SLR_DEFAULT_PROFILES[1])
        elif local == "normalization":
            ngen, nsto = attrs.get("general", ""), attrs.get("storage", "")
        else:
            return
        self.limit_context = (x1, x2, (general, store, ngen, nsto))

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
    def _add(self, key, tgt, span, line, src, draft, state, sq, notes, unit_id, segment_id, ux, state_tag,
             limits=None):
        """One segment; ``ux``: the unit's span and line; ``limits``: its length limits with their context."""
        n = self.keys.get(key, 0) + 1
        self.keys[key] = n
        dup = None
        if n > 1:
            # a unit id used twice (Angular files have them): keyed apart, said in extra, not a problem
            dup = n
            key = f"{key}#{n}"
        facts = XmlFacts(self.file_key, unit_id, segment_id, ux[0], ux[1], state_tag,
                         (src.start, src.end) if src is not None else None, dup, key, limits)
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
