"""Apple ``.stringsdict`` read against ``plistlib`` (the standard library's plist reader).

The oracle walks ``plistlib.loads`` of the same bytes by the documented key rules (``K[one]``,
``K[var:one]`` with several variables, the format key when it has text of its own) and must
give the reader's keys and values; each value's span is the ``<string>`` element's content.
"""

from __future__ import annotations

import plistlib
from pathlib import Path
from xml.sax.saxutils import escape

from bleu_ls.formats.read import detect_format, read_document
from bleu_ls.formats.stringsdict import read_stringsdict, read_stringsdict_text

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "apple"
TETHYS = DATA / "tethys" / "en.lproj" / "Localizable.stringsdict"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
        '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n')


def oracle(data: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, entry in plistlib.loads(data).items():
        if isinstance(entry, str):
            out[key] = entry
            continue
        variables = [v for v, d in entry.items() if isinstance(d, dict)]
        fmt = entry.get("NSStringLocalizedFormatKey", "")
        rest = fmt
        for v in variables:
            rest = rest.replace(f"%#@{v}@", "")
        if rest.strip():
            out[key] = fmt
        for v in variables:
            for cat, text in entry[v].items():
                if not cat.startswith("NSString"):
                    out[f"{key}[{v}:{cat}]" if len(variables) > 1 else f"{key}[{cat}]"] = text
    return out


def test_the_real_file_reads_as_plistlib_reads_it() -> None:
    data = TETHYS.read_bytes()
    doc = read_stringsdict(data)
    assert not doc.problems
    expected = oracle(data)
    assert len(expected) == 7
    assert {s.key: s.target for s in doc.segments} == expected
    text = data.decode("utf-8")
    for s in doc.segments:
        a, b = s.target_span
        assert text[a - len("<string>") : a] == "<string>" and text[b : b + len("</string>")] == "</string>"
        assert text[a:b] == escape(s.target)
        assert s.source is None and s.extra["category"] in ("zero", "one", "other")
    assert detect_format(str(TETHYS)) == "stringsdict"
    assert read_document(str(TETHYS)).keys() == doc.keys()


def test_several_variables_plain_strings_entities_and_line_breaks() -> None:
    body = """<dict>
  <key>files_in_folders</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key><string>%#@files@ in %#@folders@</string>
    <key>files</key>
    <dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
      <key>NSStringFormatValueTypeKey</key><string>d</string>
      <key>one</key><string>%d Datei &amp; mehr</string><key>other</key><string>%d Dateien</string></dict>
    <key>folders</key>
    <dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
      <key>one</key><string>einem
Ordner</string><key>other</key><string/></dict>
  </dict>
  <key>only_vars</key>
  <dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
    <key>n</key><dict><key>one</key><string>ein</string></dict></dict>
  <key>plain</key><string>Einfach</string>
</dict></plist>"""
    data = (HEAD + body).encode("utf-8")
    doc = read_stringsdict(data)
    assert not doc.problems
    want = {k: v.replace("\n", " ") for k, v in oracle(data).items()}
    assert {s.key: s.target for s in doc.segments} == want
    assert doc.keys() == ["files_in_folders", "files_in_folders[files:one]", "files_in_folders[files:other]",
                          "files_in_folders[folders:one]", "files_in_folders[folders:other]", "only_vars[one]", "plain"]
    text = doc.text
    assert text is not None
    amp = doc.segments[1]
    assert amp.target == "%d Datei & mehr" and text[slice(*amp.target_span)] == "%d Datei &amp; mehr"
    assert text[amp.file_offset(amp.target.index("&"))] == "&"
    empty = doc.segments[4]
    assert empty.target == "" and empty.target_span[0] == empty.target_span[1]
    assert doc.segments[3].extra == {"variable": "folders", "category": "one", "entry": "files_in_folders",
                                     "rule": "NSStringPluralRuleType"}
    assert doc.segments[5].extra["rule"] == ""  # (only_vars' variable declares no rule type)


def test_no_entity_is_expanded_and_no_dtd_is_fetched() -> None:
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE plist [\n <!ENTITY a "aaaaaaaaaa">\n'
            ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
            '<plist><dict><key>x</key><string>&c;</string></dict></plist>')
    doc = read_stringsdict_text(bomb)
    assert doc.segments == []
    (p,) = doc.problems
    assert "declares an entity" in p.message and p.line == 2
    # an external entity naming a local file: refused at its declaration, never read
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/hostname">]>\n'
           '<plist><dict><key>k</key><string>&x;</string></dict></plist>')
    doc = read_stringsdict_text(xxe)
    assert doc.segments == [] and len(doc.problems) == 1
    # the DOCTYPE's URL is not fetched (no network here: the read would fail or hang): the file reads
    doc = read_stringsdict_text(HEAD + "<dict><key>k</key><string>v</string></dict></plist>")
    assert [(s.key, s.target) for s in doc.segments] == [("k", "v")] and not doc.problems


def test_malformed_xml_keeps_the_entries_before_it() -> None:
    text = HEAD + "<dict><key>a</key><string>eins</string><key>b</key><string>zw</dict></plist>"
    doc = read_stringsdict_text(text)
    assert [(s.key, s.target) for s in doc.segments] == [("a", "eins")]
    (p,) = doc.problems
    assert "not well-formed" in p.message and p.line == 3
    assert read_stringsdict_text("<dict/>").problems[0].message.startswith("This is not a property list")


def test_a_duplicate_key_is_one_problem() -> None:
    text = HEAD + "<dict><key>a</key><string>eins</string><key>a</key><string>zwei</string></dict></plist>"
    doc = read_stringsdict_text(text)
    assert [(s.key, s.target) for s in doc.segments] == [("a", "eins")]
    assert len(doc.problems) == 1 and "'a'" in doc.problems[0].message
