r"""The Java .properties reader against javaproperties (a reader of its own, MIT), on real bundles and generated files.

The oracle reads as ``java.util.Properties.load`` does; the reader must give the
same keys and values in the same order, and each segment's ``target_span`` must
be the very characters of its value in the file: the span read alone as a
value by the oracle gives the value again, and every run's characters are the
file's.
"""

from __future__ import annotations

from pathlib import Path

import javaproperties
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bleu_ls.formats.model import PROPERTIES
from bleu_ls.formats.properties import (
    message_format_placeholders,
    properties_language,
    read_properties,
    source_files,
)
from bleu_ls.formats.read import detect_format, read_document
from bleu_ls.formats.table import row

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "properties"
REAL = sorted(DATA.rglob("*.properties"))


def _oracle(text: str) -> list[tuple[str, str]]:
    return [(kv.key, kv.value) for kv in javaproperties.parse(text) if isinstance(kv, javaproperties.KeyValue)]


def _value(seg) -> str:
    return seg.extra.get("value", seg.target)


def _key(seg) -> str:
    return seg.key if "duplicate" not in seg.extra else seg.key.rpartition("#")[0]


def _check_positions(text: str, doc) -> None:
    for s in doc.segments:
        a, b = s.target_span
        # the span alone, read as a value, is the value (continuations, escapes and all)
        assert javaproperties.loads("k=" + text[a:b]).get("k", "") == _value(s), s.key
        for r in s.runs:
            assert a <= r.file_start and r.file_start + r.length <= b
            assert s.target[r.text_start:r.text_start + r.length] == text[r.file_start:r.file_start + r.length]
        if not s.runs:
            assert s.target == text[a:b]


@pytest.mark.parametrize("path", REAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_bundles_read_as_the_oracle_reads_them(path: Path) -> None:
    doc = read_document(str(path))
    assert doc.format == PROPERTIES and not doc.problems
    text = doc.text
    assert text is not None
    expected = _oracle(text)
    assert [(_key(s), _value(s)) for s in doc.segments] == expected
    assert len(expected) > 400  # the whole bundle, not a prefix
    _check_positions(text, doc)
    # the line of each key is the line its logical line starts on
    for s in doc.segments[:50]:
        line = text.split("\n")[s.line]
        assert line.lstrip(" \t\f").startswith(_key(s).replace(" ", "\\ ").replace(":", "\\:").replace("=", "\\="))


def test_real_pair_and_revision() -> None:
    de = read_document(str(DATA / "jmeter" / "messages_de.properties"))
    en = read_document(str(DATA / "jmeter" / "messages.properties"))
    old = read_document(str(DATA / "jmeter-previous" / "messages_de.properties"))
    # the German file is UTF-8 (umlauts), read as such
    assert {s.key: s.target for s in de.segments}["about"] == "Über Apache JMeter"
    # most German keys are in the English file: pairing by key finds them
    en_keys = set(en.keys())
    assert sum(k in en_keys for k in de.keys()) / len(de.segments) > 0.95
    # the revision changed some values of the same keys
    before, after = dict(zip(old.keys(), old.targets())), dict(zip(de.keys(), de.targets()))
    changed = [k for k in after if k in before and before[k] != after[k]]
    assert changed and all(before[k].rstrip("?") != before[k] or before[k] != after[k] for k in changed)


def test_continuations_escapes_and_separators() -> None:
    text = ("# comment \\\n"
            "! also a comment\n"
            "   a\\ key = first \\\n"
            "      second\\\n"
            "\t#third\n"
            "b:\\u00fc\\t\\n\\=x\n"
            "c   \n"
            "d\\\\\n"
            "e \\\r\n"
            "  f\r"
            "g=:v\n")
    doc = read_properties(text)
    got = [(s.key, _value(s)) for s in doc.segments]
    assert got == _oracle(text)
    assert got == [("a key", "first second#third"), ("b", "ü\t\n=x"), ("c", ""), ("d\\", ""),
                   ("e", "f"), ("g", ":v")]
    b = doc.segments[1]
    assert b.target == "ü\t =x"  # the line break folded for scoring
    # the escaped ü maps to its backslash, the 'x' to itself
    assert b.file_offset(0) == text.index("\\u00fc") and text[b.file_offset(4)] == "x"
    a = doc.segments[0]
    assert text[a.target_span[0]:a.target_span[1]] == "first \\\n      second\\\n\t#third"
    assert a.line == 2 and doc.segments[4].line == 8
    _check_positions(text, doc)
    # an empty value: the span is empty where the value would start
    c = doc.segments[2]
    assert c.target_span[0] == c.target_span[1]


def test_hostile_input() -> None:
    # a lone backslash at the end of the file: dropped, as Java drops it
    doc = read_properties("a=b\\")
    assert [(s.key, s.target) for s in doc.segments] == [("a", "b")] and not doc.problems
    assert read_properties("\\").keys() == [""]
    # a malformed \u escape: one problem at its place, the rest read
    text = "a=ok\nb=bad \\u12g4 here\nc=later\n"
    doc = read_properties(text)
    assert [s.key for s in doc.segments] == ["a", "b", "c"]
    assert len(doc.problems) == 1
    p = doc.problems[0]
    assert (p.line, p.column, p.offset) == (1, 6, text.index("\\u12g4"))
    with pytest.raises(javaproperties.InvalidUEscapeError):
        javaproperties.loads(text)  # the oracle refuses the file
    # a surrogate pair written as two escapes is one character
    assert read_properties("x=\\uD83D\\uDE00!").segments[0].target == "😀!"


def test_where_java_9_reads_otherwise() -> None:
    """A logical line with nothing before its continuing backslash: Java 9+ reads the next line as a
    new one (a comment there is a comment); a lone backslash ending the file (or its last line) is a
    property with an empty key.  Java 8 and javaproperties read "#" there as text and drop the empty line."""
    assert read_properties("\\\n# comment\nk=v\n").keys() == ["k"]
    assert javaproperties.loads("\\\n# comment\nk=v\n") == {"#": "comment", "k": "v"}
    assert read_properties("\\\n   \t").keys() == []
    assert [(s.key, s.target) for s in read_properties("k=v\n\\").segments] == [("k", "v"), ("", "")]
    assert [(s.key, s.target) for s in read_properties("k=v\n\\\n").segments] == [("k", "v"), ("", "")]
    assert read_properties("k=v\n\\\r\n").keys() == ["k"]
    assert read_properties("a=b\\\n\\\nc").segments[0].target == "bc"


def test_iso_8859_1_when_not_utf8(tmp_path) -> None:
    path = tmp_path / "messages_fr.properties"
    path.write_bytes("titre=Fenêtre\nclé=été\n".encode("latin-1"))
    assert detect_format(str(path)) == PROPERTIES
    doc = read_document(str(path))
    assert [(s.key, s.target) for s in doc.segments] == [("titre", "Fenêtre"), ("clé", "été")]
    utf8 = tmp_path / "messages_de.properties"
    utf8.write_bytes("\ufefftitel=Fenster für Ä\n".encode("utf-8"))
    assert read_document(str(utf8)).segments[0].target == "Fenster für Ä"
    assert row(PROPERTIES).decoding == "utf-8-or-latin-1"


_KEYS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=12)
_VALUES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEYS, _VALUES, max_size=12), st.booleans())
def test_dumped_dicts_read_back(props: dict, ascii_only: bool) -> None:
    text = javaproperties.dumps(props, timestamp=False, ensure_ascii=ascii_only)
    doc = read_properties(text)
    assert not doc.problems
    assert {s.key: _value(s) for s in doc.segments} == props
    _check_positions(text, doc)


