"""The report's pieces: word marking, n-gram tallies, chart geometry."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from bleu_ls.engine import BleuMetric
from bleu_ls.report import charts
from bleu_ls.report.ngrams import gained, most_missed, tally
from bleu_ls.report.words import LineMarker, changed_words, match_levels, pieces, token_spans

WORDS = st.lists(st.sampled_from("a b c d the cat , .".split()), max_size=12)


def test_match_levels_follow_bleu_clipping():
    hyp = "the cat the cat sat".split()
    ref = "the cat sat on the mat".split()
    # "the cat" matches once as a bigram (clipped), then "the cat sat" as a trigram
    assert match_levels(hyp, [ref], 4) == [2, 2, 3, 3, 3]
    assert match_levels("cat cat cat".split(), [ref], 4) == [1, 0, 0]  # one "cat" in the reference
    assert match_levels(["x"], [ref], 4) == [0]
    assert match_levels([], [ref], 4) == []


@given(WORDS, WORDS, WORDS)
@settings(max_examples=200, deadline=None)
def test_marked_words_cover_bleu_unigram_matches(hyp, ref1, ref2):
    """Every word BLEU counts as a unigram match is marked; a word is left unmarked only
    when its clipped count is used up (with two references, the larger count clips)."""
    levels = match_levels(hyp, [ref1, ref2], 4)
    metric = BleuMetric(tokenize="none")
    stats = metric.stats_from_tokens(hyp, [ref1, ref2])
    assert sum(lv >= 1 for lv in levels) >= stats[2]
    assert all(0 <= lv <= 4 for lv in levels)
    clip = Counter(ref1) | Counter(ref2)
    for w, n in Counter(hyp).items():
        marked = sum(1 for t, lv in zip(hyp, levels) if t == w and lv >= 1)
        assert marked >= min(n, clip[w])
        if marked < n:
            assert marked >= clip[w]


def test_token_spans_find_tokens_in_the_text():
    line = "Hello, World &quot;x&quot; (ok)"
    toks = BleuMetric(lowercase=True).tokens(line)
    spans = token_spans(line, toks)
    for tok, span in zip(toks, spans):
        if span is not None:
            assert line[span[0]:span[1]].lower() == tok
    assert spans[0] == (0, 5) and spans[1] == (5, 6)
    assert None in spans  # the unescaped quote is not in the text as such


def test_pieces_cover_the_line_exactly():
    line = "Der Hund  bellt laut."
    marked = [(0, 3, 2), (4, 8, 0), (10, 15, 1)]
    out = pieces(line, marked, [(10, 15)])
    assert "".join(p.text for p in out) == line
    got = [(p.text, p.level, p.changed) for p in out]
    assert ("Der", 2, False) in got and ("Hund", 0, False) in got and ("bellt", 1, True) in got
    assert got[-1] == (" laut.", None, False)  # unmarked text runs on


def test_changed_words_against_a_draft():
    added, dropped = changed_words("the big dog barks", "the dog barked")
    assert added == [(4, 7), (12, 17)]  # "big", "barks"
    assert dropped == [(8, 14)]  # "barked"
    marker = LineMarker(str.split)
    hyp = marker.hypothesis("the big dog barks", ["the dog barks"], draft="the dog barked")
    assert [p.text for p in hyp if p.changed] == ["big", "barks"]
    assert [p.text for p in LineMarker.draft("the dog barked", "the big dog barks") if p.changed] == ["barked"]


def _brute(systems, refs, max_order):
    matched = [Counter() for _ in systems]
    missed = [Counter() for _ in systems]
    for i in range(len(refs[0])):
        for n in range(1, max_order + 1):
            def grams(toks):
                return Counter(tuple(toks[j:j + n]) for j in range(len(toks) - n + 1))
            first = grams(refs[0][i].split())
            merged = Counter()
            for r in refs:
                merged |= grams(r[i].split())
            for s, sys_lines in enumerate(systems):
                h = grams(sys_lines[i].split())
                matched[s] += h & merged
                missed[s] += first - (h & first)
    return matched, missed


@given(st.lists(st.tuples(WORDS, WORDS, WORDS, WORDS), min_size=1, max_size=6))
@settings(max_examples=100, deadline=None)
def test_tally_equals_brute_force(rows):
    a = [" ".join(r[0]) for r in rows]
    b = [" ".join(r[1]) for r in rows]
    refs = [[" ".join(r[2]) for r in rows], [" ".join(r[3]) for r in rows]]
    for use in (refs[:1], refs):
        tallies, in_ref = tally(str.split, [a, b], use, range(len(rows)), 3)
        matched, missed = _brute([a, b], use, 3)
        for s in range(2):
            assert +tallies[s].matched == matched[s]
            rows_missed = most_missed(tallies[s], in_ref, 10_000, range(1, 4))
            assert {tuple(r["ngram"].split()): r["missed"] for r in rows_missed} == dict(missed[s])
        g = gained(tallies[0], tallies[1], 10_000)
        want = {k: v for k, v in (matched[1] - matched[0]).items()}
        assert {tuple(r["ngram"].split()): r["this"] - r["other"] for r in g} == want


def test_most_missed_order_and_top():
    refs = [["x y x y x y z", "x y"]]
    hyps = [["z", ""]]
    tallies, in_ref = tally(str.split, hyps, refs, range(2), 2)
    rows = most_missed(tallies[0], in_ref, 2, range(1, 3))
    assert [(r["ngram"], r["missed"], r["in_reference"]) for r in rows] == [("x y", 4, 4), ("x", 4, 4)]


@pytest.mark.parametrize("v,want", [(0, 1.0), (0.3, 0.5), (7, 10), (13, 20), (100.00000000000004, 100), (240, 250)])
def test_nice_ceiling(v, want):
    assert charts.nice_ceiling(v) == want


def _rects(c):
    return [s.attrs for s in c.shapes if s.kind == "rect"]


def test_histogram_bars_are_proportional_and_inside():
    c = charts.histogram([0, 5, 10, 20], ["a", "b", "c", "d"], "#000", "sys")
    rects = _rects(c)
    assert len(rects) == 4
    assert rects[3]["height"] == pytest.approx(2 * rects[2]["height"], abs=0.02)
    assert rects[0]["height"] == 0
    for r in rects:
        assert 0 <= r["x"] and r["x"] + r["width"] <= c.width and 0 <= r["y"] <= c.height
    assert [s.title for s in c.shapes if s.kind == "rect"][1] == "b: 5 lines"


def test_sorted_differences_colour_by_sign():
    c = charts.sorted_differences([30.0, 0.0, -10.0], 3, "A", "B")
    fills = [r["fill"] for r in _rects(c)]
    assert fills == [charts.BETTER, charts.NEUTRAL, charts.WORSE]
    up, _, down = _rects(c)
    assert up["height"] == pytest.approx(3 * down["height"], abs=0.02)


def test_grouped_bars_skip_empty_buckets_and_ci_whiskers():
    c = charts.grouped_bars(["<10", "10–19"], ["A", "B"], [[10.0, None], [20.0, 5.0]], "BLEU")
    assert len(_rects(c)) == 3
    c = charts.scores_with_ci(["A", "B"], [30.0, 28.0], [1.5, None], "BLEU")
    assert len(_rects(c)) == 2
    assert sum(s.kind == "line" for s in c.shapes) == 3 + 1  # one whisker (3 lines) and the axis
