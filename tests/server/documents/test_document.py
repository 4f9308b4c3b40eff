"""The server's line model: LSP line breaks only, columns per encoding,
incremental edits equal to splitting the edited text from scratch."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.engine import split_lsp_lines
from bleu_ls.server.documents.document import UTF8, UTF16, UTF32, LineDocument, from_units, to_units, units

ALPHABET = st.sampled_from(list("ab \t\r\n\f\x85\u2028\u2029\x0b\x1c") + ["é", "中", "😀", "\r\n"])
TEXT = st.lists(ALPHABET, max_size=40).map("".join)
ENC = st.sampled_from([UTF8, UTF16, UTF32])


def test_only_lsp_breaks_split_lines():
    d = LineDocument("a\fb\u2028c\x85d\ne\r\nf\rg")
    assert d.engine_lines() == ["a\fb\u2028c\x85d", "e", "f", "g"]
    assert d.line_count == 4


def test_final_break_adds_no_scored_line():
    d = LineDocument("x\ny\n")
    assert d.engine_lines() == ["x", "y"]
    assert d.line_count == 3  # the editor shows an empty third line



def test_columns_per_encoding():
    line = "a😀中é"
    assert units(line, UTF16) == 1 + 2 + 1 + 1
    assert units(line, UTF8) == 1 + 4 + 3 + 2
    assert units(line, UTF32) == 4
    assert to_units(line, 2, UTF16) == 3
    assert from_units(line, 3, UTF16) == 2
    assert from_units(line, 5, UTF8) == 2
    # inside a character: rounds up to the next boundary; past the end: the end
    assert from_units(line, 2, UTF16) == 2
    assert from_units(line, 99, UTF8) == 4


@given(TEXT, ENC)
def test_lines_equal_split_lsp_lines(text, enc):
    d = LineDocument(text, encoding=enc)
    assert d.engine_lines() == split_lsp_lines(text)
    assert d.text == text


@given(st.text(alphabet=st.sampled_from(list("aé中😀\f\u2028"))), ENC)
def test_units_roundtrip(line, enc):
    for i in range(len(line) + 1):
        assert from_units(line, to_units(line, i, enc), enc) == i



def _width(c: str, enc: str) -> int:
    """Code units of one code point, from the encodings' definitions."""
    o = ord(c)
    if enc == UTF32:
        return 1
    if enc == UTF16:
        return 2 if o > 0xFFFF else 1
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(["a", "é", "中", "😀", "\U0010fffd", "\ud800", "\udc00", "ß"]), max_size=40), ENC)
def test_from_units_every_column(line, enc):
    # the first code point boundary at or after each column (past the end: the end),
    # lone surrogates included (one UTF-16 unit, three UTF-8 bytes as surrogatepass)
    ends = [0]
    for c in line:
        ends.append(ends[-1] + _width(c, enc))
    for column in range(-1, ends[-1] + 3):
        want = next((i for i, e in enumerate(ends) if e >= column), len(line))
        assert from_units(line, column, enc) == want


