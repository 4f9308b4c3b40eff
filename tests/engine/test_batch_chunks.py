"""The batch pass in one process goes CHUNK_LINES lines at a time (its memory
follows the chunk): the rows, scores and per-chunk renders are those of the
per-line model, in order, whatever the chunk size."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_ls.engine import BleuMetric, ChrfMetric, NltkBleuMetric, PairModel
from bleu_ls.engine import batch


def _first(key, metric, stats, scores, first):
    return (key, first, len(stats), float(scores.sum()))


@pytest.mark.parametrize("chunk", [7, 100, 50_000])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_one_process_in_chunks_matches_per_line(chunk, nrefs, monkeypatch):
    from benchmarks.corpus import Corpus

    monkeypatch.setattr(batch, "CHUNK_LINES", chunk)
    hyp, ref = Corpus(seed=9).pairs(230)
    hyp[3], ref[5] = "", ""
    refs = [ref, ref[3:] + ref[:3]][:nrefs]
    metrics = {"bleu": BleuMetric(), "chrf": ChrfMetric(word_order=2)}
    slow = PairModel(metrics, hyp, refs)
    result, made = batch.first_pass_with(metrics, hyp, refs, workers=1, render=_first)
    for key in metrics:
        stats, scores = result[key]
        assert np.array_equal(stats, slow.stats_array(key))
        assert np.array_equal(scores, slow.values(key), equal_nan=True)
        starts = list(range(0, 230, chunk))
        assert [m[1] for m in made[key]] == starts
        assert [m[2] for m in made[key]] == [min(chunk, 230 - a) for a in starts]
        assert sum(m[3] for m in made[key]) == pytest.approx(float(np.nansum(slow.values(key))))


def test_no_render_no_made(monkeypatch):
    monkeypatch.setattr(batch, "CHUNK_LINES", 2)
    metrics = {"bleu": NltkBleuMetric()}
    result, made = batch.first_pass_with(metrics, ["a b", "c d", "e"], [["a b", "c e", "e"]], workers=1)
    assert made == {"bleu": []}
    assert result["bleu"][0].shape[0] == 3
