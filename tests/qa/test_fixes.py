"""The quick fixes of the checks (qa/fixes.py), each applied to its text and checked again by the
check that made the finding: the finding is gone and only the fixed span changed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from bleu_ls.formats.po import read_po
from bleu_ls.qa.fixes import Fix, disjoint, fixes, plain_line, po_string, xml_text
from bleu_ls.qa.formats.po_checks import check_placeholders, check_whitespace_po
from bleu_ls.qa.text.doubled import check_doubled
from bleu_ls.qa.text.markup import check_markup
from bleu_ls.qa.text.numbers import check_numbers
from bleu_ls.qa.text.punctuation import check_end_punctuation, end_mark_at


def apply(text: str, fix: Fix) -> str:
    for a, b, t in sorted(fix.edits, reverse=True):
        text = text[:a] + t + text[b:]
    return text


def po_segment(msgid: str, msgstr: str, flags: str = ""):
    head = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    entry = (f"#, {flags}\n" if flags else "") + f'msgid "{msgid}"\nmsgstr "{msgstr}"\n'
    [seg] = read_po(head + entry).segments
    return seg


def codes(found) -> list[str]:
    return [f.code for f in found]


@pytest.mark.parametrize("msgid,msgstr,want", [
    ("  Name", "Name", "  Name"),
    ("Name", " \\tName", "Name"),
])
def test_leading_white_space_set_as_in_the_source(msgid, msgstr, want):
    seg = po_segment(msgid, msgstr)
    [f] = [f for f in check_whitespace_po(seg) if f.code == "whitespace-leading"]
    [fix] = fixes(f.code, f.data, seg.target, seg.source)
    fixed = apply(seg.target, fix)
    assert fixed == want
    assert "whitespace-leading" not in codes(check_whitespace_po(po_segment(msgid, po_string(fixed) or "")))


def test_trailing_white_space_and_double_spaces():
    seg = po_segment("Save the file: ", "Datei  speichern:   und   fertig")
    found = {f.code: f for f in check_whitespace_po(seg)}
    assert set(found) == {"whitespace-trailing", "double-space"}
    trail = fixes("whitespace-trailing", found["whitespace-trailing"].data, seg.target, seg.source)[0]
    assert apply(seg.target, trail) == "Datei  speichern:   und   fertig "
    double = fixes("double-space", found["double-space"].data, seg.target, seg.source)[0]
    assert apply(seg.target, double) == "Datei speichern: und fertig"
    after = po_segment("Save the file: ", apply(apply(seg.target, double), trail))
    assert check_whitespace_po(after) == []


@pytest.mark.parametrize("source,line,want", [
    ("Save the file.", "Datei speichern", "Datei speichern."),
    ("Save the file?", "Datei speichern.", "Datei speichern?"),
    ("Save the file", "Datei speichern!", "Datei speichern"),
    ("Wait...", "Warten.", "Warten..."),
    ("He said “go.”", "Er sagte „geh“", "Er sagte „geh.“"),
])
def test_end_punctuation_set_as_in_the_source(source, line, want):
    f = check_end_punctuation(source, line)
    assert f is not None
    [fix] = fixes(f.code, f.data, line, source)
    assert apply(line, fix) == want
    assert check_end_punctuation(source, want) is None


def test_a_number_copied_from_the_source_where_one_differs():
    source, line = "Wait 15 minutes, then press 2.", "Warten Sie 12 Minuten und drücken Sie 2."
    f = check_numbers(source, line)
    assert f is not None and f.data == {"missing": ["15"], "added": ["12"]}
    [fix] = fixes(f.code, f.data, line, source)
    assert fix.edits == ((11, 13, "15"),)
    assert check_numbers(source, apply(line, fix)) is None


def test_no_number_fix_where_more_than_one_differs_or_the_number_is_written_twice():
    f = check_numbers("1 and 2", "3 and 4")
    assert f is not None and fixes(f.code, f.data, "3 and 4", "1 and 2") == []
    f = check_numbers("7 apples", "9 apples")
    assert f is not None
    # the target was edited since: the added number is written twice, which one is not known
    assert fixes(f.code, f.data, "9 apples, 9 pears", "7 apples") == []


@pytest.mark.parametrize("source,line,want", [
    # the token before the placeholder ("Hello") has no twin in the line: the one after it ("!") has
    ("Hello {name}!", "Hallo!", "Hallo {name}!"),
    # aligned after the token before it, with the source's white space
    ("Open <b>now</b> please", "Öffne now</b> bitte", "Öffne <b>now</b> bitte"),
    # no neighbour found: at the end, before the end punctuation
    ("Deleted %s files.", "Dateien gelöscht.", "Dateien gelöscht %s."),
])
def test_a_lost_placeholder_or_tag_reinserted(source, line, want):
    f = check_markup(source, line)
    assert f is not None
    [fix] = fixes(f.code, f.data, line, source)
    assert apply(line, fix) == want
    assert check_markup(source, apply(line, fix)) is None


def test_no_markup_fix_where_a_placeholder_was_changed():
    f = check_markup("Hello {name}", "Hallo {nom}")
    assert f is not None and f.data["added"]
    assert fixes(f.code, f.data, "Hallo {nom}", "Hello {name}") == []


def test_a_po_placeholder_reinserted():
    seg = po_segment("%d files of %s", "Dateien von", "c-format")
    [f] = check_placeholders(seg)
    assert f.code == "placeholders-missing" and f.data == {"missing": ["%d", "%s"]}
    [fix] = fixes(f.code, f.data, seg.target, seg.source)
    fixed = apply(seg.target, fix)
    assert fixed == "Dateien von %d %s"
    assert check_placeholders(po_segment("%d files of %s", fixed, "c-format")) == []


def test_a_doubled_word_removed():
    line = "Klicken Sie auf auf die Schaltfläche."
    f = check_doubled(line)
    assert f is not None
    [fix] = fixes(f.code, f.data, line, None)
    assert apply(line, fix) == "Klicken Sie auf die Schaltfläche."
    assert check_doubled(apply(line, fix)) is None


def test_a_glossary_term_replaced_only_where_the_target_has_it():
    data = {"term": "Kennwort", "replacements": ["Passwort"], "glossary": ["g.csv"]}
    line = "Ihr Kennwort"
    [fix] = fixes("term-forbidden", data, line, "Your password", (4, 12))
    assert apply(line, fix) == "Ihr Passwort" and fix.title == "Replace with “Passwort” (glossary)"
    assert fixes("term-forbidden", data, line, "Your password", (12, 12)) == []
    # a do-not-translate term written in another case: the glossary's spelling put back
    dnt = {"term": "GitHub", "replacements": ["GitHub"], "glossary": ["g.csv"]}
    [fix] = fixes("do-not-translate", dnt, "Mit Github anmelden", "Log in with GitHub", (4, 10))
    assert apply("Mit Github anmelden", fix) == "Mit GitHub anmelden"
    assert fixes("do-not-translate", dnt, "Mit GitHub anmelden", "Log in with GitHub", (4, 10)) == []


def test_no_fix_for_other_codes_or_bad_data():
    assert fixes("low-score", {}, "x", "y") == []
    assert fixes("double-space", {"edits": [[3, 1, ""]]}, "a  b", "a b") == []
    assert fixes("double-space", {"edits": [[0, 9, ""]]}, "a  b", "a b") == []
    assert fixes("doubled-word", {"remove": "x"}, "a a", None) == []


def test_end_mark_at():
    assert end_mark_at("Really?!”") == (6, 8)
    assert end_mark_at("none") == (4, 4)


@pytest.mark.parametrize("text", ['say "hi"', "back\\slash", "tab\there", "two\nlines", "plain"])
def test_po_string_read_back_by_the_po_reader(text):
    written = po_string(text)
    assert written is not None
    head = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    [seg] = read_po(head + f'msgid "x"\nmsgstr "{written}"\n').segments
    assert seg.extra.get("msgstr", seg.target) == text
    assert po_string("bell\x07") is None


@pytest.mark.parametrize("text", ["a & b", "<b>", "x > y", "plain"])
def test_xml_text_read_back_by_elementtree(text):
    written = xml_text(text)
    assert written is not None
    assert ET.fromstring(f"<t>{written}</t>").text == text
    assert xml_text("nul\x00") is None


def test_plain_line_and_disjoint():
    assert plain_line("a b") == "a b" and plain_line("a\nb") is None
    assert disjoint([(0, 2, "x"), (3, 4, "")])
    assert not disjoint([(0, 3, "x"), (2, 4, "")])
    assert not disjoint([(2, 2, "x"), (2, 2, "y")])


def test_a_lost_inline_code_put_back_as_the_source_writes_it():
    """A real XLIFF file (tests/data/formats/xliff), one target's ``<it>`` removed: the fix's edit, applied to
    the file text (through the segment's offsets), gives the file back; the paired codes are not fixed."""
    from pathlib import Path

    from bleu_ls.formats.xliff import read_xliff_text
    from bleu_ls.qa.formats.xml_checks import check_codes

    path = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff" / "files.de-DE.codes.xlf"
    text = path.read_text(encoding="utf-8")
    code = '<it id="1" pos="open">&lt; &gt;</it>'
    cut = text.index("? \" " + code + " |</target>") + 3
    edited = text[:cut] + text[cut + len(code) + 1:]
    doc = read_xliff_text(edited)
    [seg] = [s for s in doc.segments if s.target_span[0] <= cut <= s.target_span[1]]
    [f] = check_codes(seg, text=edited)
    assert f.code == "codes-missing" and f.data["codes"][0]["markup"] == code
    [fix] = fixes(f.code, f.data, seg.target, seg.source)
    assert fix.markup
    out = edited
    for a, b, t in sorted(fix.edits, reverse=True):
        x, y = seg.file_offset(a), seg.file_offset(b)
        out = out[:x] + t + out[y:]
    assert out == text
    fixed = read_xliff_text(out)
    assert [check_codes(s) for s in fixed.segments if s.key == seg.key] == [[]]
    # a finding without the codes' data (a paired code missing: the check gives none): no fix
    assert fixes("codes-missing", {}, seg.target, seg.source) == []
