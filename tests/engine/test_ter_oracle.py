"""TER against sacrebleu 2.6's TER as the oracle: the same edit counts, the same floats."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate

from bleu_ls.engine import PairModel, TerMetric, build_metrics
from bleu_ls.engine.ter_core import ter_edits
from bleu_ls.config.settings import Settings
from tests.engine.test_pair_model import assert_matches_scratch
from tests.strategies import pair, sentence, word_lists

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
MQM = REPO / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"

CONFIGS = [
    dict(),
    dict(case_sensitive=True),
    dict(normalized=True),
    dict(no_punct=True),
    dict(normalized=True, asian_support=True),
    dict(no_punct=True, asian_support=True, case_sensitive=True),
    dict(normalized=True, no_punct=True, asian_support=True),
]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _same_sentence(ours: TerMetric, oracle: TER, hyp: str, refs: list[str]) -> None:
    want = oracle.sentence_score(hyp, refs)
    got = ours.sentence_score(ours.line_stats(hyp, refs))
    assert (got.score, got.extra["num_edits"], got.extra["ref_length"]) == (
        want.score, want.num_edits, want.ref_length)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=word_lists())
def test_edit_count_equals_lib_ter(words):
    hyp, ref = words
    got = ter_edits(hyp, ref)
    assert (got.edits, got.ref_len) == translation_edit_rate(hyp, ref)
    assert got.edits == got.shifts + got.insertions + got.deletions + got.substitutions


@settings(max_examples=150, deadline=None)
@given(data=pair(), cfg=st.sampled_from(CONFIGS))
def test_sentence_ter_generated(data, cfg):
    hyp, refs = data
    _same_sentence(TerMetric(**cfg), TER(**cfg), hyp, refs)


@pytest.mark.parametrize("hyp,refs", [
    ("", ["abc"]), ("abc", [""]), ("", [""]), ("a b c", ["a b c"]),
    ("The cat sat on the mat.", ["the mat the cat sat on ."]),
    ("東京で会議があります。", ["東京で会議が開かれます。"]),
    ("&quot;Hi&quot;, he said -- it's 3.5 km.", ["\"Hi\" he said, it is 3.5km!"]),
    (" ".join(["x"] * 150), [" ".join(["x", "y"] * 40)]),
    ("a", [" ".join(["b"] * 200)]),
])
@pytest.mark.parametrize("cfg", CONFIGS)
def test_sentence_ter_handcrafted(hyp, refs, cfg):
    _same_sentence(TerMetric(**cfg), TER(**cfg), hyp, refs)


@pytest.mark.parametrize("nrefs", [1, 2, 3])
@pytest.mark.parametrize("cfg", CONFIGS[:3])
def test_corpus_ter_samples(nrefs, cfg):
    hyp = _lines(SAMPLES / "news.hyp")
    ref = _lines(SAMPLES / "news.ref")
    streams = [ref, ref[::-1], _lines(SAMPLES / "news.src")][:nrefs]
    want = TER(**cfg).corpus_score(hyp, streams)
    model = PairModel({"ter": TerMetric(**cfg)}, hyp, streams)
    got = model.corpus("ter")
    assert (got.score, got.extra["num_edits"], got.extra["ref_length"]) == (
        want.score, want.num_edits, want.ref_length)


@settings(max_examples=60, deadline=None)
@given(corpus=st.lists(pair(max_refs=1), min_size=1, max_size=12), nrefs=st.integers(1, 3))
def test_corpus_ter_generated(corpus, nrefs):
    hyps = [h for h, _ in corpus]
    refs = [r[0] for _, r in corpus]
    streams = [refs, refs[::-1], hyps[::-1]][:nrefs]
    want = TER().corpus_score(hyps, streams)
    got = PairModel({"ter": TerMetric()}, hyps, streams).corpus("ter")
    assert (got.score, got.extra["ref_length"]) == (want.score, want.ref_length)


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
def test_wmt_systems_lines_and_corpus():
    ref = _lines(MQM / "ref.txt")
    for path in sorted(MQM.glob("*.hyp"))[:3]:
        hyp = _lines(path)
        ours, oracle = TerMetric(), TER()
        stats = ours.batch_stats(hyp, [ref])
        want = [oracle.sentence_score(h, [r]).score for h, r in zip(hyp, ref)]
        assert ours.batch_scores(stats).tolist() == want
        assert ours.corpus_from_rows(stats).score == TER().corpus_score(hyp, [ref]).score


edit = st.tuples(st.integers(-1, 2), st.integers(0, 40), st.integers(0, 4),
                 st.lists(sentence, max_size=4))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hyp=st.lists(sentence, max_size=10), ref=st.lists(sentence, max_size=10),
       nrefs=st.integers(1, 3), script=st.lists(edit, max_size=6))
def test_incremental_ter_equals_scratch_and_sacrebleu(hyp, ref, nrefs, script):
    refs = [list(ref)] + [list(reversed(ref)) for _ in range(nrefs - 1)]
    model = PairModel({"ter": TerMetric()}, hyp, refs)
    for side, start, removed, lines in script:
        target = model.hyp if side < 0 else model.refs[side % nrefs]
        s = start % (len(target) + 1)
        e = min(len(target), s + removed)
        if side < 0:
            model.splice_hyp(s, e, lines)
        else:
            model.splice_ref(side % nrefs, s, e, lines)
    assert_matches_scratch(model)
    n = model.n_paired
    if n:
        want = TER().corpus_score(model.hyp[:n], [r[:n] for r in model.refs])
        assert model.corpus("ter").score == want.score


def test_settings_build_ter_and_signature():
    s = Settings.from_dict({"ter": {"enabled": True, "caseSensitive": True, "noPunct": True}})
    metric = build_metrics(s)["ter"]
    oracle = TER(case_sensitive=True, no_punct=True)
    oracle.corpus_score(["a"], [["a"], ["b"]])
    assert metric.signature(2) == str(oracle.get_signature())
    assert "ter" not in build_metrics(Settings())


def test_too_many_references_is_one_sentence():
    with pytest.raises(ValueError, match="references"):
        TerMetric().line_stats("a", ["a"] * 11)
    assert TerMetric().line_stats("a b", ["a"] * 5)[2] == 5


def test_parallel_batch_equals_serial_and_alignments_add_up():
    from bleu_ls.engine.ter_batch import ter_alignments, ter_stats

    hyp = _lines(SAMPLES / "news.hyp") * 3
    ref = _lines(SAMPLES / "news.ref") * 3
    metric = TerMetric()
    serial = metric.batch_stats(hyp, [ref])
    assert np.array_equal(ter_stats(metric, hyp, [ref], workers=2), serial)
    aligned = ter_alignments(metric, hyp, [ref], workers=2)
    assert [a.edits for a in aligned] == serial[:, 0].tolist()
    assert all(a.edits == a.shifts + a.insertions + a.deletions + a.substitutions for a in aligned)


def test_alignment_rows_from_worker_processes_equal_the_alignments():
    """ter_alignment_rows (arrays sent back by the worker processes, what the
    server's HTER batch uses) carries exactly ter_alignments' numbers, and
    the server's HTER rows built from either are the same; the edit counts
    are sacrebleu's (case-sensitive TER against the draft)."""
    from sacrebleu.metrics import TER

    from bleu_ls.engine.ter_batch import ter_alignment_rows, ter_alignments
    from bleu_ls.server.postedit.effort import result_rows

    draft = _lines(SAMPLES / "news.hyp") * 40
    post = [" ".join(reversed(x.split())) if i % 3 == 0 else x + " noch" if i % 3 == 1 else x
            for i, x in enumerate(draft)]
    metric = TerMetric(case_sensitive=True)
    aligned = ter_alignments(metric, draft, [post], workers=1)
    rows = ter_alignment_rows(metric, draft, [post], workers=2, start_method="forkserver")
    assert rows.shape == (len(draft), 6)
    assert rows.tolist() == [[float(x) for x in a] for a in aligned]
    assert np.array_equal(result_rows(rows), result_rows(aligned))
    by_objects = np.array([[a.edits, a.ref_len * 2520, 1, a.insertions, a.deletions, a.substitutions, a.shifts]
                           for a in aligned], dtype=np.int64)
    assert np.array_equal(result_rows(rows), by_objects)
    ter = TER(case_sensitive=True)
    for (edits, ref_len, *_), d, p in zip(rows.tolist()[:60], draft, post):
        stats = ter._extract_corpus_statistics([d], [[p]])[0]
        assert (edits, ref_len) == (stats[0], stats[1])
