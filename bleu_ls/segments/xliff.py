"""XLIFF 1.2 and XLIFF 2.0–2.2 read into segments, with exact positions.

Entry points: :func:`read_xliff` (a file's bytes), :func:`read_xliff_text`
(a decoded text, e.g. the server's buffer: offsets are indices of that very
string).  The version is read from the root element (``version`` attribute,
then namespace); one function reads both.

What becomes a segment (see ``docs/formats-xml.md`` for the full table):

* XLIFF 1.2: each ``trans-unit`` (``translate="no"`` units are skipped); when
  the unit has a ``seg-source`` with ``<mrk mtype="seg">`` *and* its target
  has such ``mrk``\\s, one segment per ``mrk`` of the ``seg-source``, its
  target the target ``mrk`` with the same ``mid``.  Key ``original/id``,
  ``#mid`` appended only when the unit has more than one segment.
* XLIFF 2: each ``segment`` of a ``unit`` (``ignorable`` is not a segment).
  Key ``file-id/unit-id``, ``#segment-id`` (or ``#n``) appended only when the
  unit has more than one segment.
* A key met twice gets ``#2``, ``#3``… (and ``extra["duplicate"]``); the
  file is not malformed for it, so it is not a problem.

The draft: XLIFF 1.2 — the first ``alt-trans`` of machine-translation origin
(:func:`is_mt_alt_trans`), else the target itself when its
``state-qualifier`` is ``mt-suggestion`` or ``leveraged-mt``; XLIFF 2 — the
first ``<mtc:match type="mt">`` whose ``ref`` names the segment (or one of
the ``mrk``\\s of its source; a unit of one segment takes any ``ref``).
"""

from __future__ import annotations

import re
import sys
from typing import Optional

from .model import XLIFF1, XLIFF2, InlineCode, Segment, SegmentDocument
from .xmlcontent import Content, LineCounter
from .xmlscan import NS_SEP, Scanner, decode_xml, problem_at

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

#: An alt-trans ``origin`` / ``tool-id`` / ``tool`` naming machine translation.
MT_ORIGIN = re.compile(
    r"(?i)(?<![a-z])(?:[ns]?mt|machine|deepl|google|bing|microsoft|amazon|aws|systran|modernmt|yandex|"
    r"baidu|papago|apertium|opus|marian|nllb|libretranslate|openai|gpt|llm|chatgpt|claude|gemini)(?![a-z])"
)
MT_QUALIFIERS = frozenset({"mt-suggestion", "leveraged-mt"})


def is_mt_alt_trans(attrs: dict, target_state_qualifier: Optional[str]) -> bool:
    """Does an XLIFF 1.2 ``alt-trans`` (its attributes, its target's state-qualifier) carry MT?

    Only proposals (``alttranstype`` absent or ``proposal``; previous versions,
    rejections and references are not drafts) whose target is qualified
    ``mt-suggestion``/``leveraged-mt``, or whose ``origin``, ``tool-id`` or
    (XLIFF 1.1) ``tool`` names machine translation or an MT engine.
    """
    if attrs.get("alttranstype", "proposal") != "proposal":
        return False
    if target_state_qualifier in MT_QUALIFIERS:
        return True
    for a in ("origin", "tool-id", "tool"):
        v = attrs.get(a)
        if v and MT_ORIGIN.search(v):
            return True
    return False


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


class _Unit:
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


