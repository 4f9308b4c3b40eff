"""What every metric of the engine shares: a score record and the metric seam.

A metric turns one hypothesis line and its reference line(s) into a short
list of integers (its *sufficient statistics*), and turns such a list —
one line's, or the element-wise sum over a corpus — into a score.  The
incremental pair model keeps only those integers per line, so a score from
cached statistics costs about a microsecond and an edit costs the edited
lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, Sequence

import numpy as np


@dataclass
class Score:
    """A score on sacrebleu's 0-100 scale, with its breakdown.

    ``score`` keeps full float precision (an exact match under sacrebleu is
    100.00000000000004).  It is ``None`` only where the reference
    implementation itself refuses to give a number (NLTK's method6 on a
    line with no trigram match raises); ``error`` then says why.
    """

    metric: str
    score: Optional[float]
    counts: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    precisions: list[float] = field(default_factory=list)
    bp: float = 1.0
    sys_len: int = 0
    ref_len: int = 0
    error: Optional[str] = None
    #: chrF: per-order [hyp, ref, match] triples (flattened), F per order.
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out: dict = {"score": self.score}
        if self.metric.startswith("chrF") or self.metric == "TER":
            out.update(self.extra)
        else:
            out.update(
                counts=list(self.counts),
                totals=list(self.totals),
                precisions=list(self.precisions),
                bp=self.bp,
                sys_len=self.sys_len,
                ref_len=self.ref_len,
            )
        if self.error:
            out["error"] = self.error
        return out


class Metric:
    """The seam between statistics extraction and score-from-statistics."""

    #: short key: "bleu" or "chrf"
    key: str = ""
    #: display name, e.g. "BLEU", "chrF2", "chrF2++"
    name: str = ""
    #: number of integers in one line's statistics
    width: int = 0

    def line_stats(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """Statistics of one hypothesis line against its reference line(s)."""
        raise NotImplementedError

    def cheap(self, hyp: str, refs: Sequence[str]) -> bool:
        """Whether ``line_stats(hyp, refs)`` is cheap enough to count inside
        an edit (well under a millisecond or two).  The pair model, when it
        defers slow lines, leaves the others to be counted in the background."""
        return True

    def sentence_score(self, stats: Sequence[int]) -> Score:
        """The per-line score (sacrebleu's sentence_* semantics)."""
        raise NotImplementedError

    def corpus_score(self, totals: Sequence[int], last: Optional[Sequence[int]] = None) -> Score:
        """The corpus score from summed statistics.

        ``last`` is the statistics row of the last line: NLTK's corpus-level
        smoothing looks at the last sentence pair (a quirk kept on purpose).
        """
        raise NotImplementedError

    def signature(self, nrefs: int, sentence: bool = False) -> str:
        raise NotImplementedError

    def batch_stats(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        """Statistics rows (lines x width) of many lines at once, the rows
        ``line_stats`` gives; metrics with a vectorised counter override it."""
        rows = [self.line_stats(h, list(rs)) for h, *rs in zip(hyp, *refs)]
        return np.array(rows, dtype=np.int64).reshape(len(hyp), self.width)

    def batch_scores(self, stats: np.ndarray) -> np.ndarray:
        """Per-line scores of statistics rows (NaN where undefined), the
        floats ``sentence_score`` gives."""
        rows = stats.tolist()
        out = np.empty(len(rows), dtype=np.float64)
        for i, r in enumerate(rows):
            s = self.sentence_score(r).score
            out[i] = math.nan if s is None else s
        return out

    def tokens(self, line: str) -> list[str]:
        """The tokens this metric counts in ``line`` (for hover and checks)."""
        return line.split()


# -- what the vectorised counters (ngrams.py, batch_stats.py) read of a metric:
#    they see a metric through these, so they import no metric module


class BleuLike(Protocol):
    max_order: int
    lowercase: bool
    tokenize_name: str
    tokenizer: Any  # sacrebleu's tokenizer of that name


class NltkLike(Protocol):
    lowercase: bool
    n: int
    method: int


class ChrfLike(Protocol):
    lowercase: bool
    whitespace: bool
    char_order: int
    word_order: int

    def f_score(self, stats: Sequence[int]) -> float: ...
