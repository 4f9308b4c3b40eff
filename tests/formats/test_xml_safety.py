"""The XML layer under bad and hostile input: no entity expansion, no file read, no exception."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bleu_ls.formats.tmx import read_tmx, read_tmx_text
from bleu_ls.formats.xliff import read_xliff, read_xliff_text
from bleu_ls.formats.xmlscan import decode_xml

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"

LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE xliff [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<xliff version="1.2"><file original="f"><body>
<trans-unit id="1"><source>a</source><target>&lol9;</target></trans-unit>
</body></file></xliff>"""


def test_billion_laughs_is_refused_quickly():
    t0 = time.perf_counter()
    doc = read_xliff_text(LAUGHS)
    assert time.perf_counter() - t0 < 1.0
    assert doc.segments == []
    (p,) = doc.problems
    assert "declares an entity" in p.message and p.line == 2  # the first <!ENTITY
    # bytes and TMX alike
    assert read_xliff(LAUGHS.encode()).problems[-1].message == p.message
    assert "declares an entity" in read_tmx_text(LAUGHS.replace("xliff", "tmx")).problems[0].message


def test_system_entity_never_reads_the_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    for target in (str(secret), "/etc/passwd", "http://127.0.0.1:9/x"):
        text = f"""<?xml version="1.0"?>
<!DOCTYPE xliff [ <!ENTITY xxe SYSTEM "file://{target}"> ]>
<xliff version="1.2"><file original="f"><body>
<trans-unit id="1"><source>a</source><target>&xxe;</target></trans-unit>
</body></file></xliff>"""
        doc = read_xliff_text(text)
        blob = repr(doc)
        assert "TOP-SECRET" not in blob and "root:" not in blob
        assert doc.segments == [] and "declares an entity" in doc.problems[0].message


def test_external_dtd_is_not_loaded_and_undeclared_entities_stay_literal():
    text = """<?xml version="1.0"?>
<!DOCTYPE xliff PUBLIC "-//XLIFF//DTD XLIFF//EN" "http://www.oasis-open.org/committees/xliff/documents/xliff.dtd">
<xliff version="1.2"><file original="f"><body>
<trans-unit id="1"><source>a&nbsp;b</source><target>c&nbsp;d</target></trans-unit>
</body></file></xliff>"""
    doc = read_xliff_text(text)
    assert not doc.problems
    assert doc.segments[0].target == "c&nbsp;d" and doc.segments[0].source == "a&nbsp;b"


def test_undefined_entity_without_dtd_is_a_problem():
    doc = read_xliff_text('<xliff version="1.2"><file original="f"><body><trans-unit id="1"><source>a</source>'
                          '<target>&nbsp;</target></trans-unit></body></file></xliff>')
    assert doc.segments == [] and "undefined entity" in doc.problems[0].message


UNIT = '<trans-unit id="{i}"><source>Zürich {i}</source><target>Zürich östlich 東京 {i}</target></trans-unit>\n'


def _xliff(decl_encoding: str | None = None, n: int = 3) -> str:
    decl = f'<?xml version="1.0" encoding="{decl_encoding}"?>\n' if decl_encoding else ""
    return decl + '<xliff version="1.2"><file original="f"><body>\n' + "".join(UNIT.format(i=i) for i in range(n)) + \
        "</body></file></xliff>\n"


@pytest.mark.parametrize("codec,decl,bom", [
    ("utf-16-le", "UTF-16", b"\xff\xfe"),
    ("utf-16-be", "UTF-16", b"\xfe\xff"),
    ("utf-16-le", "UTF-16", b""),
    ("utf-16-be", "UTF-16", b""),
    ("utf-8", "UTF-8", b"\xef\xbb\xbf"),
    ("utf-32-le", "UTF-32", b"\xff\xfe\x00\x00"),
])
def test_utf16_and_boms(codec, decl, bom):
    text = _xliff(decl)
    data = bom + text.encode(codec)
    doc = read_xliff(data)
    assert not doc.problems, doc.problems
    assert doc.targets() == ["Zürich östlich 東京 0", "Zürich östlich 東京 1", "Zürich östlich 東京 2"]
    decoded, enc, problem = decode_xml(data)
    assert decoded == text and problem is None
    for s in doc.segments:  # offsets index the decoded text (the mark left out)
        assert decoded[slice(*s.target_span)] == s.target


def test_text_given_with_a_utf16_declaration_is_read_as_text():
    # the server hands over decoded text: the declaration's encoding no longer applies
    doc = read_xliff_text(_xliff("UTF-16"))
    assert not doc.problems and len(doc.segments) == 3


