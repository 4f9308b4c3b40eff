"""The pair model's expensive lines (see ``PairModel``): which lines an edit
leaves stale (``is_heavy``, ``is_long``), and the jobs that count them
elsewhere (``line_job``, ``install_lines``).  A base class of ``PairModel``
kept apart to keep each module short; it reads the model's rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Optional, Sequence

import numpy as np

from .base import Metric
from .pair_parts import LineJob


class HeavyLines:
    """Expensive-line methods of :class:`~bleu_ls.engine.pair.PairModel`."""

    long_line_bytes: Optional[int]
    defer_slow: bool
    # the model's lines and rows, as PairModel keeps them
    metrics: dict[str, Metric]
    hyp: list[str]
    refs: list[list[str]]
    version: int
    _fresh: np.ndarray
    _stats: dict[str, np.ndarray]
    _scores: dict[str, np.ndarray]
    _totals: dict[str, np.ndarray]

    if TYPE_CHECKING:

        @property
        def n_hyp(self) -> int: ...

        @property
        def n_paired(self) -> int: ...

        def ref_lines(self, i: int) -> list[str]: ...

    def _over_cap(self, text: str) -> bool:
        cap = self.long_line_bytes
        if cap is None or len(text) * 4 <= cap:
            return False
        return len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap

    def is_long(self, i: int) -> bool:
        """Line ``i`` (hypothesis or a reference) is over ``long_line_bytes``."""
        if self.long_line_bytes is None or not 0 <= i < self.n_hyp:
            return False
        return self._over_cap(self.hyp[i]) or any(i < len(r) and self._over_cap(r[i]) for r in self.refs)

    def is_heavy(self, i: int) -> bool:
        """Line ``i`` is not counted by edits or ``ensure``: it is long, or
        (with ``defer_slow``) a metric says its count is not cheap."""
        if self.is_long(i):
            return True
        if not self.defer_slow or not 0 <= i < self.n_paired:
            return False
        hyp, refs = self.hyp[i], self.ref_lines(i)
        return any(not m.cheap(hyp, refs) for m in self.metrics.values())

    def stale_lines(self, limit: Optional[int] = None) -> list[int]:
        """The first ``limit`` stale paired lines (all when None), in order."""
        stale = np.flatnonzero(~self._fresh[: self.n_paired])
        return (stale if limit is None else stale[:limit]).tolist()

    def line_job(self, lines: Sequence[int]) -> LineJob:
        """A job counting ``lines`` elsewhere (see ``LineJob``)."""
        lines = tuple(int(i) for i in lines if 0 <= i < self.n_paired)
        return LineJob(
            lines,
            tuple(self.hyp[i] for i in lines),
            tuple(tuple(self.ref_lines(i)) for i in lines),
            dict(self.metrics),
            self.version,
        )

    def install_lines(self, job: LineJob, result: Mapping[str, Sequence[tuple[Sequence[int], float]]]) -> int:
        """Install the rows ``job.run()`` gave for the lines that are still
        stale and whose hypothesis and reference text still equal the job's;
        returns how many were installed.  Keeps the totals invariant."""
        if self.metrics.keys() != job.metrics.keys() or any(m is not job.metrics[k] for k, m in self.metrics.items()):
            return 0
        n = self.n_paired
        done = 0
        for pos, (i, hyp, refs) in enumerate(zip(job.lines, job.hyp, job.refs)):
            if i >= n or self._fresh[i] or self.hyp[i] != hyp or tuple(self.ref_lines(i)) != refs:
                continue
            for key, rows in result.items():
                row, score = rows[pos]
                self._stats[key][i] = row
                self._scores[key][i] = score
                self._totals[key] += self._stats[key][i]
            self._fresh[i] = True
            done += 1
        return done
