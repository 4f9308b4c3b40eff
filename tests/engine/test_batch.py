"""The batch first pass (vectorised n-gram counting, optionally in a process
pool) against the per-line pair model, integer for integer and bit for bit,
for every metric family, single and multiple references; the per-line model
is itself held to sacrebleu / NLTK by the oracle tests beside this file."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bleu_ls.engine import BleuMetric, ChrfMetric, NltkBleuMetric, PairModel
from bleu_ls.engine.batch import first_pass
from tests.strategies import sentence


def _metric_sets():
    return [
        {"bleu": BleuMetric(), "chrf": ChrfMetric()},
        {"bleu": BleuMetric(tokenize="none", lowercase=True, max_order=3), "chrf": ChrfMetric(word_order=2)},
        {"bleu": BleuMetric(tokenize="intl"), "chrf": ChrfMetric(whitespace=True, lowercase=True, char_order=4)},
        {"bleu": NltkBleuMetric(smooth="nltk-method7")},
        {"bleu": NltkBleuMetric(weights=[0.5, 0.5], lowercase=True)},
    ]


def _assert_same(a: PairModel, b: PairModel) -> None:
    assert a.n_paired == b.n_paired and a.stale_count() == 0
    for key in a.metrics:
        assert np.array_equal(a.stats_array(key), b.stats_array(key))
        assert np.array_equal(a.values(key), b.values(key), equal_nan=True)
        assert a.corpus(key).score == b.corpus(key).score


@settings(max_examples=60, deadline=None)
@given(
    st.lists(sentence, min_size=0, max_size=12),
    st.lists(st.lists(sentence, min_size=0, max_size=12), min_size=1, max_size=3),
    st.integers(0, len(_metric_sets()) - 1),
)
def test_batch_pass_matches_per_line(hyp, refs, which):
    metrics = _metric_sets()[which]
    slow = PairModel(metrics, hyp, refs)
    fast = PairModel.from_lines(metrics, hyp, refs, workers=1)
    _assert_same(slow, fast)


@pytest.mark.parametrize("nrefs,chunk", [(1, None), (2, None), (1, 97)])
def test_batch_pass_in_a_pool_matches_per_line(nrefs, chunk, monkeypatch):
    from benchmarks.corpus import Corpus

    if chunk:  # many small jobs (as at 1M lines): same rows, in order
        from bleu_ls.engine import batch

        monkeypatch.setattr(batch, "CHUNK_LINES", chunk)

    hyp, ref = Corpus(seed=5).pairs(1200)
    refs = [ref, ref[7:] + ref[:7]][:nrefs]
    for metrics in _metric_sets()[:2] + _metric_sets()[3:4]:
        slow = PairModel(metrics, hyp, refs)
        fast = PairModel.from_lines(metrics, hyp, refs, workers=2)
        _assert_same(slow, fast)


def test_first_pass_uneven_lengths():
    metrics = {"bleu": BleuMetric()}
    out = first_pass(metrics, ["a b c", "d e", "extra"], [["a b c", "d f"]], workers=1)
    stats, scores = out["bleu"]
    assert stats.shape == (2, metrics["bleu"].width)
    assert scores.shape == (2,)


def test_block_boundaries_do_not_change_counts(monkeypatch):
    """Lines are counted in blocks; tiny blocks (one line each, or a few) give the same rows."""
    from benchmarks.corpus import Corpus
    from bleu_ls.engine import ngrams

    hyp, ref = Corpus(seed=9).pairs(150)
    refs = [ref, ref[3:] + ref[:3]]
    metrics = {"bleu": BleuMetric(), "chrf": ChrfMetric(word_order=2)}
    slow = PairModel(metrics, hyp, refs)
    for block in (1, 57, 1000):
        monkeypatch.setattr(ngrams, "BLOCK_POSITIONS", block)
        _assert_same(slow, PairModel.from_lines(metrics, hyp, refs, workers=1))


@pytest.mark.parametrize("metric", [BleuMetric(), ChrfMetric(word_order=2), NltkBleuMetric(weights=[0.5, 0.5], smooth="nltk-method5")])
def test_vectorised_counters_equal_the_generic_fallback(metric):
    from bleu_ls.engine import Metric

    hyp = ["the cat sat", "", "a b a b a", "x, y. z-w"]
    refs = [["the cat sat down", "nothing", "a b a", "x , y . z - w"], ["cat", "", "b a b", "x y z"]]
    rows = metric.batch_stats(hyp, refs)
    assert np.array_equal(rows, Metric.batch_stats(metric, hyp, refs))
    assert np.array_equal(metric.batch_scores(rows), Metric.batch_scores(metric, rows), equal_nan=True)
