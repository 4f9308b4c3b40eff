"""SRT and WebVTT read into segments: against the srt and webvtt-py libraries, spans, time pairing, checks."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.qa.formats.subtitle_checks import SubtitleLimits, check_cues
from bleu_ls.formats.subtitles import estimate_offset, match_by_time, read_srt, read_vtt

srt_lib = pytest.importorskip("srt")
webvtt = pytest.importorskip("webvtt")

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "subtitles"


def _ms(td: timedelta) -> int:
    return round(td.total_seconds() * 1000)


def _oracle_srt_text(content: str) -> str:
    """The scored text the way a subtitler reads it, written apart from the reader."""
    shown = []
    for line in content.split("\n"):
        line = re.sub(r"\{\\[^}]*\}", "", re.sub(r"<[^>]*>", "", line)).strip()
        if line:
            shown.append(line)
    return " ".join(shown)


def _srt_time(ms: int) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{milli:03d}"


words = st.sampled_from(["Hello", "world", "ça", "va", "<i>now</i>", "{\\an8}up", "<b>bold</b>", "-", "42", "x&y", "日本"])
cue_text = st.lists(st.lists(words, min_size=1, max_size=6).map(" ".join), min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(
    cues=st.lists(st.tuples(st.integers(0, 5_000_000), st.integers(1, 9000), cue_text), min_size=1, max_size=12),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_srt_equals_the_srt_library(cues, crlf, bom):
    blocks = []
    for i, (start, dur, lines) in enumerate(cues, 1):
        blocks.append(f"{i}\n{_srt_time(start)} --> {_srt_time(start + dur)}\n" + "\n".join(lines) + "\n")
    text = "\n".join(blocks)
    if crlf:
        text = text.replace("\n", "\r\n")
    if bom:
        text = "\ufeff" + text
    doc = read_srt(text)
    oracle = list(srt_lib.parse(text.lstrip("\ufeff")))
    assert not doc.problems
    assert [s.key for s in doc.segments] == [str(o.index) for o in oracle]
    assert [(s.extra["start_ms"], s.extra["end_ms"]) for s in doc.segments] == [(_ms(o.start), _ms(o.end)) for o in oracle]
    assert ["\n".join(s.extra["text_lines"]) for s in doc.segments] == [o.content for o in oracle]
    assert [s.target for s in doc.segments] == [_oracle_srt_text(o.content) for o in oracle]
    for seg in doc.segments:
        _assert_runs_point_at_their_characters(text, seg)


def _assert_runs_point_at_their_characters(text, seg):
    span_text = text[seg.target_span[0] : seg.target_span[1]]
    assert span_text.replace("\r", "").split("\n") == list(seg.extra["text_lines"])
    for r in seg.runs:
        assert seg.target[r.text_start : r.text_start + r.length] == text[r.file_start : r.file_start + r.length]
        assert seg.target_span[0] <= r.file_start and r.file_start + r.length <= seg.target_span[1]
    for i, ch in enumerate(seg.target):
        off = seg.file_offset(i)
        assert seg.target_span[0] <= off <= seg.target_span[1]
        if any(r.text_start <= i < r.text_start + r.length for r in seg.runs):
            assert text[off] == ch


@pytest.mark.parametrize("name", ["sintel-en.vtt", "sintel-de.vtt"])
def test_real_webvtt_equals_webvtt_py(name):
    text = (DATA / name).read_text(encoding="utf-8")
    doc = read_vtt(text)
    oracle = webvtt.from_string(text).captions
    assert not doc.problems
    assert [s.key for s in doc.segments] == [c.identifier for c in oracle]
    assert [(s.extra["start_ms"], s.extra["end_ms"]) for s in doc.segments] == [
        (_vtt_ms(c.start), _vtt_ms(c.end)) for c in oracle
    ]
    expected = [" ".join(line.strip() for line in html.unescape(c.text).split("\n") if line.strip()) for c in oracle]
    assert [s.target for s in doc.segments] == expected
    for seg in doc.segments:
        _assert_runs_point_at_their_characters(text, seg)


def _vtt_ms(stamp: str) -> int:
    h, m, rest = stamp.split(":")
    s, milli = rest.split(".")
    return ((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 + int(milli)


def test_webvtt_markup_references_and_blocks():
    text = (
        "WEBVTT - a title\n\nNOTE a comment\nover two lines\n\nSTYLE\n::cue { color: yellow }\n\n"
        "intro\n00:01.000 --> 00:04.000 align:start line:0\n<v Roger Bingham>We &amp; <c.loud>you</c> &lt;3</v>\n"
        "<00:02.500><i>there</i>\n\n00:00:05.000 --> 00:00:06.000\n<ruby>漢<rt>kan</rt></ruby>字\n"
    )
    doc = read_vtt(text)
    assert [s.key for s in doc.segments] == ["intro", "#2"]
    first, second = doc.segments
    assert first.target == "We & you <3 there"
    assert first.extra["settings"] == "align:start line:0"
    assert first.line == 10  # 0-based line of "<v Roger Bingham>…"
    assert second.target == "漢字"
    assert doc.header["WEBVTT"] == "- a title"


def test_a_file_that_is_not_webvtt_says_so():
    doc = read_vtt("1\n00:00:01.000 --> 00:00:02.000\nHi\n")
    assert doc.problems and "WEBVTT" in doc.problems[0].message


def test_malformed_timing_is_a_problem_and_the_other_cues_stay():
    text = "1\n00:00:01,000 --> 00:00:02,000\nOne\n\n2\n00:00:03,000 -> 00:00:04,000\nTwo\n\n3\n00:00:05,000 --> 00:00:06,000\nThree\n"
    doc = read_srt(text)
    assert [s.target for s in doc.segments] == ["One", "Three"]
    (p,) = doc.problems
    assert (p.line, p.column) == (5, 0)
    assert "00:00:03,000 -> 00:00:04,000" in p.message


def test_duplicate_cue_numbers_get_unique_keys():
    text = "7\n00:00:01,000 --> 00:00:02,000\nA\n\n7\n00:00:03,000 --> 00:00:04,000\nB\n"
    assert [s.key for s in read_srt(text).segments] == ["7", "7~2"]


@pytest.mark.parametrize("name", ["sintel-en.vtt", "sintel-de.vtt"])
def test_every_prefix_of_a_real_file_reads_without_error(name):
    text = (DATA / name).read_text(encoding="utf-8")
    full = read_vtt(text).segments
    for cut in range(0, len(text), 7):
        doc = read_vtt(text[:cut])
        # every cue that ends (with its blank line) before the cut is read whole
        complete = [s for s in full if text.find("\n\n", s.target_span[1]) != -1 and text.find("\n\n", s.target_span[1]) < cut]
        assert [s.key for s in doc.segments[: len(complete)]] == [s.key for s in complete]
        assert [s.target for s in doc.segments[: len(complete)]] == [s.target for s in complete]


# -- pairing by time -------------------------------------------------------------


def _shifted(text: str, ms: int) -> str:
    def shift(m):
        total = _vtt_ms(m.group(0) if m.group(0).count(":") == 2 else "00:" + m.group(0)) + ms
        h, rest = divmod(total, 3_600_000)
        mi, rest = divmod(rest, 60_000)
        s, milli = divmod(rest, 1000)
        return f"{h:02d}:{mi:02d}:{s:02d}.{milli:03d}"

    return re.sub(r"\d{2}:\d{2}:\d{2}\.\d{3}", shift, text)


def test_same_timing_pairs_cue_for_cue():
    en = read_vtt((DATA / "sintel-en.vtt").read_text(encoding="utf-8")).segments
    de = read_vtt((DATA / "sintel-de.vtt").read_text(encoding="utf-8")).segments
    groups = match_by_time(en, de)
    assert groups == [([i], [i]) for i in range(len(en))]


def test_the_release_timing_is_found_and_paired():
    # the film's own release starts the first line at 00:01:47.250, 88.55 s later than this cut
    en_text = (DATA / "sintel-en.vtt").read_text(encoding="utf-8")
    en = read_vtt(_shifted(en_text, 88_550)).segments
    de = read_vtt((DATA / "sintel-de.vtt").read_text(encoding="utf-8")).segments
    assert abs(estimate_offset(en, de) + 88_550) <= 20  # candidate shifts are rounded to 40 ms
    groups = match_by_time(en, de)
    assert groups == [([i], [i]) for i in range(len(en))]


def test_split_and_merged_cues_form_groups():
    de_text = (DATA / "sintel-de.vtt").read_text(encoding="utf-8")
    # the reference splits cue 3 (29.000-32.450) in two; the hypothesis merges cues 5 and 6
    de_text = de_text.replace(
        "3\n00:00:29.000 --> 00:00:32.450\nEs ist töricht, so ganz allein und\nunvorbereitet zu reisen!",
        "3\n00:00:29.000 --> 00:00:30.700\nEs ist töricht, so ganz allein und\n\n3b\n00:00:30.750 --> 00:00:32.450\nunvorbereitet zu reisen!",
    )
    en_text = (DATA / "sintel-en.vtt").read_text(encoding="utf-8").replace(
        "5\n00:00:36.250 --> 00:00:37.300\nThank you.\n\n6\n00:00:38.500 --> 00:00:40.000\nSo...",
        "5\n00:00:36.250 --> 00:00:40.000\nThank you. So...",
    )
    en, de = read_vtt(en_text).segments, read_vtt(de_text).segments
    groups = {tuple(en[i].key for i in h): tuple(de[j].key for j in r) for h, r in match_by_time(en, de)}
    assert groups[("3",)] == ("3", "3b")
    assert groups[("5",)] == ("5", "6")
    assert groups[("4",)] == ("4",)
    assert len(groups) == len(en)


def test_cues_that_overlap_nothing_stand_alone():
    hyp = read_srt("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:10:00,000 --> 00:10:02,000\nB\n").segments
    ref = read_srt("1\n00:00:01,100 --> 00:00:02,000\nA\n\n2\n00:05:00,000 --> 00:05:01,000\nC\n").segments
    assert match_by_time(hyp, ref, offset_ms=0) == [([0], [0]), ([1], []), ([], [1])]


# -- checks ---------------------------------------------------------------------------


def _codes(text: str, **limits):
    doc = read_srt(text)
    return [(f.key, f.code) for f in check_cues(doc, SubtitleLimits(**limits), text)]


def test_reading_speed_counts_shown_characters():
    # 40 characters shown (tags not counted) in 2 s is 20 cps: allowed; 41 is over
    ok = "1\n00:00:01,000 --> 00:00:03,000\n<i>" + "a" * 20 + "</i>\n" + "b" * 20 + "\n"
    over = "1\n00:00:01,000 --> 00:00:03,000\n" + "a" * 21 + "\n" + "b" * 20 + "\n"
    assert ("1", "reading-speed") not in _codes(ok)
    assert ("1", "reading-speed") in _codes(over)


def test_line_length_and_line_count():
    text = "1\n00:00:01,000 --> 00:00:09,000\n" + "a" * 42 + "\n" + "b" * 43 + "\nc\n"
    codes = _codes(text)
    assert codes.count(("1", "chars-per-line")) == 1
    assert ("1", "lines-per-cue") in codes
    (f,) = [f for f in check_cues(read_srt(text), text=text) if f.code == "chars-per-line"]
    assert text[f.span[0] : f.span[1]] == "b" * 43


def test_durations_gaps_overlaps_and_order():
    text = (
        "1\n00:00:01,000 --> 00:00:01,500\nshort\n\n"
        "2\n00:00:01,550 --> 00:00:09,000\nlong, and 50 ms after the one above\n\n"
        "3\n00:00:08,000 --> 00:00:10,000\noverlaps\n\n"
        "4\n00:00:05,000 --> 00:00:06,000\nout of order\n\n"
        "5\n00:00:12,000 --> 00:00:11,000\nbackwards\n"
    )
    codes = _codes(text)
    assert ("1", "duration-short") in codes
    assert ("2", "duration-long") in codes and ("2", "cue-gap") in codes
    assert ("3", "cue-overlap") in codes
    assert ("4", "cue-order") in codes
    assert ("5", "end-before-start") in codes
    assert ("1", "cue-gap") not in codes


def test_a_malformed_timing_is_a_finding():
    text = "1\n00:00:01,000 --> 00:00:02,000\nOne\n\n2\nnot a time\nTwo\n"
    assert (None, "timecode") in _codes(text)
