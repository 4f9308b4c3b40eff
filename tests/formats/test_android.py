r"""The Android strings.xml reader against a reference reading of its own: ElementTree and a plain
second implementation of aapt2's string compiling, written here from Android's documentation.

The reference walks ElementTree's tree (text, children, tails), cuts the text at
every tag as aapt2 does, trims the two ends when there is no styling tag, then
compiles each piece token by token (quotes, white space, escapes).  The reader
must give the same keys and the same strings, in order, on the real files and
on generated ones; and each segment's ``target_span``, read again alone by
ElementTree and the reference, must give its string again.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.android import (
    android_language,
    is_android_strings,
    java_placeholders,
    read_android,
    read_android_text,
    source_files,
)
from bleu_ls.formats.model import ANDROID
from bleu_ls.formats.read import detect_format, read_document
from bleu_ls.formats.table import row

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "android"
REAL = sorted(DATA.rglob("strings.xml"))
XLIFF = "urn:oasis:names:tc:xliff:document:1.2"

# --- the reference --------------------------------------------------------------------------------
_TOKEN = re.compile(r'\\u[0-9a-fA-F]{4}|\\.|\\$|[ \t\n\r\f\v]+|"|[^\\ \t\n\r\f\v"]+', re.S)
_SIMPLE = {"t": "\t", "n": "\n"}


def _flatten(el: ET.Element) -> list[tuple[str, object]]:
    """("text", str) and ("tag", is a styling tag) in document order, the element's own tags left out."""
    out: list[tuple[str, object]] = []
    if el.text:
        out.append(("text", el.text))
    for child in el:
        styling = not child.tag.startswith("{")
        out.append(("tag", styling))
        out.extend(_flatten(child))
        out.append(("tag", styling))
        if child.tail:
            out.append(("text", child.tail))
    return out


def _merge(tokens: list[tuple[str, object]]) -> list[tuple[str, object]]:
    merged: list[tuple[str, object]] = []
    for kind, v in tokens:
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", str(merged[-1][1]) + str(v))
        else:
            merged.append((kind, v))
    return merged


def compile_string(el: ET.Element) -> str:
    """What aapt2 makes of a <string> (or <item>) element, as its documentation describes it."""
    parts = _merge(_flatten(el))
    if not any(kind == "tag" and v for kind, v in parts):
        texts = [k for k, (kind, _) in enumerate(parts) if kind == "text"]
        if texts:
            parts[texts[0]] = ("text", str(parts[texts[0]][1]).lstrip(" \t\n\r\f\v"))
            parts[texts[-1]] = ("text", str(parts[texts[-1]][1]).rstrip(" \t\n\r\f\v"))
    result = []
    quoted = spaced = False
    for kind, v in parts:
        if kind == "tag":
            if v:  # a styling tag ends quoting and the run of white space
                quoted = spaced = False
            continue
        for tok in _TOKEN.findall(str(v)):
            if tok[0] in " \t\n\r\f\v":
                if quoted:
                    result.append(tok)
                    spaced = False
                elif not spaced:
                    result.append(" ")
                    spaced = True
                continue
            spaced = False
            if tok == '"':
                quoted = not quoted
            elif tok == "\\":
                pass  # a backslash ending a piece of text: nothing
            elif tok.startswith("\\u"):
                result.append(chr(int(tok[2:], 16)))
            elif tok.startswith("\\"):
                result.append(_SIMPLE.get(tok[1], tok[1]))
            else:
                assert quoted or "'" not in tok, "an unescaped apostrophe: aapt2 refuses it"
                result.append(tok)
    return "".join(result)


def reference(text: str) -> list[tuple[str, str]]:
    """(key, compiled string) of every translatable value, in file order."""
    root = ET.fromstring(text)
    out = []
    for el in root:
        if el.get("translatable") == "false":
            continue
        name = el.get("name")
        if el.tag == "string" or (el.tag == "item" and el.get("type") == "string"):
            out.append((name, compile_string(el)))
        elif el.tag == "plurals":
            out += [(f"{name}[{it.get('quantity')}]", compile_string(it)) for it in el if it.tag == "item"]
        elif el.tag == "string-array":
            out += [(f"{name}[{i}]", compile_string(it)) for i, it in enumerate(el) if it.tag == "item"]
    return out


# --- checks ---------------------------------------------------------------------------------------
def _value(seg) -> str:
    return seg.extra.get("value", seg.target)


