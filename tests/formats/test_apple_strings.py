"""Apple ``.strings`` read against an independent reading of the same files.

The oracle: comments removed by a regular expression, entries found by another, their
escapes decoded by ``json.loads`` (the files' escapes are JSON's); the reader must give
the same keys and values, in order, and each value's span must be the file's characters
between its quotes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bleu_ls.formats.apple_strings import decode_strings, read_strings, read_strings_bytes, source_files
from bleu_ls.formats.read import detect_format, read_document
from bleu_ls.formats.table import row

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "apple"
DE = DATA / "sparkle" / "de.lproj" / "Sparkle.strings"
BASE = DATA / "sparkle" / "Base.lproj" / "Sparkle.strings"
DE_BEFORE = DATA / "sparkle-previous" / "de.lproj" / "Sparkle.strings"

_COMMENT = re.compile(r"/\*.*?\*/|^//[^\n]*", re.S | re.M)
_ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;', re.S)


def oracle(text: str) -> list[tuple[str, str]]:
    body = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    return [(json.loads(f'"{k}"'), json.loads(f'"{v}"')) for k, v in _ENTRY.findall(body)]


def _raw(seg) -> str:
    return seg.extra.get("value", seg.target)


def test_real_files_read_as_the_oracle_reads_them() -> None:
    for path in (DE, BASE, DE_BEFORE):
        text = path.read_text(encoding="utf-8")
        doc = read_strings_bytes(path.read_bytes())
        assert not doc.problems
        expected = oracle(text)
        assert len(expected) > 40
        assert [(s.key, _raw(s)) for s in doc.segments] == expected
        for s in doc.segments:
            a, b = s.target_span
            assert text[a - 1] == '"' and text[b] == '"'
            assert json.loads(f'"{text[a:b]}"') == _raw(s)
            for r in s.runs:  # every run is the file's own characters
                assert _raw(s)[r.text_start : r.text_start + r.length] == text[r.file_start : r.file_start + r.length]
            assert s.source is None


def test_the_real_file_is_detected_read_and_finds_its_source() -> None:
    assert detect_format(str(DE)) == "strings"
    doc = read_document(str(DE))
    assert doc.format == "strings" and len(doc.segments) == len(oracle(DE.read_text(encoding="utf-8")))
    fn = row("strings").source_files
    assert fn is not None
    candidates = fn(DE, None)
    assert candidates == [DE.parent.parent / "en.lproj" / "Sparkle.strings", BASE]
    found = next(p for p in candidates if p.exists())
    assert found == BASE
    base_keys = set(read_document(str(found)).keys())
    assert set(doc.keys()) <= base_keys


def test_a_translators_revision_as_the_oracle_sees_it() -> None:
    now = read_strings_bytes(DE.read_bytes())
    before = read_strings_bytes(DE_BEFORE.read_bytes())
    new_o, old_o = dict(oracle(DE.read_text(encoding="utf-8"))), dict(oracle(DE_BEFORE.read_text(encoding="utf-8")))
    new_r, old_r = dict(zip(now.keys(), now.segments)), dict(zip(before.keys(), before.segments))
    assert set(new_r) - set(old_r) == set(new_o) - set(old_o) != set()  # strings added
    common = set(new_r) & set(old_r)
    changed = {k for k in common if _raw(new_r[k]) != _raw(old_r[k])}
    assert changed == {k for k in common if new_o[k] != old_o[k]}
    assert len(changed) >= 3  # strings the translator revised


def test_notes_unquoted_strings_and_entries_without_value() -> None:
    text = '/* Greeting\n   shown first */\n"hello" = "Hallo";\n// plain\nplain_key = some.value;\n"same";\n\'single\' = \'q\';\n'
    doc = read_strings(text)
    assert not doc.problems
    assert [(s.key, s.target, s.notes) for s in doc.segments] == [
        ("hello", "Hallo", ("Greeting\n   shown first",)),
        ("plain_key", "some.value", ("plain",)),
        ("same", "same", ()),
        ("single", "q", ()),
    ]
    assert [text[slice(*s.target_span)] for s in doc.segments] == ["Hallo", "some.value", "same", "q"]
    assert doc.segments[1].line == 4


def test_escapes_map_back_to_their_backslash() -> None:
    text = '"k" = "a\\"b\\\\c\\nd\\U00e9\\UD83D\\UDE00\\101z\\t";'
    (s,) = read_strings(text).segments
    assert _raw(s) == 'a"b\\c\nd\u00e9\U0001F600Az\t'
    assert s.target == 'a"b\\c d\u00e9\U0001F600Az\t'  # line breaks folded to spaces for scoring
    a, b = s.target_span
    assert text[a - 1] == '"' and text[b] == '"' and text[b + 1] == ";"
    # each escaped character maps to its backslash; the end of the text to the closing quote
    for i, ch in enumerate(_raw(s)):
        at = s.file_offset(i)
        assert text[at] == ch or text[at] == "\\", (i, ch, text[at])
    assert [text[s.file_offset(i)] for i in (1, 3, 5, 7, 8, 9)] == ["\\"] * 6
    assert s.file_offset(len(s.target)) == b


def test_utf16_with_and_without_a_mark() -> None:
    text = '/* note */\n"Cancel" = "Abbrechen ü";\n"OK" = "OK";\n'
    utf8 = read_strings_bytes(text.encode("utf-8"))
    seen = [(s.key, s.target, s.target_span) for s in utf8.segments]
    for data in (text.encode("utf-16"), b"\xfe\xff" + text.encode("utf-16-be"), b"\xef\xbb\xbf" + text.encode("utf-8")):
        doc = read_strings_bytes(data)
        assert [(s.key, s.target, s.target_span) for s in doc.segments] == seen
        assert not doc.problems
    for enc in ("utf-16-le", "utf-16-be"):
        doc = read_strings_bytes(text.encode(enc))
        assert [(s.key, s.target, s.target_span) for s in doc.segments] == seen  # never mojibake
        assert len(doc.problems) == 1
        p = doc.problems[0]
        assert p.severity == "warning" and "UTF-16" in p.message and "without a byte-order mark" in p.message
        assert decode_strings(text.encode(enc)) == (text, p.message)


def test_real_file_as_utf16_reads_the_same() -> None:
    text = DE.read_text(encoding="utf-8")
    want = [(s.key, s.target, s.target_span) for s in read_strings(text).segments]
    got = read_strings_bytes(text.encode("utf-16"))
    assert [(s.key, s.target, s.target_span) for s in got.segments] == want


def test_a_half_typed_string_keeps_the_entries_before_it() -> None:
    text = '"a" = "eins";\n"b" = "zwei";\n"c" = "dr'
    doc = read_strings(text)
    assert doc.keys() == ["a", "b"]
    (p,) = doc.problems
    assert (p.line, p.column) == (2, 6) and "not closed" in p.message
    for bad, where in (('"a" = "x"\n"b" = "y";', (1, 0)), ('"a" "x";', (0, 4)), ('"a" = ;', (0, 6)),
                       ('/* open comment\n"a" = "x";', (0, 0))):
        doc = read_strings(bad)
        assert len(doc.problems) == 1 and (doc.problems[0].line, doc.problems[0].column) == where, bad


def test_a_duplicate_key_is_one_problem_and_the_first_is_read() -> None:
    doc = read_strings('"a" = "first";\n"b" = "x";\n"a" = "second";\n')
    assert [(s.key, s.target) for s in doc.segments] == [("a", "first"), ("b", "x")]
    (p,) = doc.problems
    assert p.line == 2 and "'a'" in p.message and "line 1" in p.message


def test_source_files() -> None:
    p = Path("/app/Resources/de.lproj/Localizable.strings")
    assert source_files(p) == [Path("/app/Resources/en.lproj/Localizable.strings"),
                               Path("/app/Resources/Base.lproj/Localizable.strings")]
    assert source_files(p, "fr") == [Path("/app/Resources/fr.lproj/Localizable.strings"),
                                     Path("/app/Resources/Base.lproj/Localizable.strings")]
    assert source_files(p, "en-GB")[:2] == [Path("/app/Resources/en-GB.lproj/Localizable.strings"),
                                            Path("/app/Resources/en.lproj/Localizable.strings")]
    assert source_files(Path("/app/Resources/en.lproj/Localizable.strings")) == [
        Path("/app/Resources/Base.lproj/Localizable.strings")]
    assert source_files(Path("/app/Localizable.strings")) == []
