"""XLIFF 1.2 / 2.x read into segments: cross-checked against ElementTree, spans checked against the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_ls.formats.model import XLIFF1, XLIFF2
from bleu_ls.formats.xliff import read_xliff, read_xliff_text
from bleu_ls.formats.xliff1 import is_mt_alt_trans
from bleu_ls.formats.xmlscan import decode_xml, sniff_xml

from .xml_oracle import X1, X2, stripped_span, xliff1_units, xliff2_segments

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff"
DRAFT = DATA / "algorea.fr.draft.xlf"
FINAL = DATA / "algorea.fr.final.xlf"
X2FILE = DATA / "angular.fr.xlf2.xlf"


def check_spans(text: str, doc, xliff2: bool = False) -> None:
    """The file text at each target span, stripped by the oracle, is the segment's target;
    every character a run covers is the same character in the file."""
    ns = (X2 if xliff2 else X1)[1:-1] if "xmlns=" in text[:400] else ""
    for s in doc.segments:
        a, b = s.target_span
        assert 0 <= a <= b <= len(text)
        assert stripped_span(text, s.target_span, xliff2, ns) == s.target, s.key
        for r in s.runs:
            assert text[r.file_start:r.file_start + r.length] == s.target[r.text_start:r.text_start + r.length]
            assert a <= r.file_start and r.file_start + r.length <= b
            for k in range(r.text_start, r.text_start + r.length):  # file_offset points at the same character
                assert text[s.file_offset(k)] == s.target[k]
        for i in range(len(s.target) + 1):
            assert a <= s.file_offset(i) <= b
        if not s.runs and s.target and "&" not in text[a:b] and "<" not in text[a:b]:
            # no runs, no markup: the scored text is the file's content, character for character
            assert text[a:b].replace("\r\n", " ").replace("\n", " ") == s.target
        # the line is the line of the target's start (the <target> tag or the insertion point)
        assert s.line == text.count("\n", 0, a if b == a else text.rfind("<", 0, a) if text[a - 1] == ">" else a)


def test_real_xliff12_matches_elementtree():
    for path in (DRAFT, FINAL):
        data = path.read_bytes()
        doc = read_xliff(data, str(path))
        assert doc.format == XLIFF1 and not doc.problems
        oracle = xliff1_units(data)
        # duplicated unit ids are keyed apart (#2) by the reader; the oracle lists them as they come
        keys = [s.key.split("#")[0] for s in doc.segments]
        assert keys == [k for k, _, _ in oracle]
        assert [s.source for s in doc.segments] == [src for _, src, _ in oracle]
        assert [s.target for s in doc.segments] == [t or "" for _, _, t in oracle]
        assert len(set(doc.keys())) == len(doc.segments)
        text, _, _ = decode_xml(data)
        assert doc.text == text  # the text the offsets index
        check_spans(text, doc)


def test_real_xliff12_draft_and_revision_pair_by_key():
    draft = read_xliff(DRAFT.read_bytes())
    final = read_xliff(FINAL.read_bytes())
    fin = {s.key: s for s in final.segments}
    changed = [(s, fin[s.key]) for s in draft.segments if s.key in fin and s.target != fin[s.key].target]
    assert len(changed) == 48
    # the draft's new units carry the source as their target; the revision translates them
    assert all(d.state in ("new", "needs-l10n") and d.target == d.source and f.state == "translated" for d, f in changed)
    assert sum(d.state == "new" for d, _ in changed) == 46
    assert draft.source_lang == "en"


def test_real_xliff12_codes_and_keys():
    doc = read_xliff(DRAFT.read_bytes())
    text, _, _ = decode_xml(DRAFT.read_bytes())
    with_codes = [s for s in doc.segments if s.target_codes]
    assert with_codes
    for s in with_codes:
        for c in s.target_codes:
            assert text[c.span[0]:c.span[1]].startswith("<x ") and c.kind == "x"
            assert s.target_span[0] <= c.span[0] < c.span[1] <= s.target_span[1]
    assert all(s.key.startswith("ng2.template/") for s in doc.segments)
    assert sum(1 for s in doc.segments if s.extra.get("duplicate")) == 3


def test_real_xliff2_matches_elementtree():
    data = X2FILE.read_bytes()
    doc = read_xliff(data)
    assert doc.format == XLIFF2 and not doc.problems
    assert (doc.source_lang, doc.target_lang) == ("en", "fr")
    oracle = xliff2_segments(data)
    assert [(s.key, s.source, s.target) for s in doc.segments] == [(k, src, t or "") for k, src, t in oracle]
    check_spans(decode_xml(data)[0], doc, xliff2=True)
    nested = next(s for s in doc.segments if s.key == "ngi18n/5415448997399451992")
    assert [(c.kind, c.id, c.closing) for c in nested.target_codes] == [
        ("pc", "0", False), ("pc", "1", False), ("pc", "1", True), ("pc", "0", True)]
    assert nested.target == "avec espaces réservés imbriqués"
    assert nested.notes == ("file.ts:11",)


XLIFF12 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file original="a.txt" source-language="en" target-language="de" datatype="plaintext">
  <body>
   <group id="g">
   <trans-unit id="1">
    <source>Hello <g id="1">big</g> &amp; <x id="2"/>world</source>
    <target state="needs-review-translation">Hallo <g id="1">große</g> &amp;
 <x id="2"/>Welt</target>
    <alt-trans origin="Google MT"><target>Hallo grosse Welt</target></alt-trans>
    <note>A note</note>
   </trans-unit>
   </group>
   <trans-unit id="2">
    <source>Press <bpt id="1">&lt;b&gt;</bpt>OK<ept id="1">&lt;/b&gt;</ept>.</source>
   </trans-unit>
   <trans-unit id="3">
    <source>A. B.</source>
    <seg-source><mrk mtype="seg" mid="1">A.</mrk> <mrk mtype="seg" mid="2">B.</mrk></seg-source>
    <target state-qualifier="mt-suggestion"><mrk mtype="seg" mid="1">Ah.</mrk> <mrk mtype="seg" mid="2">Bh<![CDATA[<&>]]>.</mrk></target>
   </trans-unit>
   <trans-unit id="4" translate="no"><source>skip</source><target>skip</target></trans-unit>
   <trans-unit id="5"><source>x</source><target/></trans-unit>
   <trans-unit id="6">
    <source>One. Two.</source>
    <seg-source><mrk mtype="seg" mid="a">One.</mrk> <mrk mtype="seg" mid="b">Two.</mrk></seg-source>
    <alt-trans mid="b" alttranstype="previous-version" origin="MT"><target>not a draft</target></alt-trans>
    <alt-trans mid="b" tool-id="deepl"><target>Zwei MT.</target></alt-trans>
   </trans-unit>
  </body>
 </file>
</xliff>"""