def _check_positions(text: str, doc) -> None:
    for s in doc.segments:
        a, b = s.target_span
        again = ET.fromstring(f'<string xmlns:xliff="{XLIFF}">{text[a:b]}</string>')
        assert compile_string(again) == _value(s), s.key  # the span alone compiles to the string
        for r in s.runs:
            assert a <= r.file_start and r.file_start + r.length <= b, s.key
            assert s.target[r.text_start:r.text_start + r.length] == text[r.file_start:r.file_start + r.length]
        if not s.runs and s.target:
            assert s.target == text[a:b]
        elements = sum(1 for _ in again.iter()) - 1
        assert len(s.target_codes) == 2 * elements
        for c in s.target_codes:
            assert c.span is not None and a <= c.span[0] <= c.span[1] <= b
            tag = text[c.span[0]:c.span[1]]
            assert tag == "" or tag.startswith("</" if c.closing else "<"), (s.key, tag)


def _doc(body: str, decl: str = "") -> tuple[str, object]:
    text = f'{decl}<resources xmlns:xliff="{XLIFF}" xmlns:tools="http://schemas.android.com/tools">{body}</resources>'
    return text, read_android_text(text)


@pytest.mark.parametrize("path", REAL, ids=lambda p: str(p.relative_to(DATA)))
def test_real_files_read_as_the_reference(path: Path) -> None:
    doc = read_document(str(path))
    assert doc.format == ANDROID and not doc.problems
    text = doc.text
    assert text is not None
    expected = reference(text)
    assert [(s.key, _value(s)) for s in doc.segments] == expected
    assert len(expected) > 70  # (each real file has most of the app's strings)
    _check_positions(text, doc)


def test_real_pair() -> None:
    en = read_document(str(DATA / "updater" / "res" / "values" / "strings.xml"))
    de = read_document(str(DATA / "updater" / "res" / "values-de" / "strings.xml"))
    old = read_document(str(DATA / "updater-previous" / "res" / "values-de" / "strings.xml"))
    raw = (DATA / "updater" / "res" / "values" / "strings.xml").read_text(encoding="utf-8")
    # translatable="false" strings are not segments; plurals items are, keyed name[quantity]
    assert "download_path" in raw and "download_path" not in en.keys()
    assert {"eta_seconds[one]", "eta_seconds[other]"} <= set(en.keys())
    assert set(de.keys()) <= set(en.keys())
    en_t = dict(zip(en.keys(), en.targets()))
    assert en_t["snack_update_not_installable"] == "This update can't be installed on top of the current build."
    assert en_t["eta_seconds[other]"] == "%d seconds left"
    # the translator's revision: the space after a placeholder put back
    before, after = dict(zip(old.keys(), old.targets())), dict(zip(de.keys(), de.targets()))
    assert "%1$szu aktualisieren" in before["apply_update_dialog_message"]
    assert "%1$s zu aktualisieren" in after["apply_update_dialog_message"]
    seg = next(s for s in de.segments if s.key == "apply_update_dialog_message")
    assert [c.kind for c in seg.target_codes] == ["xliff:g"] * 4
    assert [c.id for c in seg.target_codes] == ["update_name", "update_name", "ok", "ok"]


@pytest.mark.parametrize("content, expected", [
    ('"This\'ll work"', "This'll work"),
    ("This\\'ll also work", "This'll also work"),
    ('This is a \\"good string\\".', 'This is a "good string".'),
    ("Unicode: \\u00A9", "Unicode: ©"),
    ("  Whitespace \n\t   collapsed  ", "Whitespace collapsed"),
    ('"  kept \n  spaces "', "  kept \n  spaces "),
    ("line\\nbreak", "line\nbreak"),
    ("\\@ \\? \\# \\%", "@ ? # %"),
    ("Tab\\tulated", "Tab\tulated"),
    ("Backslash (\\\\)", "Backslash (\\)"),
    ("&lt;b&gt; &amp; &#169;", "<b> & ©"),
    ("<![CDATA[ <i>not a tag</i> ]]>", "<i>not a tag</i>"),
    ("a <!-- note --> b", "a b"),
    ("<b> Bold </b> text", " Bold  text"),
    ('<b>"quoted </b>  after', "quoted  after"),
    ("ends in a backslash\\", "ends in a backslash"),
])
def test_escapes_and_white_space(content: str, expected: str) -> None:
    text, doc = _doc(f'<string name="s">{content}</string>')
    assert not doc.problems
    [seg] = doc.segments
    assert _value(seg) == expected == reference(text)[0][1]
    assert seg.target == expected.replace("\n", " ")
    _check_positions(text, doc)


