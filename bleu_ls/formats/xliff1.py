"""XLIFF 1.2 structure: ``file``, ``trans-unit``, ``seg-source`` ``mrk`` segments, MT ``alt-trans`` drafts.

A mixin of the reader (:class:`~.xliff_reader.XliffHandler` holds the state it
uses); composed in :mod:`.xliff`.
"""

from __future__ import annotations

import re
from typing import Optional

from .xmlcontent import Content
from .xliff_reader import NO_LIMIT_CONTEXT, XliffUnit

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


class Xliff1Structure:
    """XLIFF 1.2 elements outside a source or target: units, segments, alt-trans drafts."""

    def _start1(self, local, attrs, off, parent):
        u = self.unit
        if local == "file":
            orig = attrs.get("original") or ""
            self.file_key = orig
            self.limit_context = NO_LIMIT_CONTEXT
            if self.source_lang is None:
                self.source_lang = attrs.get("source-language")
            if self.target_lang is None:
                self.target_lang = attrs.get("target-language")
            for a in ("original", "source-language", "target-language", "datatype", "tool-id"):
                if a in attrs and a not in self.header:
                    self.header[a] = attrs[a]
            return None
        if local == "trans-unit" and u is None:
            self.unit = XliffUnit(attrs.get("id") or "", attrs, off)
            self.unit.skip = attrs.get("translate") == "no"
            if "maxwidth" in attrs or "maxbytes" in attrs or self.limit_context is not NO_LIMIT_CONTEXT:
                self.unit.limits = self._limits1(attrs)
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

    def _end_alt1(self, off):
        a, self.alt = self.alt, None
        c = a["target"]
        if c is None:
            return
        if is_mt_alt_trans(a["attrs"], a["sq"]):
            self.unit.alts.append((a["attrs"].get("mid"), c.text()))

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
            self._add(base, tgt, span, line, src, draft, state, sq, notes, u.id, None, ux,
                      (tgt.tag_start, tgt.start) if tgt is not None else None, u.limits)
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
            key = f"{base}#{mid}" if many else base
            self._add(key, tgt, span, line, src, draft, state, sq, notes, u.id, mid, ux,
                      (u.target.tag_start, u.target.start) if u.target is not None else None, u.limits)

    def _draft1(self, u: XliffUnit, mid: Optional[str], tgt: Optional[Content]) -> Optional[str]:
        for ref, text in u.alts:
            if ref is None or ref == mid or (mid is not None and len(u.segsrc_order) == 1):
                return text
        if tgt is not None and u.target_attrs.get("state-qualifier") in MT_QUALIFIERS:
            return tgt.text()
        return None
