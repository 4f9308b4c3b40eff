"""The incremental pair model: hypothesis lines, reference line lists, and
per-line sufficient statistics with running corpus totals.

Hypothesis line i pairs with line i of every reference (index alignment, as
a translator sees the files side by side).  Per line the model keeps only
integers (one statistics row per metric) and the line's score; no n-gram
tables.  What an edit costs:

* replacing lines in place (typing, the common case): those lines are
  re-tokenized and re-counted, and the corpus totals are adjusted by the
  difference: O(changed lines);
* inserting or deleting lines: the changed lines are counted at once; the
  lines after them now pair with other reference lines, so their rows are
  marked stale (one vectorised subtraction from the totals, no Python loop
  over the document) and recounted lazily — at once for what is looked at
  (``ensure``), in slices in the background (``refresh``), or all before a
  corpus score is given.

Expensive lines.  A model built with ``defer_slow=True`` and/or
``long_line_bytes`` never counts an expensive line inside an edit: a line
is *heavy* when one of its metrics says its count is not cheap
(``Metric.cheap``: TER of a long line costs tens of milliseconds) or when
the hypothesis or a reference line is longer than ``long_line_bytes``
(UTF-8).  An edit leaves heavy lines stale, ``ensure`` skips them, and the
owner of the model finishes them elsewhere: ``line_job`` copies what they
need, ``LineJob.run`` counts them in any thread or process, and
``install_lines`` takes back the rows of the lines unchanged meanwhile.
The numbers do not depend on where a row was counted.

Invariant: ``totals[m]`` is the sum of the rows that are fresh; a fresh row
is always a paired line (index < ``n_paired``).
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping, Optional, Sequence

import numpy as np

from .base import Metric, Score
from .pair_heavy import HeavyLines
from .pair_parts import EditLog, LineJob, PairSnapshot, common_splice, common_tail

__all__ = ["PairModel", "PairSnapshot", "LineJob", "common_splice", "common_tail"]


def _norm(lines: Iterable[str]) -> list[str]:
    return [line.rstrip() for line in lines]


class PairModel(HeavyLines):
    """Hypothesis + references + per-line statistics, kept up to date by splices."""

    def __init__(
        self,
        metrics: Mapping[str, Metric],
        hyp: Sequence[str] = (),
        refs: Sequence[Sequence[str]] = ((),),
        *,
        lazy: bool = False,
        normalized: bool = False,
        defer_slow: bool = False,
        long_line_bytes: Optional[int] = None,
    ) -> None:
        """``normalized``: the lines are right-stripped already, and the
        lists (new ones, not shared with the caller) are taken as they are."""
        if not refs:
            raise ValueError("a pair needs at least one reference")
        #: leave lines whose count a metric says is not cheap to ``line_job``
        self.defer_slow = defer_slow
        #: lines longer than this (UTF-8 bytes, hypothesis or a reference) are
        #: never counted by an edit or ``ensure`` (None: no cap)
        self.long_line_bytes = long_line_bytes
        self.metrics: dict[str, Metric] = dict(metrics)
        #: counts changes of the references (any splice, reload or new set)
        self.ref_version = 0
        self.hyp: list[str] = hyp if normalized else _norm(hyp)  # type: ignore[assignment]
        self.refs: list[list[str]] = list(refs) if normalized else [_norm(r) for r in refs]  # type: ignore[arg-type]
        self.version = 0
        #: the splices since (see ``EditLog``): what a reader of the model follows
        self.edits = EditLog(0)
        #: shared by this model and its copies made with ``follow``: a reader
        #: that read such a copy at version v follows this model from v on
        #: (its edit log tells what changed since)
        self.lineage = object()
        self._alloc()
        if not lazy:
            self.refresh(light_only=True)

    @classmethod
    def from_lines(
        cls,
        metrics: Mapping[str, Metric],
        hyp: Sequence[str],
        refs: Sequence[Sequence[str]],
        *,
        workers: Optional[int] = None,
        start_method: Optional[str] = None,
    ) -> "PairModel":
        """A model with every paired line scored by the fast batch pass.

        Same numbers as ``PairModel(metrics, hyp, refs)``, computed with the
        vectorised counter of ``batch.first_pass``; ``workers`` processes
        (None: all CPUs for large inputs, 1: this process only).
        """
        model = cls(metrics, hyp, refs, lazy=True)
        model.full_pass(workers=workers, start_method=start_method)
        return model

    def full_pass(
        self, *, workers: Optional[int] = None, start_method: Optional[str] = None, render: Optional[Callable] = None
    ) -> dict[str, list]:
        """Score every stale paired line at once with the batch pass; per
        metric key, what ``render`` made of each chunk's rows where they were
        counted, in line order (see ``batch.first_pass_with``)."""
        from .batch import first_pass_with

        snap = self.snapshot()
        result, made = first_pass_with(
            snap.metrics, snap.hyp, snap.refs, workers=workers, start_method=start_method, render=render
        )
        self.install(result, snap)
        return made

    def copy(self, follow: bool = False) -> "PairModel":
        """An independent copy — lines, rows, scores and totals — to read elsewhere
        (another thread) while this model goes on taking edits.  ``follow``:
        the copy is only read, so a reader of the copy may go on to this model
        (the same ``lineage``; a copy that is edited must not share it)."""
        other = PairModel(
            self.metrics, lazy=True, defer_slow=self.defer_slow, long_line_bytes=self.long_line_bytes
        )
        other.hyp = list(self.hyp)
        other.refs = [list(r) for r in self.refs]
        other.version = self.version
        other.edits = EditLog(self.version)
        if follow:
            other.lineage = self.lineage
        other.ref_version = self.ref_version
        other._fresh = self._fresh.copy()
        other._stats = {k: v.copy() for k, v in self._stats.items()}
        other._scores = {k: v.copy() for k, v in self._scores.items()}
        other._totals = {k: v.copy() for k, v in self._totals.items()}
        return other

    def snapshot(self) -> PairSnapshot:
        """A frozen copy of the lines, references, metrics and version."""
        return PairSnapshot(list(self.hyp), [list(r) for r in self.refs], dict(self.metrics), self.version)

    def install(self, result: Mapping[str, tuple[np.ndarray, np.ndarray]], snap: PairSnapshot) -> int:
        """Install batch-pass rows computed on ``snap`` for the stale lines
        whose text still equals the snapshot's (all of them when the model
        did not change since).  ``result`` maps a metric key to its
        (statistics rows, scores) as ``batch.first_pass`` returns them.

        Keeps the invariant: the corpus totals are the sum of the fresh rows.
        Returns how many lines were installed.
        """
        return self.install_range(result, snap, 0, len(snap.hyp))

    def install_range(
        self, result: Mapping[str, tuple[np.ndarray, np.ndarray]], snap: PairSnapshot, start: int, end: int
    ) -> int:
        """``install`` restricted to the lines in [start, end): a large pass
        is installed in slices, its owner letting edits in between (each
        slice checks the lines against the snapshot as ``install`` does)."""
        if self.metrics.keys() != snap.metrics.keys() or any(
            m is not snap.metrics[k] for k, m in self.metrics.items()
        ):
            return 0  # the metrics changed meanwhile: the rows are of other metrics
        start = max(start, 0)
        end = min(end, self.n_paired, len(snap.hyp), *(len(r) for r in snap.refs))
        if start >= end:
            return 0
        stale = np.flatnonzero(~self._fresh[start:end]) + start
        if self.version != snap.version and not (
            self.hyp[start:end] == snap.hyp[start:end]  # the usual case, compared in C
            and all(r[start:end] == s[start:end] for r, s in zip(self.refs, snap.refs))
        ):
            hyp, refs = self.hyp, self.refs
            same = [
                i
                for i in stale.tolist()
                if hyp[i] == snap.hyp[i] and all(r[i] == s[i] for r, s in zip(refs, snap.refs))
            ]
            stale = np.array(same, dtype=np.int64)
        if not len(stale):
            return 0
        if len(stale) == end - start:
            stale = slice(start, end)  # type: ignore[assignment]  # every line: copy the block
        for key, (stats, scores) in result.items():
            rows = stats[stale]
            self._stats[key][stale] = rows
            self._scores[key][stale] = scores[stale]
            self._totals[key] += rows.sum(axis=0, dtype=np.int64)
        self._fresh[stale] = True
        return end - start if isinstance(stale, slice) else int(len(stale))

    # -- shape ---------------------------------------------------------------
    @property
    def n_hyp(self) -> int:
        return len(self.hyp)

    @property
    def n_refs(self) -> int:
        return len(self.refs)

    @property
    def n_paired(self) -> int:
        return min(len(self.hyp), *(len(r) for r in self.refs))

    def ref_lines(self, i: int) -> list[str]:
        return [r[i] for r in self.refs]

    def _alloc(self) -> None:
        n = len(self.hyp)
        self._fresh = np.zeros(n, dtype=bool)
        self._stats = {k: np.zeros((n, m.width), dtype=np.int64) for k, m in self.metrics.items()}
        self._scores = {k: np.full(n, np.nan) for k in self.metrics}
        self._totals = {k: np.zeros(m.width, dtype=np.int64) for k, m in self.metrics.items()}

    def set_metrics(self, metrics: Mapping[str, Metric]) -> None:
        """Switch metrics (settings changed): every row is recounted lazily."""
        self.metrics = dict(metrics)
        self._alloc()
        self.version += 1
        self.edits.reset(self.version)

    # -- counting ------------------------------------------------------------
    def _compute(self, i: int) -> None:
        hyp = self.hyp[i]
        refs = [r[i] for r in self.refs]
        was_fresh = self._fresh[i]
        for key, metric in self.metrics.items():
            row = metric.line_stats(hyp, refs)
            stats = self._stats[key]
            if was_fresh:
                self._totals[key] -= stats[i]
            stats[i] = row
            self._totals[key] += stats[i]
            score = metric.sentence_score(row).score
            self._scores[key][i] = math.nan if score is None else score
        self._fresh[i] = True

    def _unfresh(self, i: int) -> None:
        """Mark row ``i`` stale, taking it out of the totals."""
        if self._fresh[i]:
            for key in self.metrics:
                self._totals[key] -= self._stats[key][i]
            self._fresh[i] = False

    def _unfresh_from(self, start: int) -> None:
        """Mark rows [start, n_paired) stale, taking them out of the totals."""
        stop = self.n_paired
        if start >= stop:
            return
        mask = self._fresh[start:stop]
        if mask.any():
            for key in self.metrics:
                self._totals[key] -= self._stats[key][start:stop][mask].sum(axis=0)
            self._fresh[start:stop] = False

    def scored_mask(self, start: int, end: int) -> np.ndarray:
        """Which lines in [start, end) have a fresh row (read-only copy)."""
        mask = self._fresh[max(start, 0) : max(end, 0)].copy()
        mask.flags.writeable = False
        return mask

    def row_keys(self, start: int, end: int) -> list[bytes]:
        """Per line in [start, end): its statistics rows (every metric) as
        bytes.  A line's scores and breakdown are functions of these rows
        alone: equal keys, equal scores (what renders them may cache by it)."""
        rows = [self._stats[k][max(start, 0) : max(end, 0)] for k in self.metrics]
        if not rows:
            return [b""] * len(self._fresh[max(start, 0) : max(end, 0)])
        block = rows[0] if len(rows) == 1 else np.hstack(rows)
        return [r.tobytes() for r in block]

    def stale_count(self) -> int:
        p = self.n_paired
        return int(p - np.count_nonzero(self._fresh[:p]))

    def ensure(self, start: int, end: int) -> int:
        """Count the stale paired lines in [start, end) that are not heavy
        (see ``is_heavy``); returns how many were counted."""
        end = min(end, self.n_paired)
        start = max(start, 0)
        if start >= end:
            return 0
        stale = np.flatnonzero(~self._fresh[start:end])
        done = 0
        for j in stale.tolist():
            if not self.is_heavy(start + j):
                self._compute(start + j)
                done += 1
        return done

    def refresh(self, max_lines: Optional[int] = None, *, light_only: bool = False) -> int:
        """Count up to ``max_lines`` stale lines (all when None) — with
        ``light_only``, only lines that are not heavy, among the first
        ``4 * max_lines`` stale ones; returns how many lines stay stale
        (heavy ones included)."""
        p = self.n_paired
        stale = np.flatnonzero(~self._fresh[:p])
        if max_lines is not None and light_only:
            stale_n, stale = len(stale), stale[: 4 * max_lines]  # look at a bounded number of lines
        else:
            stale_n = len(stale)
        done = 0
        for j in stale.tolist():
            if max_lines is not None and done >= max_lines:
                break
            if light_only and self.is_heavy(j):
                continue
            self._compute(j)
            done += 1
        return stale_n - done

    # -- edits ---------------------------------------------------------------
    def splice_hyp(self, start: int, end: int, lines: Sequence[str]) -> None:
        """Replace hypothesis lines [start, end) with ``lines``."""
        self._splice(None, start, end, _norm(lines))

    def splice_ref(self, k: int, start: int, end: int, lines: Sequence[str]) -> None:
        """Replace lines [start, end) of reference ``k`` with ``lines``."""
        self._splice(k, start, end, _norm(lines))

    def set_hyp(self, lines: Sequence[str]) -> None:
        """Replace the whole hypothesis, splicing only what differs."""
        start, end, new = common_splice(self.hyp, _norm(lines))
        if new or start != end:
            self._splice(None, start, end, new)

    def set_ref(self, k: int, lines: Sequence[str]) -> None:
        """Replace reference ``k`` (reloaded from disk), splicing only what differs."""
        start, end, new = common_splice(self.refs[k], _norm(lines))
        if new or start != end:
            self._splice(k, start, end, new)

    def set_refs(self, refs: Sequence[Sequence[str]]) -> None:
        """Replace the whole reference set (number of references may change)."""
        if len(refs) == len(self.refs):
            for k, r in enumerate(refs):
                self.set_ref(k, r)
            return
        if not refs:
            raise ValueError("a pair needs at least one reference")
        self._unfresh_from(0)
        self.refs = [_norm(r) for r in refs]
        self.version += 1
        self.ref_version += 1
        self.edits.reset(self.version)

    def _splice(self, k: Optional[int], start: int, end: int, lines: list[str]) -> None:
        target = self.hyp if k is None else self.refs[k]
        n = len(target)
        if not (0 <= start <= end <= n):
            raise IndexError(f"splice [{start}, {end}) outside 0..{n}")
        self.version += 1
        self.edits.add(self.version, k, start, end, len(lines))
        if k is not None:
            self.ref_version += 1
        if len(lines) == end - start:
            target[start:end] = lines
            paired_end = min(end, self.n_paired)
            for i in range(start, paired_end):
                if self.is_heavy(i):
                    self._unfresh(i)
                else:
                    self._compute(i)
            return
        # The pairing of every line from `start` on changes.
        self._unfresh_from(start)
        target[start:end] = lines
        if k is None:
            width = len(lines)
            keep_a, keep_b = slice(0, start), slice(end, None)
            self._fresh = np.concatenate((self._fresh[keep_a], np.zeros(width, bool), self._fresh[keep_b]))
            self._fresh[start:] = False
            for key, metric in self.metrics.items():
                st = self._stats[key]
                self._stats[key] = np.concatenate(
                    (st[keep_a], np.zeros((width, metric.width), np.int64), st[keep_b])
                )
                sc = self._scores[key]
                self._scores[key] = np.concatenate((sc[keep_a], np.full(width, np.nan), sc[keep_b]))
            first_changed, last_changed = start, start + width
        else:
            first_changed, last_changed = start, start + len(lines)
        self.ensure(first_changed, last_changed)

    # -- scores --------------------------------------------------------------
    def _ready(self, key: str, i: int) -> bool:
        """Line ``i`` is paired, ``key`` is a metric, and its row is fresh (counted now if stale)."""
        if key not in self.metrics or not 0 <= i < self.n_paired:
            return False
        if not self._fresh[i]:
            self._compute(i)
        return True

    def line_score(self, key: str, i: int) -> Optional[Score]:
        """The line's score with its breakdown, or None when the line is unpaired.

        A stale row is counted now, a heavy one too: where waiting matters,
        look at ``scored_mask`` / ``is_heavy`` first."""
        if not self._ready(key, i):
            return None
        return self.metrics[key].sentence_score(self._stats[key][i].tolist())

    def line_stats(self, key: str, i: int) -> Optional[list[int]]:
        if not self._ready(key, i):
            return None
        return self._stats[key][i].tolist()

    def line_value(self, key: str, i: int) -> Optional[float]:
        """The line's score as a float (None: unpaired, or undefined)."""
        if not self._ready(key, i):
            return None
        v = float(self._scores[key][i])
        return None if math.isnan(v) else v

    def values(self, key: str) -> np.ndarray:
        """Per-line scores of all paired lines (NaN where undefined)."""
        self.refresh()
        return self._scores[key][: self.n_paired]

    def stats_array(self, key: str) -> np.ndarray:
        """The statistics rows of all paired lines (read-only view, all fresh)."""
        self.refresh()
        view = self._stats[key][: self.n_paired]
        view.flags.writeable = False
        return view

    def totals(self, key: str) -> list[int]:
        self.refresh()
        return self._totals[key].tolist()

    def corpus(self, key: str) -> Score:
        """The corpus score over the paired lines."""
        self.refresh()
        p = self.n_paired
        last = self._stats[key][p - 1].tolist() if p else None
        from_rows = getattr(self.metrics[key], "corpus_from_rows", None)
        if from_rows is not None:  # TER: sacrebleu adds per-line floats in order
            return from_rows(self._stats[key][:p])
        return self.metrics[key].corpus_score(self._totals[key].tolist(), last)