def test_positions_of_escapes() -> None:
    text, doc = _doc('<string name="s">It\\\'s &amp; \\u00e9t\\u00e9</string>')
    [seg] = doc.segments
    assert seg.target == "It's & été"
    assert seg.file_offset(2) == text.index("\\'")  # the escaped apostrophe: its backslash
    assert seg.file_offset(5) == text.index("&amp;")  # the entity: its "&"
    assert seg.file_offset(7) == text.index("\\u00e9")
    assert text[seg.file_offset(8)] == "t"
    assert seg.file_offset(len(seg.target)) == seg.target_span[1]


def test_structure_keys_and_codes() -> None:
    body = ('<string name="a" tools:ignore="MissingTranslation">A <b>bold</b> <i>it</i> <u>u</u> '
            '<annotation font="title">t</annotation></string>'
            '<string name="hidden" translatable="false">no</string>'
            '<plurals name="n"><item quantity="one">%d file</item><item quantity="other">%d files</item></plurals>'
            '<plurals name="skip" translatable="false"><item quantity="one">x</item></plurals>'
            '<string-array name="arr"><item>One</item><item>Two</item></string-array>'
            '<item type="string" name="via_item">Item</item>'
            '<string name="ph">Hi <xliff:g id="user" example="Bob">%1$s</xliff:g>!</string>'
            '<string name="empty"/>'
            '<string name="a">again</string>')
    text, doc = _doc(body)
    assert not doc.problems
    assert doc.keys() == ["a", "n[one]", "n[other]", "arr[0]", "arr[1]", "via_item", "ph", "empty", "a#2"]
    assert [(s.key, _value(s)) for s in doc.segments if s.key != "a#2"] == \
        [(k, v) for k, v in reference(text) if k != "a" or v != "again"]
    a = doc.segments[0]
    assert a.target == "A bold it u t"
    assert [(c.kind, c.closing) for c in a.target_codes] == [
        ("b", False), ("b", True), ("i", False), ("i", True), ("u", False), ("u", True),
        ("annotation", False), ("annotation", True)]
    assert a.target_codes[6].id == "annotation;font=title"
    ph = doc.segments[6]
    assert ph.target == "Hi %1$s!" and [c.id for c in ph.target_codes] == ["user", "user"]
    assert text[slice(*ph.target_codes[0].span)] == '<xliff:g id="user" example="Bob">'
    assert ph.extra["name"] == "ph" and doc.segments[1].extra["quantity"] == "one"
    assert doc.segments[4].extra["index"] == 1
    empty = doc.segments[7]
    assert empty.target == "" and empty.target_span[0] == empty.target_span[1]
    assert doc.segments[8].extra["duplicate"] == 2 and doc.header["duplicate-keys"] == "1"
    _check_positions(text, doc)


def test_entity_bomb_refused_nothing_expanded() -> None:
    lol = "".join(f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10 if i else "lol"}">' for i in range(10))
    data = (f'<?xml version="1.0"?><!DOCTYPE resources [{lol}]>'
            f'<resources><string name="bomb">&l9;</string></resources>').encode()
    doc = read_android(data)
    assert doc.segments == [] and len(doc.problems) == 1
    assert "declares an entity" in doc.problems[0].message
    ext = b'<!DOCTYPE resources [<!ENTITY x SYSTEM "file:///etc/passwd">]><resources><string name="a">&x;</string></resources>'
    doc = read_android(ext)
    assert doc.segments == [] and len(doc.problems) == 1


def test_half_typed_string_keeps_what_came_before() -> None:
    text = '<resources>\n  <string name="a">Done</string>\n  <string name="b">Half <b>ty'
    doc = read_android_text(text)
    assert doc.keys() == ["a"] and len(doc.problems) == 1
    p = doc.problems[0]
    assert p.line == 2 and f"line 3, column {p.column + 1}" in p.message
    # not Android resources at all
    doc = read_android_text("<manifest><string name='x'>y</string></manifest>")
    assert doc.segments == [] and "root element is <manifest>" in doc.problems[0].message


