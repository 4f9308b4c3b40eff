"""BLEU as NLTK computes it: the ``nltk`` (3.10) and ``nltk-3.2`` presets.

NLTK is not a dependency: its arithmetic is reproduced here and NLTK 3.10.4
is the oracle in the tests.  Its quirks are part of the contract:

* tokens are whitespace-separated words;
* a line's per-order denominator is ``max(1, number of hypothesis n-grams)``;
* no unigram match at all gives the integer 0;
* ``nltk-method0`` replaces a zero precision by the smallest float, so a
  line without 4-gram matches scores about 1e-77, not 0;
* corpus-level smoothing (methods 4-7) sees the corpus hypothesis length but
  the *last* sentence pair's hypothesis and references (methods 5 and 6);
* method5 always adds the order-5 precision, whatever the weights;
* method6 fails (NLTK raises) without a trigram match: the score is then
  undefined (``None``) with the reason.

The ``nltk-3.2`` preset reproduces NLTK 3.2.2-3.2.5's default: precisions
stop at the first order without a match and the remaining weights are
dropped, not renormalised.

Statistics of a line: ``[hyp_len, ref_len, num_1..K, den_1..K, num_5, den_5]``
with K the number of weights (the order-5 pair feeds method5).
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from fractions import Fraction
from typing import Optional, Sequence, cast

import numpy as np

from .base import Score
from .bleu import BleuFamily, BleuSection, closest_ref_len, ngram_counter

#: NLTK's SmoothingFunction methods 0..7, by name.
SMOOTHING = tuple(f"nltk-method{i}" for i in range(8))
#: NLTK's default (no smoothing: method0).
DEFAULT_SMOOTH = SMOOTHING[0]

NLTK_VERSION = "3.10"
#: The preset of NLTK 3.2.2-3.2.5's default (precisions stop at the first order without a match).
LEGACY_PRESET = "nltk-3.2"


def modified_precision(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> tuple[int, int]:
    """(numerator, denominator) of NLTK's modified_precision."""
    if len(hyp) < n:
        return 0, 1
    counts = ngram_counter(hyp, n)
    max_counts: dict = {}
    for ref in refs:
        ref_counts = ngram_counter(ref, n) if len(ref) >= n else Counter()
        for gram in counts:
            c = ref_counts[gram]
            if c > max_counts.get(gram, 0):
                max_counts[gram] = c
    numerator = sum(min(c, max_counts.get(g, 0)) for g, c in counts.items())
    return numerator, max(1, sum(counts.values()))


class _P:
    """NLTK's unnormalised Fraction: value of num/den, but remembers both."""

    __slots__ = ("numerator", "denominator", "value")

    def __init__(self, numerator: int, denominator: int) -> None:
        self.numerator = numerator
        self.denominator = denominator
        self.value = Fraction(numerator, denominator) if denominator else None


def _val(p):
    """The number NLTK computes with: an exact Fraction or a float."""
    return p.value if isinstance(p, _P) else p


