"""TER's edit search (ter_core, ter_shift) against sacrebleu 2.6's lib_ter on seeded random word lists.

Random sequences with repeated words, 0–120 words, the reference longer or
shorter, so that the search meets sacrebleu's limits: the band widened for
very different lengths, runs capped at 10 words and 50 positions, and the
1,000-candidate cut-off.  The test also checks that those cases, and both
ways of costing a round (pure Python and numpy), were met.
"""

from __future__ import annotations

import random

from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate

import bleu_ls.engine.ter_core as ter_core
from bleu_ls.engine import TerMetric

VOCABS = [list("ab"), list("abc"), list("abcdefgh"), [f"w{i}" for i in range(30)]]


def _noisy_copy(rng: random.Random, ref: list[str], vocab: list[str]) -> list[str]:
    """The reference with a few words dropped, substituted, inserted and blocks moved."""
    hyp = list(ref)
    for _ in range(rng.randrange(12)):
        op = rng.choice(["drop", "sub", "ins", "move", "move"])
        if not hyp and op != "ins":
            continue
        j = rng.randrange(len(hyp) + (op == "ins"))
        if op == "drop":
            del hyp[j]
        elif op == "sub":
            hyp[j] = rng.choice(vocab)
        elif op == "ins":
            hyp.insert(j, rng.choice(vocab))
        else:
            n = rng.randint(1, 12)
            block = hyp[j : j + n]
            del hyp[j : j + n]
            k = rng.randrange(len(hyp) + 1)
            hyp[k:k] = block
    return hyp


def _cases(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        vocab = rng.choice(VOCABS)
        kind = rng.random()
        if kind < 0.15:  # far apart in length: the band widens
            short = [rng.choice(vocab) for _ in range(rng.randint(0, 3))]
            long = [rng.choice(vocab) for _ in range(rng.randint(50, 120))]
            yield (short, long) if rng.random() < 0.5 else (long, short)
            continue
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, 120))]
        if kind < 0.35:  # unrelated sequences of the same vocabulary
            hyp = [rng.choice(vocab) for _ in range(rng.randint(0, 120))]
        else:
            hyp = _noisy_copy(rng, ref, vocab)
        yield (hyp, ref) if rng.random() < 0.5 else (ref, hyp)


def test_edit_counts_equal_lib_ter_on_random_word_lists(monkeypatch):
    seen = {"numpy": 0, "python": 0, "cut_off": 0, "wide_band": 0, "shifts": 0}
    real_costs = ter_core.shifted_costs
    real_candidates = ter_core._candidates

    def costs(*args):
        seen["numpy"] += 1
        return real_costs(*args)

    def candidates(*args):
        out, checked = real_candidates(*args)
        if checked >= ter_core._MAX_CANDIDATES:
            seen["cut_off"] += 1
        return out, checked

    monkeypatch.setattr(ter_core, "shifted_costs", costs)
    monkeypatch.setattr(ter_core, "_candidates", candidates)
    for hyp, ref in _cases(seed=20261123, count=110):
        numpy_before = seen["numpy"]
        got = ter_core.ter_edits(hyp, ref)
        assert (got.edits, got.ref_len) == translation_edit_rate(hyp, ref), (hyp, ref)
        assert got.edits == got.shifts + got.insertions + got.deletions + got.substitutions
        assert got.insertions - got.deletions == len(ref) - len(hyp)
        seen["shifts"] += got.shifts > 0
        seen["wide_band"] += bool(hyp) and len(ref) / len(hyp) / 2 > 25
        seen["python"] += got.shifts > 0 and seen["numpy"] == numpy_before  # every round in Python
    # the limits and both costing paths were met, not only easy lines
    assert all(v > 0 for v in seen.values()), seen


def test_sentence_scores_equal_sacrebleu_on_shifted_sentences():
    """Through the metric (tokenization, score): lines of natural-looking words with moved blocks."""
    rng = random.Random(7)
    words = "the a of to in and is was for on that with as by it at from this be are".split()
    words += [f"tok{i}" for i in range(60)]
    ours, oracle = TerMetric(), TER()
    for _ in range(60):
        ref = [rng.choice(words[: rng.choice([8, 20, 80])]) for _ in range(rng.randint(30, 70))]
        hyp = _noisy_copy(rng, ref, words)
        h, r = " ".join(hyp), " ".join(ref)
        want = oracle.sentence_score(h, [r])
        got = ours.sentence_score(ours.line_stats(h, [r]))
        assert (got.score, got.extra["num_edits"]) == (want.score, want.num_edits), (h, r)
