"""The Android strings.xml live index (formats/live/keyed.py: AndroidIndex) against a fresh reading: an
edit reads again the elements of <resources> it reaches into, from the end of the element before it to
the start of the element after it, and splices their segments; after any edit its segments (keys,
targets, spans, lines, sources, runs, codes), header (the source keys the file lacks included) and
problems (aapt2's refusals, malformed XML, with their lines and columns) are those of the edited text
read afresh and paired with the same source, whichever way it went."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.android import read_android, read_android_text
from bleu_ls.formats.live.keyed import AndroidIndex

from .keyed_same import assert_same_as_fresh, count_whole_reads, edit_at_anchors, edit_at_random

SOURCE = read_android_text(
    '<resources>\n  <string name="lead">Before all</string>\n  <string name="hello">Hello</string>\n'
    '  <string name="gone">Gone</string>\n  <string name="new">New one</string>\n'
    '  <plurals name="files"><item quantity="one">%d file</item><item quantity="other">%d files</item></plurals>\n'
    '  <string-array name="days"><item>Monday</item><item>Tuesday</item></string-array>\n'
    '  <string name="tail">Tail</string>\n  <string name="last">Last</string>\n</resources>\n')

TEXT = ('<?xml version="1.0" encoding="utf-8"?>\n'
        '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n'
        '    <!-- greetings -->\n'
        '    <string name="hello">Hallo <xliff:g id="name">%1$s</xliff:g>!</string>\n'
        '    <string name="empty"/>\n'
        '    <plurals name="files">\n'
        '        <item quantity="one">%d Datei</item>\n'
        '        <item quantity="other">%d Dateien</item>\n'
        '    </plurals>\n'
        '    <string name="fixed" translatable="false">Fest</string>\n'
        '    <string-array name="days"><item>Montag</item><item>Dienstag</item></string-array>\n'
        '    <string name="quoted">"  zwei  Leerzeichen  " und \\\'so\\\'</string><string name="tail">Ende &amp; <b>fett</b></string>\n'
        '    <string name="last"><![CDATA[Letzte <b>]]></string>\n'
        '</resources>\n')


def fresh(text: str) -> AndroidIndex:
    idx = AndroidIndex("android", text)
    idx.set_source(SOURCE, "values/strings.xml")
    return idx


def same(idx: AndroidIndex) -> None:
    want = fresh(idx.text)
    assert_same_as_fresh(idx, want)
    assert idx.problems == want.problems  # lines and columns too
    assert idx._plain == want._plain
    if want._plain:  # where the elements are, as a fresh read finds them
        assert idx._el_start.tolist() == want._el_start.tolist() and idx._el_end.tolist() == want._el_end.tolist()
        assert (idx._close, idx._prefix, idx._keys) == (want._close, want._prefix, want._keys)


def test_the_index_reads_as_the_reader() -> None:
    idx = fresh(TEXT)
    plain = read_android_text(TEXT)
    assert [(s.key, s.target, s.target_span) for s in idx.segments()] == \
        [(s.key, s.target, s.target_span) for s in plain.segments]
    assert idx._plain and not idx.problems
    # the elements: each one's text from its "<" to the end of its end tag
    spans = [TEXT[a:b] for a, b in zip(idx._el_start.tolist(), idx._el_end.tolist())]
    assert spans[1] == '<string name="empty"/>' and spans[2].startswith("<plurals") and spans[2].endswith("</plurals>")
    assert len(spans) == 8 and TEXT[idx._close:] == "</resources>\n"


def test_a_word_typed_in_a_value_reads_its_element_alone() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("Hallo") + len("Hallo")
    change = idx.edit(at, at, " lieber")
    assert (change.kind, change.start, change.text_changed) == ("text", 0, True)
    assert idx.segment(0).target == "Hallo lieber %1$s!" and idx.segment(0).source == "Hello"
    at = idx.text.index("%d Dateien")
    change = idx.edit(at + 3, at + 3, "viele ")  # an item of a plurals: that plurals read again
    assert change.kind == "text" and idx.segment(3).target == "%d viele Dateien"
    assert not calls
    same(idx)


def test_an_entry_pasted_and_a_line_break_between_entries_read_no_whole() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    missing_before = idx.header["source-missing"]
    at = TEXT.index('    <string name="empty"')
    change = idx.edit(at, at, '    <string name="new">Neu</string>\n')
    assert (change.kind, change.start, change.end, change.count) == ("structure", 1, 1, 1)
    seg = idx.segment(1)
    assert (seg.key, seg.target, seg.source, seg.line) == ("new", "Neu", "New one", 4)
    assert idx.text[slice(*seg.target_span)] == "Neu"
    assert idx.header["source-missing"] != missing_before  # "new" no longer missing
    same(idx)
    at = idx.text.index("    <!-- greetings")  # before the first entry: the source's "lead", missing, goes under it
    idx.edit(at, at, '    <string name="first">Erst</string>\n')
    assert '"first": [["lead", "Before all", true]]' in idx.header["source-missing"]
    same(idx)
    idx.edit(at, at + len('    <string name="first">Erst</string>\n'), "")
    same(idx)
    at = idx.text.index("\n    <plurals")
    change = idx.edit(at, at, "\n")
    assert change.kind == "none" and change.line_delta == 1 and idx.segment(3).line == 8
    same(idx)
    assert not calls


def test_a_comment_an_apostrophe_and_a_key_renamed() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index("<!-- greetings -->")
    idx.edit(at, at, "<!-- a <string> in a comment -->\n    ")  # a comment between elements
    same(idx)
    at = idx.text.index("Montag")
    change = idx.edit(at, at, "l'")  # aapt2 refuses it: the problem said, read alone
    assert change.problems_changed and len(idx.problems) == 1 and "apostrophe" in idx.problems[0].message
    same(idx)
    at = idx.text.index('name="tail"') + len('name="')
    change = idx.edit(at, at + 4, "gone")  # "tail" becomes "gone": paired with the source's "Gone"
    assert change.kind == "structure" and idx.segment(7).key == "gone" and idx.segment(7).source == "Gone"
    same(idx)
    assert not calls


def test_what_reads_the_whole() -> None:
    cases = [
        (TEXT.index("xmlns:xliff"), 0, 'tools="t" '),  # the root's start tag
        (0, 0, " "),  # before the declaration
        (TEXT.index("</resources>") + 2, 0, "x"),  # the root's end tag
        (TEXT.index('    <string name="empty"'), 0, "<!-- "),  # a comment left open
        (TEXT.index('    <string name="empty"'), 0, '<string name="hello">Doppelt</string>'),  # a name twice
        (TEXT.index('    <string name="empty"'), 0, "</resources><resources>"),
        (TEXT.index("Montag"), 0, "<b>"),  # an element left open
    ]
    for at, length, new in cases:
        idx = fresh(TEXT)
        calls = count_whole_reads(idx)
        idx.edit(at, at + length, new)
        assert calls, new
        same(idx)


def test_a_malformed_file_reads_whole_and_mends() -> None:
    idx = fresh(TEXT)
    at = TEXT.index("Montag")
    idx.edit(at, at, "<")  # malformed: the read stops there, its segments before kept
    assert not idx._plain and "not well-formed" in idx.problems[-1].message
    same(idx)
    idx.edit(at, at + 1, "")
    assert idx._plain and not idx.problems
    same(idx)


PIECES = ["x", " ", "\n", "'", "\\'", '"', "\\", "\\u00e9", "\\u12", "&amp;", "&lt;", "<", ">", "/", "<b>", "</b>",
          "<!-- c -->", "<!--", "-->", "<![CDATA[x]]>", '<string name="new">Neu</string>', '<string name="x">X</string>',
          '<string name="hello">H</string>', "</string>", '<item quantity="few">F</item>', "<item>I</item>",
          '<plurals name="q"><item quantity="one">Q</item></plurals>', "</resources>", '<string name="y"/>',
          'translatable="false" ', '<xliff:g id="n">%s</xliff:g>', "\t", "\r\n", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12), st.sampled_from(PIECES)), min_size=1, max_size=8))
def test_random_edits_equal_a_fresh_reading(edits) -> None:
    edit_at_random(fresh(TEXT), edits, same)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(PIECES)), min_size=1, max_size=8),
       st.sampled_from(["<", ">", "\n", '"', "</", "/>"]))
def test_edits_at_tag_edges_equal_a_fresh_reading(edits, anchor) -> None:
    edit_at_anchors(fresh(TEXT), edits, anchor, same)


IN_VALUE = ["x", " ", "  ", "\n", "'", "\\'", '"', "\\n", "\\u00e9", "&amp;", "&#233;", "<b>x</b>", "<![CDATA[<i>]]>", "\r\n",
            "<!-- c -->", '<xliff:g id="n">%s</xliff:g>', ""]
BETWEEN = ["\n", "  ", "<!-- c -->", '<string name="new">Neu</string>', '<string name="x">X\'s</string>', '<string name="y"/>',
           '<plurals name="q"><item quantity="one">Q</item><item quantity="other">Qs</item></plurals>',
           '<string name="z" translatable="false">Z</string>', "<string-array name=\"arr\"><item>A</item></string-array>", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 4),
                          st.sampled_from(IN_VALUE), st.sampled_from(BETWEEN)), min_size=1, max_size=10))
def test_edits_that_keep_the_file_whole_read_no_whole(edits) -> None:
    """Words, escapes, entities, comments and styling tags typed or cut inside values; elements pasted, cut
    and line breaks typed between them: the file stays well-formed, names each key once, and no edit reads
    the whole text."""
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    for n, (in_value, k, at, length, word, element) in enumerate(edits):
        # each name once ("new" the source's, while the file does not have it)
        element = element.replace('name="', f'name="{n}').replace(f'"{n}new"', '"new"' if "new" not in idx._keys else f'"{n}new"')
        text = idx.text
        if in_value and len(idx):
            a, b = idx.target_span(k % len(idx))
            start = a + at % (b - a + 1)
            if "<" in text[a:b] or "&" in text[a:b]:  # not inside a tag or an entity: at the value's ends
                start, length = (a if at % 2 else b), 0
            idx.edit(start, min(b, start + length), word)
        else:
            ends = [len(idx._prefix)] + idx._el_end.tolist()  # before the first element, or after one
            start = ends[k % len(ends)]
            nxt = text.find("<", start)
            cut = text[start:nxt] if length and nxt >= 0 else ""
            idx.edit(start, start + len(cut), element + "\n" if element else "")
        same(idx)
    assert not calls


#: ``product`` variants: one name twice, keyed ``app`` and ``app#2`` in file order
DUPS = TEXT.replace('    <string name="empty"/>\n', '    <string name="app" product="tablet">Tablet</string>\n'
                    '    <string name="empty"/>\n    <string name="app" product="default">Telefon</string>\n')


def test_a_name_given_twice_reads_alone_what_holds_neither() -> None:
    idx = fresh(DUPS)
    assert idx._plain and idx.header["duplicate-keys"] == "1" and idx.segment(3).key == "app#2"
    calls = count_whole_reads(idx)
    at = DUPS.index("Montag")
    idx.edit(at, at, "Mo ")  # elsewhere: read alone
    at = idx.text.index('    <string name="empty"/>')
    idx.edit(at, at, '    <string name="new">Neu</string>\n')  # between the two: read alone
    assert not calls
    same(idx)
    at = idx.text.index("Tablet")
    idx.edit(at, at, "Ein ")  # one of them: their numbering is the file's, the whole read
    assert calls
    same(idx)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 4),
                          st.sampled_from(IN_VALUE + ['<string name="app">A</string>']),
                          st.sampled_from(BETWEEN + ['<string name="app" product="car">Auto</string>'])),
                min_size=1, max_size=10))
def test_edits_beside_a_name_given_twice_equal_a_fresh_reading(edits) -> None:
    idx = fresh(DUPS)
    for in_value, k, at, length, word, element in edits:
        text = idx.text
        if in_value and len(idx):
            a, b = idx.target_span(k % len(idx))
            start = a + at % (b - a + 1)
            if "<" in text[a:b] or "&" in text[a:b]:
                start, length = (a if at % 2 else b), 0
            idx.edit(start, min(b, start + length), word)
        else:
            ends = [len(idx._prefix)] + idx._el_end.tolist() if idx._plain else [0]
            start = ends[k % len(ends)]
            idx.edit(start, start, element + "\n" if element else "")
        same(idx)


#: the same file with Windows line breaks, and after a DOCTYPE naming an external DTD (never read: an entity
#: it would define, ``&nbsp;``, is kept as its text, in the region read as in the whole)
VARIANTS = [TEXT.replace("\n", "\r\n"),
            TEXT.replace("<resources ", '<!DOCTYPE resources SYSTEM "res.dtd">\n<resources ').replace("Montag", "Mon&nbsp;tag")]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS),
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12), st.sampled_from(PIECES + ["&nbsp;", "&foo;", "\r"])),
                min_size=1, max_size=8))
def test_random_edits_of_crlf_and_doctype_files_equal_a_fresh_reading(text, edits) -> None:
    idx = fresh(text)
    assert idx._plain
    edit_at_random(idx, edits, same)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VARIANTS), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6),
                                                     st.sampled_from(IN_VALUE + ["&nbsp;"])), min_size=1, max_size=8))
def test_words_typed_in_crlf_and_doctype_files_read_no_whole(text, edits) -> None:
    idx = fresh(text)
    calls = count_whole_reads(idx)
    for k, at, word in edits:
        if word == "&nbsp;" and "DOCTYPE" not in text:  # without the DTD the entity is not well-formed
            continue
        a, b = idx.target_span(k % len(idx))
        start = a + at % (b - a + 1)
        if "<" in idx.text[a:b] or "&" in idx.text[a:b]:
            start = a if at % 2 else b
        idx.edit(start, start, word)
        same(idx)
    assert not calls


def test_real_file_edited_entry_by_entry() -> None:
    """The LineageOS Updater's German strings.xml (tests/data/formats/android/SOURCES.md) paired with its
    English one: a word typed, an entry pasted, a line break, an apostrophe, an entry cut, each read alone."""
    res = Path(__file__).resolve().parents[2] / "data" / "formats" / "android" / "updater" / "res"
    de = read_android((res / "values-de" / "strings.xml").read_bytes())
    source = read_android((res / "values" / "strings.xml").read_bytes())
    text = de.text
    assert text is not None
    idx = AndroidIndex("android", text)
    idx.set_source(source, "strings.xml")
    calls = count_whole_reads(idx)
    mid = text.index("\n    <string", len(text) // 2) + 1
    edits = (lambda t: (mid, mid, '    <string name="bleu_ls_pasted">Eingefügt</string>\n'),  # an entry pasted
             lambda t: (t.index(">", mid) + 1, t.index(">", mid) + 1, "neu "),  # a word typed in its value
             lambda t: (mid - 1, mid - 1, "\n"),  # a line break before it
             lambda t: (t.index("</string>", mid) - 1, t.index("</string>", mid) - 1, "'"),  # refused by aapt2
             lambda t: (mid, t.index("\n", mid) + 1, ""))  # the pasted entry cut again
    for edit in edits:
        idx.edit(*edit(idx.text))
        want = AndroidIndex("android", idx.text)
        want.set_source(source, "strings.xml")
        assert idx.segments() == want.segments() and idx.header == want.header and idx.problems == want.problems
    assert not calls
