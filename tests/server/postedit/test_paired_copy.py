"""The paired test's copy of the current text, made in slices."""

from __future__ import annotations

import asyncio

import numpy as np

from bleu_ls.engine import BleuMetric, PairModel
from bleu_ls.server.postedit import paired


def _model(n: int, refs: int = 5) -> PairModel:
    hyp = [f"w{i % 7} x{i % 3} y" for i in range(n)]
    ref = [f"w{i % 5} x{i % 3} z" for i in range(n + refs)]
    return PairModel({"bleu": BleuMetric()}, hyp, [ref])


def test_copy_in_slices_equals_the_model(monkeypatch):
    monkeypatch.setattr(paired, "COPY_LINES", 4)
    model = _model(23)
    (hyp, scores), refs, stats = asyncio.run(paired._copy(model))
    assert hyp == model.hyp and hyp is not model.hyp
    assert refs == model.refs and refs[0] is not model.refs[0]
    metric = model.metrics["bleu"]
    rows = [metric.line_stats(h, [r]) for h, r in zip(model.hyp, model.refs[0])]
    assert stats["bleu"].tolist() == rows  # from the metric, line by line
    assert np.array_equal(scores["bleu"], model.values("bleu"), equal_nan=True)
    model.splice_hyp(0, 1, ["changed"])  # the copy is independent of the model
    assert hyp[0] != "changed" and stats["bleu"][0].tolist() == rows[0]


def test_copy_gives_up_when_the_model_changes_between_slices(monkeypatch):
    monkeypatch.setattr(paired, "COPY_LINES", 4)
    model = _model(23)

    async def run():
        task = asyncio.ensure_future(paired._copy(model))
        await asyncio.sleep(0)  # the first slice is copied
        model.splice_hyp(20, 21, ["an edit"])
        return await task

    assert asyncio.run(run()) is None


def test_draft_lines_over_the_cap_are_counted_in_a_worker_process(monkeypatch):
    """The draft's model never counts a line over the cap in the server's
    own process; its rows are still the metric's."""
    calls = []

    def in_process(fn, *args):
        calls.append(fn)
        return fn(*args)  # a stand-in for the worker process: same numbers

    monkeypatch.setattr(paired, "run_in_process", in_process)
    long = " ".join(f"w{i % 50}" for i in range(400))
    hyp = ["a b c", long, "d e"]
    draft = ["a b x", long + " extra", "d e"]
    refs = [["a b c", " ".join(reversed(long.split())), "d f"]]
    metrics = {"bleu": BleuMetric()}
    current = PairModel(metrics, hyp, refs)
    cur = {"bleu": np.array(current.stats_array("bleu"))}
    scores = {"bleu": np.array(current.values("bleu"))}
    partners = (draft, np.arange(3))
    model, out = paired._run(None, metrics, partners, refs, cur, (hyp, scores), cap=1000)
    assert len(calls) == 1  # the long line only
    metric = metrics["bleu"]
    rows = [metric.line_stats(d, [r]) for d, r in zip(draft, refs[0])]
    assert np.array(model.stats_array("bleu")).tolist() == rows
    assert "paired" in out["bleu"]
    # a later job: the long draft line changes again, the same way
    draft2 = ["a b x", long + " more", "d e"]
    model, _ = paired._run(model, metrics, (draft2, np.arange(3)), refs, cur, (hyp, scores), cap=1000)
    assert len(calls) == 2
    assert np.array(model.stats_array("bleu")).tolist() == [metric.line_stats(d, [r]) for d, r in zip(draft2, refs[0])]
