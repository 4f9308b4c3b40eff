"""The parts of the pair model that travel: the smallest splice between two
line lists, the snapshot a batch pass scores, and the job that counts some
lines in another thread or process (``PairModel.line_job`` /
``install_lines``)."""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from typing import Optional
from typing import Sequence

from .base import Metric


def common_splice(old: Sequence[str], new: Sequence[str], block: int = 512) -> tuple[int, int, list[str]]:
    """The smallest (start, end, lines) with old[:start] + lines + old[end:] == new.

    The common head and tail are first compared ``block`` lines at a time
    (slice equality runs in C, and lines shared by both lists compare by
    identity), then line by line: ~30 ms -> ~2 ms at 100k lines.
    """
    n_old, n_new = len(old), len(new)
    limit = min(n_old, n_new)
    start = 0
    while start + block <= limit and old[start : start + block] == new[start : start + block]:
        start += block
    while start < limit and old[start] == new[start]:
        start += 1
    tail = common_tail(old, new, limit - start, block)
    return start, n_old - tail, list(new[start : n_new - tail])


def common_tail(old: Sequence, new: Sequence, limit: int, block: int = 512) -> int:
    """How many lines ``old`` and ``new`` share at their ends, ``limit`` at
    most (compared as in :func:`common_splice`)."""
    n_old, n_new = len(old), len(new)
    tail = 0
    while tail + block <= limit and old[n_old - tail - block : n_old - tail] == new[n_new - tail - block : n_new - tail]:
        tail += block
    while tail < limit and old[n_old - tail - 1] == new[n_new - tail - 1]:
        tail += 1
    return tail


class EditLog:
    """A model's splices, so a reader that saw version ``v`` learns what
    changed since without comparing the lines: entries (version after the
    splice, k (None: the hypothesis), start, end, lines put in), complete
    from version ``base`` on (older entries are dropped past ``LIMIT``)."""

    LIMIT = 4096

    def __init__(self, version: int = 0) -> None:
        self.base = version
        self.entries: list[tuple] = []

    def add(self, version: int, k: Optional[int], start: int, end: int, count: int) -> None:
        entries = self.entries
        entries.append((version, k, start, end, count))
        if len(entries) > self.LIMIT:
            drop = len(entries) // 2
            self.base = entries[drop - 1][0]
            del entries[:drop]

    def reset(self, version: int) -> None:
        """Every line may have changed at ``version`` (new references, metrics)."""
        self.base = version
        self.entries = []

    def since(self, version: int) -> Optional[list[tuple]]:
        """The splices after ``version``, oldest first; None when the log does
        not reach back that far."""
        if version < self.base:
            return None
        return self.entries[bisect_right(self.entries, version, key=lambda e: e[0]) :]


@dataclass(frozen=True)
class LineJob:
    """Some lines of a model to count elsewhere (another thread or process).

    ``run()`` is a pure function of the copied texts and metrics (the job
    pickles), and ``PairModel.install_lines`` takes its rows back.
    """

    lines: tuple[int, ...]
    hyp: tuple[str, ...]
    refs: tuple[tuple[str, ...], ...]
    metrics: dict
    version: int

    def run(self) -> dict[str, list[tuple[list[int], float]]]:
        """Per metric key, per line of the job: (statistics row, score)."""
        out: dict[str, list[tuple[list[int], float]]] = {}
        for key, metric in self.metrics.items():
            rows = []
            for hyp, refs in zip(self.hyp, self.refs):
                row = metric.line_stats(hyp, list(refs))
                score = metric.sentence_score(row).score
                rows.append((list(row), math.nan if score is None else score))
            out[key] = rows
        return out


@dataclass(frozen=True)
class PairSnapshot:
    """What a batch pass needs, copied from a model at one version.

    The batch pass (``batch.first_pass(snap.metrics, snap.hyp, snap.refs)``)
    may run elsewhere while the model is edited; ``PairModel.install`` then
    takes back the rows of the lines that did not change meanwhile.
    """

    hyp: list[str]
    refs: list[list[str]]
    metrics: dict[str, Metric]
    version: int
