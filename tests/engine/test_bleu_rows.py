"""The scores of many BLEU statistics rows at once (``compute_bleu_rows``, what
``batch_scores`` and the JSON report's line records use) against sacrebleu
2.6's own ``BLEU.compute_bleu`` row by row: every float the same to the last bit."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from bleu_ls.engine.bleu import BleuMetric, compute_bleu_rows


def _row(rng: random.Random, n_max: int) -> list[int]:
    """A statistics row as a line gives it: totals from the hypothesis
    length, matches at most the totals and never more at a higher order."""
    kind = rng.random()
    hyp_len = 0 if kind < 0.05 else rng.randint(1, 4) if kind < 0.3 else rng.randint(1, 80)
    ref_len = 0 if rng.random() < 0.03 else rng.randint(max(0, hyp_len - 10), hyp_len + 12)
    totals = [max(hyp_len - n + 1, 0) for n in range(1, n_max + 1)]
    correct, prev = [], None
    for t in totals:
        top = t if prev is None else min(t, prev)
        c = 0 if rng.random() < 0.15 else rng.randint(0, top)
        correct.append(c)
        prev = c if c else top  # a zero order may be followed by matches (another line's row)
    return [hyp_len, ref_len, *correct, *totals]


def _bits(x: float) -> str:
    return float(x).hex()


SETTINGS = [
    ("exp", None, True), ("exp", None, False), ("none", None, True), ("none", None, False),
    ("floor", None, True), ("floor", 0.3, False), ("add-k", None, True), ("add-k", 2, False), ("add-k", 0.5, True),
]


@pytest.mark.parametrize("n_max", [1, 2, 4, 6])
@pytest.mark.parametrize("smooth,value,effective", SETTINGS)
def test_rows_are_sacrebleus(n_max, smooth, value, effective):
    rng = random.Random(f"{n_max}{smooth}{value}{effective}")
    rows = [_row(rng, n_max) for _ in range(600)]
    rows += [[0] * (2 + 2 * n_max), [3, 0, *([0] * n_max), *([3, 2, 1, 0, 0, 0][:n_max])]]
    scores, precisions, bp = compute_bleu_rows(np.array(rows, dtype=np.int64), smooth, value, effective, n_max)
    for i, r in enumerate(rows):
        want = BLEU.compute_bleu(r[2 : 2 + n_max], r[2 + n_max :], r[0], r[1], smooth, value, effective, n_max)
        assert _bits(scores[i]) == _bits(want.score), r
        assert list(map(_bits, precisions[i])) == list(map(_bits, want.precisions)), r
        assert _bits(bp[i]) == _bits(want.bp), r


def test_scores_and_records_of_a_metric_are_the_per_line_ones():
    rng = random.Random(7)
    metric = BleuMetric()
    rows = np.array([_row(rng, 4) for _ in range(300)], dtype=np.int64)
    scores = metric.batch_scores(rows)
    records = list(metric.line_record_values(rows, scores))
    for i, r in enumerate(rows.tolist()):
        s = metric.sentence_score(r)
        assert _bits(scores[i]) == _bits(s.score)
        want = (s.score, *s.counts, *s.totals, *s.precisions, s.bp, s.sys_len, s.ref_len)
        assert [repr(v) for v in records[i]] == [repr(v) for v in want]
        assert [type(v) for v in records[i]] == [type(v) for v in want]


def test_no_rows():
    scores, precisions, bp = compute_bleu_rows(np.zeros((0, 10), dtype=np.int64), "exp", None, True, 4)
    assert scores.shape == (0,) and precisions.shape == (0, 4) and bp.shape == (0,)
    assert not math.isnan(float(np.sum(scores)))
