"""The compact segment (runs and codes in one array of ints and one string of names, an
XLIFF segment's facts a mapping over one array) against the plain dataclass it replaced:
the same public attributes, the same ``file_offset``, moved the same way."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Mapping, Optional

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.live.offsets import shift_segment
from bleu_ls.formats.model import InlineCode, Run, Segment
from bleu_ls.formats.xml_facts import XmlFacts
from bleu_ls.formats.xliff import read_xliff_text
from bleu_ls.formats.live.xml_reread import shift_segment as xml_shift


@dataclass(slots=True)
class OldSegment:
    """The segment as it was: objects for every run and code, a dict of facts."""

    key: str
    target: str
    target_span: tuple[int, int]
    line: int
    source: Optional[str] = None
    draft: Optional[str] = None
    state: Optional[str] = None
    state_qualifier: Optional[str] = None
    notes: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    target_codes: tuple[InlineCode, ...] = ()
    source_codes: tuple[InlineCode, ...] = ()
    runs: tuple[Run, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)

    def file_offset(self, i: int) -> int:
        if not self.runs:
            return self.target_span[0] + i
        starts = [r.text_start for r in self.runs]
        k = bisect_right(starts, i) - 1
        if k < 0:
            return self.target_span[0]
        r = self.runs[k]
        if i < r.text_start + r.length:
            return r.file_start + (i - r.text_start)
        return r.file_start + r.length


PUBLIC = [f.name for f in dataclasses.fields(OldSegment)]
# offsets small and large (past 2**15 and 2**31 from the target: other array widths)
offsets = st.one_of(st.integers(0, 300), st.integers(0, 10**6), st.integers(2**31 - 50, 2**31 + 50), st.integers(0, 2**40))
names = st.one_of(st.sampled_from(["g", "x", "bx", "ph", "pc", "placeholder", "", "%s", "{0}"]),
                  st.text(max_size=6))  # any text: a unit separator too


@st.composite
def codes(draw):
    n = draw(st.integers(0, 4))
    out = []
    for _ in range(n):
        a = draw(offsets)
        span = None if draw(st.integers(0, 5)) == 0 else (a, a + draw(st.integers(0, 40)))
        out.append(InlineCode(draw(names), draw(names), span, draw(st.booleans())))
    return tuple(out)


@st.composite
def segments(draw):
    start = draw(offsets)
    text = draw(st.text(max_size=30))
    runs, t = [], 0
    for _ in range(draw(st.integers(0, 5))):
        t += draw(st.integers(0, 6))
        runs.append(Run(t, draw(offsets), draw(st.integers(0, 8))))
    kw = dict(key=draw(st.text(max_size=8)), target=text, target_span=(start, start + draw(st.integers(0, 50))),
              line=draw(st.integers(0, 10**6)), source=draw(st.none() | st.text(max_size=5)),
              notes=tuple(draw(st.lists(st.text(max_size=4), max_size=2))),
              target_codes=draw(codes()), source_codes=draw(codes()), runs=tuple(runs),
              extra=draw(st.dictionaries(st.sampled_from(["msgid", "start_ms", "timing_line"]), st.integers(0, 99), max_size=2)))
    return kw


def public(s) -> dict:
    return {f: getattr(s, f) for f in PUBLIC}


@settings(max_examples=300, deadline=None)
@given(segments(), st.integers(-1, 60), st.integers(-10**6, 10**6), st.integers(-5, 5))
def test_compact_segment_reads_as_the_old_one(kw, i, dc, dl):
    old, new = OldSegment(**kw), Segment(**kw)
    assert public(new) == public(old)
    for j in range(-1, len(kw["target"]) + 2):
        assert new.file_offset(j) == old.file_offset(j)
    assert new == Segment(**kw) and new != Segment(**{**kw, "key": kw["key"] + "z"})
    for clone in (copy.copy(new), pickle.loads(pickle.dumps(new)), dataclasses.replace(new)):
        assert clone == new and public(clone) == public(old)
    # moved: as the plain dataclass moved (live_offsets.shift_segment's rule)
    moved_old = dataclasses.replace(
        old, target_span=(old.target_span[0] + dc, old.target_span[1] + dc), line=old.line + dl,
        runs=tuple(Run(r.text_start, r.file_start + dc, r.length) for r in old.runs),
        target_codes=tuple(dataclasses.replace(c, span=c.span and (c.span[0] + dc, c.span[1] + dc)) for c in old.target_codes),
        source_codes=tuple(dataclasses.replace(c, span=c.span and (c.span[0] + dc, c.span[1] + dc)) for c in old.source_codes),
        extra={**old.extra, **({"timing_line": old.extra["timing_line"] + dl} if dl and "timing_line" in old.extra else {})})
    assert public(shift_segment(new, dc, dl)) == public(moved_old)
    assert public(new.moved(dc, dl, moved_old.extra)) == public(moved_old)
    # attributes set after the build (the PO reader's codes)
    new.target_codes = kw["source_codes"]
    assert new.target_codes == kw["source_codes"] and new.runs == kw["runs"] and new.source_codes == kw["source_codes"]


@given(st.integers(0, 2**33), st.integers(0, 10**6), st.booleans(), st.booleans(), st.none() | st.integers(2, 5),
       st.integers(-1000, 1000), st.integers(-10, 10))
def test_xml_facts_are_the_dict_they_replaced(a, line, has_tag, has_src, dup, dc, dl):
    d = {"original": "app.json", "unit_id": "u1", "segment_id": None, "unit_span": (a, a + 90), "unit_line": line,
         "state_tag": (a + 40, a + 60) if has_tag else None}
    if has_src:
        d["source_span"] = (a + 10, a + 30)
    if dup:
        d["duplicate"] = dup
    f = XmlFacts("app.json", "u1", None, (a, a + 90), line, d["state_tag"], d.get("source_span"), dup)
    assert f == d and d == f and dict(f) == d and len(f) == len(d) and list(f) == list(d)
    # the unit id read from the segment's key where the key spells it (and only there)
    for key in ("app.json/u1", "app.json/u1#2", "app.json/u12", "other/u1"):
        g = XmlFacts("app.json", "u1", None, (a, a + 90), line, d["state_tag"], d.get("source_span"), dup, key)
        assert g == d and g["unit_id"] == "u1" and (g._uid is None) == (key == "app.json/u1")
    assert all((k in f) == (k in d) for k in [*d, "msgid", "duplicate", "source_span"])
    assert f.get("source_span") == d.get("source_span") and f.get("nope", 7) == 7
    seg = Segment(key="k", target="", target_span=(a + 60, a + 60), line=line, extra=f)
    moved = xml_shift(seg, dc, dl)
    sh = lambda p: None if p is None else (p[0] + dc, p[1] + dc)  # noqa: E731
    want = {**d, "unit_span": sh(d["unit_span"]), "unit_line": line + dl, "state_tag": sh(d["state_tag"])}
    if has_src:
        want["source_span"] = sh(d["source_span"])
    assert dict(moved.extra) == want and moved.target_span == (a + 60 + dc, a + 60 + dc)


def test_an_xliff_read_gives_compact_segments_equal_to_the_plain_ones():
    """Codes, runs (an entity, a line break), a duplicate id, segments of one unit: the
    reader's compact segment reads as the plain one built from what it reports."""
    text = ('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a.json"><body>\n'
            '<trans-unit id="1"><source>A <g id="1">b</g> &amp; c<x id="2"/></source>'
            '<target state="translated">X <g id="1">y</g> &amp;\nz<x id="2"/></target><note>n</note></trans-unit>\n'
            '<trans-unit id="1"><source>dup</source><target>dup</target></trans-unit>\n'
            '<trans-unit id="3"><source>s</source><seg-source><mrk mtype="seg" mid="1">S1</mrk> <mrk mtype="seg" mid="2">S<ph id="p">%s</ph>2</mrk></seg-source>'
            '<target><mrk mtype="seg" mid="1">T1</mrk> <mrk mtype="seg" mid="2">T<ph id="p">%s</ph>2</mrk></target></trans-unit>\n'
            '</body></file></xliff>\n')
    doc = read_xliff_text(text)
    assert [s.key for s in doc.segments] == ["a.json/1", "a.json/1#2", "a.json/3#1", "a.json/3#2"]
    for s in doc.segments:
        old = OldSegment(**{f: getattr(s, f) for f in PUBLIC if f != "extra"}, extra=dict(s.extra))
        assert Segment(**public(old)) == s
        for j in range(len(s.target) + 1):
            assert s.file_offset(j) == old.file_offset(j)
    first = doc.segments[0]
    assert first.target == "X y & z" and [c.kind for c in first.target_codes] == ["g", "g", "x"]
    assert [text[a:b] for a, b in (c.span for c in first.target_codes)] == ['<g id="1">', "</g>", '<x id="2"/>']
    assert "".join(text[first.file_offset(j)] for j in (0, 2, 6)) == "Xyz"
    assert doc.segments[1].extra["duplicate"] == 2 and "duplicate" not in doc.segments[0].extra
    assert doc.segments[3].extra["segment_id"] == "2" and doc.segments[3].target_codes[0].id == "p"
