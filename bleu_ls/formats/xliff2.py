"""XLIFF 2.x structure: ``file``, ``unit``, ``segment``, ``<mtc:match type="mt">`` drafts.

A mixin of the reader (:class:`~.xliff_reader.XliffHandler` holds the state it
uses); composed in :mod:`.xliff`.
"""

from __future__ import annotations

from .xliff_reader import NO_LIMIT_CONTEXT, NS_MTC, NS_SLR, SLR_SIZE, SLR_STORAGE, XliffUnit


class Xliff2Structure:
    """XLIFF 2 elements outside a source or target: units, segments, mtc matches."""

    def _start2(self, ns, local, attrs, off, parent):
        u = self.unit
        if local == "file" and ns != NS_MTC:
            self.file_key = attrs.get("id") or attrs.get("original") or ""
            for a in ("id", "original"):
                if a in attrs:
                    self.header.setdefault("file-" + a, attrs[a])
            # a file's restrictions are its units' (and its profiles, read below, are its own)
            self.limit_context = NO_LIMIT_CONTEXT
            if SLR_SIZE in attrs or SLR_STORAGE in attrs:
                self.limit_context = (None, self._x2_attrs(attrs, None), None)
            return None
        if local == "unit" and u is None:
            self.unit = XliffUnit(attrs.get("id") or "", attrs, off)
            self.unit.skip = attrs.get("translate") == "no"
            if SLR_SIZE in attrs or SLR_STORAGE in attrs or self.limit_context is not NO_LIMIT_CONTEXT:
                self.unit.limits = self._limits2(attrs)
            return ("call", self._end_unit2)
        if u is None:
            if ns == NS_SLR:
                self._slr_profiles(local, attrs)
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
            self._add(key, tgt, span, line, src, drafts.get(i), s["state"], s["sub"], notes, u.id, sid, ux,
                      (s["start"], self.sc.tag_end(s["start"])[0]), u.limits)
