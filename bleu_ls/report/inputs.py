"""What a report is made from: scored pairs that share their references."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..engine import PairModel
from ..config.settings import Settings


@dataclass
class System:
    """One system's scored pair.  ``findings``: diagnostics the caller already
    has (the server's); None runs :class:`bleu_ls.qa.analysis.Analyzer`."""

    name: str
    model: PairModel
    path: Optional[str] = None
    findings: Optional[list] = None


@dataclass
class Options:
    bootstrap: int = 1000  # resamples for intervals and the paired test (0: none)
    seed: Optional[int] = None  # None: sacrebleu's (SACREBLEU_SEED or 12345)
    top_lines: int = 10  # lines per line-level list
    top_ngrams: int = 15  # rows per n-gram table
    ngram_lines: int = 5000  # n-gram tables look at most this many lines (evenly spaced)
    line_scores_cells: int = 400_000  # per-line scores go into the data block up to systems x lines
    flag_examples: int = 30  # findings listed per system
    bucket_edges: tuple = (10, 20, 30, 40, 50, 60)  # reference words (compare-mt's defaults)


@dataclass
class ReportInput:
    systems: list
    references: list  # display names of the reference files
    source: Optional[list] = None
    source_name: Optional[str] = None
    draft: Optional[list] = None
    draft_name: Optional[str] = None
    settings: Settings = field(default_factory=Settings)
    title: str = "bleu-ls report"
    options: Options = field(default_factory=Options)
    #: Segment files (PO, XLIFF…): each row's 1-based line in the first hypothesis file and its key
    #: (None: line files, row i is line i + 1).
    line_numbers: Optional[list] = None
    keys: Optional[list] = None
    #: processes the analysis of a system may use (the term scan in worker processes; None: one
    #: per core, ``bleu-ls report``'s default; 1: this one, as in the server)
    workers: Optional[int] = 1

    def check(self) -> None:
        """Raise ValueError (one sentence) when the pairs cannot share a report."""
        if not self.systems:
            raise ValueError("a report needs at least one system")
        first = self.systems[0].model
        n = first.n_paired
        if first.n_hyp != n:
            raise ValueError(f"{self.systems[0].name} has {first.n_hyp} lines but its references {n}")
        for s in self.systems[1:]:
            m = s.model
            if list(m.metrics) != list(first.metrics):
                raise ValueError(f"{s.name} is scored with other metrics than {self.systems[0].name}")
            if m.n_hyp != n or m.n_paired != n:
                raise ValueError(f"{s.name} has {m.n_hyp} lines, {self.systems[0].name} {n}")
        for what, lines in (("source", self.source), ("draft", self.draft)):
            if lines is not None and len(lines) != n:
                raise ValueError(f"the {what} has {len(lines)} lines, the hypotheses {n}")
