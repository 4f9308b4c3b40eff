"""Bootstrap intervals and paired tests against sacrebleu 2.6 as the oracle.

Every number (score, bootstrap mean, half-interval, p-value) must equal what
sacrebleu's ``corpus_score(..., n_bootstrap=N)`` and ``PairedTest`` give, to
the last bit, for the same seed.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest, _bootstrap_resample

from bleu_ls.engine import BleuMetric, ChrfMetric, TerMetric
from bleu_ls.engine.significance import (
    Estimate,
    _index_blocks,
    _mask_blocks,
    confidence,
    paired_ar,
    paired_bs,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
MQM = REPO / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"

METRICS = [
    ("bleu", lambda: BLEU(), lambda: BleuMetric()),
    ("chrf", lambda: CHRF(), lambda: ChrfMetric()),
    ("chrf++", lambda: CHRF(word_order=2), lambda: ChrfMetric(word_order=2)),
    ("ter", lambda: TER(), lambda: TerMetric()),
    ("bleu-floor-lc", lambda: BLEU(smooth_method="floor", lowercase=True),
     lambda: BleuMetric(smooth="floor", lowercase=True)),
]


def stats_for(metric, hyp, refs):
    return metric.batch_stats(hyp, refs)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _generated(seed: int, n: int) -> tuple[list[str], list[str], list[str]]:
    """Two systems and a reference made of small-vocabulary sentences."""
    rnd = random.Random(seed)
    vocab = "the a cat dog sat ran on mat sun , . ship it is Zürich 東京".split()
    ref = [" ".join(rnd.choices(vocab, k=rnd.randint(1, 14))) for _ in range(n)]

    def noisy(line: str) -> str:
        toks = line.split()
        for _ in range(rnd.randint(0, 4)):
            j = rnd.randrange(len(toks))
            toks[j] = rnd.choice(vocab)
        return " ".join(toks)

    return [noisy(r) for r in ref], [noisy(r) for r in ref], ref


def _datasets():
    yield "news", _lines(SAMPLES / "news.hyp"), _lines(SAMPLES / "news.ref"), [_lines(SAMPLES / "news.ref")]
    chat_refs = [_lines(SAMPLES / "chat.ref"), _lines(SAMPLES / "chat.ref2")]
    yield "chat-2refs", _lines(SAMPLES / "chat.hyp"), chat_refs[1], chat_refs
    a, b, ref = _generated(7, 300)
    yield "generated", a, b, [ref]
    a, b, ref = _generated(8, 120)
    yield "generated-2refs", a, b, [ref, _generated(9, 120)[2]]


DATASETS = list(_datasets())


def _oracle_row(res) -> tuple:
    return (res.score, res.mean, res.ci, res.p_value)


def _ours_row(est: Estimate) -> tuple:
    return (est.score, est.mean, est.ci, est.p_value)


@pytest.mark.parametrize("name,make_sb,make_ours", METRICS, ids=[m[0] for m in METRICS])
@pytest.mark.parametrize("data", DATASETS, ids=[d[0] for d in DATASETS])
@pytest.mark.parametrize("seed", ["12345", "3"])
def test_confidence_equals_corpus_score_bootstrap(data, name, make_sb, make_ours, seed, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    _, hyp, _, refs = data
    want = make_sb().corpus_score(hyp, refs, n_bootstrap=200)
    ours = make_ours()
    got = confidence(ours, stats_for(ours, hyp, refs), n=200)
    assert (got.score, got.mean, got.ci) == (want.score, want._mean, want._ci)


@pytest.mark.parametrize("name,make_sb,make_ours", METRICS[:4], ids=[m[0] for m in METRICS[:4]])
@pytest.mark.parametrize("data", DATASETS, ids=[d[0] for d in DATASETS])
@pytest.mark.parametrize("test_type,n", [("bs", 300), ("ar", 500)])
@pytest.mark.parametrize("seed", ["12345", "77"])
def test_paired_tests_equal_sacrebleu(data, name, make_sb, make_ours, test_type, n, seed, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    _, base, system, refs = data
    _, res = PairedTest([("base", base), ("sys", system)], {"m": make_sb()}, refs,
                        test_type=test_type, n_samples=n)()
    want_base, want_sys = next(v for k, v in res.items() if k != "System")
    ours = make_ours()
    fn = paired_bs if test_type == "bs" else paired_ar
    got_base, [got_sys] = fn(ours, stats_for(ours, base, refs), [stats_for(ours, system, refs)], n=n)
    assert _ours_row(got_base) == _oracle_row(want_base)
    assert _ours_row(got_sys) == _oracle_row(want_sys)


def test_seed_argument_equals_environment(monkeypatch):
    _, hyp, _, refs = DATASETS[0]
    ours = BleuMetric()
    stats = stats_for(ours, hyp, refs)
    monkeypatch.setenv("SACREBLEU_SEED", "99")
    from_env = confidence(ours, stats, n=100)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    assert confidence(ours, stats, n=100, seed=99) == from_env
    assert confidence(ours, stats, n=100) != from_env


def test_several_systems_each_equal_sacrebleu(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    a, b, ref = _generated(11, 200)
    c, _, _ = _generated(12, 200)
    systems = [("a", a), ("b", b), ("c", c)]
    _, res = PairedTest(systems, {"m": CHRF()}, [ref], test_type="bs", n_samples=250)()
    want = next(v for k, v in res.items() if k != "System")
    ours = ChrfMetric()
    got_base, got = paired_bs(ours, stats_for(ours, a, [ref]), [stats_for(ours, s, [ref]) for s in (b, c)], n=250)
    assert [_ours_row(e) for e in [got_base, *got]] == [_oracle_row(r) for r in want]


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
@pytest.mark.parametrize("name,make_sb,make_ours", METRICS[:3], ids=[m[0] for m in METRICS[:3]])
def test_wmt_systems_paired_bs_and_confidence(name, make_sb, make_ours, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps = sorted(MQM.glob("*.hyp"))[:3]
    ref = _lines(MQM / "ref.txt")
    systems = [(p.stem, _lines(p)) for p in hyps]
    _, res = PairedTest(systems, {"m": make_sb()}, [ref], test_type="bs", n_samples=1000)()
    want = next(v for k, v in res.items() if k != "System")
    ours = make_ours()
    stats = [stats_for(ours, lines, [ref]) for _, lines in systems]
    got_base, got = paired_bs(ours, stats[0], stats[1:])
    assert [_ours_row(e) for e in [got_base, *got]] == [_oracle_row(r) for r in want]
    whole = make_sb().corpus_score(systems[1][1], [ref], n_bootstrap=1000)
    est = confidence(ours, stats[1])
    assert (est.score, est.mean, est.ci) == (whole.score, whole._mean, whole._ci)


@pytest.mark.parametrize("lines", [1, 2, 3, 37, 1000])
@pytest.mark.parametrize("seed", [12345, 0, 2**40 + 3])
def test_index_blocks_are_numpys_choice(lines, seed, monkeypatch):
    monkeypatch.setattr("bleu_ls.engine.significance._BLOCK_CELLS", 997)
    want = np.random.default_rng(seed).choice(lines, size=(40, lines), replace=True)
    got = np.concatenate(list(_index_blocks(seed, 40, lines)))
    assert np.array_equal(got, want)


@pytest.mark.parametrize("lines", [1, 5, 64, 333])
def test_mask_blocks_are_numpys_booleans(lines, monkeypatch):
    monkeypatch.setattr("bleu_ls.engine.significance._BLOCK_CELLS", 1001)
    want = np.random.default_rng(5).integers(2, size=(30, lines), dtype=bool)
    got = np.concatenate(list(_mask_blocks(5, 30, lines)))
    assert np.array_equal(got, want)


def test_sums_beyond_float32_exact_range_follow_sacrebleu(monkeypatch):
    """Column sums over 2**24 round in float32: the slow exact path must agree."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(300):
        hyp, ref = rng.integers(50_000, 200_000, size=2)
        match = rng.integers(0, min(hyp, ref))
        rows.append([int(hyp), int(ref), int(match)] * 6)
    sb = CHRF()
    _, want = _bootstrap_resample(rows, sb, 50)
    want_scores = sorted(s.score for s in want)
    stats = np.array(rows, dtype=np.int64)
    assert stats[:, 0].sum() > 2**24
    got = confidence(ChrfMetric(), stats, n=50)
    low = len(want_scores) // 40
    assert got.ci == 0.5 * (want_scores[-low - 1] - want_scores[low])