class NltkBleuMetric(BleuFamily):
    """BLEU as NLTK computes it: the presets of BLEU's settings section
    other than sacrebleu's, in the same table row (one key, one section)."""

    presets = ("nltk", LEGACY_PRESET)
    #: sacrebleu's bootstrap is defined for sacrebleu's metrics only
    bootstrap = False

    def __init__(
        self,
        weights: Optional[Sequence[float]] = None,
        smooth: str = DEFAULT_SMOOTH,
        lowercase: bool = False,
        legacy: bool = False,
        epsilon: float = 0.1,
        alpha: int = 5,
        k: int = 5,
    ) -> None:
        if smooth not in SMOOTHING:
            raise ValueError(f"unknown NLTK smoothing {smooth!r}; choose {SMOOTHING[0]} … {SMOOTHING[-1]}")
        if legacy and smooth != DEFAULT_SMOOTH:
            raise ValueError(f"the nltk-3.2 preset reproduces NLTK 3.2's default only: use {DEFAULT_SMOOTH}")
        self.weights = tuple(weights) if weights else (0.25, 0.25, 0.25, 0.25)
        self.n = len(self.weights)
        self.method = int(smooth[-1])
        self.smooth = smooth
        self.lowercase = lowercase
        self.legacy = legacy
        self.epsilon, self.alpha, self.k = epsilon, alpha, k
        self.width = 2 + 2 * self.n + 2

    @classmethod
    def from_section(cls, section: BleuSection) -> NltkBleuMetric:
        """``nltk-3.2`` is NLTK 3.2's default; uniform weights over ``max_order`` unless given."""
        return cls(
            weights=section.weights or [1.0 / section.max_order] * section.max_order,
            smooth=section.smooth or DEFAULT_SMOOTH,
            lowercase=section.lowercase,
            legacy=section.preset == LEGACY_PRESET,
        )

    def tokens(self, line: str) -> list[str]:
        return (line.lower() if self.lowercase else line).split()

    def stats_from_tokens(self, hyp: list[str], refs: Sequence[list[str]]) -> list[int]:
        nums, dens = [], []
        for i in range(1, self.n + 1):
            num, den = modified_precision(hyp, refs, i)
            nums.append(num)
            dens.append(den)
        if self.method in (5, 7):
            num5, den5 = modified_precision(hyp, refs, 5)
        else:
            num5, den5 = 0, 1
        ref_len = closest_ref_len(len(hyp), [len(r) for r in refs])
        return [len(hyp), ref_len, *nums, *dens, num5, den5]

    def line_stats(self, hyp: str, refs: Sequence[str]) -> list[int]:
        return self.stats_from_tokens(self.tokens(hyp), [self.tokens(r) for r in refs])

    # -- score ---------------------------------------------------------------
    def _score(self, totals: Sequence[int], last: Sequence[int]) -> Score:
        n = self.n
        totals = [int(x) for x in totals]
        hyp_lengths, ref_lengths = totals[0], totals[1]
        nums, dens = totals[2 : 2 + n], totals[2 + n : 2 + 2 * n]
        bp: float
        if hyp_lengths > ref_lengths:
            bp = 1
        elif hyp_lengths == 0:
            bp = 0
        else:
            bp = math.exp(1 - ref_lengths / hyp_lengths)
        precisions = [100.0 * a / b if b else 0.0 for a, b in zip(nums, dens)]
        result = Score(
            metric=self.name,
            score=0.0,
            counts=nums,
            totals=dens,
            precisions=precisions,
            bp=float(bp),
            sys_len=hyp_lengths,
            ref_len=ref_lengths,
            ngram=True,
        )
        result.extra["nltk"] = 0
        if not n or nums[0] == 0:
            return result  # NLTK returns the integer 0
        p_n = [_P(a, b) for a, b in zip(nums, dens)]
        if self.legacy:
            kept = []
            for p in p_n:
                if p.numerator == 0:
                    break
                kept.append(p)
            # (a kept precision has a match, so a denominator and a value)
            s = (w * math.log(cast(Fraction, p.value)) for w, p in zip(self.weights, kept))
            raw = bp * math.exp(math.fsum(s))
            result.score = 100 * raw
            result.extra["nltk"] = raw
            return result
        try:
            p_n = self._smooth(p_n, hyp_lengths, last)
        except (AssertionError, IndexError, ZeroDivisionError) as exc:
            result.score = None
            result.error = (
                "NLTK's method6 needs a trigram match (NLTK raises here)"
                if self.method == 6
                else f"NLTK raises {type(exc).__name__} here"
            )
            return result
        s = (w * math.log(_val(p)) for w, p in zip(self.weights, p_n) if _val(p) > 0)
        raw = bp * math.exp(math.fsum(s))
        result.score = 100 * raw
        result.extra["nltk"] = raw
        return result

    def _smooth(self, p_n: list, hyp_len: int, last: Sequence[int]) -> list:
        """NLTK 3.10's SmoothingFunction methods, same operations, same order."""
        m = self.method
        if m == 0:
            return [p if p.numerator != 0 else sys.float_info.min for p in p_n]
        if m == 1:
            return [(p.numerator + self.epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]
        if m == 2:
            return [_P(p.numerator + 1, p.denominator + 1) if i != 0 else p for i, p in enumerate(p_n)]
        if m == 3:
            incvnt = 1
            for i, p in enumerate(p_n):
                if p.numerator == 0:
                    p_n[i] = 1 / (2**incvnt * p.denominator)
                    incvnt += 1
            return p_n
        last_hyp_len = int(last[0]) if last is not None else 0
        if m == 4:
            return self._method4(p_n, hyp_len, last_hyp_len)
        if m == 5:
            return self._method5(p_n, last)
        if m == 6:
            return self._method6(p_n, last_hyp_len)
        p_n = self._method4(p_n, hyp_len, last_hyp_len)
        return self._method5(p_n, last)

    def _method4(self, p_n: list, hyp_len: int, last_hyp_len: int) -> list:
        incvnt = 1
        hyp_len = hyp_len if hyp_len else last_hyp_len
        for i, p in enumerate(p_n):
            if p.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p.denominator
                incvnt += 1
        return p_n

    def _method5(self, p_n: list, last: Sequence[int]) -> list:
        n = self.n
        num5, den5 = int(last[2 + 2 * n]), int(last[3 + 2 * n])
        vals = [_val(p) for p in p_n]
        plus1 = vals + [Fraction(num5, den5)]
        prev = vals[0] + 1
        out = []
        for i, v in enumerate(vals):
            v = (prev + v + plus1[i + 1]) / 3
            out.append(v)
            prev = v
        return out

    def _method6(self, p_n: list, last_hyp_len: int) -> list:
        assert _val(p_n[2]), "method6 needs a trigram match"
        out = list(p_n)
        for i in range(2, len(out)):
            prev2, prev1 = _val(out[i - 2]), _val(out[i - 1])
            pi0 = 0 if prev2 == 0 else prev1**2 / prev2
            num = p_n[i].numerator
            length = max(0, last_hyp_len - i)
            out[i] = (num + self.alpha * pi0) / (length + self.alpha)
        return out

    def batch_stats(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        from .batch_stats import nltk_stats

        return nltk_stats(self, hyp, refs)

    def sentence_score(self, stats: Sequence[int]) -> Score:
        return self._score(stats, stats)

    def corpus_score(self, totals: Sequence[int], last: Optional[Sequence[int]] = None) -> Score:
        return self._score(totals, last if last is not None else totals)

    def signature(self, nrefs: int, sentence: bool = False) -> str:
        case = "lc" if self.lowercase else "mixed"
        weights = ",".join(f"{w:g}" for w in self.weights)
        preset = "nltk-3.2" if self.legacy else f"nltk-{NLTK_VERSION}"
        smooth = self.smooth if not self.legacy else "nltk-3.2-default"
        return f"nrefs:{nrefs}|case:{case}|tok:whitespace|smooth:{smooth}|weights:{weights}|version:{preset}"
