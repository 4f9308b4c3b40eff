"""TMX followed edit by edit (live_whole.XmlIndex over xml_reread): an edit inside one ``tu``
reads that ``tu`` alone again, a ``tu`` pasted or deleted reads the ``tu``s it touched, and
after every step of a random edit script the index equals a fresh read of the text."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.text as live_text

import bleu_ls.formats.live.whole as live_whole
from bleu_ls.formats.live.whole import XmlIndex
from bleu_ls.formats.model import TMX
from bleu_ls.formats.read import parse
from bleu_ls.formats.tmx import read_tmx_text
from bleu_ls.formats.live.xml_reread import apply_edit, shift_segment

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "tmx"


@pytest.fixture(autouse=True, scope="module")
def small_pieces():
    """The index's text in small pieces (formats/live/text.py): the edits cross them, and the region
    re-read is given a window of them (the tu before the edit to the tu after it, the root's tag before)."""
    old, live_text.CHUNK = live_text.CHUNK, 64
    yield
    live_text.CHUNK = old

TU = ('    <tu{tuid}>\n      <prop type="x-origin">mt</prop>\n      <tuv xml:lang="en"><seg>Source {i} &amp; <ph x="1">&lt;b/&gt;</ph>'
      'text</seg></tuv>\n      <tuv xml:lang="de"><note>n{i}</note><seg>Ziel {i} <bpt i="1">&lt;b&gt;</bpt>fett<ept i="1">&lt;/b&gt;</ept>'
      '</seg></tuv>\n{more}    </tu>\n')


def _tmx(n: int, tuids: str) -> str:
    """``tuids``: "all" (every tu has one), "none" (keyed by place), "mixed" (some); every fifth tu has
    a French target too, every seventh has no target (not a segment; it still counts in the places)."""
    out = []
    for i in range(n):
        has = tuids == "all" or (tuids == "mixed" and i % 3)
        more = f'      <tuv xml:lang="fr"><seg>Cible {i}</seg></tuv>\n' if i % 5 == 4 else ""
        tu = TU.format(tuid=f' tuid="t{i}"' if has else "", i=i, more=more)
        if i % 7 == 6:
            tu = tu.split('      <tuv xml:lang="de">')[0] + "    </tu>\n"
        out.append(tu)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="t" segtype="sentence" '
            'o-tmf="t" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n' + "".join(out) + "  </body>\n</tmx>\n")


SNIPPETS = ["a", "mot ", "é", "😀", "&amp;", "&lt;", "\n", " ", "<", "</", "</seg>", '<ph x="2"/>', '"', ">", "",
            '<tu tuid="new"><tuv xml:lang="en"><seg>N</seg></tuv><tuv xml:lang="de"><seg>Neu</seg></tuv></tu>',
            '<tu><tuv xml:lang="en"><seg>N</seg></tuv><tuv xml:lang="de"><seg>Neu</seg></tuv></tu>',
            '<tu tuid="t1"><tuv xml:lang="en"><seg>dup</seg></tuv><tuv xml:lang="de"><seg>D</seg></tuv></tu>']


def _texts():
    return [_tmx(12, "all"), _tmx(12, "none"), _tmx(12, "mixed"),
            (DATA / "sample.tmx").read_text(encoding="utf-8"), (DATA / "mixed-languages.tmx").read_text(encoding="utf-8")]


def _fresh(text):
    return parse(TMX, b"", "buffer", text=text)


def _check(index: XmlIndex) -> None:
    fresh = _fresh(index.text)
    got = index.document()
    assert got.problems == fresh.problems
    assert got.segments == fresh.segments
    assert [index.target_span(i) for i in range(len(index))] == [s.target_span for s in fresh.segments]
    # the keys the index counts (a key added elsewhere, a tu keyed by its place: no walk over the segments)
    assert index._key_count == Counter(s.key for s in fresh.segments)
    assert index._hash_keys == sum(s.key.startswith("#") for s in fresh.segments)


