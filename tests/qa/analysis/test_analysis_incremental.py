"""The incremental analysis's own structures against from-scratch values:
the sorted line scores (``analysis.ranking``), the model's edit log, and the
outlier threshold followed across random edit scripts with ties at the
threshold, lines becoming empty, inserted and deleted lines."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings as hsettings, strategies as st

from bleu_ls.qa.analysis import Analyzer, analyse, outlier_select
from bleu_ls.qa.analysis import ranking
from bleu_ls.qa.analysis.ranking import SortedLines
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.engine.pair_parts import EditLog
from bleu_ls.config.settings import Settings


# -- the sorted scores -----------------------------------------------------------------
@hsettings(max_examples=150, deadline=None)
@given(
    start=st.lists(st.sampled_from([0.0, 0.0, 1.5, 7.25, 7.25, 50.0, 100.0]), max_size=40),
    ops=st.lists(st.tuples(st.integers(0, 60), st.sampled_from([None, 0.0, 1.5, 7.25, 3.0, 100.0])), max_size=40),
    load=st.sampled_from([1, 2, 4, 512]),
)
def test_sorted_lines_equal_sorting_from_scratch(start, ops, load):
    """Ties everywhere, blocks of 1-4 pairs (splits and emptied blocks):
    after every insert / remove, the k-th value, the median, the counts under
    a value and the lines between two positions equal numpy's on the pairs."""
    saved, ranking.LOAD = ranking.LOAD, load
    try:
        _sorted_lines_script(start, ops)
    finally:
        ranking.LOAD = saved


def _sorted_lines_script(start, ops):
    pairs = {i: v for i, v in enumerate(start)}
    s = SortedLines(np.array(list(pairs.values()), dtype=float), np.array(list(pairs), dtype=np.int64))
    for line, value in ops:
        old = pairs.pop(line, None)
        if old is not None:
            s.remove(old, line)
        if value is not None:
            pairs[line] = value
            s.insert(value, line)
        lines = np.array(sorted(pairs, key=lambda i: (pairs[i], i)), dtype=np.int64)
        vals = np.array([pairs[i] for i in lines.tolist()], dtype=float)
        assert len(s) == len(vals)
        assert s.values().tolist() == vals.tolist()
        for k in range(len(vals)):
            assert s.kth(k) == float(np.partition(vals, k)[k])
        if len(vals):
            assert s.median() == float(np.median(vals))
        for x in (-1.0, 0.0, 1.5, 3.0, 7.25, 100.0, 200.0):
            assert s.count_below(x, True) == int((vals <= x).sum())
            assert s.count_below(x, False) == int((vals < x).sum())
        for p in range(len(vals) + 1):
            q = min(len(vals), p + 3)
            assert s.lines_between(p, q) == lines[p:q].tolist()
    with pytest.raises(KeyError):
        s.remove(1234.5, 999)


# -- the edit log ----------------------------------------------------------------------
def test_edit_log_since_and_its_limit(monkeypatch):
    monkeypatch.setattr(EditLog, "LIMIT", 4)
    log = EditLog(3)
    assert log.since(3) == [] and log.since(2) is None
    for v in range(4, 10):
        log.add(v, None, v, v + 1, 1)
    assert [e[0] for e in log.since(7)] == [8, 9]
    assert log.since(log.base - 1) is None  # dropped past the limit
    assert [e[0] for e in log.since(log.base)] == list(range(log.base + 1, 10))
    log.reset(12)
    assert log.since(11) is None and log.since(12) == []


def test_model_logs_every_splice_and_resets_on_new_metrics_or_references():
    s = Settings()
    model = PairModel(build_metrics(s), ["a b", "c d"], [["a b", "c d"]])
    v = model.version
    model.splice_hyp(1, 2, ["x", "y"])
    model.splice_ref(0, 0, 1, [])
    assert model.edits.since(v) == [(v + 1, None, 1, 2, 2), (v + 2, 0, 0, 1, 0)]
    model.set_metrics(build_metrics(s))
    assert model.edits.since(v) is None and model.edits.since(model.version) == []
    w = model.version
    model.set_refs([["a"], ["b"]])
    assert model.edits.since(w) is None


@pytest.mark.parametrize("limit", [1, 3, 4096])
def test_analysis_when_the_log_does_not_reach_back(monkeypatch, limit):
    """More splices between two passes than the log keeps: a full pass, same findings."""
    monkeypatch.setattr(EditLog, "LIMIT", limit)
    s = Settings.from_dict({"diagnostics": {"outlier": {"minLines": 3, "minTokens": 0}, "wrongLanguage": {"enabled": False}}})
    rng = random.Random(limit)
    words = ["the", "cat", "sat", "on", "mat", "a", "dog"]
    hyp = [" ".join(rng.choices(words, k=rng.randrange(0, 6))) for _ in range(40)]
    ref = [" ".join(rng.choices(words, k=rng.randrange(1, 6))) for _ in range(40)]
    model = PairModel(build_metrics(s), hyp, [ref])
    a = Analyzer(s)
    a.analyse(model)
    for _ in range(5):
        for _ in range(3):
            i = rng.randrange(40)
            model.splice_hyp(i, i + 1, [" ".join(rng.choices(words, k=rng.randrange(0, 6)))])
        assert a.analyse(model) == analyse(model, s)
        if limit == 1:
            assert a.changed is None  # the log lost the first splices: everything looked at again


