"""Installing batch-pass rows computed on a snapshot while edits went on."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.engine.batch import first_pass
from bleu_ls.settings import Settings

W = "a b c d e f g h".split()


def lines(rnd, n):
    return [" ".join(rnd.choices(W, k=rnd.randint(0, 6))) for _ in range(n)]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.sampled_from(["hyp", "ref"]), st.integers(0, 39), st.integers(0, 2), st.integers(0, 2)), max_size=5))
def test_install_after_concurrent_edits_equals_from_scratch(seed, edits):
    rnd = random.Random(seed)
    s = Settings()
    s.chrf.enabled = True
    metrics = build_metrics(s)
    hyp, ref = lines(rnd, 40), lines(rnd, 40)
    model = PairModel(metrics, hyp, [ref], lazy=True)
    snap = model.snapshot()
    result = first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)
    for target, start, width, new in edits:  # the user edits meanwhile
        seq = model.hyp if target == "hyp" else model.refs[0]
        start = min(start, len(seq))
        end = min(start + width, len(seq))
        new_lines = lines(rnd, new)
        if target == "hyp":
            model.splice_hyp(start, end, new_lines)
        else:
            model.splice_ref(0, start, end, new_lines)
    model.install(result, snap)
    oracle = PairModel(metrics, model.hyp, model.refs)
    for key in metrics:
        assert model.corpus(key).score == oracle.corpus(key).score
        assert np.array_equal(model.values(key), oracle.values(key), equal_nan=True)
