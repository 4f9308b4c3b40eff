"""The incremental pair model against scoring the final texts from scratch."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bleu_ls.engine import BleuMetric, ChrfMetric, NltkBleuMetric, PairModel, build_metrics, common_splice
from bleu_ls.engine.batch import first_pass
from bleu_ls.config.settings import Settings
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


@given(
    base=st.lists(st.sampled_from("ab"), min_size=0, max_size=400),
    at=st.integers(0, 400),
    cut=st.integers(0, 5),
    ins=st.lists(st.sampled_from("abc"), max_size=4),
)
def test_common_splice_is_smallest_on_long_runs(base, at, cut, ins):
    """Long common runs go through the slice-halving path: the splice is
    still exact and as small as it can be."""
    at = min(at, len(base))
    new = base[:at] + ins + base[at + cut :]
    s, e, lines = common_splice(base, new)
    assert base[:s] + lines + base[e:] == new
    # smallest: the line before the splice and the line after it differ
    assert s == len(base) or s == len(new) or base[s] != new[s]
    tail = len(base) - e
    assert tail + s >= min(len(base), len(new)) or base[e - 1] != new[len(new) - tail - 1]


def _splice_line_by_line(old, new):
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    e_old, e_new = len(old), len(new)
    while e_old > start and e_new > start and old[e_old - 1] == new[e_new - 1]:
        e_old -= 1
        e_new -= 1
    return start, e_old, new[start:e_new]


@given(
    old=st.lists(st.sampled_from("ab"), max_size=30),
    edits=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 3), st.lists(st.sampled_from("abc"), max_size=3))),
    block=st.integers(1, 5),
)
def test_common_splice_by_blocks_is_the_smallest(old, edits, block):
    new = list(old)
    for at, drop, ins in edits:
        at = min(at, len(new))
        new[at : at + drop] = ins
    assert common_splice(old, new, block) == _splice_line_by_line(old, new)


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


# -- installing batch-pass rows computed on a snapshot while edits went on ----

W = "a b c d e f g h".split()


def _lines(rnd, n):
    return [" ".join(rnd.choices(W, k=rnd.randint(0, 6))) for _ in range(n)]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.lists(
        st.tuples(st.sampled_from(["hyp", "ref"]), st.integers(0, 39), st.integers(0, 2), st.integers(0, 2)),
        max_size=5,
    ),
)
def test_install_after_concurrent_edits_equals_from_scratch(seed, edits):
    rnd = random.Random(seed)
    s = Settings()
    s.chrf.enabled = True
    metrics = build_metrics(s)
    model = PairModel(metrics, _lines(rnd, 40), [_lines(rnd, 40)], lazy=True)
    snap = model.snapshot()
    result = first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)
    for target, start, width, new in edits:  # the user edits meanwhile
        seq = model.hyp if target == "hyp" else model.refs[0]
        start = min(start, len(seq))
        end = min(start + width, len(seq))
        new_lines = _lines(rnd, new)
        if target == "hyp":
            model.splice_hyp(start, end, new_lines)
        else:
            model.splice_ref(0, start, end, new_lines)
    model.install(result, snap)
    oracle = PairModel(metrics, model.hyp, model.refs)
    for key in metrics:
        assert model.corpus(key).score == oracle.corpus(key).score
        assert np.array_equal(model.values(key), oracle.values(key), equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(1, 12),
    st.lists(
        st.tuples(
            st.integers(0, 5),  # before the slice with this number
            st.sampled_from(["hyp", "ref"]),
            st.integers(0, 39),
            st.integers(0, 2),
            st.integers(0, 2),
        ),
        max_size=5,
    ),
)
def test_install_in_slices_with_edits_between_equals_from_scratch(seed, size, edits):
    """A pass installed slice by slice, the user editing between slices:
    every installed row is the row of the line as it is now."""
    rnd = random.Random(seed)
    model = PairModel(metrics(), _lines(rnd, 40), [_lines(rnd, 40)], lazy=True)
    snap = model.snapshot()
    result = first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)
    for n, start in enumerate(range(0, len(snap.hyp), size)):
        for when, target, at, width, new in edits:
            if when != n:
                continue
            seq = model.hyp if target == "hyp" else model.refs[0]
            at = min(at, len(seq))
            if target == "hyp":
                model.splice_hyp(at, min(at + width, len(seq)), _lines(rnd, new))
            else:
                model.splice_ref(0, at, min(at + width, len(seq)), _lines(rnd, new))
        model.install_range(result, snap, start, start + size)
        for i in np.flatnonzero(model.scored_mask(0, model.n_paired)).tolist():
            for key, m in model.metrics.items():  # each scored row is of the line as it is now
                assert model.line_stats(key, i) == m.line_stats(model.hyp[i], [r[i] for r in model.refs])
    if not edits:
        assert model.stale_count() == 0  # nothing edited: the slices cover every line
    assert_matches_scratch(model)


def test_install_counts_lines_and_marks_them_scored():
    model = PairModel(metrics(), ["a b", "c d", "e f"], [["a b", "c", "e f"]], lazy=True)
    snap = model.snapshot()
    result = first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)
    model.splice_hyp(1, 2, ["c x"])  # in place: line 1 is counted now, from the new text
    assert model.scored_mask(0, 3).tolist() == [False, True, False]
    assert model.install(result, snap) == 2
    assert model.scored_mask(0, 3).tolist() == [True, True, True]
    assert model.install(result, snap) == 0  # nothing stale is left
    assert_matches_scratch(model)


def test_install_skips_rows_of_other_metrics():
    model = PairModel(metrics(), ["a b"], [["a b"]], lazy=True)
    snap = model.snapshot()
    result = first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)
    model.set_metrics({"bleu": BleuMetric(lowercase=True)})
    assert model.install(result, snap) == 0
    assert model.stale_count() == 1


def test_snapshot_is_a_copy_and_mask_is_read_only():
    model = PairModel(metrics(), ["a", "b"], [["a", "b"]])
    snap = model.snapshot()
    model.splice_hyp(0, 1, ["z"])
    assert snap.hyp == ["a", "b"] and snap.version == model.version - 1
    mask = model.scored_mask(0, 2)
    with pytest.raises(ValueError):
        mask[0] = False


def test_copy_is_independent_and_equal():
    model = PairModel(metrics(), ["a b c", "d e f", "g h"], [["a b c", "d e x", "g h i"]])
    twin = model.copy()
    model.splice_hyp(1, 2, ["changed", "and inserted"])
    assert twin.hyp == ["a b c", "d e f", "g h"]
    assert_matches_scratch(twin)
    assert_matches_scratch(model)


# -- heavy lines: never counted by an edit, finished by jobs ---------------------------
class _Recording:
    """Wraps a metric and records which hypothesis lines it counted."""

    def __init__(self, metric):
        self.metric, self.seen = metric, []

    def __getattr__(self, name):
        return getattr(self.metric, name)

    def line_stats(self, hyp, refs):
        self.seen.append((hyp, list(refs)))
        return self.metric.line_stats(hyp, refs)


def _over(text: str, cap) -> bool:
    return cap is not None and len(text.encode("utf-8")) > cap


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hyp=st.lists(sentence, max_size=10),
    ref=st.lists(sentence, max_size=10),
    cap=st.sampled_from([None, 4, 12, 30]),
    script=st.lists(edit, max_size=6),
    job_sizes=st.lists(st.integers(1, 5), max_size=6),
)
def test_heavy_lines_are_left_to_jobs_and_settle_to_scratch(hyp, ref, cap, script, job_sizes):
    from bleu_ls.engine import TerMetric

    rec = {"bleu": _Recording(BleuMetric()), "ter": _Recording(TerMetric())}
    ter = rec["ter"].metric
    model = PairModel(rec, hyp, [list(ref)], defer_slow=True, long_line_bytes=cap)
    pending = []
    for (side, start, removed, lines, peek), size in zip(script, job_sizes + [1] * len(script)):
        target = model.hyp if side < 0 else model.refs[0]
        s = start % (len(target) + 1)
        e = min(len(target), s + removed)
        for r in rec.values():
            r.seen.clear()
        if side < 0:
            model.splice_hyp(s, e, lines)
        else:
            model.splice_ref(0, s, e, lines)
        if peek and model.n_paired:
            model.ensure(0, model.n_paired)
        model.refresh(max_lines=3, light_only=True)
        # nothing over the cap, and no TER-expensive line, was counted by the edit
        for r in rec.values():
            for h, rs in r.seen:
                assert not any(_over(t, cap) for t in (h, *rs))
                assert ter.cheap(h, rs)
        pending.append(model.line_job(model.stale_lines(size)))
    for job in pending:  # jobs run late: rows of lines edited meanwhile are not taken
        model.install_lines(job, job.run())
    while model.stale_count():
        job = model.line_job(model.stale_lines(4))
        assert model.install_lines(job, job.run()) == len(job.lines)
    plain = {k: r.metric for k, r in rec.items()}
    scratch = PairModel(plain, model.hyp, model.refs)
    for key in plain:
        assert model.stale_count() == 0
        assert model._stats[key][: model.n_paired].tolist() == scratch._stats[key][: scratch.n_paired].tolist()
        assert model.totals(key) == scratch.totals(key)
        assert model.corpus(key).score == scratch.corpus(key).score


def test_a_ter_expensive_edit_is_left_stale_and_a_job_finishes_it():
    from sacrebleu.metrics import TER

    from bleu_ls.engine import TerMetric

    long_hyp = " ".join(f"w{i % 37}" for i in range(60))
    long_ref = " ".join(f"w{(i * 7) % 41}" for i in range(60))
    model = PairModel({"ter": TerMetric()}, ["a b", "c d"], [["a b", long_ref]], defer_slow=True)
    assert model.stale_count() == 1 and model.is_heavy(1)  # open: the cheap line only
    model.splice_hyp(0, 1, ["a c"])
    assert model.scored_mask(0, 1).all()  # a cheap line is counted by the edit
    model.splice_hyp(1, 2, [long_hyp])
    assert not model.scored_mask(1, 2).any() and model.ensure(0, 2) == 0
    job = model.line_job(model.stale_lines())
    assert job.lines == (1,)
    assert model.install_lines(job, job.run()) == 1
    want = TER().sentence_score(long_hyp, [long_ref]).score
    assert model.line_value("ter", 1) == want
    assert model.corpus("ter").score == TER().corpus_score(["a c", long_hyp], [["a b", long_ref]]).score


def test_install_lines_skips_lines_changed_or_counted_meanwhile():
    model = PairModel(metrics(), ["a b", "c d", "e f"], [["a b", "c", "e f"]], long_line_bytes=2)
    assert model.stale_count() == 3  # every line is over the 2-byte cap
    job = model.line_job([0, 1, 2])
    model.splice_hyp(1, 2, ["c x"])  # changed meanwhile
    model.line_value("bleu", 2)  # counted on demand meanwhile
    assert model.install_lines(job, job.run()) == 1  # line 0 only
    assert model.stale_count() == 1 and model.is_long(1)
    assert_matches_scratch(model)