def _apply(model, edits) -> None:
    """Edits (kind, line, text) on the model: a hypothesis line or the
    reference's replaced, a line pair inserted or deleted."""
    for kind, at, text in edits:
        m = model.n_hyp
        at = min(at, max(m - 1, 0))
        if kind == "line" and m:
            model.splice_hyp(at, at + 1, [text])
        elif kind == "ref" and m:
            model.splice_ref(0, at, at + 1, [text])
        elif kind == "insert":
            model.splice_hyp(at, at, [text])
            model.splice_ref(0, at, at, [REF])
        elif kind == "delete" and m > 1:
            model.splice_hyp(at, at + 1, [])
            model.splice_ref(0, at, at + 1, [])


# -- the outlier threshold across edits -------------------------------------------------
REF = "the cat sat on the mat with a hat today"
#: a few texts whose BLEU against REF is the same for many lines: ties at the threshold
TEXTS = [REF, REF, "the cat sat on the mat", "a dog", "dog barks loudly at night", "", "the cat", REF.upper()]

outlier_cfg = st.fixed_dictionaries(
    {
        "rule": st.sampled_from(["bottom-percent", "bottom-percent", "below-median", "robust-z"]),
        "value": st.sampled_from([1.0, 3.0, 10.0, 30.0, 50.0, 50.0, 70.0]),
        "minTokens": st.sampled_from([0, 3, 8]),
        "metric": st.sampled_from(["bleu", "chrf"]),
    }
)
edit = st.one_of(
    st.tuples(st.just("line"), st.integers(0, 200), st.sampled_from(TEXTS)),
    st.tuples(st.just("ref"), st.integers(0, 200), st.sampled_from(TEXTS)),
    st.tuples(st.just("insert"), st.integers(0, 200), st.sampled_from(TEXTS)),
    st.tuples(st.just("delete"), st.integers(0, 200), st.just("")),
)


@hsettings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    cfg=outlier_cfg,
    n=st.integers(20, 120),
    seed=st.integers(0, 10_000),
    steps=st.lists(st.lists(edit, min_size=1, max_size=3), min_size=1, max_size=12),
)
def test_outlier_followed_across_edits_equals_from_scratch(cfg, n, seed, steps):
    """Documents of a handful of texts (most lines tie with others, often at
    the threshold), edited line by line (lines becoming empty or not,
    reference lines changed, lines inserted and deleted): after every pass
    the outlier findings equal a fresh ``analyse()`` and the mask equals
    ``outlier_select`` of the scores, bit for bit."""
    s = Settings.from_dict({
        "chrf": {"enabled": True},
        "diagnostics": {"outlier": {"minLines": 20, **cfg}, "lowScore": {"enabled": False},
                        "wrongLanguage": {"enabled": False}, "misaligned": {"enabled": False},
                        "lengthRatio": {"enabled": False}, "repetition": {"enabled": False}},
    })
    rng = random.Random(seed)
    model = PairModel(build_metrics(s), rng.choices(TEXTS, k=n), [[rng.choice([REF, REF, "a dog", "the cat"]) for _ in range(n)]])
    a = Analyzer(s)
    a.analyse(model)
    for batch in steps:
        _apply(model, batch)
        got = a.analyse(model)
        assert got == analyse(model, s)
        track = a.rule_state.get("outlier", {}).get("track")
        if track is not None:
            key = track.sig[0]
            stats = model.stats_array("bleu")
            want = outlier_select(model.values(key), stats[:, 1], a.settings.diagnostics.outlier) & (stats[:, 0] != 0)
            assert track.mask.tolist() == want.tolist()


def test_lines_unpaired_then_paired_again_after_an_emptied_document():
    """A pass with no paired line between two that have some, the hypothesis
    longer than the reference (the analysis reads a copy of the paired
    lines while its memos last saw the model's own list, changed since):
    the findings equal a fresh pass (a stale “looping” finding was kept)."""
    s = Settings.from_dict({"diagnostics": {"repetition": {"minCount": 2}, "wrongLanguage": {"enabled": False}}})
    model = PairModel({}, [], [["", ""]])
    a = Analyzer(s)
    for hyp in (["the the"], [], ["", "", "the"], ["the the", "", "x"], ["a"]):
        model.set_hyp(hyp)
        assert a.analyse(model) == analyse(model, s)


