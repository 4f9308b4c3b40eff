"""The .properties live index (formats/live/keyed.py: PropertiesIndex) against a fresh reading: an edit
reads again the logical lines it touched (continuations included) and splices their segments; after
any edit its segments (keys, targets, spans, lines, sources), header and problems are those of the
edited text read afresh and paired with the same source, whichever way it went."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.live.keyed import PropertiesIndex
from bleu_ls.formats.properties import read_properties

from .keyed_same import assert_same_as_fresh, count_whole_reads, edit_at_anchors, edit_at_random

SOURCE = read_properties("greeting = Hello\nfarewell = Goodbye\nlong = one two \\\n    three\nnew = New one\n"
                         "name: Name {0}\n")
TEXT = ("# a comment \\\ngreeting = Hallo\nfarewell = Tschüss\n\nlong = eins zwei \\\n    drei\n"
        "! another\nextra=Extra\\n\\u00e9\nname: Name {0}\n")


def fresh(text: str) -> PropertiesIndex:
    idx = PropertiesIndex("properties", text)
    idx.set_source(SOURCE, "messages.properties")
    return idx


def same(idx: PropertiesIndex) -> None:
    assert_same_as_fresh(idx, fresh(idx.text))



def test_an_entry_pasted_and_a_word_typed_are_read_alone() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("extra=")
    change = idx.edit(at, at, "new = Neu\n")
    # the line it was typed on read again with it: its segment and the new one
    assert (change.kind, change.start, change.end, change.count) == ("structure", 3, 4, 2)
    seg = idx.segment(3)
    assert (seg.key, seg.target, seg.source, seg.line) == ("new", "Neu", "New one", 7)
    at = idx.text.index("drei")
    change = idx.edit(at, at, "und ")  # on a continuation line: the logical line from its start
    assert change.kind == "text" and idx.segment(2).target == "eins zwei und drei"
    assert not calls
    same(idx)


def test_a_continuation_made_or_undone_reads_the_next_line_too() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("Tschüss") + len("Tschüss")
    idx.edit(at, at, " \\")  # farewell goes on on the blank line after it: the lines after are read too
    same(idx)
    at = idx.text.index(" \\\n\nlong")
    idx.edit(at, at + 2, "")
    same(idx)
    assert not calls


def test_a_key_the_file_has_reads_the_whole() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("extra=")
    idx.edit(at, at, "greeting = Noch einmal\n")
    assert calls and idx.header.get("duplicate-keys") == "1"
    same(idx)


PIECES = ["x", "\\", "\n", "=", " ", ":", "#", "!", "k = v\n", "greeting=G\n", "\r\n", "\r", "\\u00e9", "\\u12",
          "\\\n", "\t", "new = N\n", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 8), st.sampled_from(PIECES)), min_size=1, max_size=8))
def test_random_edits_equal_a_fresh_reading(edits) -> None:
    edit_at_random(fresh(TEXT), edits, same)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(PIECES)), min_size=1, max_size=8),
       st.sampled_from(["\n", "\\", "=", " "]))
def test_edits_at_line_ends_and_backslashes_equal_a_fresh_reading(edits, anchor) -> None:
    edit_at_anchors(fresh(TEXT), edits, anchor, same)


def test_real_bundle_edited_line_by_line() -> None:
    """Apache JMeter's German bundle (tests/data/formats/properties/SOURCES.md) paired with its English one:
    an entry pasted, a word typed, a line break, a continuation made and a line cut, each read alone."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "data" / "formats" / "properties" / "jmeter"
    de = next(p for p in sorted(data.iterdir()) if p.name.endswith("_de.properties"))
    en = data / de.name.replace("_de.properties", ".properties")
    text = de.read_text(encoding="utf-8")
    idx = PropertiesIndex("properties", text)
    source = read_properties(en.read_text(encoding="utf-8"))
    idx.set_source(source, en.name)
    calls = count_whole_reads(idx)
    mid = text.index("\n", len(text) // 2) + 1
    edits = (lambda t: (mid, mid, "bleu_ls_pasted=Eingefügt\n"),  # an entry pasted
             lambda t: (mid + 15, mid + 15, "neu "),  # a word typed in its value
             lambda t: (mid - 1, mid - 1, "\n"),  # a line break before it
             lambda t: (t.index("\n", mid + 1), t.index("\n", mid + 1), " \\"),  # its line continued on the next
             lambda t: (mid + 1, t.index("\n", mid + 1) + 1, ""))  # its line cut: the next one a property again
    for edit in edits:
        idx.edit(*edit(idx.text))
        want = PropertiesIndex("properties", idx.text)
        want.set_source(source, en.name)
        assert idx.segments() == want.segments() and idx.header == want.header
    assert not calls