def test_xliff12_structure():
    doc = read_xliff_text(XLIFF12)
    assert not doc.problems
    assert doc.keys() == ["a.txt/1", "a.txt/2", "a.txt/3#1", "a.txt/3#2", "a.txt/5", "a.txt/6#a", "a.txt/6#b"]
    s1, s2, s31, s32, s5, s6a, s6b = doc.segments
    assert s1.target == "Hallo große &  Welt" and s1.source == "Hello big & world"
    assert s1.draft == "Hallo grosse Welt" and s1.state == "needs-review-translation" and s1.notes == ("A note",)
    assert [(c.kind, c.id, c.closing) for c in s1.source_codes] == [("g", "1", False), ("g", "1", True), ("x", "2", False)]
    # no target: an empty span right after </source>
    assert s2.target == "" and s2.target_span[0] == s2.target_span[1]
    assert XLIFF12[:s2.target_span[0]].endswith("</source>")
    assert s2.source == "Press OK." and [c.kind for c in s2.source_codes] == ["bpt", "ept"]
    assert XLIFF12[slice(*s2.source_codes[0].span)] == '<bpt id="1">&lt;b&gt;</bpt>'
    # seg-source: one segment per mrk, the target's mrk with the same mid; the mt-suggestion target is the draft
    assert (s31.source, s31.target, s31.draft) == ("A.", "Ah.", "Ah.")
    assert (s32.source, s32.target) == ("B.", "Bh<&>.")
    assert XLIFF12[slice(*s32.target_span)] == "Bh<![CDATA[<&>]]>."
    assert s31.state_qualifier == "mt-suggestion" and s31.extra["segment_id"] == "1"
    # <target/>: empty span at the end of the element
    assert s5.target == "" and XLIFF12[:s5.target_span[0]].endswith("<target/>")
    # segmented unit without a target: insertion point after </seg-source>; the MT alt-trans of mid b is b's draft
    assert XLIFF12[:s6a.target_span[0]].endswith("</seg-source>")
    assert s6a.draft is None and s6b.draft == "Zwei MT."
    check_spans(XLIFF12, doc)


