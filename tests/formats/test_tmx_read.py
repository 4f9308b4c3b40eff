"""TMX read into segments: cross-checked against ElementTree, spans checked against the file."""

from __future__ import annotations

from pathlib import Path

from bleu_ls.formats.model import TMX
from bleu_ls.formats.tmx import read_tmx, read_tmx_text
from bleu_ls.formats.xmlscan import decode_xml

from .xml_oracle import stripped_span, tmx_segments

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "tmx"


def _spans(text, doc):
    for s in doc.segments:
        assert stripped_span(text, s.target_span) == s.target
        for r in s.runs:
            assert text[r.file_start:r.file_start + r.length] == s.target[r.text_start:r.text_start + r.length]
        assert s.line == text.count("\n", 0, text.rfind("<seg", 0, s.target_span[0] + 1))


def test_real_tmx_matches_elementtree():
    for name in ("sample.tmx", "mixed-languages.tmx"):
        data = (DATA / name).read_bytes()
        doc = read_tmx(data)
        assert doc.format == TMX and not doc.problems
        oracle = tmx_segments(data)
        assert [(s.key, s.source, s.target, s.extra["lang"]) for s in doc.segments] == oracle
        assert len(set(doc.keys())) == len(doc.keys())
        _spans(decode_xml(data)[0], doc)
    doc = read_tmx((DATA / "sample.tmx").read_bytes())
    assert doc.source_lang == "en-US" and doc.target_lang is None  # fr-FR and es-ES
    first = doc.segments[0]
    assert first.notes == ("tu note",) and first.source == "Hello, how are you?"
    assert first.extra["source_lang"] == "en-US" and first.extra["tuid"] is None


TMX_DOC = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="EN-us" creationtool="t" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext"/>
<body>
<tu tuid="42"><note>tu note</note>
 <tuv xml:lang="de-DE"><seg>Hallo <bpt i="1" x="1">&lt;b&gt;</bpt>Welt<ept i="1">&lt;/b&gt;</ept> <hi type="x">hier</hi> <ph x="2">{0}</ph></seg></tuv>
 <tuv xml:lang="en-US"><seg>Hello <bpt i="1" x="1">&lt;b&gt;</bpt>world<ept i="1">&lt;/b&gt;</ept> <hi>here</hi> <ph x="2">{0}</ph></seg></tuv>
 <tuv xml:lang="de-DE"><prop type="x-alt">2</prop><seg>Servus Welt</seg></tuv>
</tu>
<tu><tuv lang="EN"><seg>Bye</seg></tuv><tuv lang="FR"><seg/></tuv></tu>
<tu srclang="fr"><tuv xml:lang="en"><seg>Yes</seg></tuv><tuv xml:lang="fr"><seg>Oui</seg></tuv></tu>
<tu tuid="42"><tuv xml:lang="en"><seg>Again</seg></tuv><tuv xml:lang="de"><seg>Nochmal</seg></tuv></tu>
</body></tmx>"""


def test_tmx_structure():
    doc = read_tmx_text(TMX_DOC)
    assert not doc.problems
    assert doc.keys() == ["42", "42#2", "#2", "#3", "42~2"]
    a, b, c, d, e = doc.segments
    # the source is the srclang tuv even when it is not first; case-blind language match
    assert (a.source, a.target) == ("Hello world here ", "Hallo Welt hier ")
    assert [(x.kind, x.id, x.closing) for x in a.target_codes] == [("bpt", "1", False), ("ept", "1", True), ("ph", "2", False)]
    assert TMX_DOC[slice(*a.target_codes[2].span)] == '<ph x="2">{0}</ph>'
    # a tu with two targets: two segments with the same tuid, for pairing by tuid
    assert (b.target, b.extra["tuid"], b.extra["alternative"]) == ("Servus Welt", "42", 2)
    # TMX 1.1 lang; primary-subtag match of EN-us against EN; empty seg
    assert (c.source, c.target, c.extra["lang"]) == ("Bye", "", "FR")
    assert TMX_DOC[:c.target_span[0]].endswith('<seg/>') and c.target_span[0] == c.target_span[1]
    # a tu's own srclang wins over the header's
    assert (d.source, d.target) == ("Oui", "Yes")
    assert e.extra["duplicate"] == 2
    _spans(TMX_DOC, doc)


def test_not_tmx():
    doc = read_tmx_text('<xliff version="1.2"/>')
    assert doc.segments == [] and "not a TMX file" in doc.problems[0].message
