"""What every rule reads: one pass's per-line context.

Built once per :meth:`Analyzer.analyse` call; what costs something (the
hypothesis-line facts, token counts, the emptiness mask) is computed on
first use and shared by the rules that need it.
"""

from __future__ import annotations

import math
from functools import cached_property
from itertools import compress, count, repeat
from operator import is_not
from typing import Any, Callable, NamedTuple, Optional, Protocol, Sequence

import numpy as np

from ..findings import Finding


class AnalyzerRole(Protocol):
    """What the rules and their context use of the analyzer
    (:class:`~.analyzer.Analyzer`, which imports the rule modules: they
    see it through this, never through its module)."""

    settings: Any
    tokens: Callable[[str], list]
    workers: Optional[int]
    passes: int
    previous_findings: dict
    rule_state: dict
    norm: Any
    repetition_verdicts: dict
    token_count: Any

    def adequacy_model(self) -> Any: ...

    def language_identifier(self, min_letters: int) -> Any: ...

    def languages(self, hyp: list) -> list: ...

    def leanings(self, hyp: list, ref: list, n: int) -> list: ...

    def marked(self, slot: str) -> list: ...

    def source_tokens(self, source: Sequence[str], n: int) -> int: ...

    def source_issues(self, hyp: list, source: Sequence[str], refs: list) -> list: ...

    def line_facts(self, hyp: list) -> list: ...

    def normalised(self, hyp: list, source: Sequence[str]) -> tuple[list, list]: ...

    def token_counts(self, hyp: list, refs: Sequence[Sequence[str]], n: int) -> tuple[np.ndarray, np.ndarray]: ...

    def kept(self, name: str, n: int, compute: Callable[[int, int], np.ndarray]) -> np.ndarray: ...


#: hypothesis-line facts: an empty line; a plain line (nothing to report);
#: else a tuple of looping candidates ((phrase, run), ...)
EMPTY = ("<empty>",)
PLAIN = ("<plain>",)


