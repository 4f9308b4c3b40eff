"""The incremental pair model against scoring the final texts from scratch."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bleu_ls.engine import BleuMetric, ChrfMetric, NltkBleuMetric, PairModel, common_splice
from tests.strategies import sentence


def metrics():
    return {"bleu": BleuMetric(), "chrf": ChrfMetric(word_order=2)}


def assert_matches_scratch(model: PairModel) -> None:
    fresh = PairModel(model.metrics, model.hyp, model.refs)
    assert model.n_paired == fresh.n_paired
    for key in model.metrics:
        for i in range(model.n_paired):
            assert model.line_stats(key, i) == fresh.line_stats(key, i), (key, i)
            a, b = model.line_value(key, i), fresh.line_value(key, i)
            assert a == b or (a is None and b is None)
        assert model.totals(key) == fresh.totals(key)
        assert model.corpus(key).score == fresh.corpus(key).score
    # and from scratch against the metric directly (not via another model)
    for key, m in model.metrics.items():
        total = [0] * m.width
        for i in range(model.n_paired):
            row = m.line_stats(model.hyp[i], [r[i] for r in model.refs])
            total = [x + y for x, y in zip(total, row)]
        assert model.totals(key) == total


edit = st.tuples(
    st.integers(-1, 2),  # -1: hypothesis, k >= 0: reference k (mod number of refs)
    st.integers(0, 40),  # start (mod length + 1)
    st.integers(0, 4),  # number of lines removed
    st.lists(sentence, max_size=4),  # lines inserted
    st.booleans(),  # look at a line in between (exercises lazy rescoring)
)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hyp=st.lists(sentence, max_size=12),
    ref=st.lists(sentence, max_size=12),
    nrefs=st.integers(1, 2),
    script=st.lists(edit, max_size=8),
)
def test_random_edit_scripts_equal_scratch(hyp, ref, nrefs, script):
    refs = [list(ref)] + [list(reversed(ref)) for _ in range(nrefs - 1)]
    model = PairModel(metrics(), hyp, refs)
    for side, start, removed, lines, peek in script:
        target = model.hyp if side < 0 else model.refs[side % nrefs]
        s = start % (len(target) + 1)
        e = min(len(target), s + removed)
        if side < 0:
            model.splice_hyp(s, e, lines)
        else:
            model.splice_ref(side % nrefs, s, e, lines)
        if peek and model.n_paired:
            model.line_value("bleu", start % model.n_paired)
    assert_matches_scratch(model)


@settings(max_examples=200, deadline=None)
@given(old=st.lists(sentence, max_size=10), new=st.lists(sentence, max_size=10))
def test_set_hyp_and_set_ref_diff(old, new):
    model = PairModel(metrics(), old, [old[::-1]])
    model.set_hyp(new)
    model.set_ref(0, new[::-1] + ["extra"])
    assert model.hyp == [x.rstrip() for x in new]
    assert_matches_scratch(model)


@given(old=st.lists(st.sampled_from("abc"), max_size=8), new=st.lists(st.sampled_from("abc"), max_size=8))
def test_common_splice(old, new):
    s, e, lines = common_splice(old, new)
    assert old[:s] + lines + old[e:] == new


class CountingBleu(BleuMetric):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def line_stats(self, hyp, refs):
        self.calls += 1
        return super().line_stats(hyp, refs)


def test_in_place_edit_costs_only_the_edited_line():
    n = 2000
    hyp = [f"line {i} of the hypothesis text" for i in range(n)]
    ref = [f"line {i} of the reference text" for i in range(n)]
    m = CountingBleu()
    model = PairModel({"bleu": m}, hyp, [ref])
    assert m.calls == n
    m.calls = 0
    model.splice_hyp(500, 501, ["a new line 500"])
    model.corpus("bleu")
    assert m.calls == 1
    model.splice_ref(0, 7, 9, ["r7", "r8"])
    model.corpus("bleu")
    assert m.calls == 3


def test_insert_shifts_pairing_and_rescoring_is_lazy():
    hyp = ["a b c", "d e f", "g h i"]
    ref = ["a b c", "d e f", "g h i"]
    m = CountingBleu()
    model = PairModel({"bleu": m}, hyp, [ref])
    m.calls = 0
    model.splice_hyp(1, 1, ["new"])  # hyp now 4 lines, pairing after line 1 shifts
    assert m.calls == 1  # only the inserted line, at once
    assert model.n_paired == 3 and model.stale_count() == 1
    assert model.line_value("bleu", 2) == 0.0  # "d e f" now pairs with "g h i"
    assert model.stale_count() == 0
    assert model.line_value("bleu", 3) is None  # unpaired


def test_empty_document():
    model = PairModel(metrics(), [], [[]])
    assert model.corpus("bleu").score == 0.0
    assert model.corpus("chrf").score == 0.0
    assert model.values("bleu").size == 0


def test_nltk_corpus_uses_last_line():
    hyp = ["the cat sat on the mat", "a b c d e"]
    ref = ["the cat sat on a mat", "a b c d e"]
    m = NltkBleuMetric(smooth="nltk-method5")
    model = PairModel({"bleu": m}, hyp, [ref])
    model.splice_hyp(1, 2, ["a b x d e"])
    fresh = PairModel({"bleu": m}, model.hyp, [ref])
    assert model.corpus("bleu").score == fresh.corpus("bleu").score
    assert not math.isnan(model.corpus("bleu").score)


def test_bad_splice_range():
    model = PairModel(metrics(), ["a"], [["a"]])
    with pytest.raises(IndexError):
        model.splice_hyp(2, 3, [])
