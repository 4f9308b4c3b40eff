"""chrF / chrF++ against sacrebleu's CHRF as the oracle: bit-identical floats."""

from __future__ import annotations

import pytest
import sacrebleu
from hypothesis import given, settings, strategies as st
from sacrebleu.metrics import CHRF

from bleu_ls.engine import ChrfMetric, PairModel
from tests.strategies import pair

CASES = [
    ("", ["abc"]),
    ("abc", [""]),
    ("", [""]),
    ("The cat sat on the mat.", ["The cat sat on the mat."]),
    ("(hi) there, friend!", ["hi there friend"]),
    ("東京で会議があります。", ["東京で会議が開かれます。"]),
    ("See you 👋 tomorrow", ["See you tomorrow 👋", "Bye"]),
    ("a", ["a", "b"]),
]

CONFIGS = [
    dict(),
    dict(word_order=2),
    dict(word_order=1, beta=1),
    dict(char_order=3, whitespace=True),
    dict(eps_smoothing=True),
    dict(word_order=2, eps_smoothing=True, lowercase=True),
]


@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("hyp,refs", CASES)
def test_sentence_chrf_handcrafted(hyp, refs, cfg):
    ours = ChrfMetric(**cfg)
    want = CHRF(**cfg).sentence_score(hyp, refs)
    assert ours.sentence_score(ours.line_stats(hyp, refs)).score == want.score


@settings(max_examples=80, deadline=None)
@given(data=pair(), cfg=st.sampled_from(CONFIGS))
def test_sentence_chrf_generated(data, cfg):
    hyp, refs = data
    ours = ChrfMetric(**cfg)
    assert ours.sentence_score(ours.line_stats(hyp, refs)).score == CHRF(**cfg).sentence_score(hyp, refs).score


@settings(max_examples=50, deadline=None)
@given(corpus=st.lists(pair(max_refs=1), min_size=1, max_size=10), cfg=st.sampled_from(CONFIGS))
def test_corpus_chrf_generated(corpus, cfg):
    hyps = [h for h, _ in corpus]
    refs = [r[0] for _, r in corpus]
    streams = [refs, refs[::-1]]
    want = CHRF(**cfg).corpus_score(hyps, streams)
    model = PairModel({"chrf": ChrfMetric(**cfg)}, hyps, streams)
    assert model.corpus("chrf").score == want.score


def test_name_and_signature():
    oracle = CHRF(word_order=2)
    oracle.corpus_score(["a"], [["a"]])
    ours = ChrfMetric(word_order=2)
    assert ours.name == "chrF2++"
    assert ours.signature(1) == str(oracle.get_signature())
    assert sacrebleu.sentence_chrf("x", ["x"]).score == ChrfMetric().sentence_score(ChrfMetric().line_stats("x", ["x"])).score
