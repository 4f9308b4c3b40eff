"""TER (translation edit rate) with sacrebleu 2.6 semantics (``sacrebleu.metrics.TER``).

Statistics of a line: ``[num_edits, ref_units, n_refs]``.

* ``num_edits`` is the smallest edit count over the references (sacrebleu
  keeps the first of equal ones — only the count matters);
* sacrebleu's reference length is the *average* over the line's references,
  a float; it is kept exactly as an integer in 1/2520ths of a word
  (``sum of lengths * 2520 / n_refs``; 2520 is divisible by 1 to 10), so rows
  stay integers the pair model can add and subtract;
* ``n_refs`` says how that average was made.

Corpus: sacrebleu adds the per-line float averages one after the other.  With
1, 2 or 4 references each average is a multiple of 1/4, every partial sum is
exact, and the corpus length is the integer total / 2520 — the same float.  With
3 (or 5 to 10) references the rounding of each line's average and of each
addition depends on the lines, so the corpus is then summed from the rows in
order (``corpus_from_rows``), as sacrebleu does.
"""

from __future__ import annotations

from typing import Optional, Protocol, Sequence

import numpy as np

from .base import Metric, Score
from .ter_core import TerResult, ter_edits
from .tokenizers import sacrebleu_version

UNITS = 2520
#: A line whose hypothesis and references have at most this many TER tokens
#: is cheap enough to count during an edit: measured on the benchmark corpus
#: (10k lines, one core's thread time, median / p95 / max; machine loaded),
#: 35-39 tokens cost 1.0 / 2.9 / 5.0 ms; 40-44 tokens 1.5 / 3.6 / 7.0 ms;
#: 45-49 tokens 1.8 / 5.2 / 7.1 ms; 50-54 2.5 / 6.0 / 24 ms; 55-59 3.5 / 8.9 /
#: 13 ms; 60-64 4.4 / 8.7 / 25 ms (before the shift search costed candidates
#: on their changed span only: 40-49 2.0 / 8.7 / 17, 50-59 4.8 / 24 / 82 ms,
#: idle), so longer lines are counted off the loop.
CHEAP_WORDS = 44
_EXACT_REFS = (1, 2, 4)


class TerSection(Protocol):
    """What TER reads of its settings section (``settings.TerSettings``)."""

    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool


