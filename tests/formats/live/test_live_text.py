"""The text model of the live indexes (formats/live/text.py): after every step of a
random edit script (insertions, deletions, replacements across pieces, line breaks
typed and removed, non-Latin-1 text, the whole text cleared) it equals the plain
string edited the same way — its value, slices, lines and offset ↔ line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.text as live_text
from bleu_ls.formats.live.text import ChunkText

ALPHABET = st.sampled_from(list("ab \n\r\né€😀<>\""))
TEXTS = st.text(ALPHABET, max_size=200)


def _check(t: ChunkText, plain: str) -> None:
    assert len(t) == len(plain)
    lines = plain.split("\n")
    assert t.line_count == len(lines)
    start = 0
    for j, content in enumerate(lines):
        assert t.line_start(j) == start
        assert t.line_end(j) == start + len(content)
        assert t.line(j) == content
        start += len(content) + 1
    for off in range(len(plain) + 1):
        assert t.line_of(off) == plain.count("\n", 0, off)
    for a in range(0, len(plain) + 1, 3):
        for b in (a, a + 1, a + 7, a + 40, len(plain) + 5):
            assert t.slice(a, b) == plain[a:b]
            assert t[a:b] == plain[a:b]
        assert t.startswith('"', a) == plain.startswith('"', a)
        for sub in ("\n", "ab", "€😀", ""):
            assert t.find(sub, a) == plain.find(sub, a), (sub, a)
            assert t.find(sub, a, a + 9) == plain.find(sub, a, a + 9), (sub, a)
    assert t.value() == plain and str(t) == plain and t == plain


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch):
    monkeypatch.setattr(live_text, "CHUNK", 8)  # many pieces, edits across them


@settings(max_examples=150, deadline=None)
@given(TEXTS, st.lists(st.tuples(st.integers(0, 400), st.integers(0, 60), TEXTS), max_size=12), st.booleans())
def test_random_edits_equal_the_plain_string(text, script, read_between):
    t = ChunkText(text)
    plain = text
    _check(t, plain)
    for at, length, new in script:
        a = min(at, len(plain))
        b = min(a + length, len(plain))
        t.replace(a, b, new)
        plain = plain[:a] + new + plain[b:]
        if read_between:
            t.value()  # the joined text kept until the next edit
        _check(t, plain)


def test_pieces_stay_bounded():
    t = ChunkText("x\n" * 200)
    plain = "x\n" * 200
    for _ in range(150):  # deletions leave no crumbs, a long paste is cut
        t.replace(10, 12, "")
        plain = plain[:10] + plain[12:]
    t.replace(5, 5, "long paste\n" * 50)
    plain = plain[:5] + "long paste\n" * 50 + plain[5:]
    _check(t, plain)
    assert all(1 <= len(p) <= 2 * live_text.CHUNK for p in t._pieces)
    assert len(t._pieces) <= 2 * len(plain) // live_text.CHUNK + 2


def test_empty_text():
    t = ChunkText("")
    _check(t, "")
    t.replace(0, 0, "a\nb")
    _check(t, "a\nb")
    t.replace(0, 3, "")
    _check(t, "")


@settings(max_examples=100, deadline=None)
@given(TEXTS)
def test_a_text_cut_before_any_edit_is_the_same_text(text):
    t = ChunkText(text)
    t.cut()
    _check(t, text)
