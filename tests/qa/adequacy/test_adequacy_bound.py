"""The ``adequacy`` rule encodes only its candidates (the weakest lines by
chrF): its flags equal a brute-force reading of the same rule that knows
every line's similarity, whatever the other lines' similarities are, and the
encoder is asked for nothing else."""

import math
import statistics

import numpy as np
from hypothesis import given, settings as hsettings, strategies as st

from bleu_ls.qa.analysis.qe_rules import adequacy_flags

NAN = float("nan")


def brute_force(eligible, chrf, sims, percent, candidates):
    """The rule as docs/diagnostics.md words it, one line at a time, with
    every similarity known (plain Python, no shared code)."""
    n = len(eligible)
    lines = [i for i in range(n) if eligible[i]]
    if not lines:
        return [False] * n
    k = max(1, math.floor(len(lines) * percent / 100.0))
    with_chrf = chrf is not None and any(not math.isnan(chrf[i]) for i in lines)
    if with_chrf:
        scored = sorted(chrf[i] for i in lines if not math.isnan(chrf[i]))
        m = min(max(5 * k, math.floor(len(lines) * candidates / 100.0)), len(scored))  # at least 5 per flag
        cut = scored[m - 1]
        cand = [i for i in lines if math.isnan(chrf[i]) or chrf[i] <= cut]
    else:
        cand = lines
    ranked = [i for i in cand if not math.isnan(sims[i])]
    if not ranked:
        return [False] * n

    def pct(key, among):
        return {i: sum(1 for j in among if (key(j), j) < (key(i), i)) / len(among) for i in among}

    score = pct(lambda i: sims[i], ranked)  # the similarity among the candidates
    if with_chrf:  # chrF among every eligible line
        c = pct(lambda i: math.inf if math.isnan(chrf[i]) else chrf[i], lines)
        score = {i: score[i] + c[i] for i in ranked}
    k = min(k, len(ranked))
    cut = sorted(score.values())[k - 1]
    med = statistics.median(score.values())
    return [i in score and score[i] <= cut and score[i] < med for i in range(n)]


values = st.sampled_from([0.0, 10.0, 25.5, 40.0, 40.0, 71.2, 100.0, NAN])  # ties and gaps, as chrF has
similarity = st.sampled_from([-0.2, 0.1, 0.35, 0.5, 0.5, 0.8, 0.99, NAN])  # NaN: not known yet


@st.composite
def documents(draw):
    n = draw(st.integers(1, 80))
    eligible = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    chrf = draw(st.none() | st.lists(values, min_size=n, max_size=n))
    sims = draw(st.lists(similarity, min_size=n, max_size=n))
    percent = draw(st.sampled_from([1.0, 2.0, 3.0, 5.0, 50.0]))
    candidates = draw(st.sampled_from([0.0, 5.0, 10.0, 20.0, 100.0]))
    return np.array(eligible), None if chrf is None else np.array(chrf), np.array(sims), percent, candidates


@given(documents(), st.randoms(use_true_random=False))
@hsettings(max_examples=400, deadline=None)
def test_flags_equal_the_brute_force_rule_and_only_candidates_are_encoded(doc, rnd):
    eligible, chrf, sims, percent, candidates = doc
    asked = []

    def encode(mask):
        asked.append(mask.copy())
        out = np.full(len(sims), NAN)
        out[mask] = sims[mask]
        return out

    flags, cand = adequacy_flags(eligible, chrf, encode, percent, candidates)
    assert flags.tolist() == brute_force(eligible, chrf, sims, percent, candidates)
    if eligible.any():
        assert len(asked) == 1 and np.array_equal(asked[0], cand)  # one call, for the candidates alone
    else:
        assert not asked and not flags.any()
    assert not (flags & ~cand).any() and not (cand & ~eligible).any()
    # sound: a line outside the candidates cannot change the flags, whatever its similarity
    other = sims.copy()
    for i in np.flatnonzero(~cand):
        other[i] = rnd.choice([-1.0, 0.0, 0.5, 1.0, NAN])
    assert brute_force(eligible, chrf, other, percent, candidates) == flags.tolist()


def test_candidates_are_the_weakest_by_chrf_with_ties_and_lines_without_chrf():
    eligible = np.ones(20, dtype=bool)
    eligible[3] = False  # not ranked: never a candidate, though its chrF is lowest
    chrf = np.arange(20, dtype=float) * 5
    chrf[3] = 0.0
    chrf[7] = chrf[1] = 5.0
    chrf[9] = 20.0  # a tie with the fifth weakest (line 4)
    chrf[12] = NAN  # no reference line: always a candidate
    encode = lambda m: np.where(m, 0.5, NAN)  # noqa: E731
    # 19 eligible lines, 1 may be flagged (2 %): 10 % is 1 line, but at least 5 are encoded
    _flags, cand = adequacy_flags(eligible, chrf, encode, 2.0, 10.0)
    assert np.flatnonzero(cand).tolist() == [0, 1, 2, 4, 7, 9, 12]
    _flags, cand = adequacy_flags(eligible, chrf, encode, 2.0, 40.0)  # 7 lines: up to chrF 25 (line 5)
    assert np.flatnonzero(cand).tolist() == [0, 1, 2, 4, 5, 7, 9, 12]


def test_without_chrf_every_eligible_line_is_a_candidate_and_the_lowest_similarity_is_flagged():
    sims = np.linspace(0.2, 0.9, 50)
    sims[17] = -0.3
    eligible = np.ones(50, dtype=bool)
    flags, cand = adequacy_flags(eligible, None, lambda m: np.where(m, sims, NAN), 2.0, 10.0)
    assert cand.all() and np.flatnonzero(flags).tolist() == [17]


def test_a_finding_says_which_lines_its_median_is_of():
    from bleu_ls.qa.analysis import Analyzer
    from bleu_ls.engine import PairModel, build_metrics
    from bleu_ls.config.settings import Settings

    from .test_language_alignment_qe import needs_qe

    if needs_qe.args[0]:
        import pytest

        pytest.skip("the sentence encoder is not installed")
    src = [f"The {w} sat on the red mat near the old wooden door number {i}." for i, w in enumerate(["cat", "dog", "bird"] * 10)]
    ref = [f"Die {w} saß auf der roten Matte neben der alten Holztür Nummer {i}." for i, w in enumerate(["Katze", "Hund", "Vogel"] * 10)]
    hyp = list(ref)
    hyp[4] = "Ich mag keine Tomaten und auch keine Gurken, sagte er."
    settings = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": True}}})
    out = [f for f in Analyzer(settings).analyse(PairModel(build_metrics(settings), hyp, [ref]), src) if f.code == "adequacy"]
    assert [f.line for f in out] == [4]
    assert "among the weakest 10 % by chrF" in out[0].message and out[0].data["chrf"] is not None