@given(st.integers(1, 3), st.integers(0, 2), st.lists(st.tuples(st.sampled_from("set insert-all insert-one delete-all delete-one undo".split()),
       st.integers(0, 40), st.integers(0, 2), st.sampled_from("abcd")), max_size=25), st.integers(0, 2**32 - 1))
@hsettings(max_examples=150, deadline=None)
# columns ['b','c','c','b'] and ['d','a'], made as long as each other by two
# a's put at the top of the second; then an 'a' put at the top of both: the
# second column alone reads as an 'a' put in after its run of a's, and the
# windows between the two spots were computed again (3, not 1)
@example(2, 0, [("insert-one", 0, 1, "a"), ("insert-one", 0, 1, "a"), ("insert-all", 0, 0, "a")], 757697)
def test_window_values_follow_edits_equal_to_computing_every_window(k, pad, ops, seed):
    """WindowValues against computing every window afresh, after line edits
    (with the changed lines named, as the analyser does after a one-line
    edit), lines inserted or deleted in every column or in one, and edits
    undone; an undone edit and lines inserted in every column alike compute
    only the windows around them (also where the line put in equals its
    neighbours, so each column alone could place it elsewhere)."""
    from bleu_ls.qa.analysis.memo import WindowValues

    rng = random.Random(seed)
    cols = [[rng.choice("abcd") for _ in range(rng.randrange(0, 12))] for _ in range(k)]
    calls = []

    def fn(key):
        calls.append(key)
        return "".join("-" if x is None else x for x in key)

    def state():
        n = min(map(len, cols))
        return n, lambda i: tuple(c[j] if 0 <= j < n else None for c in cols for j in range(i - pad, i + pad + 1))

    cache = WindowValues(fn, pad)
    history = []
    previous = None  # the previous step's (op, scope)
    n, key_of = state()
    assert cache.values(cols, n, key_of, None, 0) == [fn(key_of(i)) for i in range(n)]
    for token, (op, at, which, text) in enumerate(ops, 1):
        before = [list(c) for c in cols]
        scope, bound = None, None
        which %= k
        if op == "set" and cols[which]:
            i = at % len(cols[which])
            cols[which][i] += text
            if i < min(map(len, cols)):
                scope, bound = (i, i + 1), 2 * pad + 1
        elif op == "insert-all":
            for c in cols:
                c.insert(min(at, len(c)), text)
            if len({len(c) for c in before}) == 1:
                bound = 2 * pad + 1
        elif op == "insert-one":
            cols[which].insert(min(at, len(cols[which])), text)
        elif op == "delete-all" and all(cols):
            for c in cols:
                del c[min(at, len(c) - 1)]
        elif op == "delete-one" and cols[which]:
            del cols[which][at % len(cols[which])]
        elif op == "undo" and history:
            cols[:] = history.pop()
            # undoing a one-line edit costs what it cost; a structural edit
            # undone is found in the snapshot of the pass before it
            if previous is not None and previous[0] != "undo":
                bound = 2 * pad + 1 if previous[1] is not None else 0
        if op != "undo":
            history.append(before)
        previous = (op, scope)
        n, key_of = state()
        calls.clear()
        got = cache.values(cols, n, key_of, scope, token, token - 1)
        calls_made = len(calls)
        assert got == [fn(key_of(i)) for i in range(n)]
        if bound is not None:
            assert calls_made <= bound, (op, calls_made, bound)


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    n=st.integers(20, 80),
    seed=st.integers(0, 10_000),
    before=st.lists(edit, max_size=4),
    meanwhile=st.lists(edit, max_size=4),
)
def test_a_pass_over_a_following_copy_is_followed_on_the_model(n, seed, before, meanwhile):
    """The server's first large analysis runs over ``model.copy(follow=True)``
    in a worker thread while the model takes edits; the pass on the model
    that follows works out only the lines edited since the copy (not every
    line) and its findings equal a fresh analysis, with every rule on."""
    s = Settings.from_dict({"chrf": {"enabled": True},
                            "diagnostics": {"outlier": {"minLines": 20}, "wrongLanguage": {"enabled": False}}})
    rng = random.Random(seed)
    model = PairModel(build_metrics(s), rng.choices(TEXTS, k=n), [[rng.choice([REF, REF, "a dog", "the cat"]) for _ in range(n)]])

    def apply(edits):
        _apply(model, edits)

    apply(before)
    copy = model.copy(follow=True)
    a = Analyzer(s)
    assert a.analyse(copy) == analyse(copy, s)
    apply(meanwhile)
    assert a.unanalysed(model) == sum(1 for kind, _at, _t in meanwhile if kind in ("line", "insert") and model.n_hyp)
    got = a.analyse(model)
    assert got == analyse(model, s)
    if not meanwhile:
        assert a.changed is not None and not a.changed  # nothing looked at again
    # an edited copy does not follow: a reader of it starts over on the model
    other = model.copy()
    other.splice_hyp(0, 1, ["a dog"])
    b = Analyzer(s)
    b.analyse(other)
    assert b.unanalysed(model) == model.n_hyp