class _Whole:
    """Counts the index's whole reads, and the edits that joined the whole text (no window)."""

    def __init__(self, monkeypatch):
        self.n = self.joined = 0
        real = live_whole.WholeIndex._whole_change  # the whole text read again (after the edit is made)

        def counted(index, *a):
            self.n += 1
            return real(index, *a)

        monkeypatch.setattr(live_whole.WholeIndex, "_whole_change", counted)
        value = live_text.ChunkText.value

        def joined(text):
            self.joined += 1
            return value(text)

        monkeypatch.setattr(live_text.ChunkText, "value", joined)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 4), steps=st.lists(
    st.tuples(st.sampled_from(["target", "target", "anywhere", "copy-tu", "copy-tu-new-id", "drop-tu"]),
              st.floats(0, 1), st.integers(0, 8), st.sampled_from(SNIPPETS)), min_size=1, max_size=12))
def test_random_tmx_edit_scripts_leave_the_index_equal_to_a_fresh_read(which, steps):
    index = XmlIndex(TMX, _texts()[which])
    for how, where, length, new in steps:
        n, t = len(index), index.text
        before = index.segments()
        if how == "target" and n:
            a, b = index.target_span(min(n - 1, int(where * n)))
            start = a + int((b - a) * where)
            change = index.edit(start, min(b, start + length), new)
        elif how.startswith(("copy", "drop")) and n:
            seg = index.segment(min(n - 1, int(where * n)))
            us, ue = seg.extra.get("unit_span", seg.target_span)
            if how == "drop-tu":
                change = index.edit(us, ue, "")
            else:
                unit = t[us:ue]
                if how == "copy-tu-new-id":
                    unit = unit.replace('tuid="', 'tuid="copy', 1)
                change = index.edit(ue, ue, "\n    " + unit)
        else:
            start = int(where * len(t))
            change = index.edit(start, min(len(t), start + length), new)
        _check(index)
        fresh = index.segments()
        if change.kind == "structure":  # the segments outside the change: those before it, or moved by it
            tail = len(before) - change.end
            assert len(fresh) - change.count == len(before) - (change.end - change.start)
            assert fresh[: change.start] == before[: change.start]
            assert fresh[len(fresh) - tail:] == [shift_segment(s, change.delta, change.line_delta) for s in before[change.end:]]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 4), data=st.data())
def test_apply_edit_on_tmx_equals_a_fresh_read(which, data):
    text = _texts()[which]
    doc = read_tmx_text(text)
    for _ in range(data.draw(st.integers(1, 6))):
        a = data.draw(st.integers(0, len(text)))
        b = data.draw(st.integers(a, min(len(text), a + data.draw(st.sampled_from([0, 1, 5, 40, 300])))))
        ins = data.draw(st.sampled_from(SNIPPETS)) or "y"
        removed = text[a:b]
        text = text[:a] + ins + text[b:]
        doc, _local = apply_edit(text, doc, a, b, a + len(ins), removed)
        fresh = read_tmx_text(text)
        assert doc.segments == fresh.segments
        assert [p.message for p in doc.problems] == [p.message for p in fresh.problems]


@pytest.mark.parametrize("tuids", ["all", "none", "mixed"])
def test_typing_in_a_target_reads_that_tu_only(monkeypatch, tuids):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(40, tuids))
    k = next(i for i in range(10, len(index)) if index.segment(i).extra["alternative"] == 1
             and index.segment(i + 1).extra["unit_span"] != index.segment(i).extra["unit_span"])
    a, b = index.target_span(k)
    whole.joined = 0
    change = index.edit(b, b, " noch\nmehr")
    assert whole.joined == 0  # a window of the text read, not the whole of it
    assert (change.kind, change.start, change.text_changed) == ("text", k, True)
    assert index.segment(k).target.endswith(" noch mehr")
    # a tu with two targets: both its segments read again, nothing else
    two = next(i for i in range(k, len(index)) if index.segment(i).extra["alternative"] == 2)
    a, b = index.target_span(two)
    change = index.edit(a, a + 1, "")
    assert (change.kind, change.start, change.end, change.count) == ("structure", two - 1, two + 1, 2)
    assert whole.n == 0
    _check(index)