@pytest.mark.parametrize("codec", ["iso-8859-1", "windows-1252", "iso-8859-15"])
def test_declared_single_byte_encodings(codec):
    text = _xliff(codec).replace("東京", "Straße")
    doc = read_xliff(text.encode(codec))
    assert not doc.problems and doc.targets()[0] == "Zürich östlich Straße 0"


def test_shift_jis_declared():
    text = _xliff("Shift_JIS").replace("Zürich östlich ", "").replace("Zürich ", "")
    doc = read_xliff(text.encode("shift_jis"))
    assert not doc.problems and doc.targets()[1] == "東京 1"


def test_bad_bytes_and_unknown_encoding_are_said_not_raised():
    doc = read_xliff(_xliff().encode("utf-8").replace("東".encode(), b"\xff\xfe\xfa"))
    assert "not valid utf-8" in doc.problems[0].message and len(doc.segments) == 3
    doc = read_xliff(_xliff("x-no-such-codec").encode())
    assert "not known" in doc.problems[0].message and len(doc.segments) == 3


def test_every_prefix_of_a_real_xliff2_file():
    text = (DATA / "xliff" / "angular.fr.xlf2.xlf").read_text("utf-8")
    full = read_xliff_text(text)
    ends = {}  # segment key -> offset after its </unit>
    for s in full.segments:
        e = text.find("</unit>", s.target_span[1]) + len("</unit>")
        ends[s.key] = e
    for cut in range(len(text.rstrip())):  # every prefix, each one cut before the root closes
        doc = read_xliff_text(text[:cut])
        n = len(doc.segments)
        assert doc.segments == full.segments[:n]
        assert n == sum(1 for e in ends.values() if e <= cut), cut
        assert len(doc.problems) == 1
        p = doc.problems[0]
        assert 0 <= p.offset <= cut and p.message.startswith(("The XML is not well-formed", "This is not an XLIFF"))


def test_prefixes_of_a_real_xliff12_file_and_a_tmx():
    text = (DATA / "xliff" / "algorea.fr.draft.xlf").read_text("utf-8")
    full = read_xliff_text(text)
    for cut in range(0, len(text), 997):
        doc = read_xliff_text(text[:cut])
        n = len(doc.segments)
        assert doc.segments == full.segments[:n] and len(doc.problems) == 1
        closed = text.count("</trans-unit>", 0, cut)
        assert n == closed
    text = (DATA / "tmx" / "sample.tmx").read_text("utf-8")
    full = read_tmx_text(text)
    for cut in range(len(text.rstrip())):
        doc = read_tmx_text(text[:cut])
        assert doc.segments == full.segments[:len(doc.segments)] and len(doc.problems) == 1


def test_half_typed_tag_inside_a_target_keeps_the_units_before():
    good = _xliff(n=4)
    i = good.index("東京 2")
    bad = good[:i] + "<g id=" + good[i:]
    doc = read_xliff_text(bad)
    assert len(doc.segments) == 2 and len(doc.problems) == 1
    p = doc.problems[0]
    assert p.line == bad.count("\n", 0, p.offset) and bad[p.offset - p.column - 1] in "\n"
    tag = bad.index("<g id=")
    assert tag <= p.offset <= tag + len("<g id=")
    assert p.message == f"The XML is not well-formed at line 4, column {p.column + 1}: invalid token."
    # an unclosed element at the end: everything read, one problem at the end
    doc = read_xliff_text(good.replace("</body></file></xliff>\n", ""))
    assert len(doc.segments) == 4 and "not well-formed" in doc.problems[0].message


def test_garbage_never_raises():
    for junk in ("", "   ", "<", "<?xml", "<xliff", "\x00\x01", "<a><b></a>", "&", "<xliff version='1.2'>&#0;</xliff>",
                 "<" * 10000, "<a>" * 5000, "<xliff version='1.2'>" + "<group>" * 3000):
        read_xliff_text(junk)
        read_tmx_text(junk)
        read_xliff(junk.encode())
        read_tmx(junk.encode("utf-16"))


def test_a_text_that_keeps_its_byte_order_mark():
    # a buffer decoded without stripping the mark: offsets still index that very text
    text = "\ufeff" + _xliff("UTF-8")
    doc = read_xliff_text(text)
    assert not doc.problems and len(doc.segments) == 3
    for s in doc.segments:
        assert text[slice(*s.target_span)] == s.target


def test_a_reader_bug_is_one_sentence_not_a_traceback(monkeypatch):
    from bleu_ls.formats import xliff

    def boom(self, off):
        raise KeyError("oops")

    monkeypatch.setattr(xliff._Reader, "_end_unit1", boom)
    doc = read_xliff_text(_xliff())
    assert doc.segments == [] and "internal error" in doc.problems[0].message