class _Reader:
    """The scanner's handler: builds segments as units end."""

    def __init__(self, text: str, scanner: Scanner):
        self.file = text
        self.sc = scanner
        self.version: Optional[str] = None
        self.fmt: Optional[str] = None
        self.segments: list[Segment] = []
        self.keys: dict[str, int] = {}
        self.problems = []
        self.header: dict[str, str] = {}
        self.source_lang: Optional[str] = None
        self.target_lang: Optional[str] = None
        self.file_key = ""
        self.unit: Optional[_Unit] = None
        #: element stack: (local, action or None)
        self.stack: list[tuple[str, object]] = []
        #: Contents receiving character data
        self.active: list[Content] = []
        self.line = LineCounter(text)
        self.alt: Optional[dict] = None  # XLIFF 1.2 alt-trans / XLIFF 2 mtc:match in progress
        self.seg2: Optional[dict] = None  # XLIFF 2 segment in progress
        self.note: Optional[Content] = None

    # --- events ------------------------------------------------------------------
    def _activate(self, c: Content) -> None:
        if not self.active:
            self.sc.set_buffering(False)
        self.active.append(c)

    def _deactivate(self, c: Content) -> None:
        self.active.remove(c)
        if not self.active:
            self.sc.set_buffering(True)

    def text(self, data: str) -> None:
        if self.active:
            off = self.pos()
            for c in self.active:
                c.add(data, off)

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
            else:
                self.fmt = XLIFF1
            self.version = v or ("2.0" if self.fmt == XLIFF2 else "1.2")
            self.header["version"] = self.version
            return None
        self.problems.append(problem_at(self.file, off, f"This is not an XLIFF file: its root element is <{local}>, not <xliff>."))
        raise _Stop

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
        # kinds and ids repeat thousands of times in a large file: one string each
        local, cid = _intern(local), _intern(cid)
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
            self._in("seg-source") or (self._in("target") and u.segsrc_order)
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

    # --- XLIFF 1.2 structure ----------------------------------------------------------
    def _start1(self, local, attrs, off, parent):
        u = self.unit
        if local == "file":
            orig = attrs.get("original") or ""
            self.file_key = orig
            if self.source_lang is None:
                self.source_lang = attrs.get("source-language")
            if self.target_lang is None:
                self.target_lang = attrs.get("target-language")
            for a in ("original", "source-language", "target-language", "datatype", "tool-id"):
                if a in attrs and a not in self.header:
                    self.header[a] = attrs[a]
            return None
        if local == "trans-unit" and u is None:
            self.unit = _Unit(attrs.get("id") or "", attrs, off)
            self.unit.skip = attrs.get("translate") == "no"
            return ("call", self._end_unit1)
        if u is None:
            return None
        if local == "alt-trans" and parent == "trans-unit":
            self.alt = {"attrs": attrs, "target": None, "sq": None}
            return ("call", self._end_alt1)
        if self.alt is not None:
            if local == "target" and parent == "alt-trans" and self.alt["target"] is None:
                self.alt["sq"] = attrs.get("state-qualifier")
                return self._content(off, lambda c, o, e: self.alt.__setitem__("target", c))
            return None
        if parent != "trans-unit":
            return None
        if local == "source" and u.source is None:
            def sdone(c, o, e):
                u.source = c
                u.source_end = c.start if e else self.sc.close_tag_end(o)
            return self._content(off, sdone)
        if local == "seg-source":
            c = Content(self.file, self.sc.tag_end(off)[0], off)  # collects nothing itself
            self._activate(c)
            c.code_depth = 1

            def seg_done(c, o, e):
                u.segsrc_end = self.sc.close_tag_end(o) if not e else c.start

            return ("content", c, seg_done)
        if local == "target" and u.target is None:
            u.target_attrs = attrs
            return self._content(off, lambda c, o, e: setattr(u, "target", c))
        if local == "note":
            return self._content(off, lambda c, o, e: u.notes.append(c.text().strip()))
        return None

    def _content(self, off, done):
        tag_end, empty = self.sc.tag_end(off)
        c = Content(self.file, tag_end, off)
        c.empty = empty
        self._activate(c)
        return ("content", c, done)

    def _end_alt1(self, off):
        a, self.alt = self.alt, None
        c = a["target"]
        if c is None:
            return
        if is_mt_alt_trans(a["attrs"], a["sq"]):
            self.unit.alts.append((a["attrs"].get("mid"), c.text()))

    def _unit_extra(self, u: _Unit, off: int) -> dict:
        empty = self.sc.tag_end(u.start)[1]
        return {"unit_span": (u.start, off if empty else self.sc.close_tag_end(off)), "unit_line": self.line(u.start)}

    def _end_unit1(self, off):
        u, self.unit = self.unit, None
        if u.skip:
            return
        ux = self._unit_extra(u, off)
        base = f"{self.file_key}/{u.id}" if self.file_key else u.id
        ta = u.target_attrs
        state, sq = ta.get("state"), ta.get("state-qualifier")
        notes = tuple(n for n in u.notes if n)
        segmented = bool(u.segsrc_order) and (u.target is None or bool(u.target_mrks))
        if not segmented:
            src = u.source
            tgt = u.target
            draft = self._draft1(u, None, tgt)
            if tgt is not None:
                span, line = (tgt.start, tgt.end), self.line(tgt.tag_start)
            else:
                ins = u.segsrc_end if u.segsrc_end is not None else (u.source_end if u.source_end is not None else u.start)
                span, line = (ins, ins), self.line(ins)
            extra = {"original": self.file_key, "unit_id": u.id, "segment_id": None, **ux,
                     "state_tag": (tgt.tag_start, tgt.start) if tgt is not None else None}
            if src is not None:
                extra["source_span"] = (src.start, src.end)
            self._add(base, tgt, span, line, src, draft, state, sq, notes, extra)
            return
        many = len(u.segsrc_order) > 1
        for mid in u.segsrc_order:
            src = u.segsrc[mid]
            tgt = u.target_mrks.get(mid)
            if tgt is not None:
                span, line = (tgt.start, tgt.end), self.line(tgt.tag_start)
            elif u.target is not None:
                span, line = (u.target.end, u.target.end), self.line(u.target.end)
            else:
                ins = u.segsrc_end if u.segsrc_end is not None else u.start
                span, line = (ins, ins), self.line(ins)
            draft = self._draft1(u, mid, tgt)
            extra = {"original": self.file_key, "unit_id": u.id, "segment_id": mid, "source_span": (src.start, src.end), **ux,
                     "state_tag": (u.target.tag_start, u.target.start) if u.target is not None else None}
            key = f"{base}#{mid}" if many else base
            self._add(key, tgt, span, line, src, draft, state, sq, notes, extra)

    def _draft1(self, u: _Unit, mid: Optional[str], tgt: Optional[Content]) -> Optional[str]:
        for ref, text in u.alts:
            if ref is None or ref == mid or (mid is not None and len(u.segsrc_order) == 1):
                return text
        if tgt is not None and u.target_attrs.get("state-qualifier") in MT_QUALIFIERS:
            return tgt.text()
        return None

    # --- XLIFF 2 structure ---------------------------------------------------------------
    def _start2(self, ns, local, attrs, off, parent):
        u = self.unit
        if local == "file" and ns != NS_MTC:
            self.file_key = attrs.get("id") or attrs.get("original") or ""
            for a in ("id", "original"):
                if a in attrs:
                    self.header.setdefault("file-" + a, attrs[a])
            return None
        if local == "unit" and u is None:
            self.unit = _Unit(attrs.get("id") or "", attrs, off)
            self.unit.skip = attrs.get("translate") == "no"
            return ("call", self._end_unit2)
        if u is None:
            return None
        if ns == NS_MTC or local == "match":
            if local == "match":
                self.alt = {"attrs": attrs, "target": None, "sq": None}
                return ("call", self._end_match2)
            return None
        if self.alt is not None:
            if local == "target" and self.alt["target"] is None:
                return self._content(off, lambda c, o, e: self.alt.__setitem__("target", c))
            return None
        if local == "segment" and parent == "unit":
            self.seg2 = {"id": attrs.get("id"), "state": attrs.get("state"), "sub": attrs.get("subState"),
                         "source": None, "target": None, "source_end": None, "start": off, "target_attrs": {}}
            u.segments.append(self.seg2)
            return ("call", self._end_segment2)
        if self.seg2 is not None and parent == "segment":
            s = self.seg2
            if local == "source" and s["source"] is None:
                def sdone(c, o, e, s=s):
                    s["source"] = c
                    s["source_end"] = c.start if e else self.sc.close_tag_end(o)
                return self._content(off, sdone)
            if local == "target" and s["target"] is None:
                s["target_attrs"] = attrs
                return self._content(off, lambda c, o, e, s=s: s.__setitem__("target", c))
            return None
        if local == "note" and parent == "notes" and len(self.stack) >= 2 and self.stack[-2][0] == "unit":
            return self._content(off, lambda c, o, e: u.notes.append(c.text().strip()))
        return None

    def _end_segment2(self, off):
        self.seg2 = None

    def _end_match2(self, off):
        a, self.alt = self.alt, None
        c = a["target"]
        if c is None or a["attrs"].get("type", "tm") != "mt":
            return
        ref = a["attrs"].get("ref") or ""
        ref = ref.rsplit("/", 1)[-1].lstrip("#")
        ref = ref.split("=", 1)[-1]
        self.unit.alts.append((ref, c.text()))

    def _end_unit2(self, off):
        u, self.unit = self.unit, None
        if u.skip:
            return
        ux = self._unit_extra(u, off)
        base = f"{self.file_key}/{u.id}" if self.file_key else u.id
        many = len(u.segments) > 1
        notes = tuple(n for n in u.notes if n)
        drafts: dict[int, str] = {}
        for ref, text in u.alts:
            k = None
            for i, s in enumerate(u.segments):
                if s["id"] is not None and s["id"] == ref:
                    k = i
                    break
            if k is None and ref in u.mrk_owner:
                k = u.mrk_owner[ref] - 1
            if k is None and len(u.segments) == 1:
                k = 0
            if k is not None and k not in drafts:
                drafts[k] = text
        for i, s in enumerate(u.segments):
            src, tgt = s["source"], s["target"]
            if tgt is not None:
                span, line = (tgt.start, tgt.end), self.line(tgt.tag_start)
            else:
                ins = s["source_end"] if s["source_end"] is not None else s["start"]
                span, line = (ins, ins), self.line(ins)
            sid = s["id"]
            key = base + ("#" + (sid if sid else str(i + 1)) if many else "")
            extra = {"original": self.file_key, "unit_id": u.id, "segment_id": sid, **ux,
                     "state_tag": (s["start"], self.sc.tag_end(s["start"])[0])}
            if src is not None:
                extra["source_span"] = (src.start, src.end)
            self._add(key, tgt, span, line, src, drafts.get(i), s["state"], s["sub"], notes, extra)

    # --- output ---------------------------------------------------------------------
    def _add(self, key, tgt, span, line, src, draft, state, sq, notes, extra):
        n = self.keys.get(key, 0) + 1
        self.keys[key] = n
        if n > 1:
            # a unit id used twice (Angular files have them): keyed apart, said in extra, not a problem
            extra["duplicate"] = n
            key = f"{key}#{n}"
        self.segments.append(
            Segment(
                key=key,
                target=tgt.text() if tgt is not None else "",
                target_span=span,
                line=line,
                source=src.text() if src is not None else None,
                draft=draft,
                state=_intern(state) if state else state,
                state_qualifier=_intern(sq) if sq else sq,
                notes=notes,
                target_codes=tuple(tgt.codes) if tgt is not None else (),
                source_codes=tuple(src.codes) if src is not None else (),
                runs=tgt.run_tuple() if tgt is not None else (),
                extra=extra,
            )
        )


