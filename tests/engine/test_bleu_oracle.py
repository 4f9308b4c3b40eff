"""BLEU against sacrebleu 2.6 as the oracle: bit-identical floats."""

from __future__ import annotations

import pytest
import sacrebleu
from hypothesis import given, settings, strategies as st
from sacrebleu.metrics import BLEU

from bleu_ls.engine import BleuMetric, PairModel
from tests.strategies import pair

SMOOTHS = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2), ("exp", None)]
TOKENIZERS = ["13a", "none", "intl", "zh", "char"]

HANDCRAFTED = [
    ("", ["a b c"]),
    ("word", ["word"]),
    ("word", ["other"]),
    ("The cat sat on the mat.", ["The cat sat on the mat."]),
    ("the cat is on the mat", ["there is a cat on the mat", "the cat sits on the mat"]),
    ("AT&amp;T said &quot;no&quot; -- 3.5% of 1,000 U.S. e-mails.", ['AT&T said "no" - 3.5% of 1,000 US emails.']),
    ("東京で会議があります。", ["東京で会議が開かれます。"]),
    ("See you 👋 tomorrow", ["See you tomorrow 👋"]),
    ("the the the the the the the", ["the cat is on the mat"]),
    ("a b c d", ["", "a b c d e"]),
    ("a b c d", ["a b", "a b c d e f"]),  # tie in closest length -> shorter
    ("a b c", ["a b", "a b c d"]),
    ("one two three four five", ["", ""]),
    ("x", [""]),
    ("trailing space   ", ["trailing space"]),
]


def _refs_streams(refs):
    return [[r] for r in refs]


@pytest.mark.parametrize("smooth,value", SMOOTHS)
@pytest.mark.parametrize("hyp,refs", HANDCRAFTED)
def test_sentence_bleu_handcrafted(hyp, refs, smooth, value):
    ours = BleuMetric(smooth=smooth, smooth_value=value)
    want = sacrebleu.sentence_bleu(hyp, refs, smooth_method=smooth, smooth_value=value)
    got = ours.sentence_score(ours.line_stats(hyp, refs))
    assert got.score == want.score
    assert got.precisions == want.precisions
    assert (got.bp, got.sys_len, got.ref_len) == (want.bp, want.sys_len, want.ref_len)


def test_exact_match_is_100_00000000000004():
    ours = BleuMetric()
    s = ours.sentence_score(ours.line_stats("a b c d e", ["a b c d e"])).score
    assert s == sacrebleu.sentence_bleu("a b c d e", ["a b c d e"]).score
    assert s == 100.00000000000004


def test_tie_goes_to_shorter_reference():
    ours = BleuMetric()
    stats = ours.line_stats("a b c d", ["a b", "a b c d e f"])
    assert stats[1] == 2


@pytest.mark.parametrize("tok", TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
@settings(max_examples=40, deadline=None)
@given(data=pair())
def test_sentence_bleu_generated(tok, lowercase, data):
    hyp, refs = data
    ours = BleuMetric(tokenize=tok, lowercase=lowercase)
    want = sacrebleu.sentence_bleu(hyp, refs, tokenize=tok, lowercase=lowercase)
    got = ours.sentence_score(ours.line_stats(hyp, refs))
    assert got.score == want.score
    assert got.precisions == want.precisions


@settings(max_examples=60, deadline=None)
@given(
    data=pair(),
    smooth=st.sampled_from(SMOOTHS),
    order=st.integers(1, 6),
    eff=st.booleans(),
)
def test_sentence_options_generated(data, smooth, order, eff):
    hyp, refs = data
    method, value = smooth
    ours = BleuMetric(smooth=method, smooth_value=value, max_order=order, effective_order=eff)
    oracle = BLEU(smooth_method=method, smooth_value=value, max_ngram_order=order, effective_order=eff)
    want = oracle.sentence_score(hyp, refs)
    got = ours.sentence_score(ours.line_stats(hyp, refs))
    assert got.score == want.score
    assert got.precisions == want.precisions
    assert got.bp == want.bp


@settings(max_examples=60, deadline=None)
@given(
    corpus=st.lists(pair(max_refs=1), min_size=1, max_size=12),
    nrefs=st.integers(1, 3),
    smooth=st.sampled_from(SMOOTHS),
    tok=st.sampled_from(TOKENIZERS),
)
def test_corpus_bleu_generated(corpus, nrefs, smooth, tok):
    hyps = [h for h, _ in corpus]
    # nrefs reference streams; stream k>0 are rotations of stream 0 with some empties
    base = [r[0] for _, r in corpus]
    streams = [base] + [base[k:] + base[:k] for k in range(1, nrefs)]
    method, value = smooth
    want = sacrebleu.corpus_bleu(hyps, streams, smooth_method=method, smooth_value=value, tokenize=tok)
    model = PairModel({"bleu": BleuMetric(tokenize=tok, smooth=method, smooth_value=value)}, hyps, streams)
    got = model.corpus("bleu")
    assert got.score == want.score
    assert got.precisions == want.precisions
    assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len)
    assert got.counts == list(want.counts) or method == "add-k"
    # every line: sentence_bleu of that line
    for i, h in enumerate(hyps):
        refs_i = [s[i] for s in streams]
        line = sacrebleu.sentence_bleu(h, refs_i, smooth_method=method, smooth_value=value, tokenize=tok)
        assert model.line_value("bleu", i) == line.score


def test_signature_matches_sacrebleu():
    for method, value in SMOOTHS:
        for lc in (False, True):
            oracle = BLEU(smooth_method=method, smooth_value=value, lowercase=lc, tokenize="intl")
            oracle.corpus_score(["a"], [["a"], ["b"]])
            ours = BleuMetric(tokenize="intl", smooth=method, smooth_value=value, lowercase=lc)
            assert ours.signature(2) == str(oracle.get_signature())
    sent = BLEU(effective_order=True)
    sent.sentence_score("a", ["a"])
    assert BleuMetric().signature(1, sentence=True) == str(sent.get_signature())


def test_missing_tokenizer_dependency_is_a_clear_error():
    from bleu_ls.engine.tokenizers import TokenizerUnavailable, get_tokenizer

    with pytest.raises(TokenizerUnavailable, match="unknown tokenizer"):
        get_tokenizer("nope")
