"""The incremental segment index: after every edit it equals a fresh read of the whole text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.text as live_text
from bleu_ls.formats.live.index import LiveIndex
from bleu_ls.formats.model import SRT, VTT
from bleu_ls.formats.subtitles import read_srt, read_vtt

READ = {SRT: read_srt, VTT: read_vtt}


@pytest.fixture(autouse=True, scope="module")
def small_pieces():
    """The index's text in small pieces (formats/live/text.py): the edits cross them."""
    old, live_text.CHUNK = live_text.CHUNK, 64
    yield
    live_text.CHUNK = old


def _srt_time(ms: int) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{milli:03d}"


def _file(fmt: str, cues, crlf: bool, ids: bool) -> str:
    blocks = ["WEBVTT\n"] if fmt == VTT else []
    for i, (start, dur, lines) in enumerate(cues, 1):
        a, b = _srt_time(start), _srt_time(start + dur)
        if fmt == VTT:
            a, b = a.replace(",", "."), b.replace(",", ".")
        head = f"{i}\n" if (fmt == SRT or ids) else ""
        blocks.append(f"{head}{a} --> {b}\n" + "\n".join(lines) + "\n")
    text = "\n".join(blocks)
    return text.replace("\n", "\r\n") if crlf else text


def check(index: LiveIndex) -> None:
    fresh = READ[index.format](index.text)
    got = index.document()
    assert got.problems == fresh.problems
    assert got.header == fresh.header
    assert [s.key for s in got.segments] == [s.key for s in fresh.segments]
    assert got.segments == fresh.segments
    for i, s in enumerate(fresh.segments):
        assert index.target_span(i) == s.target_span
    lines = index.text.split("\n")
    assert index.line_count == len(lines)
    for j in range(0, len(lines), max(1, len(lines) // 7)):
        assert index.line(j) == lines[j]


words = st.sampled_from(["Hello", "world", "ça", "<i>now</i>", "{\\an8}up", "-", "42", "x&amp;y", "日本", "😀"])
cue_text = st.lists(st.lists(words, min_size=1, max_size=4).map(" ".join), min_size=0, max_size=3)
cues = st.lists(st.tuples(st.integers(0, 500_000), st.integers(1, 9000), cue_text), min_size=0, max_size=8)

#: what a translator (or a paste) types: text, line breaks, blank lines, half a timing line, whole blocks
snippets = st.sampled_from(
    [
        "a", "word ", "é", "😀", "<i>", "</i>", "\n", "\n\n", "\r\n", " ", "7", "-->", " --> ", ":", ",", ".",
        "00:00:0", "00:00:05,000 --> 00:00:06,000", "00:00:05.000 --> 00:00:06.000",
        "\n\n3\n00:00:07,000 --> 00:00:08,500\nPasted cue\n",
        "\n\n00:01:07.000 --> 00:01:08.500 align:start\nPasted <v Bob>cue</v>\n",
        "NOTE a note\n\n", "WEBVTT\n\n", "\ufeff", "12\n",
    ]
)


@st.composite
def edit_script(draw, text_len_hint: int = 200):
    steps = []
    for _ in range(draw(st.integers(1, 25))):
        steps.append(
            (
                draw(st.sampled_from(["target", "anywhere", "delete-line", "delete-block"])),
                draw(st.floats(0, 1)),
                draw(st.integers(0, 40)),
                draw(snippets | st.just("")),
            )
        )
    return steps


def _apply(index: LiveIndex, step) -> None:
    how, where, length, new = step
    text = index.text
    n = len(text)
    if how == "target" and len(index):
        i = min(len(index) - 1, int(where * len(index)))
        a, b = index.target_span(i)
        start = a + int((b - a) * where)
        end = min(b, start + length % 5)
    elif how == "delete-line" and index.line_count > 1:
        j = min(index.line_count - 2, int(where * index.line_count))
        start, end, new = index.line_start(j), index.line_start(j + 1), ""
    elif how == "delete-block" and len(index):
        i = min(len(index) - 1, int(where * len(index)))
        start = index.line_start(int(index.segment(i).extra["timing_line"]))
        end = min(n, index.target_span(i)[1] + 2)
        new = new if "\n\n" in new else ""
    else:
        start = int(where * n)
        end = min(n, start + length)
    edit_told(index, start, end, new)


def edit_told(index, start: int, end: int, new: str) -> None:
    """``index.edit``; the target ends it tells afterwards as they were before equal those read before."""
    which = np.arange(len(index), dtype=np.int64)
    before = index.target_ends(which)
    snap = index.hints_snapshot()
    index.edit(start, end, new)
    assert index.hints_before(snap, which).tolist() == before.tolist()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from([SRT, VTT]), cues=cues, crlf=st.booleans(), ids=st.booleans(), script=edit_script())
def test_random_edit_scripts_leave_the_index_equal_to_a_fresh_read(fmt, cues, crlf, ids, script):
    index = LiveIndex(fmt, _file(fmt, cues, crlf, ids))
    check(index)
    for step in script:
        _apply(index, step)
        check(index)


def test_typing_in_a_cue_is_a_text_change_of_that_cue_only():
    text = _file(SRT, [(1000, 2000, ["Hello world"]), (4000, 2000, ["Second cue"]), (7000, 2000, ["Third"])], False, True)
    index = LiveIndex(SRT, text)
    a, b = index.target_span(1)
    change = index.edit(b, b, " again")
    assert (change.kind, change.start, change.text_changed) == ("text", 1, True)
    assert index.segment(1).target == "Second cue again"
    assert index.segment(2).target_span[0] == READ[SRT](index.text).segments[2].target_span[0]
    # a line break inside the text: still the same cue
    change = index.edit(a + 6, a + 7, "\n")
    assert (change.kind, change.start) == ("text", 1)
    assert index.segment(1).target == "Second cue again"
    check(index)


def test_a_broken_timing_line_is_a_structural_change_and_a_problem():
    text = _file(SRT, [(1000, 2000, ["Hello world"]), (4000, 2000, ["Second cue"]), (7000, 2000, ["Third"])], False, True)
    index = LiveIndex(SRT, text)
    t = index.line_start(int(index.segment(1).extra["timing_line"]))
    change = index.edit(t + 8, t + 20, "")  # half a timing line deleted
    assert change.kind == "structure" and (change.start, change.end, change.count) == (1, 2, 0)
    assert change.problems_changed and len(index.problems) == 1
    assert [s.key for s in index.segments()] == ["1", "3"]
    check(index)
    index.edit(t + 8, t + 8, "00:05,000 --> ")
    check(index)


def test_numbered_webvtt_cues_are_renumbered_after_a_pasted_cue():
    text = _file(VTT, [(1000, 2000, ["One"]), (4000, 2000, ["Two"]), (7000, 2000, ["Three"])], False, False)
    index = LiveIndex(VTT, text)
    assert [s.key for s in index.segments()] == ["#1", "#2", "#3"]
    b = index.target_span(0)[1]
    change = index.edit(b, b, "\n\n00:00:03.000 --> 00:00:03.500\nInserted")
    assert change.kind == "structure" and change.keys_changed
    assert [s.key for s in index.segments()] == ["#1", "#2", "#3", "#4"]
    assert index.segment(1).target == "Inserted"
    check(index)


@pytest.mark.parametrize("fmt", [SRT, VTT])
def test_whole_text_replaced(fmt):
    index = LiveIndex(fmt, _file(fmt, [(1000, 2000, ["One"])], False, True))
    index.edit(0, len(index.text), _file(fmt, [(5000, 2000, ["A"]), (9000, 100, ["B"])], True, False))
    check(index)
    index.edit(0, len(index.text), "")
    check(index)


# -- XLIFF: the units an edit touched, read again by the XML reader's region re-read --------

from pathlib import Path  # noqa: E402

from bleu_ls.formats.live.whole import XmlIndex  # noqa: E402
from bleu_ls.formats.model import XLIFF1  # noqa: E402
from bleu_ls.formats.read import parse  # noqa: E402

XLIFF_DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "xliff"

xml_snippets = st.sampled_from(
    ["a", "mot ", "é", "😀", "&amp;", "&lt;", "\n", " ", "<", "</", "<g id=\"9\">", "</g>", "<x id=\"3\"/>", "\"", ">", ""]
)


@pytest.mark.parametrize("name", ["angular.fr.xlf2.xlf", "algorea.fr.draft.xlf"])  # the second has keys twice: read whole
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["target", "anywhere", "copy-unit", "drop-unit"]),
                                st.floats(0, 1), st.integers(0, 6), xml_snippets), min_size=1, max_size=12))