class LineContext:
    """The model's paired lines, the settings, and facts shared by rules."""

    def __init__(self, analyzer: AnalyzerRole, model, source: Optional[Sequence[str]], names: dict) -> None:
        self.analyzer = analyzer
        self.settings = analyzer.settings
        self.model = model
        self.metrics = model.metrics
        self.source = source
        self.names = names
        self.n = n = model.n_paired
        self.refs = model.refs
        #: the paired hypothesis lines: the model's own list (not a copy)
        #: when every line is paired; read during the pass only
        self.hyp = model.hyp if len(model.hyp) == n else model.hyp[:n]
        self.tokens: Callable[[str], list] = analyzer.tokens
        #: Finding objects of this pass by key, for reuse by the next one
        self.kept: dict = {}
        #: the lines a line rule reports on in this call: (lo, hi), or None
        #: for every line (set by the analyser before each line rule)
        self.scope: Optional[tuple[int, int]] = None
        #: the lines that changed since the previous pass (None: any), set by the analyser
        self.pass_scope: Optional[tuple[int, int]] = None
        #: this pass's number and the previous one's (rules keeping state check it followed)
        self.passes = analyzer.passes
        self.previous_pass = analyzer.passes - 1
        self._special: dict = {}
        self._source_special: dict = {}
        #: what the pass calls once it is over (a rule's worker processes stopped)
        self.closing: list[Callable[[], None]] = []

    @property
    def span(self) -> tuple[int, int]:
        """The lines [lo, hi) the current rule reports on (all when no scope)."""
        if self.scope is None:
            return 0, self.n
        lo, hi = self.scope
        return max(0, lo), min(self.n, hi)

    def check(self, attribute: str) -> Any:
        """The settings row ``diagnostics.<attribute>`` (a rule's: ``Rule.attribute``) when it
        is switched on, else None."""
        d = self.settings.diagnostics
        c = getattr(d, attribute)
        return c if (d.enabled and c.enabled) else None

    def previous(self, key: tuple) -> Optional[Finding]:
        """The previous pass's finding under ``key`` (same line, same numbers):
        reused rather than built again; pass it (or the new one) to :meth:`keep`."""
        return self.analyzer.previous_findings.get(key)

    def state(self, code: str) -> dict:
        """A rule's own state, kept from pass to pass (dropped with the
        analyser's findings when the settings change)."""
        return self.analyzer.rule_state.setdefault(code, {})

    def text_memo(self, code: str, token: Any) -> dict:
        """A rule's per-line results by text, kept from pass to pass while ``token`` (what they
        depend on besides the line) stays the same, emptied when it grows past
        max(20000, 3 × the lines); kept in the rule's :meth:`state`."""
        state = self.state(code)
        if state.get("token") != token:
            state.clear()
            state["token"] = token
            state["memo"] = {}
        memo: dict = state["memo"]
        if len(memo) > max(20000, 3 * self.n):
            memo.clear()
        return memo

    def keep(self, key: tuple, finding: Finding) -> Finding:
        self.kept[key] = finding
        return finding

    @cached_property
    def ref_lines(self) -> list:
        """Each reference's first ``n`` lines (the model's lists when they have ``n``)."""
        n = self.n
        return [r if len(r) == n else r[:n] for r in self.refs]

    def values(self, key: str, lo: int, hi: int) -> np.ndarray:
        """The scores of lines [lo, hi) (NaN where undefined), read line by
        line when they are few."""
        if hi - lo <= 32:
            value = self.model.line_value
            return np.array([math.nan if v is None else v for v in map(value, repeat(key), range(lo, hi))], dtype=float)
        return np.array(self.model.values(key)[lo:hi], dtype=float)

    @cached_property
    def info(self) -> list:
        """Per line: EMPTY, PLAIN or the looping candidates (see text_rules)."""
        return self.analyzer.line_facts(self.hyp)

    @property
    def special(self) -> list[int]:
        """Lines in :attr:`span` whose facts are not PLAIN (empty, or with
        looping candidates)."""
        lo, hi = self.span
        got = self._special.get((lo, hi))
        if got is None:
            got = self._special[(lo, hi)] = list(compress(count(lo), map(is_not, self.info[lo:hi], repeat(PLAIN))))
        return got

    @cached_property
    def lengths(self) -> tuple[Optional[np.ndarray], Optional[np.ndarray]]:
        """(hypothesis tokens, closest reference tokens) per line, or (None, None)."""
        metrics, d = self.metrics, self.settings.diagnostics
        if not self.refs:  # a file checked without a reference
            return None, None
        if (key := next((k for k, m in metrics.items() if m.ngram_precisions), None)) is not None:
            stats = self.model.stats_array(key)  # BLEU rows: hyp_len, ref_len, …
            return stats[:, 0], stats[:, 1]
        if d.length_ratio.enabled or d.outlier.enabled:
            return self.analyzer.token_counts(self.hyp, self.refs, self.n)
        return None, None

    @cached_property
    def empty(self) -> np.ndarray:
        """Lines with no hypothesis token (no score rule flags them); kept
        by the analyser, computed again on the changed lines only."""
        hl = self.lengths[0]

        def empty(lo: int, hi: int) -> np.ndarray:
            if hl is not None:
                return hl[lo:hi] == 0
            return np.fromiter((x is EMPTY for x in self.info[lo:hi]), dtype=bool, count=hi - lo)

        return self.analyzer.kept("empty", self.n, empty)

    @cached_property
    def normalised(self) -> tuple[list, list]:
        """(hypothesis, source) lines with spaces collapsed and case folded."""
        assert self.source is not None, "the rules that read the source run with one"
        return self.analyzer.normalised(self.hyp, self.source)

    @cached_property
    def _source_values(self) -> list:
        assert self.source is not None, "the rules that read the source run with one"
        return self.analyzer.source_issues(self.hyp, self.source, self.refs)

    @property
    def source_issues(self) -> "SourceIssues":
        """The per-line source checks' issues (needs a source; see source_rules);
        ``special``: the lines in :attr:`span` with at least one."""
        values = self._source_values
        lo, hi = self.span
        got = self._source_special.get((lo, hi))
        if got is None:
            got = self._source_special[(lo, hi)] = list(compress(count(lo), values[lo:hi]))
        return SourceIssues(values, got)


class SourceIssues(NamedTuple):
    #: per line: ((code, Finding), ...)
    values: list
    #: lines (in the rule's span) with at least one issue
    special: list
