"""What every metric of the engine shares: a score record and the metric
contract.

A metric turns one hypothesis line and its reference line(s) into a short
list of integers (its *sufficient statistics*), and turns such a list —
one line's, or the element-wise sum over a corpus — into a score.  The
incremental pair model keeps only those integers per line, so a score from
cached statistics costs about a microsecond and an edit costs the edited
lines.

Beside the arithmetic, a metric class says everything the rest of the
package asks about it: its key, labels and settings section, how it is made
from that section, what it can do (``higher_is_better``,
``ngram_precisions``, ``bootstrap``, ``word_tokens``) and how its scores
are written out (``line_record``, ``text_line``, ``tsv_columns``).  Callers
ask the metric object, never test its key; the metrics and their order are
the table in ``table.py``.
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
    #: The breakdown is BLEU's (counts, totals, precisions, bp, lengths);
    #: else it is ``extra``.  Set by the metrics with ``ngram_precisions``.
    ngram: bool = False

    def as_dict(self) -> dict:
        out: dict = {"score": self.score}
        if not self.ngram:
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
    """The metric contract: statistics extraction, score-from-statistics,
    and what the package reads of a metric (its names, section,
    capabilities and output).  One subclass per metric, in its own module;
    a row of ``table.TABLE`` lists it."""

    # -- who it is ------------------------------------------------------------
    #: its key: in ``build_metrics``'s dict, JSON records, TSV heads, hint
    #: templates (``{bleu}``); every class of one table row shares it
    key: str = ""
    #: the settings section it is made from (``Settings.<section>``)
    section: str = ""
    #: the short label of hints and lenses ("BLEU", "chrF", "TER")
    short: str = ""
    #: display name, e.g. "BLEU", "chrF2", "chrF2++"
    name: str = ""
    #: the values of its section's ``preset`` this class computes (empty:
    #: the section has no preset)
    presets: tuple[str, ...] = ()
    #: number of integers in one line's statistics
    width: int = 0

    # -- what it can do ----------------------------------------------------------
    #: a higher score is the better translation (False: an error rate, TER)
    higher_is_better: bool = True
    #: its scores carry n-gram counts, totals and precisions, a brevity
    #: penalty and the token lengths, and its statistics rows start with
    #: ``[hyp_len, ref_len]`` (BLEU, as sacrebleu or NLTK compute it)
    ngram_precisions: bool = False
    #: sacrebleu's bootstrap (confidence interval, paired test) is defined
    #: for it (not for the NLTK presets)
    bootstrap: bool = True
    #: the text checks may read lines through its ``tokens`` (TER's tercom
    #: tokens are lowercased by default: not offered)
    word_tokens: bool = True

    @classmethod
    def from_section(cls, section: Any) -> Metric:
        """The metric its settings section describes (a dataclass of
        ``settings.py``, or anything with the same fields: see the
        section protocol in the metric's module)."""
        raise NotImplementedError

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

    def resample_score(self, row):
        """A bootstrap resample's score from its summed statistics row
        (float32 sums, as sacrebleu adds them), with sacrebleu's arithmetic."""
        return self.corpus_score([int(x) for x in row]).score

    # -- how its scores are written out (``bleu-ls score``) ------------------------
    def line_record(self, score: Score) -> dict:
        """One line's JSON record (after the line number or segment key)."""
        return score.as_dict()

    def text_line(self, score: Score, value: str, signature: str) -> str:
        """The corpus line of the text report, as sacrebleu prints it;
        ``value``: the score already formatted (with its interval)."""
        return f"{self.name} = {value}  {signature}"

    def text_columns(self) -> str:
        """The head of its columns after the scores in the text report ("": none)."""
        return ""

    def text_cells(self, score: Score) -> str:
        """Its cells after the scores of a line in the text report."""
        return ""

    def tsv_columns(self) -> list[str]:
        """Its columns of the TSV report."""
        return [self.key]

    def tsv_cells(self, score: Score) -> list[str]:
        """A line's (or the corpus's) cells under :meth:`tsv_columns`."""
        return [repr(score.score) if score.score is not None else "nan"]


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