def test_xliff_edits_leave_the_index_equal_to_a_fresh_read(name, steps):
    path = XLIFF_DATA / name
    if not path.is_file():
        pytest.skip("the XLIFF sample is absent")
    text = path.read_text(encoding="utf-8")
    index = XmlIndex(XLIFF1, text)
    for how, where, length, new in steps:
        n = len(index)
        t = index.text
        if how == "target" and n:
            i = min(n - 1, int(where * n))
            a, b = index.target_span(i)
            start = a + int((b - a) * where)
            edit_told(index, start, min(b, start + length), new)
        elif how in ("copy-unit", "drop-unit") and n:
            i = min(n - 1, int(where * n))
            seg = index.segment(i)
            us, ue = seg.extra.get("unit_span", seg.target_span)
            if how == "copy-unit":
                unit = t[us:ue].replace('id="', 'id="copy', 1)
                edit_told(index, ue, ue, "\n" + unit)
            else:
                edit_told(index, us, ue, "")
        else:
            start = int(where * len(t))
            edit_told(index, start, min(len(t), start + length), new)
        fresh = parse(XLIFF1, b"", "buffer", text=index.text)
        got = index.document()
        assert got.problems == fresh.problems
        assert got.segments == fresh.segments


def test_typing_in_an_xliff_target_reads_that_unit_only():
    path = XLIFF_DATA / "angular.fr.xlf2.xlf"
    if not path.is_file():
        pytest.skip("the XLIFF sample is absent")
    index = XmlIndex(XLIFF1, path.read_text(encoding="utf-8"))
    a, b = index.target_span(5)
    change = index.edit(b, b, " encore")
    assert (change.kind, change.start, change.text_changed) == ("text", 5, True)
    assert index.segment(5).target.endswith(" encore")
    assert index.document().segments == parse(XLIFF1, b"", "buffer", text=index.text).segments