class TerMetric(Metric):
    """sacrebleu's TER: lowercased by default, tercom tokenization options."""

    key = "ter"
    section = "ter"
    short = "TER"
    name = "TER"
    width = 3
    #: higher is worse: a lower TER is the better translation
    higher_is_better = False
    word_tokens = False

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self._tokenizer = TercomTokenizer(
            normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive
        )

    @classmethod
    def from_section(cls, section: TerSection) -> TerMetric:
        return cls(
            normalized=section.normalized,
            no_punct=section.no_punct,
            asian_support=section.asian_support,
            case_sensitive=section.case_sensitive,
        )

    # -- statistics ----------------------------------------------------------
    def tokens(self, line: str) -> list[str]:
        return self._tokenizer(line.rstrip()).split()

    def alignments(self, hyp: str, refs: Sequence[str]) -> list[TerResult]:
        """The edits of ``hyp`` against each reference."""
        words = self.tokens(hyp)
        return [ter_edits(words, self.tokens(r)) for r in refs]

    def best(self, hyp: str, refs: Sequence[str]) -> TerResult:
        """The reference alignment sacrebleu counts: the first with the fewest edits."""
        results = self.alignments(hyp, refs)
        return min(results, key=lambda r: r.edits)

    def cheap(self, hyp: str, refs: Sequence[str]) -> bool:
        """Lines of at most ``CHEAP_WORDS`` tokens (hypothesis and each reference)."""
        return all(len(t) <= CHEAP_WORDS or len(self.tokens(t)) <= CHEAP_WORDS for t in (hyp, *refs))

    def line_stats(self, hyp: str, refs: Sequence[str]) -> list[int]:
        if not refs:
            raise ValueError("TER needs at least one reference")
        results = self.alignments(hyp, refs)
        n = len(refs)
        if UNITS % n:
            raise ValueError(f"TER supports 1 to 10 references per line, not {n}")
        edits = min(r.edits for r in results)
        return [edits, sum(r.ref_len for r in results) * (UNITS // n), n]

    def batch_stats(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        """Statistics rows of every line pair, in this process."""
        rows = [self.line_stats(h, list(rs)) for h, *rs in zip(hyp, *refs)]
        return np.array(rows, dtype=np.int64).reshape(len(rows), self.width)

    def batch_scores(self, stats: np.ndarray) -> np.ndarray:
        """Per-line scores of statistics rows."""
        return np.array([self._value(r[0], _avg(r)) for r in stats.tolist()], dtype=np.float64)

    # -- scores --------------------------------------------------------------
    @staticmethod
    def _value(edits, ref_length) -> float:
        """sacrebleu's TER._compute_score_from_stats, operation for operation."""
        if ref_length > 0:
            score = edits / ref_length
        elif edits > 0:
            score = 1.0
        else:
            score = 0.0
        return 100 * score

    def _make(self, edits, ref_length) -> Score:
        return Score(
            metric=self.name,
            score=float(self._value(edits, ref_length)),
            extra={"num_edits": int(edits), "ref_length": float(ref_length)},
        )

    def sentence_score(self, stats: Sequence[int]) -> Score:
        row = [int(x) for x in stats]
        return self._make(row[0], _avg(row))

    def corpus_score(self, totals: Sequence[int], last: Optional[Sequence[int]] = None) -> Score:
        """The corpus from summed rows: exact when every line had 1, 2 or 4 references."""
        edits, units = int(totals[0]), int(totals[1])
        return self._make(edits, units / UNITS)

    def corpus_from_rows(self, rows: np.ndarray) -> Score:
        """The corpus as sacrebleu sums it: per-line float averages added in line order."""
        rows = np.asarray(rows)
        if len(rows) == 0:
            return self._make(0, 0.0)
        refs = rows[:, 2]
        low, high = int(refs.min()), int(refs.max())
        if (low == high and low in _EXACT_REFS) or np.isin(refs, _EXACT_REFS).all():
            return self.corpus_score(rows.sum(0).tolist())
        return self._make(int(rows[:, 0].sum()), _sequential_sum(self.oracle_rows(rows)[:, 1]))

    # -- significance hooks ---------------------------------------------------
    def oracle_rows(self, rows: np.ndarray) -> np.ndarray:
        """The rows as sacrebleu keeps them: [edits, average reference length] floats."""
        rows = np.asarray(rows)
        out = np.empty((len(rows), 2), dtype=np.float64)
        out[:, 0] = rows[:, 0]
        # sum of lengths / n_refs, correctly rounded like Python's int / int
        out[:, 1] = [(u * n // UNITS) / n for u, n in zip(rows[:, 1].tolist(), rows[:, 2].tolist())]
        return out

    def resample_score(self, row):
        """A resample's score from its summed oracle row, with the row's own float type."""
        return self._value(row[0], row[1])

    def signature(self, nrefs: int, sentence: bool = False) -> str:
        case = "mixed" if self.case_sensitive else "lc"
        yes = lambda b: "yes" if b else "no"  # noqa: E731
        return (
            f"nrefs:{nrefs}|case:{case}|tok:tercom|norm:{yes(self.normalized)}"
            f"|punct:{yes(not self.no_punct)}|asian:{yes(self.asian_support)}|version:{sacrebleu_version()}"
        )


def _avg(row: Sequence[int]) -> float:
    """A line's average reference length, the float sacrebleu computes."""
    units, n = int(row[1]), int(row[2])
    if n == 0:
        return 0.0
    return (units * n // UNITS) / n


def _sequential_sum(values: np.ndarray) -> float:
    """Left-to-right float addition (what Python's ``+=`` loop gives)."""
    return float(np.add.accumulate(values)[-1]) if len(values) else 0.0