@pytest.mark.parametrize("attrs,qualifier,mt", [
    ({"origin": "Google MT"}, None, True),
    ({"origin": "machine-trans"}, None, True),
    ({"tool-id": "DeepL"}, None, True),
    ({"tool": "nmt-engine"}, None, True),
    ({"origin": "tm"}, "leveraged-mt", True),
    ({"origin": "Translation memory"}, None, False),
    ({"origin": "smtp-gateway"}, None, False),
    ({"origin": "MT", "alttranstype": "previous-version"}, None, False),
    ({}, None, False),
])
def test_mt_origin(attrs, qualifier, mt):
    assert is_mt_alt_trans(attrs, qualifier) is mt


XLIFF2_DOC = """<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0"
 version="2.2" srcLang="en" trgLang="fr">
 <file id="f1" original="app.json">
  <notes><note>file note</note></notes>
  <unit id="u1">
   <mtc:matches>
     <mtc:match ref="#s2" type="mt"><source>Bye</source><target>Au revoir MT</target></mtc:match>
     <mtc:match ref="#s1" type="tm"><source>Hi</source><target>TM, not MT</target></mtc:match>
     <mtc:match ref="#m1" type="mt"><source>Hi</source><target>Salut MT</target></mtc:match>
   </mtc:matches>
   <notes><note category="x">Greeting</note></notes>
   <originalData><data id="d1">&lt;b&gt;</data></originalData>
   <segment id="s1" state="translated" subState="my:ok">
    <source><mrk id="m1" type="term">Hi</mrk> <pc id="1" dataRefStart="d1">you</pc><ph id="2"/><cp hex="0001"/></source>
    <target>Salut <pc id="1">toi</pc><ph id="2"/></target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2"><source>Bye<sc id="3"/>x<ec startRef="3"/></source></segment>
  </unit>
  <unit id="u2"><segment><source>Alone</source><target>Seul</target></segment></unit>
  <unit id="u3" translate="no"><segment><source>no</source></segment></unit>
 </file>
</xliff>"""


def test_xliff2_structure():
    doc = read_xliff_text(XLIFF2_DOC)
    assert not doc.problems and doc.format == XLIFF2 and doc.header["version"] == "2.2"
    assert doc.keys() == ["f1/u1#s1", "f1/u1#s2", "f1/u2"]
    s1, s2, u2 = doc.segments
    assert (s1.source, s1.target, s1.draft) == ("Hi you\x01", "Salut toi", "Salut MT")
    assert (s1.state, s1.state_qualifier, s1.notes) == ("translated", "my:ok", ("Greeting",))
    assert s2.draft == "Au revoir MT" and s2.target == "" and s2.state is None
    assert XLIFF2_DOC[:s2.target_span[0]].endswith("</source>")
    assert [(c.kind, c.id, c.closing) for c in s2.source_codes] == [("sc", "3", False), ("ec", "3", True)]
    assert u2.target == "Seul" and u2.extra["segment_id"] is None
    check_spans(XLIFF2_DOC, doc, xliff2=True)