def test_a_pasted_or_deleted_tu_reads_the_tus_it_touched(monkeypatch):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(40, "all"))
    seg = index.segment(20)
    us, ue = seg.extra["unit_span"]
    unit = index.text[us:ue].replace('tuid="', 'tuid="pasted', 1)
    whole.joined = 0
    change = index.edit(ue, ue, "\n    " + unit)
    assert whole.joined == 0
    assert change.kind == "structure" and change.start == change.end and change.count >= 1
    assert index.segment(change.start).key.startswith("pasted")
    _check(index)
    us, ue = index.segment(change.start).extra["unit_span"]
    change = index.edit(us - 5, ue, "")  # the pasted tu and the blank before it deleted
    assert change.kind == "structure" and change.count == 0
    assert whole.n == 0
    _check(index)
    assert index.text == _tmx(40, "all")


def test_tus_keyed_by_place_after_a_pasted_tu_get_their_new_places(monkeypatch):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(40, "none"))
    n = len(index)
    us, ue = index.segment(3).extra["unit_span"]
    change = index.edit(ue, ue, "\n    " + index.text[us:ue])  # every tu after it moves one place: their keys change
    assert (change.kind, change.start, change.end, change.count) == ("structure", 4, n, n + 1 - 4)
    assert index.segment(4).key == "#5" and index.segment(5).key == "#6" and index.segment(n).key == "#41#2"
    _check(index)
    a, b = index.target_span(30)
    assert index.edit(a, a, "x").kind == "text"  # typing in a tu keyed by its place: that tu alone
    us, ue = index.segment(4).extra["unit_span"]
    index.edit(us, ue, "")  # and deleted again
    assert whole.n == 0
    _check(index)


def test_a_tuid_that_looks_like_a_place_reads_the_whole_text(monkeypatch):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(12, "none").replace("<tu>", '<tu tuid="#30">', 1))
    us, ue = index.segment(5).extra["unit_span"]
    index.edit(ue, ue, "\n    " + index.text[us:ue])
    assert whole.n == 1
    _check(index)


@pytest.mark.parametrize("tuids", ["all", "none", "mixed"])
def test_edits_in_the_first_and_the_last_tu_read_a_window(monkeypatch, tuids):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(31, tuids))  # the first and the last tu: one target each
    for k in (0, len(index) - 1):  # typing in the first and the last target
        a, b = index.target_span(k)
        whole.joined = 0
        change = index.edit(b, b, " mehr")
        assert (change.kind, change.start, change.text_changed, whole.joined) == ("text", k, True, 0)
        assert index.segment(k).target.endswith(" mehr")
        _check(index)
    # the last tu copied after itself, the first deleted, then the first copied before itself
    us, ue = index.segment(len(index) - 1).extra["unit_span"]
    last = index.text[us:ue].replace('tuid="', 'tuid="last', 1)
    whole.joined = 0
    change = index.edit(ue, ue, "\n    " + last)
    assert change.kind == "structure" and change.count >= 1 and whole.joined == 0
    _check(index)
    us, ue = index.segment(0).extra["unit_span"]
    first = index.text[us:ue]
    whole.joined = 0
    change = index.edit(us, ue + 5, "")  # the tu and the blank after it
    assert change.kind == "structure" and change.start == 0 and whole.joined == 0
    _check(index)
    us = index.segment(0).extra["unit_span"][0]
    whole.joined = 0
    change = index.edit(us, us, first.replace('tuid="', 'tuid="first', 1) + "\n    ")
    assert change.kind == "structure" and change.start == 0
    # mixed: a tu keyed by its place pasted before one with a tuid: its place is not known from the
    # keys (a tu with no target before it would count), so the whole text is read
    assert (whole.n, whole.joined) == ((1, 1) if tuids == "mixed" else (0, 0))
    _check(index)


def test_an_edit_in_the_header_reads_the_whole_text(monkeypatch):
    whole = _Whole(monkeypatch)
    index = XmlIndex(TMX, _tmx(12, "all"))
    at = index.text.index('srclang="en"') + len('srclang="')
    index.edit(at, at + 2, "de")  # the source language changed: every tu's source and target swap
    assert whole.n == 1
    _check(index)