def test_from_units_on_a_long_line_lands_exactly():
    line = ("Größe 😀 " * 200_000) + "end"
    enc_len = {UTF16: len(line.encode("utf-16-le")) // 2, UTF8: len(line.encode("utf-8"))}
    for enc, n in enc_len.items():
        assert line[from_units(line, n - 3, enc):] == "end"
        assert from_units(line, n, enc) == len(line)

def _offset(text_lines, line, idx):
    """Absolute offset in the text of (entry line, code point index)."""
    return sum(len(c) + len(e) for c, e in text_lines[:line]) + idx


@settings(max_examples=400, deadline=None)
@given(TEXT, ENC, st.data())
def test_incremental_edits_match_from_scratch(text, enc, data):
    d = LineDocument(text, encoding=enc)
    engine = list(d.engine_lines())
    for _ in range(data.draw(st.integers(1, 4))):
        entries = list(d.entries)
        l1 = data.draw(st.integers(0, len(entries) - 1))
        i1 = data.draw(st.integers(0, len(entries[l1][0])))
        within = data.draw(st.booleans())  # within one line, no break typed (the fast path)
        l2 = l1 if within else data.draw(st.integers(l1, len(entries) - 1))
        i2 = data.draw(st.integers(0 if l2 > l1 else i1, len(entries[l2][0])))
        new = data.draw(TEXT)
        if within:
            new = new.replace("\r", "").replace("\n", "")
        full = d.text
        a, b = _offset(entries, l1, i1), _offset(entries, l2, i2)
        expected = full[:a] + new + full[b:]
        c1 = to_units(entries[l1][0], i1, enc)
        c2 = to_units(entries[l2][0], i2, enc)
        sp = d.edit(l1, c1, l2, c2, new)
        assert d.text == expected
        assert d.engine_lines() == split_lsp_lines(expected)
        # the splice turns the old scored lines into the new ones
        engine[sp.start : sp.end] = sp.lines
        assert engine == split_lsp_lines(expected)


def test_emptying_a_line_between_cr_and_lf_joins_the_breaks():
    # "\r" + "a" + "\n": deleting the "a" leaves one "\r\n" break, not two
    for enc in (UTF8, UTF16, UTF32):
        d = LineDocument("\ra\n", encoding=enc)
        engine = list(d.engine_lines())
        sp = d.edit(1, 0, 1, 1, "")
        engine[sp.start : sp.end] = sp.lines
        assert d.text == "\r\n"
        assert d.engine_lines() == engine == split_lsp_lines("\r\n")


def test_edit_from_lsp_change_dict_lands_on_the_right_line():
    d = LineDocument("one\fstill one\nx\u2028y\x85z\ntwo\n", encoding=UTF16)
    sp = d.apply({"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 3}}, "text": "TWO"})
    assert d.engine_lines() == ["one\fstill one", "x\u2028y\x85z", "TWO"]
    assert (sp.start, sp.end, sp.lines) == (2, 3, ["TWO"])


def test_cr_then_lf_join_into_one_break():
    d = LineDocument("a\rb")
    # delete "b"... then insert "\n" right after the "\r": one CRLF break, not two
    d.edit(1, 0, 1, 0, "\n")
    assert d.text == "a\r\nb"
    assert d.engine_lines() == ["a", "b"]


SEGMENT = st.lists(st.sampled_from(list("ab \t\f\x85\u2028é中😀")), max_size=6).map("".join)


@given(st.lists(SEGMENT, min_size=1, max_size=8), st.sampled_from(["\n", "\r\n"]), ENC, st.data())
def test_single_kind_of_break_fast_path(segments, brk, enc, data):
    """Texts with only "\\n" or only "\\r\\n" breaks (cut by str.split) give
    the same lines and endings as the general split, and edit the same way."""
    text = brk.join(segments)
    d = LineDocument(text, encoding=enc)
    assert d.engine_lines() == split_lsp_lines(text)
    assert d.text == text
    assert d.ends[:-1] == [brk] * (len(segments) - 1) and d.ends[-1] == ""
    # an edit that inserts a lone "\r" leaves the fast path behind
    line = data.draw(st.integers(0, len(segments) - 1))
    d.edit(line, 0, line, 0, "x\r")
    expected = brk.join(segments[:line] + ["x\r" + segments[line]] + segments[line + 1 :])
    assert d.text == expected
    assert d.engine_lines() == split_lsp_lines(expected)
    assert LineDocument(expected, encoding=enc).entries == d.entries


@settings(max_examples=200, deadline=None)
@given(TEXT, ENC, st.integers(1, 9), st.data())
def test_lazy_document_reads_like_the_split_one(text, enc, chunk, data):
    """A document opened lazily answers lines, counts and columns as the split
    one, before and after it is split in slices (blocks of ``chunk``)."""
    eager = LineDocument(text, 1, enc)
    lazy = LineDocument(text, 1, enc, lazy=True)
    probe = data.draw(st.lists(st.integers(-1, len(eager.lines) + 1), max_size=6))
    for i in probe:
        if lazy.ready(i):
            assert lazy.line(i) == eager.line(i)
            assert lazy.has_line(i) == (0 <= i < eager.n_lines)
            assert lazy.end_column(i) == eager.end_column(i)
    assert (lazy.n_lines, lazy.line_count) == (eager.n_lines, eager.line_count)
    assert not lazy.is_split  # found and counted without splitting the text
    steps = lazy.split_sliced(chunk)
    for _ in steps:
        pass
    assert lazy.is_split
    assert (lazy.lines, lazy.ends) == (eager.lines, eager.ends)
    assert lazy.engine_lines() == split_lsp_lines(text)