def test_not_xliff_and_sniff():
    doc = read_xliff_text("<tmx version='1.4'><body/></tmx>")
    assert doc.segments == [] and "not an XLIFF file" in doc.problems[0].message
    assert sniff_xml(XLIFF12) == "xliff1" and sniff_xml(XLIFF2_DOC) == "xliff2"
    assert sniff_xml('<?xml version="1.0"?>\n<!-- c -->\n<tmx version="1.4">') == "tmx"
    assert sniff_xml("<html>") is None and sniff_xml("plain text") is None


def test_crlf_and_entities_map_back():
    text = XLIFF12.replace("\n", "\r\n")
    doc = read_xliff_text(text)
    assert doc.targets() == read_xliff_text(XLIFF12).targets()
    check_spans(text, doc)


def test_duplicate_unit_ids_keyed_apart():
    t = '<xliff version="1.2"><file original="f"><body>' + \
        '<trans-unit id="a"><source>1</source><target>x</target></trans-unit>' * 3 + '</body></file></xliff>'
    doc = read_xliff_text(t)
    assert doc.keys() == ["f/a", "f/a#2", "f/a#3"] and not doc.problems


def test_partial_read_stops_quietly():
    units = "".join(f'<trans-unit id="{i}"><source>s{i}</source><target>t{i} é</target></trans-unit>\n' for i in range(5000))
    text = f'<xliff version="1.2"><file original="f"><body>\n{units}</body></file></xliff>'
    full = read_xliff_text(text)
    part = read_xliff_text(text, max_segments=100)
    assert part.header.get("partial") == "true" and not part.problems
    assert 100 <= len(part.segments) < 5000
    assert part.segments == full.segments[:len(part.segments)]
    assert "partial" not in read_xliff_text(text, max_segments=10**6).header
    assert read_xliff(text.encode("utf-16"), max_segments=10).segments[:10] == full.segments[:10]


def test_state_edit_sets_the_state_where_the_format_keeps_it():
    from bleu_ls.formats.xliff import state_edit

    def apply(text, seg, value):
        a, b, new = state_edit(text, seg, value)
        return text[:a] + new + text[b:]

    doc = read_xliff_text(XLIFF12)
    s1 = doc.segments[0]  # state="needs-review-translation"
    t = apply(XLIFF12, s1, "translated")
    d = read_xliff_text(t)
    assert d.segments[0].state == "translated" and d.targets() == doc.targets()
    s31 = doc.segments[2]  # a target with a state-qualifier and no state
    t = apply(XLIFF12, s31, "final")
    d = read_xliff_text(t)
    assert (d.segments[2].state, d.segments[2].state_qualifier) == ("final", "mt-suggestion")
    assert d.segments[3].state == "final"  # the other mrk segment of the same target
    s5 = doc.segments[4]  # <target/>
    d = read_xliff_text(apply(XLIFF12, s5, "translated"))
    assert d.segments[4].state == "translated" and d.segments[4].target == ""
    assert state_edit(XLIFF12, doc.segments[1], "translated") is None  # no target to hold it
    doc2 = read_xliff_text(XLIFF2_DOC)
    d2 = read_xliff_text(apply(XLIFF2_DOC, doc2.segments[0], "final"))
    assert (d2.segments[0].state, d2.segments[0].state_qualifier) == ("final", "my:ok")
    d2 = read_xliff_text(apply(XLIFF2_DOC, doc2.segments[1], "reviewed"))
    assert d2.segments[1].state == "reviewed" and d2.targets() == doc2.targets()