def test_what_aapt2_refuses_is_a_problem_at_its_place() -> None:
    text = '<resources><string name="a">Don\'t</string><string name="b">\\u12G4 ok</string></resources>'
    doc = read_android_text(text)
    assert doc.keys() == ["a", "b"]  # read on, kept as written
    assert doc.segments[0].target == "Don't"
    assert [p.offset for p in doc.problems] == [text.index("'"), text.index("\\u12G4")]
    assert "apostrophe" in doc.problems[0].message and "'a'" in doc.problems[0].message


_PIECES = st.sampled_from([
    "a", "Wort", "é", " ", "  ", "\n", "\t", "\\'", '\\"', '"', "\\n", "\\t", "\\u00e9", "\\@", "\\?",
    "\\\\", "&amp;", "&lt;", "&quot;", "&#233;", "%1$s", "<![CDATA[ x\"y  z ]]>", "<!-- c -->", "\r\n",
])
_TAGS = st.sampled_from([("<b>", "</b>"), ("<i>", "</i>"), ('<xliff:g id="p">', "</xliff:g>"),
                         ('<annotation k="v">', "</annotation>")])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=16), st.lists(st.tuples(st.integers(0, 16), st.integers(0, 16), _TAGS), max_size=2))
def test_generated_strings_read_as_the_reference(pieces: list[str], wraps) -> None:
    pieces = list(pieces)
    for i, j, (open_tag, close_tag) in wraps:  # balanced tags around pieces[i:j]
        i, j = sorted((min(i, len(pieces)), min(j, len(pieces))))
        pieces = pieces[:i] + [open_tag + "".join(pieces[i:j]) + close_tag] + pieces[j:]
    content = "".join(pieces)
    text, doc = _doc(f'<string name="s">{content}</string>\n<string name="t">next</string>')
    try:
        expected = reference(text)
    except AssertionError:  # an apostrophe aapt2 refuses (&quot; closed the quotes): a problem, the string kept
        assert doc.problems and doc.keys() == ["s", "t"]
        return
    assert not doc.problems
    assert [(s.key, _value(s)) for s in doc.segments] == expected
    _check_positions(text, doc)


def test_java_placeholders() -> None:
    text = "%1$s has %d items, 100%% done%n %.2f %-5s %tY %<s"
    got = [p[2] for p in java_placeholders(text)]
    assert got == ["%1$s", "%d", "%%", "%n", "%.2f", "%-5s", "%tY", "%<s"]
    assert all(text[a:b] == s for a, b, s in java_placeholders(text))
    assert java_placeholders("50%") == [] and java_placeholders("50 % off") == [(3, 6, "% o")]  # Java's octal


def test_language_source_file_and_detection(tmp_path) -> None:
    res = Path("/app/src/main/res")
    assert android_language(res / "values-de" / "strings.xml") == "de"
    assert android_language(res / "values-de-rDE" / "strings.xml") == "de-DE"
    assert android_language(res / "values-b+sr+Latn" / "strings.xml") == "sr-Latn"
    assert android_language(res / "values-es-r419" / "strings.xml") == "es-419"
    assert android_language(res / "values" / "strings.xml") is None
    assert android_language(res / "values-night" / "strings.xml") is None
    for folder in ("values-de", "values-de-rDE", "values-b+sr+Latn"):
        assert source_files(res / folder / "strings.xml", None) == [res / "values" / "strings.xml"]
        assert row(ANDROID).source_files(res / folder / "strings.xml", "de") == [res / "values" / "strings.xml"]
    assert source_files(res / "values" / "strings.xml", None) == []
    assert is_android_strings(res / "values-fr" / "strings.xml")
    assert not is_android_strings(res / "layout" / "strings.xml")
    assert not is_android_strings(res / "values-fr" / "arrays.xml")
    # a strings.xml of an app, recognised by its place even though it names the XLIFF namespace
    path = tmp_path / "res" / "values-fr" / "strings.xml"
    path.parent.mkdir(parents=True)
    path.write_text(f'<resources xmlns:xliff="{XLIFF}"><string name="a"><xliff:g>%s</xliff:g></string></resources>')
    assert detect_format(str(path), path.read_bytes()) == ANDROID
    doc = read_document(str(path))
    assert doc.format == ANDROID and doc.keys() == ["a"]
    assert read_android_text(path.read_text(), str(path)).target_lang == "fr"
