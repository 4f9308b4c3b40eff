"""Hostile and broken glossaries: never an exception, nothing fetched or expanded, one sentence naming the place."""

from __future__ import annotations

import socket
import time
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from bleu_ls.formats.glossary import read as glossary_read
from bleu_ls.formats.glossary.read import MAX_BYTES, read_glossary, read_glossary_bytes

NOT_USED = "the glossary is not used"

HEAD = '<tbx xmlns="urn:iso:std:iso:30042:ed-2" xml:lang="en">\n<text><body>\n'
ENTRY = ('<conceptEntry id="c1"><langSec xml:lang="en"><termSec><term>file</term></termSec></langSec>'
         '<langSec xml:lang="de"><termSec><term>Datei</term></termSec></langSec></conceptEntry>\n')
TAIL = "</body></text></tbx>\n"
GOOD = HEAD + ENTRY + TAIL


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection or a URL is recorded (and refused): the test asserts none came."""
    touched: list[str] = []

    def refuse(*a, **k):
        touched.append(repr(a))
        raise OSError("network refused by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    return touched


def _line_col(text: str, i: int) -> tuple[int, int]:
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def _fatal(g, sentence):
    assert g.concepts == []
    assert g.problems == [sentence]


def test_billion_laughs_is_refused_quickly(no_network):
    laughs = ['<?xml version="1.0"?>', "<!DOCTYPE tbx [", ' <!ENTITY lol "lol">']
    for i in range(1, 10):
        laughs.append(f' <!ENTITY lol{i} "' + f"&lol{i - 1 if i > 1 else ''};" * 10 + '">')
    laughs += ["]>", HEAD.strip(), ENTRY.replace("Datei", "&lol9;") + TAIL]
    text = "\n".join(laughs).replace("&lol0;", "&lol;")
    t0 = time.perf_counter()
    g = read_glossary_bytes(text.encode(), "bomb.tbx")
    assert time.perf_counter() - t0 < 1.0
    line, col = _line_col(text, text.index("<!ENTITY"))
    assert (line, col) == (3, 2)
    _fatal(g, f"bomb.tbx: line {line}, column {col}: the file declares an entity (<!ENTITY lol …>); entities are never "
              f"expanded nor fetched; {NOT_USED}")
    assert not no_network


def test_system_entity_is_never_read(no_network, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    for target in (f"file://{secret}", "file:///etc/passwd", "http://127.0.0.1:9/x"):
        text = f'<?xml version="1.0"?>\n<!DOCTYPE tbx [ <!ENTITY xxe SYSTEM "{target}"> ]>\n' + \
            GOOD.replace("Datei", "&xxe;")
        g = read_glossary_bytes(text.encode(), "xxe.tbx")
        assert "TOP-SECRET" not in repr(g) and "root:" not in repr(g)
        line, col = _line_col(text, text.index("<!ENTITY"))
        assert (line, col) == (2, 17)
        _fatal(g, f"xxe.tbx: line {line}, column {col}: the file declares an entity (<!ENTITY xxe …>); entities are never "
                  f"expanded nor fetched; {NOT_USED}")
    assert not no_network


def test_external_dtd_and_xml_model_urls_are_not_fetched(no_network):
    text = ('<?xml version="1.0"?>\n'
            '<?xml-model href="http://127.0.0.1:9/TBX-Basic.rng" type="application/xml" '
            'schematypens="http://relaxng.org/ns/structure/1.0"?>\n'
            '<!DOCTYPE martif SYSTEM "http://127.0.0.1:9/TBXcoreStructV02.dtd">\n'
            '<martif type="TBX" xml:lang="en" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="urn:x http://127.0.0.1:9/schema.xsd"><text><body>\n'
            '<termEntry id="e1"><langSet xml:lang="en"><tig><term>a&nbsp;b</term></tig></langSet>'
            '<langSet xml:lang="fr"><tig><term>c</term></tig></langSet></termEntry>\n'
            "</body></text></martif>\n")
    g = read_glossary_bytes(text.encode(), "remote.tbx")
    assert g.problems == []
    # an entity that the (unread) external DTD may define stays as its literal text
    assert [(t.text, t.lang) for t in g.concepts[0].terms] == [("a&nbsp;b", "en"), ("c", "fr")]
    assert not no_network


def _et_position(text: str) -> tuple[int, int]:
    with pytest.raises(ET.ParseError) as e:
        ET.fromstring(text)
    line, col = e.value.position
    return line, col + 1


def test_malformed_xml_names_line_and_column():
    text = HEAD + '<conceptEntry id="1"></langSec>\n' + TAIL
    line, col = _et_position(text)
    assert line == 3
    g = read_glossary_bytes(text.encode(), "glossary.tbx")
    _fatal(g, f"glossary.tbx: line {line}, column {col}: not well-formed XML (mismatched tag); {NOT_USED}")


def test_truncated_file(tmp_path):
    text = GOOD[: len(GOOD) // 2]
    line, col = _et_position(text)
    path = tmp_path / "cut.tbx"
    path.write_text(text, encoding="utf-8")
    g = read_glossary(str(path))
    assert g.concepts == [] and len(g.problems) == 1
    assert g.problems[0].startswith(f"{path}: line {line}, column {col}: not well-formed XML (")
    assert g.problems[0].endswith(f"); {NOT_USED}")


def test_tbx_not_utf8_says_the_line():
    data = GOOD.replace("Datei", "D\xe4tei").encode("latin-1")  # no declaration: UTF-8, and it is not
    _fatal(read_glossary_bytes(data, "latin.tbx"),
           "latin.tbx: line 3: the file is not valid utf-8 text (the encoding its XML declaration names, "
           f"UTF-8 if none); {NOT_USED}")


def test_tbx_in_a_declared_single_byte_encoding_is_read():
    text = '<?xml version="1.0" encoding="windows-1252"?>\n' + GOOD.replace("Datei", "Dätei")
    g = read_glossary_bytes(text.encode("windows-1252"), "cp1252.tbx")
    assert g.problems == [] and [t.text for t in g.concepts[0].terms] == ["file", "Dätei"]


def test_boms():
    g = read_glossary_bytes(b"\xef\xbb\xbf" + GOOD.encode(), "bom.tbx")
    assert g.problems == [] and len(g.concepts) == 1
    g = read_glossary_bytes(b"\xff\xfe" + GOOD.encode("utf-16-le"), "utf16.tbx")
    assert g.problems == [] and [t.text for t in g.concepts[0].terms] == ["file", "Datei"]
    g = read_glossary_bytes(b"\xef\xbb\xbfen,de\nfile,Datei\n", "bom.csv")
    assert g.problems == [] and g.languages == ("en", "de")
    _fatal(read_glossary_bytes("en,de\nfile,Datei\n".encode("utf-16"), "utf16.csv"),
           "utf16.csv: the file is UTF-16 text (it starts with a UTF-16 byte-order mark), not UTF-8; "
           f"save it as UTF-8; {NOT_USED}")


def test_csv_not_utf8_says_the_line():
    data = "en,de\nfile,Datei\nfolder,Verzeichnis\nsize,Gr\xf6\xdfe\n".encode("latin-1")
    _fatal(read_glossary_bytes(data, "terms.csv"),
           f"terms.csv: line 4: the file is not UTF-8 (byte 0xf6 at byte 8 of the line); save it as UTF-8; {NOT_USED}")


def test_unknown_csv_column_is_fatal_and_named():
    _fatal(read_glossary_bytes(b"en,de,term\nfile,Datei,x\n", "terms.csv"),
           'terms.csv: line 1: unknown column "term" in the header (expected language codes such as en, de-DE, '
           f"pt_BR, and optionally status and note); {NOT_USED}")
    _fatal(read_glossary_bytes(b"status,note\npreferred,x\n", "terms.csv"),
           "terms.csv: line 1: the header names no language column (expected language codes such as en, de-DE, "
           f"pt_BR, and optionally status and note); {NOT_USED}")
    _fatal(read_glossary_bytes(b"en,de,EN\na,b,c\n", "terms.csv"),
           f'terms.csv: line 1: the header names "EN" twice (columns 1 and 3); {NOT_USED}')


def test_ragged_rows_are_skipped_five_said_then_counted():
    rows = ["en,de,status", "file,Datei,"]
    rows += [f"bad{i},x" for i in range(7)]  # lines 3..9: two cells, the header three
    rows += ["folder,Ordner,forbidden"]
    g = read_glossary_bytes(("\n".join(rows) + "\n").encode(), "terms.csv")
    assert [[t.text for t in c.terms] for c in g.concepts] == [["file", "Datei"], ["folder", "Ordner"]]
    assert g.problems == [f"terms.csv: line {n}: the row has 2 cells, the header 3; the row is skipped"
                          for n in range(3, 8)] + ["terms.csv: and 2 more rows skipped"]


def test_unknown_status_skips_the_row():
    g = read_glossary_bytes(b"en,de,status\nfile,Datei,\nfolder,Ordner,prefered\n", "terms.csv")
    assert len(g.concepts) == 1
    assert g.problems == ['terms.csv: line 3: unknown status "prefered" (expected preferred, admitted, forbidden, '
                          "deprecated, do-not-translate); the row is skipped"]


@pytest.mark.parametrize("data", [b"", b"   \n\n", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("name", ["empty.tbx", "empty.csv", "empty.tsv", "empty.txt", "empty"])
def test_empty_file(data, name):
    _fatal(read_glossary_bytes(data, name), f"{name}: the file is empty; {NOT_USED}")


def test_directory_and_missing_file(tmp_path):
    _fatal(read_glossary(str(tmp_path)), f"{tmp_path}: this is a directory, not a glossary file; {NOT_USED}")
    missing = tmp_path / "nope.tbx"
    _fatal(read_glossary(str(missing)), f"{missing}: the file does not exist; {NOT_USED}")


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "locked.csv"
    path.write_text("en,de\na,b\n")

    def deny(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", deny)
    _fatal(read_glossary(str(path)), f"{path}: the file cannot be read (Permission denied); {NOT_USED}")


def test_a_file_over_the_limit_is_not_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.tbx"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: nothing written
    reads: list[str] = []
    monkeypatch.setattr(glossary_read, "read_glossary_bytes", lambda *a, **k: reads.append("read"))
    _fatal(read_glossary(str(path)),
           f"{path}: the file is 50.0 MB, over the 50 MB limit for a glossary; it is not read; {NOT_USED}")
    assert reads == []


def test_xml_that_is_not_tbx():
    _fatal(read_glossary_bytes(b'<?xml version="1.0"?>\n<xliff version="1.2"><file/></xliff>', "x.xml"),
           f"x.xml: line 2: the root element is <xliff>, not <tbx> (TBX 2019) or <martif> (TBX 2008): this is not "
           f"a TBX glossary; {NOT_USED}")


def test_undefined_entity_without_dtd_is_malformed():
    text = GOOD.replace("Datei", "&nbsp;")
    line, col = _et_position(text)
    _fatal(read_glossary_bytes(text.encode(), "g.tbx"),
           f"g.tbx: line {line}, column {col}: not well-formed XML (undefined entity); {NOT_USED}")


def test_unknown_administrative_status_skips_the_term():
    text = GOOD.replace("<term>Datei</term>", '<term>Datei</term><termNote type="administrativeStatus">'
                                              "deprecatedTermadmnsts</termNote>")
    g = read_glossary_bytes(text.encode(), "g.tbx")
    assert [t.text for t in g.concepts[0].terms] == ["file"]
    assert g.problems == ['g.tbx: line 3: the term "Datei" has an unknown administrative status '
                          '"deprecatedTermadmnsts" (expected preferredTerm-admn-sts, admittedTerm-admn-sts, '
                          "deprecatedTerm-admn-sts or supersededTerm-admn-sts); the term is skipped"]