class _Stop(Exception):
    pass


def read_xliff_text(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an XLIFF 1.2 or 2.x document from its decoded text (offsets index ``text``).

    This is the server's call: it holds the buffer's text, and the offsets of
    the segments are indices of that string (the LSP line model's own).  With
    ``max_segments``, reading stops quietly once that many segments are read
    (64 KB at a time): ``header["partial"] == "true"`` then, and no problem is
    said for the rest — the first hints of a large file come from this, the
    full read can follow in the background.
    """
    sc = Scanner(text)
    r = _Reader(text, sc)
    problem = None
    try:
        stop = None if max_segments is None else (lambda: len(r.segments) >= max_segments)
        problem = sc.run(r, stop)
    except _Stop:
        pass
    except Exception as e:  # a bug of this reader, not of the file: said, the segments read so far kept
        problem = problem_at(text, 0, f"bleu-ls could not read this XLIFF file (an internal error: {type(e).__name__}: {e}).")
    doc = SegmentDocument(
        format=r.fmt or XLIFF1,
        segments=r.segments,
        source_lang=r.source_lang,
        target_lang=r.target_lang,
        header=dict(r.header),
        problems=list(r.problems),
        text=text,
    )
    if problem is not None:
        doc.problems.append(problem)
    elif r.fmt is None and not r.problems:
        doc.problems.append(problem_at(text, 0, "This is not an XLIFF file: no <xliff> element was found."))
    dups = sum(1 for s in r.segments if s.extra.get("duplicate"))
    if dups:
        doc.header["duplicate-keys"] = str(dups)
    if sc.stopped:
        doc.header["partial"] = "true"
    if path:
        doc.header.setdefault("path", path)
    return doc


def read_xliff(data: bytes, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an XLIFF file's bytes; offsets index ``decode_xml(data)[0]`` (the BOM left out)."""
    text, enc, problem = decode_xml(data)
    doc = read_xliff_text(text, path, max_segments)
    doc.header["encoding"] = enc
    if problem:
        doc.problems.insert(0, problem_at(text, 0, problem))
    return doc


_STATE_ATTR = re.compile(r"""(\s)state(\s*=\s*)(["'])(.*?)\3""", re.S)


def state_edit(text: str, seg: Segment, value: str) -> Optional[tuple[int, int, str]]:
    """The edit that sets a segment's state: ``(start, end, new text)`` replacing the tag that holds it.

    XLIFF 1.2: the ``<target>`` start tag (None when the unit has no target); XLIFF 2: the
    ``<segment>`` start tag.  An existing ``state`` gets the new value, else ``state="value"`` is
    added before the tag's end; nothing else in the tag changes.  For the code action "mark as
    translated / final"; ``text`` is the text the segment was read from.
    """
    span = seg.extra.get("state_tag") if seg.extra else None
    if not span:
        return None
    a, b = span
    tag = text[a:b]
    if not tag.startswith("<") or not tag.endswith(">"):
        return None
    m = _STATE_ATTR.search(tag)
    if m:
        new = tag[:m.start(4)] + value + tag[m.end(4):]
    else:
        cut = len(tag) - (2 if tag.endswith("/>") else 1)
        new = tag[:cut].rstrip() + f' state="{value}"' + tag[cut:]
    return a, b, new