#: pieces of a .properties file, hostile ones included: separators, escapes, continuations, comments, CR
_PIECES = st.sampled_from([
    "a", "b", "key", "ü", " ", "\t", "\f", "=", ":", "\\", "\\\\", "\\=", "\\ ", "\\t", "\\n", "\\u0041",
    "\\u00e9", "\\\n", "\\\r\n", "\n", "\r", "\r\n", "#", "!", "{0}", "''", "  ", "\\\n   ",
])


def _java_9_differs(text: str) -> bool:
    """A line holding one backslash and nothing else: where Java 9+ (which bleu-ls follows) and
    javaproperties (Java 8's reading) part ways, see :func:`test_where_java_9_reads_otherwise`."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return any(ln.lstrip(" \t\f") == "\\" for ln in lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(_PIECES, max_size=30))
def test_generated_files_read_as_the_oracle(pieces: list[str]) -> None:
    text = "".join(pieces)
    assume(not _java_9_differs(text))
    doc = read_properties(text)
    assert not doc.problems  # the pieces hold only well-formed \u escapes
    assert [(_key(s), _value(s)) for s in doc.segments] == _oracle(text)
    _check_positions(text, doc)


def test_message_format_placeholders() -> None:
    text = "Datei {0} hat {1,number,integer} Zeilen; '{2}' bleibt, it''s {name} {3,choice,0#keine|1#eine {3}}"
    got = [p[2] for p in message_format_placeholders(text)]
    assert got == ["{0}", "{1,number,integer}", "{name}", "{3,choice,0#keine|1#eine {3}}"]
    for a, b, spelled in message_format_placeholders(text):
        assert text[a:b] == spelled
    assert message_format_placeholders("an open { brace") == []


def test_language_and_source_files() -> None:
    d = Path("/p/src/main/resources")
    assert properties_language(d / "messages_de.properties") == "de"
    assert properties_language(d / "messages_de_DE.properties") == "de-DE"
    assert properties_language(d / "messages_sr_Latn_RS.properties") == "sr-Latn-RS"
    assert properties_language(d / "messages.properties") is None
    assert properties_language(d / "my_app.properties") is None  # not a language: "app"
    assert properties_language(d / "my_fil.properties", "fil") == "fil"
    assert source_files(d / "messages_de.properties", "de") == [d / "messages.properties", d / "messages_en.properties"]
    assert source_files(d / "messages_de_DE.properties", None) == [d / "messages.properties",
                                                                   d / "messages_en.properties"]
    assert source_files(d / "messages_en_GB.properties", None) == [d / "messages.properties"]
    assert source_files(d / "messages.properties", None) == []
    assert row(PROPERTIES).source_files(d / "app_fr.properties", "fr")[0] == d / "app.properties"