def test_bad_statistics_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="columns"):
        confidence(BleuMetric(), np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="lines"):
        paired_bs(ChrfMetric(), np.ones((3, 18), dtype=np.int64), [np.ones((4, 18), dtype=np.int64)])


@pytest.mark.parametrize("nrefs", [1, 2, 3])
@pytest.mark.parametrize("test_type,n", [("bs", 400), ("ar", 600)])
def test_ter_with_averaged_reference_lengths(nrefs, test_type, n, monkeypatch):
    """TER's rows hold float averages over the references (thirds with three)."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    a, b, ref = _generated(21, 250)
    refs = [ref, _generated(22, 250)[2], _generated(23, 250)[2]][:nrefs]
    _, res = PairedTest([("a", a), ("b", b)], {"m": TER()}, refs, test_type=test_type, n_samples=n)()
    want = next(v for k, v in res.items() if k != "System")
    ours = TerMetric()
    fn = paired_bs if test_type == "bs" else paired_ar
    got_base, got = fn(ours, stats_for(ours, a, refs), [stats_for(ours, b, refs)], n=n)
    assert [_ours_row(e) for e in [got_base, *got]] == [_oracle_row(r) for r in want]
    whole = TER().corpus_score(b, refs, n_bootstrap=300)
    est = confidence(ours, stats_for(ours, b, refs), n=300)
    assert (est.score, est.mean, est.ci) == (whole.score, whole._mean, whole._ci)
