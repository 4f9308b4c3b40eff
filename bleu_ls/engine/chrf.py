"""chrF and chrF++ with sacrebleu 2.6 semantics (``sacrebleu.metrics.CHRF``).

Statistics of a line: for each order (character orders 1..C, then word
orders 1..W) the triple ``[hyp_count, ref_count, match_count]`` of the
reference with the best F score (the first one on ties), as sacrebleu keeps.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Optional, Protocol, Sequence

import numpy as np

from .base import Metric, Score
from .tokenizers import sacrebleu_version, split_punctuation


def _char_ngrams(line: str, n: int) -> Counter:
    return Counter([line[i : i + n] for i in range(len(line) - n + 1)])


def _word_ngrams(words: list[str], n: int) -> Counter:
    return Counter([" ".join(words[i : i + n]) for i in range(len(words) - n + 1)])


class ChrfSection(Protocol):
    """What chrF reads of its settings section (``settings.ChrfSettings``)."""

    char_order: int
    word_order: int
    beta: int
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool


class ChrfMetric(Metric):
    """sacrebleu's CHRF; chrF++ with word n-grams (``word_order``)."""

    key = "chrf"
    section = "chrf"
    short = "chrF"

    def __init__(
        self,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.width = 3 * self.order
        self.name = f"chrF{beta}" + "+" * word_order

    @classmethod
    def from_section(cls, section: ChrfSection) -> ChrfMetric:
        return cls(
            char_order=section.char_order,
            word_order=section.word_order,
            beta=section.beta,
            lowercase=section.lowercase,
            whitespace=section.whitespace,
            eps_smoothing=section.eps_smoothing,
        )

    def tokens(self, line: str) -> list[str]:
        return split_punctuation(line.lower() if self.lowercase else line)

    def _ngrams(self, line: str) -> list[Counter]:
        if self.lowercase:
            line = line.lower()
        chars = line if self.whitespace else "".join(line.split())
        grams = [_char_ngrams(chars, n) for n in range(1, self.char_order + 1)]
        if self.word_order:
            words = split_punctuation(line)
            grams += [_word_ngrams(words, n) for n in range(1, self.word_order + 1)]
        return grams

    def line_stats(self, hyp: str, refs: Sequence[str]) -> list[int]:
        hyp_grams = self._ngrams(hyp)
        best: list[int] = []
        best_f = -1.0
        for ref in refs:
            stats: list[int] = []
            for h, r in zip(hyp_grams, self._ngrams(ref)):
                match = hyp_count = 0
                get = r.get
                for gram, count in h.items():
                    hyp_count += count
                    rc = get(gram)
                    if rc:
                        match += count if count < rc else rc
                stats += (hyp_count if r else 0, sum(r.values()), match)
            f = self.f_score(stats)
            if f > best_f:
                best_f, best = f, stats
        return best

    def f_score(self, stats: Sequence[int]) -> float:
        """sacrebleu's CHRF._compute_f_score, operation for operation."""
        eps = 1e-16
        score = 0.0
        effective_order = 0
        factor = self.beta**2
        avg_prec, avg_rec = 0.0, 0.0
        for i in range(self.order):
            n_hyp, n_ref, n_match = stats[3 * i : 3 * i + 3]
            prec = n_match / n_hyp if n_hyp > 0 else eps
            rec = n_match / n_ref if n_ref > 0 else eps
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective_order += 1
        if self.eps_smoothing:
            return 100 * score / self.order
        if effective_order == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= effective_order
            avg_rec /= effective_order
        if avg_prec + avg_rec:
            score = (1 + factor) * avg_prec * avg_rec
            score /= (factor * avg_prec) + avg_rec
            return 100 * score
        return 0.0

    def _score(self, stats: Sequence[int]) -> Score:
        stats = [int(x) for x in stats]
        hyp_counts = stats[0::3]
        ref_counts = stats[1::3]
        matches = stats[2::3]
        return Score(
            metric=self.name,
            score=self.f_score(stats),
            counts=matches,
            totals=hyp_counts,
            extra={
                "char_order": self.char_order,
                "word_order": self.word_order,
                "beta": self.beta,
                "hyp_counts": hyp_counts,
                "ref_counts": ref_counts,
                "matches": matches,
            },
        )

    def batch_stats(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        from .batch_stats import chrf_stats

        return chrf_stats(self, hyp, refs)

    def batch_scores(self, stats: np.ndarray) -> np.ndarray:
        f = self.f_score
        out = np.empty(len(stats), dtype=np.float64)
        for i, r in enumerate(stats.tolist()):
            out[i] = f(r)
        return out

    def line_record_values(self, stats: np.ndarray, scores: np.ndarray) -> Iterator[tuple]:
        """Per statistics row, the numbers of its ``line_record`` (the score alone,
        which ``batch_scores`` computed: ``scores``)."""
        return zip(scores.tolist())

    def resample_score(self, row):
        return self.f_score(row)

    def sentence_score(self, stats: Sequence[int]) -> Score:
        return self._score(stats)

    def line_record(self, score: Score) -> dict:
        """A line's JSON record: the score alone (its counts are in the corpus record)."""
        return {"score": score.score}

    def corpus_score(self, totals: Sequence[int], last: Optional[Sequence[int]] = None) -> Score:
        return self._score(totals)

    def signature(self, nrefs: int, sentence: bool = False) -> str:
        case = "lc" if self.lowercase else "mixed"
        eff = "no" if self.eps_smoothing else "yes"
        space = "yes" if self.whitespace else "no"
        return (
            f"nrefs:{nrefs}|case:{case}|eff:{eff}|nc:{self.char_order}|nw:{self.word_order}"
            f"|space:{space}|version:{sacrebleu_version()}"
        )
