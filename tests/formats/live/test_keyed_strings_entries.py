"""The Apple .strings live index (formats/live/keyed.py: StringsIndex) against a fresh reading: an edit reads
again the entries it touched, from the ";" of the entry before it to the ";" of the entry after it (the
comment before an entry, its note, read with it), and splices their segments; after any edit its segments
(keys, targets, spans, lines, notes, sources), header and problems are those of the edited text read afresh
and paired with the same source, whichever way it went."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.apple_strings import read_strings, read_strings_bytes
from bleu_ls.formats.live.keyed import StringsIndex

from .keyed_same import assert_same_as_fresh, count_whole_reads, edit_at_anchors, edit_at_random

SOURCE = read_strings('"hello" = "Hello";\n"bye" = "Goodbye";\n"new" = "New one";\nplain = value;\n"Cancel";\n')
TEXT = ('\ufeff/* the greeting */\n"hello" = "Hallo \\"Welt\\"";\n// a line comment\n"bye" = "Tschüss" ;\n\n'
        "plain = wert;\n'single' = 'einfach\\n';\n\"Cancel\";\n/* trailing */\n")


def fresh(text: str) -> StringsIndex:
    idx = StringsIndex("strings", text)
    idx.set_source(SOURCE, "en.lproj/Localizable.strings")
    return idx


def same(idx: StringsIndex) -> None:
    want = fresh(idx.text)
    got = assert_same_as_fresh(idx, want)
    assert [s.notes for s in got] == [s.notes for s in want.segments()]
    assert idx.problems == want.problems and idx._plain == want._plain


def test_a_word_an_entry_and_a_note_read_alone() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("Tschüss")
    change = idx.edit(at, at, "und ")
    assert change.kind == "text" and idx.segment(1).target == "und Tschüss"
    same(idx)
    at = idx.text.index("plain")
    change = idx.edit(at, at, '/* new */ "new" = "Neu";\n')
    # the entry after it read with it (its note may be the text typed): the new one and it
    assert (change.kind, change.start, change.end, change.count) == ("structure", 2, 3, 2)
    seg = idx.segment(2)
    assert (seg.key, seg.target, seg.source, seg.notes) == ("new", "Neu", "New one", ("new",))
    same(idx)
    at = idx.text.index("// a line comment")
    idx.edit(at + 5, at + 5, "changed ")  # the note of the entry after it read with it
    assert idx.segment(1).notes == ("a changed line comment",)
    same(idx)
    at = idx.text.index('Tschüss" ;') + len('Tschüss" ')
    idx.edit(at - 1, at - 1, "\n  ")  # between a value and its ";"
    same(idx)
    assert not calls


def test_what_reads_the_whole() -> None:
    for new in ('"hello" = "x";', "/* open", '"open', "= ;"):
        idx = fresh(TEXT)
        calls = count_whole_reads(idx)
        at = TEXT.index("plain")
        idx.edit(at, at, new)
        assert calls, new
        same(idx)


PIECES = ["x", " ", "\n", '"', "'", ";", "=", "\\", '\\"', "/*", "*/", "//", "/* c */", '"k" = "v";\n', '"new" = "N";\n',
          '"hello" = "H";\n', "plain2 = p;\n", '"K";', "\\n", "\r\n", "\ufeff", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10), st.sampled_from(PIECES)), min_size=1, max_size=8))
def test_random_edits_equal_a_fresh_reading(edits) -> None:
    edit_at_random(fresh(TEXT), edits, same)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(PIECES)), min_size=1, max_size=8),
       st.sampled_from([";", '"', "\n", "=", "/", "'"]))
def test_edits_at_separators_equal_a_fresh_reading(edits, anchor) -> None:
    edit_at_anchors(fresh(TEXT), edits, anchor, same)


def test_real_file_edited_entry_by_entry() -> None:
    """Sparkle's German Sparkle.strings beside its Base one (tests/data/formats/apple/SOURCES.md): an entry
    pasted, a word typed, a line break, a comment, the entry cut, each read alone."""
    data = Path(__file__).resolve().parents[2] / "data" / "formats" / "apple"
    de = data / "sparkle" / "de.lproj" / "Sparkle.strings"
    en = data / "sparkle" / "Base.lproj" / "Sparkle.strings"
    text = read_strings_bytes(de.read_bytes()).text
    assert text is not None
    source = read_strings_bytes(en.read_bytes())
    idx = StringsIndex("strings", text)
    idx.set_source(source, en.name)
    calls = count_whole_reads(idx)
    mid = text.index(";\n", len(text) // 2) + 2
    edits = (lambda t: (mid, mid, '"bleu_ls_pasted" = "Eingefügt";\n'),
             lambda t: (mid + len('"bleu_ls_pasted" = "'), mid + len('"bleu_ls_pasted" = "'), "neu "),
             lambda t: (mid - 1, mid - 1, "\n"),
             lambda t: (mid, mid, "/* eine Notiz */\n"),
             lambda t: (mid, t.index(";\n", mid + len("/* eine Notiz */\n")) + 2, ""))
    for edit in edits:
        idx.edit(*edit(idx.text))
        want = StringsIndex("strings", idx.text)
        want.set_source(source, en.name)
        assert idx.segments() == want.segments() and idx.header == want.header
    assert not calls
