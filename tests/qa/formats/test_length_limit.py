"""``length-limit`` on XLIFF: the limits the readers put in each segment (XLIFF 1.2 ``maxwidth`` /
``size-unit`` / ``maxbytes`` with a group's inherited, XLIFF 2 ``slr:`` restrictions under the file's
profiles) and the finding on the target, held against ElementTree on real Business Central files."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bleu_ls.config.settings import Settings
from bleu_ls.formats.live.xml_reread import apply_edit
from bleu_ls.formats.xliff import read_xliff, read_xliff_text
from bleu_ls.formats.xml_facts import BYTES, CHARS, Limit
from bleu_ls.qa.formats.format_checks import findings_for
from bleu_ls.qa.formats.xml_checks import check_document, check_length

from ...formats.xml_oracle import X1, strip

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "xliff"
REAL = sorted(DATA.glob("nab-al-tools.*.maxwidth.xlf"))
SLR = "urn:oasis:names:tc:xliff:sizerestriction:2.0"


def limits(doc) -> dict:
    return {s.key: s.extra.get("limits") for s in doc.segments}


def x1(body: str, decl: str = '<?xml version="1.0" encoding="UTF-8"?>\n') -> str:
    return (f'{decl}<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
            f'<file original="f" source-language="en" target-language="de"><body>{body}</body></file></xliff>')


def tu(i, target, attrs="", source="Save"):
    return f'<trans-unit id="{i}"{attrs}><source>{source}</source><target>{target}</target></trans-unit>'


# -- what the XLIFF 1.2 reader keeps -----------------------------------------------------------
def test_maxwidth_in_chars_or_bytes_maxbytes_and_the_pixel_default():
    doc = read_xliff_text(x1(
        tu(1, "a", ' maxwidth="10" size-unit="char"')
        + tu(2, "a", ' maxwidth="10"')  # size-unit defaults to pixel: cannot be counted
        + tu(3, "a", ' maxwidth="10" size-unit="point"')
        + tu(4, "a", ' maxwidth="12" size-unit="byte" maxbytes="20"')
        + tu(5, "a", ' maxwidth="0" size-unit="char"')  # Business Central: no MaxLength
        + tu(6, "a", ' maxwidth="ten" size-unit="char"')
        + tu(7, "a")))
    assert limits(doc) == {
        "f/1": (Limit(CHARS, 10, "maxwidth"),),
        "f/2": None, "f/3": None,
        "f/4": (Limit(BYTES, 12, "maxwidth", "utf-8"), Limit(BYTES, 20, "maxbytes", "utf-8")),
        "f/5": None, "f/6": None, "f/7": None,
    }
    assert "limits" not in doc.segments[1].extra and "limits" in doc.segments[0].extra


def test_a_groups_limits_are_inherited_and_a_units_own_win():
    doc = read_xliff_text(x1(
        '<group id="g" maxwidth="8" size-unit="char">'
        + tu(1, "a")
        + '<group id="h" maxbytes="30">' + tu(2, "a") + '</group>'
        + tu(3, "a", ' maxwidth="20"')  # its own width, the group's unit
        + '</group>'
        + tu(4, "a")))
    assert limits(doc) == {
        "f/1": (Limit(CHARS, 8, "maxwidth"),),
        "f/2": (Limit(CHARS, 8, "maxwidth"), Limit(BYTES, 30, "maxbytes")),
        "f/3": (Limit(CHARS, 20, "maxwidth"),),
        "f/4": None,  # after the group: nothing inherited
    }


def test_maxbytes_counts_in_the_declared_encoding():
    text = x1(tu(1, "Größe", ' maxbytes="5"'), decl='<?xml version="1.0" encoding="ISO-8859-1"?>\n')
    doc = read_xliff(text.encode("iso-8859-1"))
    [s] = doc.segments
    assert s.extra["limits"] == (Limit(BYTES, 5, "maxbytes", "iso-8859-1"),)
    assert check_length(s) == []  # five Latin-1 bytes
    doc8 = read_xliff_text(x1(tu(1, "Größe", ' maxbytes="5"')))
    [f] = check_length(doc8.segments[0])
    assert f.message == "The target is 7 bytes in UTF-8, the limit is 5 (maxbytes)."


def test_inline_codes_count_nothing_and_their_paired_text_counts():
    # target text: "Open " + "file" (inside <g>) + "" (<x/>) = 9 characters
    body = ('<trans-unit id="1" maxwidth="9" size-unit="char"><source>Open <g id="1">file</g><x id="2"/></source>'
            '<target>Open <g id="1">file</g><x id="2"/></target></trans-unit>'
            '<trans-unit id="2" maxwidth="8" size-unit="char"><source>a</source>'
            '<target>Open <bpt id="1">&lt;b&gt;</bpt>file<ept id="1">&lt;/b&gt;</ept></target></trans-unit>')
    doc = read_xliff_text(x1(body))
    assert [s.target for s in doc.segments] == ["Open file", "Open file"]
    assert check_length(doc.segments[0]) == []
    [f] = check_length(doc.segments[1])
    assert f.message == "The target is 9 characters, the limit is 8 (maxwidth)."


def test_the_finding_sits_on_the_target_with_the_rows_severity():
    text = x1(tu(1, "Speichern unter", ' maxwidth="10" size-unit="char"') + tu(2, "", ' maxwidth="1" size-unit="char"'))
    doc = read_xliff_text(text)
    [f] = check_length(doc.segments[0])
    assert (f.code, f.severity) == ("length-limit", "warning")
    assert text[f.span[0]:f.span[1]] == "Speichern unter"
    assert f.message == "The target is 15 characters, the limit is 10 (maxwidth)."
    assert f.data == {"length": 15, "limit": 10, "unit": "chars", "by": "maxwidth"}
    assert check_length(doc.segments[1]) == []  # an empty target: target-empty's
    s = Settings()
    s.diagnostics.length_limit.severity = "error"
    assert [(g.code, g.severity) for g in findings_for(doc, s) if g.code == "length-limit"] == [("length-limit", "error")]
    s.diagnostics.length_limit.enabled = False
    assert [g for g in findings_for(doc, s) if g.code == "length-limit"] == []


# -- XLIFF 2: the Size and Length Restriction module -----------------------------------------------
def x2(file_extra: str, units: str, file_attrs: str = "") -> str:
    return (f'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:slr="{SLR}" version="2.1" srcLang="en" '
            f'trgLang="de"><file id="f"{file_attrs}>{file_extra}{units}</file></xliff>')


def u2(i, target, attrs=""):
    return f'<unit id="{i}"{attrs}><segment><source>Hi</source><target>{target}</target></segment></unit>'


def test_slr_restrictions_under_the_default_profiles():
    doc = read_xliff_text(x2("", u2(1, "Hallo", ' slr:sizeRestriction="4"') + u2(2, "Grüße", ' slr:storageRestriction="6"')
                             + u2(3, "Hallo")))
    assert limits(doc) == {"f/1": (Limit(CHARS, 4, "slr:sizeRestriction"),),
                           "f/2": (Limit(BYTES, 6, "slr:storageRestriction", "utf-8"),), "f/3": None}
    msgs = {k: [f.message for f in fs if f.code == "length-limit"] for k, fs in check_document(doc).items()
            if any(f.code == "length-limit" for f in fs)}
    assert msgs == {"f/1": ["The target is 5 characters, the limit is 4 (slr:sizeRestriction)."],
                    "f/2": ["The target is 7 bytes in UTF-8, the limit is 6 (slr:storageRestriction)."]}


def test_slr_profiles_normalisation_file_and_group_restrictions():
    profiles = ('<slr:profiles generalProfile="xliff:codepoints" storageProfile="xliff:utf16">'
                '<slr:normalization general="nfd" storage="none"/></slr:profiles>')
    units = (u2(1, "é", ' slr:sizeRestriction="1"')
             + '<group id="g" slr:sizeRestriction="3">' + u2(2, "abcd") + '</group>'
             + u2(3, "abc"))
    doc = read_xliff_text(x2(profiles, units, ' slr:storageRestriction="10"'))
    storage = Limit(BYTES, 10, "slr:storageRestriction", "utf-16")
    assert limits(doc) == {
        "f/1": (Limit(CHARS, 1, "slr:sizeRestriction", normalization="NFD"), storage),
        "f/2": (Limit(CHARS, 3, "slr:sizeRestriction", normalization="NFD"), storage),
        "f/3": (storage,),
    }
    found = {k: [f.message for f in fs if f.code == "length-limit"] for k, fs in check_document(doc).items()}
    assert found["f/1"] == ["The target is 2 characters, the limit is 1 (slr:sizeRestriction)."]  # é is e + ◌́ in NFD
    assert found["f/2"] == ["The target is 4 characters, the limit is 3 (slr:sizeRestriction)."]
    assert not found.get("f/3")  # 6 bytes of UTF-16


def test_an_unknown_profile_is_not_checked():
    doc = read_xliff_text(x2('<slr:profiles generalProfile="x-pixels" storageProfile=""/>',
                             u2(1, "Hallo Welt", ' slr:sizeRestriction="1" slr:storageRestriction="1"')))
    assert limits(doc) == {"f/1": None}
    assert check_document(doc) == {}


# -- the live index: a unit read again alone keeps what it inherits --------------------------------
def test_a_unit_read_again_alone_keeps_its_groups_limits():
    text = x1('<group id="g" maxwidth="8" size-unit="char">' + tu(1, "kurz") + tu(2, "auch") + tu(3, "ja") + '</group>')
    doc = read_xliff_text(text)
    at = text.index("auch") + len("auch")
    new = text[:at] + " viel zu lang" + text[at:]
    doc2, alone = apply_edit(new, doc, at, at, at + len(" viel zu lang"))
    assert alone  # only the touched unit was read
    fresh = read_xliff_text(new)
    assert limits(doc2) == limits(fresh) == {k: (Limit(CHARS, 8, "maxwidth"),) for k in ("f/1", "f/2", "f/3")}
    [f] = check_length(doc2.segments[1])
    assert f.message == "The target is 17 characters, the limit is 8 (maxwidth)."


# -- real Business Central files against ElementTree ------------------------------------------------
def oracle(path: Path, lowered: int = 0) -> dict:
    """key -> (length, limit) of every unit over its char maxwidth, read with ElementTree: a unit's
    first target's text with codes stripped, ``maxwidth`` lowered by ``lowered`` (at least 1)."""
    root = ET.parse(path).getroot()
    out = {}
    for f in root.iter(X1 + "file"):
        for unit in f.iter(X1 + "trans-unit"):
            if unit.get("translate") == "no" or unit.get("size-unit") != "char":
                continue
            width = int(unit.get("maxwidth") or 0)
            target = unit.find(X1 + "target")
            if width <= 0 or target is None:
                continue
            width = max(1, width - lowered)
            n = len(strip(target))
            if n > width:
                out[f"{f.get('original')}/{unit.get('id')}"] = (n, width)
    return out


def found(doc) -> dict:
    return {k: (f.data["length"], f.data["limit"]) for k, fs in check_document(doc).items() for f in fs
            if f.code == "length-limit"}


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_as_elementtree_reads_them(path, tmp_path):
    doc = read_xliff(path.read_bytes(), str(path))
    assert not doc.problems
    limited = [s for s in doc.segments if "limits" in s.extra]
    assert len(limited) == 2  # maxwidth 23 and 50 (SOURCES.md)
    assert found(doc) == oracle(path) == {}  # the translators kept within them
    # the same file with every maxwidth lowered by 20 characters: the units then over them
    text = path.read_text(encoding="utf-8")
    low = re.sub(r'maxwidth="(\d+)"', lambda m: f'maxwidth="{max(1, int(m.group(1)) - 20)}"', text)
    tmp = tmp_path / path.name
    tmp.write_text(low, encoding="utf-8")
    want = oracle(path, lowered=20)
    assert want  # it finds something to compare
    assert found(read_xliff(tmp.read_bytes(), str(tmp))) == want
