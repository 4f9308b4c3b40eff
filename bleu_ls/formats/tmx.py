r"""TMX 1.4 (and 1.1) read into segments, with exact positions.

One segment per *target* ``tuv`` of each ``tu``: the source is the ``tuv``
in the source language (the ``tu``'s ``srclang``, else the header's; matched
case-blind, then by primary subtag; ``*all*`` or no match: the first
``tuv``), every other ``tuv`` is a target.  A ``tu`` with several targets
gives several segments: the first keyed by its ``tuid`` (``#n``, the 1-based
``tu`` number, when it has none), the next ``tuid#2``, ``tuid#3``…; each
carries ``extra["tuid"]`` and ``extra["lang"]`` so that pairing by ``tuid``
(in a language) finds all of a reference ``tu``'s targets as references.  A
``tuid`` used by two ``tu``\s: the second's keys get ``~2`` (``extra["duplicate"]``,
and the header's ``duplicate-keys`` counts them).  ``extra["unit_span"]`` and
``extra["unit_line"]`` are the ``tu``'s span and first line: an edit inside one ``tu``
reads that ``tu`` alone again (:mod:`.xml_reread`).

The language is ``xml:lang`` (TMX 1.4) or ``lang`` (TMX 1.1).  Scored text:
``seg`` content with ``bpt``/``ept``/``ph``/``it``/``ut`` (and their
``sub``) left out, ``hi`` content kept.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, cast

from .finding import Finding
from .model import TMX, InlineCode, Segment, SegmentDocument
from .xmlcontent import Content, ContentEvents, LineCounter
from .xmlscan import NS_SEP, XML_NS, Scanner, end_read, problem_at, read_xml_bytes, run_reader

CODE_CONTENT = frozenset({"bpt", "ept", "ph", "it", "ut"})
CLOSING = frozenset({"ept"})
_LANG = XML_NS + NS_SEP + "lang"


def _same_lang(a: str, b: str) -> bool:
    return a.lower() == b.lower()


def _primary(a: str) -> str:
    return a.lower().replace("_", "-").split("-", 1)[0]


class _Stop(Exception):
    pass


class _Reader(ContentEvents):
    def __init__(self, file: str, sc: Scanner):
        self.file = file
        self.sc = sc
        self.stack: list[tuple[str, Any]] = []
        self.active: list[Content] = []
        self.segments: list[Segment] = []
        self.problems: list[Finding] = []
        self.header: dict[str, str] = {}
        self.srclang: Optional[str] = None
        self.tu: Optional[dict] = None
        self.tuv: Optional[dict] = None
        self.n_tu = 0
        self.keys: dict[str, int] = {}
        self.line = LineCounter(file)
        self.root_seen = False

    def start(self, name: str, attrs: dict) -> None:
        off = self.pos()
        local = name.rpartition(NS_SEP)[2]
        action: Optional[tuple] = None
        if self.active:
            if local in CODE_CONTENT:
                entries = []
                for c in self.active:
                    if not c.code_depth:
                        cid = sys.intern(attrs.get("x") or attrs.get("i") or attrs.get("id") or "")
                        local = sys.intern(local)
                        idx = c.code(InlineCode(local, cid, (off, off), closing=local in CLOSING))
                        entries.append((c, idx, local, cid))
                    c.code_depth += 1
                action = ("code", off, entries, list(self.active))
            self.stack.append((local, action))
            return
        if not self.stack:
            if local != "tmx":
                self.problems.append(problem_at(self.file, off, f"This is not a TMX file: its root element is <{local}>, not <tmx>."))
                raise _Stop
            self.root_seen = True
            if attrs.get("version"):
                self.header["version"] = attrs["version"]
        elif local == "header":
            self.srclang = attrs.get("srclang")
            for a in ("srclang", "creationtool", "segtype", "o-tmf", "datatype", "adminlang"):
                if a in attrs:
                    self.header[a] = attrs[a]
        elif local == "tu" and self.tu is None:
            self.n_tu += 1
            self.tu = {"attrs": attrs, "tuvs": [], "notes": [], "start": off}
            action = ("tu",)
        elif self.tu is not None:
            if local == "tuv" and self.tuv is None:
                lang = attrs.get(_LANG) or attrs.get("lang") or attrs.get("xml:lang") or ""
                self.tuv = {"lang": lang, "seg": None, "notes": [], "start": off}
                action = ("tuv",)
            elif local == "seg" and self.tuv is not None and self.tuv["seg"] is None:
                tag_end, empty = self.sc.tag_end(off)
                c = Content(self.file, tag_end, off)
                self._activate(c)
                action = ("seg", c, empty)
            elif local == "note":
                tag_end, empty = self.sc.tag_end(off)
                c = Content(self.file, tag_end, off)
                self._activate(c)
                action = ("note", c)
        self.stack.append((local, action))

    def end(self, name: str) -> None:
        local, action = self.stack.pop()
        if action is None:
            return
        off = self.pos()
        kind = action[0]
        if kind == "code":
            start, entries, contents = action[1], action[2], action[3]
            for c in contents:
                c.code_depth -= 1
            tag_end, empty = self.sc.tag_end(start)
            e = tag_end if empty else self.sc.close_tag_end(off)
            for c, idx, k, cid in entries:
                c.codes[idx] = InlineCode(k, cid, (start, e), k in CLOSING)
        elif kind == "seg":
            c, empty = action[1], action[2]
            c.finish(c.start if empty else off)
            self._deactivate(c)
            assert self.tuv is not None  # a seg is read inside a tuv only
            self.tuv["seg"] = c
        elif kind == "note":
            c = action[1]
            self._deactivate(c)
            t = c.text().strip()
            if t:
                cast(dict, self.tuv or self.tu)["notes"].append(t)  # a note is read inside a tu only
        elif kind == "tuv":
            assert self.tu is not None  # a tuv is read inside a tu only
            self.tu["tuvs"].append(self.tuv)
            self.tuv = None
        elif kind == "tu":
            self._end_tu(off)

    def _end_tu(self, off: int) -> None:
        tu, self.tu = self.tu, None
        assert tu is not None  # called at the end of a tu
        tuvs = [v for v in tu["tuvs"] if v["seg"] is not None]
        if not tuvs:
            return
        start = tu["start"]
        # the tu's span and line: an edit inside it reads it alone again (xml_reread.py)
        unit_span = (start, self.sc.close_tag_end(off))  # (a tu with a tuv is not an empty element)
        unit_line = self.line(start)
        src_lang = tu["attrs"].get("srclang") or self.srclang or ""
        src = None
        if src_lang and src_lang != "*all*":
            src = next((v for v in tuvs if _same_lang(v["lang"], src_lang)), None)
            if src is None:
                src = next((v for v in tuvs if _primary(v["lang"]) == _primary(src_lang)), None)
        if src is None:
            src = tuvs[0]
        tuid = tu["attrs"].get("tuid")
        base = tuid if tuid else f"#{self.n_tu}"
        k = 0
        for v in tuvs:
            if v is src:
                continue
            k += 1
            key = base if k == 1 else f"{base}#{k}"
            n = self.keys.get(key, 0) + 1
            self.keys[key] = n
            c: Content = v["seg"]
            dup = None
            if n > 1:
                dup = n
                key = f"{key}~{n}"
            s: Content = src["seg"]
            self.segments.append(
                Segment(
                    key=key,
                    target=c.text(),
                    target_span=(c.start, c.end),
                    line=self.line(c.tag_start),
                    source=s.text(),
                    notes=tuple(tu["notes"] + v["notes"]),
                    target_codes=tuple(c.codes),
                    source_codes=tuple(s.codes),
                    runs=c.run_tuple(),
                    extra={"tuid": tuid if tuid else None, "lang": v["lang"], "source_lang": src["lang"],
                           "alternative": k, "source_span": (s.start, s.end), "duplicate": dup,
                           "unit_span": unit_span, "unit_line": unit_line},
                )
            )


def read_tmx_text(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read a TMX document from its decoded text (offsets index ``text``): the
    server's call, ``max_segments`` as :func:`~.xliff.read_xliff_text` says."""
    sc = Scanner(text)
    r = _Reader(text, sc)
    problem = run_reader(sc, r, text, max_segments, _Stop, "TMX")
    langs = {s.extra["lang"] for s in r.segments}
    doc = SegmentDocument(
        format=TMX,
        segments=r.segments,
        source_lang=r.srclang if r.srclang and r.srclang != "*all*" else None,
        target_lang=cast(str, next(iter(langs))) if len(langs) == 1 else None,
        header=dict(r.header),
        problems=list(r.problems),
        text=text,
    )
    dups = sum(1 for s in r.segments if s.extra.get("duplicate"))
    if dups:
        doc.header["duplicate-keys"] = str(dups)
    return end_read(doc, sc, problem, path, None if r.root_seen else "This is not a TMX file: no <tmx> element was found.")


def read_tmx(data: bytes, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read a TMX file's bytes; offsets index ``decode_xml(data)[0]`` (the BOM left out)."""
    return read_xml_bytes(read_tmx_text, data, path, max_segments)
