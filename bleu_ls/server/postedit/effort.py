"""Post-editing effort against the draft, kept up to date by edits.

Per current line: HTER, the TER of its draft line (hypothesis) against the
line as it is now (reference), with the alignment's word edits.  A line
inserted since the draft has an empty draft line: every word of it is an
insertion.  Draft lines deleted since count nothing (there is no current
line to measure against).

Rows are integers like the pair model's (``[edits, ref words * UNITS, 1]``)
plus the four edit kinds, with running sums: an edit recounts the edited
lines only, in the background pass (:meth:`EffortRows.fill`) that also counts
the document when it is opened — never on the edit path itself, and a line
expensive to align (``TerMetric.cheap``) never on the event loop: it is
aligned in a worker thread.  Many lines at once go through the engine's TER
batch in worker processes (:data:`BATCH_LINES`).  The numbers are the engine's
TER with ``case_sensitive`` as set (sacrebleu's ``TER(case_sensitive=True)``
by default).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Optional, Sequence

import numpy as np

from ...engine.ter import UNITS, TerMetric
from ...postedit import DraftTrack
from ...postedit.track import NONE
from ..background import pools

log = logging.getLogger(__name__)

KINDS = ("insertions", "deletions", "substitutions", "shifts")
#: Lines longer than this (words, either side) are not aligned live: TER's
#: search on a 150,000-word line takes minutes and gigabytes.  Such a line
#: counts no edits and the hover says why.
MAX_ALIGN_WORDS = 2000
#: at least this many lines to count go through the engine's TER batch in
#: worker processes (every core) before the slices count the rest
BATCH_LINES = 2000
#: lines expensive to align, aligned together in one worker-thread job
HEAVY_JOB = 16
#: background fill: one slice, then a real pause (seconds), as the scorer does
SLICE_SECONDS = 0.005
PAUSE_SECONDS = 0.002
#: rows a slice of the batch's install takes (the check that each line and
#: its draft line are still the job's): ~1 ms at 1M lines; slices of 5,000
#: took 6-21 ms each on the event loop for ~1.5 s after a 1M-line HTER pass
#: (hint requests meanwhile p95 ~13 ms)
INSTALL_STEP = 1000


#: an edit's few lines (at most QUIET_LINES stale) are counted once the
#: document has had no edit for EDIT_QUIET seconds: not between the edit and
#: the editor's next request (the inlay hints it asks for at once), where
#: their TER would only delay the answer; what needs a row before that counts
#: it on demand (:meth:`EffortRows.line`, :meth:`EffortRows.corpus`)
EDIT_QUIET = 0.05
QUIET_LINES = 32

#: a draft line and current line longer than this together (characters) are
#: counted in a worker thread (even splitting them into words takes long)
LONG_CHARS = 200_000


def row_for(metric: TerMetric, draft: str, line: str) -> tuple[list[int], bool]:
    """The HTER row of ``line`` against its draft line, and whether the line
    is too long to align (``MAX_ALIGN_WORDS``: no edits counted)."""
    if draft != line and max(len(draft.split()), len(line.split())) > MAX_ALIGN_WORDS:
        return [0, len(metric.tokens(line)) * UNITS, 1, 0, 0, 0, 0], True
    if draft == line:  # unchanged: no edits (most lines of a fresh post-edit)
        return [0, len(metric.tokens(line)) * UNITS, 1, 0, 0, 0, 0], False
    (r,) = metric.alignments(draft, [line])
    return [r.edits, r.ref_len * UNITS, 1, r.insertions, r.deletions, r.substitutions, r.shifts], False


def rows_for(metric: TerMetric, drafts: Sequence[str], lines: Sequence[str]) -> list[tuple[list[int], bool]]:
    """``row_for`` of each (draft line, line)."""
    return [row_for(metric, d, x) for d, x in zip(drafts, lines)]


def job_from(snapshot: tuple) -> tuple[list[int], list[str], list[str]]:
    """:meth:`EffortRows.batch_job` of a :meth:`EffortRows.batch_snapshot`."""
    stale, draft_lines, partner, current = snapshot
    idx, drafts, lines = [], [], []
    for i in stale.tolist():
        p = int(partner[i])
        draft, line = (draft_lines[p] if p != NONE else "") or "", current[i]
        if draft != line and max(len(draft.split()), len(line.split())) > MAX_ALIGN_WORDS:
            continue
        idx.append(i)
        drafts.append(draft)
        lines.append(line)
    return idx, drafts, lines


def result_rows(results) -> np.ndarray:
    """HTER rows (n × 7) of alignments: ``TerResult`` per line, or the
    array of :func:`~bleu_ls.engine.ter_batch.ter_alignment_rows` (the same
    numbers in ``TerResult``'s column order), column by column."""
    a = np.asarray(results, dtype=np.float64).reshape(-1, 6)
    edits, ref_len, shifts, ins, dels, subs = a.T
    out = np.empty((len(a), 7), dtype=np.int64)
    for k, col in enumerate((edits, ref_len * UNITS, 1, ins, dels, subs, shifts)):
        out[:, k] = col  # a float column cast as the row lists were: truncated
    return out


class EffortRows:
    """HTER rows of every current line of one document."""

    def __init__(self, metric: TerMetric, track: DraftTrack, lines: Sequence[str]) -> None:
        self.metric = metric
        self.track = track
        self.lines: list[str] = list(lines)
        n = len(self.lines)
        #: per line: edits, ref units, 1 (the TER row), insertions, deletions, substitutions, shifts
        self.rows = np.zeros((n, 7), dtype=np.int64)
        self.fresh = np.zeros(n, dtype=bool)
        self.totals = np.zeros(7, dtype=np.int64)
        self.version = 0
        #: lines left unaligned because they are too long (MAX_ALIGN_WORDS)
        self.too_long: set[int] = set()

    # -- counting ---------------------------------------------------------------
    def draft_of(self, i: int) -> str:
        return self.track.draft_line(i) or ""


    def _set(self, i: int, row: Sequence[int]) -> None:
        if self.fresh[i]:
            self.totals -= self.rows[i]
        self.rows[i] = row
        self.totals += self.rows[i]
        self.fresh[i] = True

    def compute(self, i: int) -> None:
        self._put(i, row_for(self.metric, self.draft_of(i), self.lines[i]))

    def _put(self, i: int, counted: tuple[list[int], bool]) -> None:
        row, too_long = counted
        if too_long:
            self.too_long.add(i)
        else:
            self.too_long.discard(i)
        self._set(i, row)

    def ensure(self, start: int, end: int) -> None:
        for i in range(max(0, start), min(end, len(self.lines))):
            if not self.fresh[i]:
                self.compute(i)

    def first_stale(self) -> int:
        """The first line not counted (the line count when none): where the
        background fill starts, rather than walking up from line 0 to the
        edited line of a 1M-line document after every edit."""
        stale = ~self.fresh
        return int(np.argmax(stale)) if stale.any() else len(self.fresh)

    def stale_count(self) -> int:
        return int(len(self.fresh) - np.count_nonzero(self.fresh))

    # -- edits ------------------------------------------------------------------
    def splice(self, start: int, end: int, lines: Sequence[str]) -> None:
        """Current lines [start, end) became ``lines`` (the track was spliced
        already): drop their rows; the new ones are counted by the background
        fill (or on demand by :meth:`line`), off the edit path."""
        shift = len(lines) - (end - start)
        self.too_long = {j if j < start else j + shift for j in self.too_long if j < start or j >= end}
        old = self.rows[start:end][self.fresh[start:end]]
        if len(old):
            self.totals -= old.sum(axis=0)
        width = len(lines)
        self.lines[start:end] = list(lines)
        if width == end - start:  # lines replaced in place (typing): no copy of the arrays
            self.rows[start:end] = 0
            self.fresh[start:end] = False
        else:
            self.rows = np.concatenate((self.rows[:start], np.zeros((width, 7), np.int64), self.rows[end:]))
            self.fresh = np.concatenate((self.fresh[:start], np.zeros(width, bool), self.fresh[end:]))
        self.version += 1

    # -- counting elsewhere --------------------------------------------------------------
    def batch_job(self) -> tuple[list[int], list[str], list[str]]:
        """The stale lines to count elsewhere: (indices, draft lines, current
        lines); lines too long to align stay for :meth:`fill`."""
        return job_from(self.batch_snapshot())

    def batch_snapshot(self) -> tuple:
        """What :func:`job_from` reads, taken at once (array and list copies,
        no loop over lines): a worker thread then lists the job while edits
        go on (:meth:`install` keeps only lines that did not change)."""
        track = self.track
        return np.flatnonzero(~self.fresh), track.draft, track.partner.copy(), list(self.lines)

    def install(self, job: tuple[list[int], list[str], list[str]], results: Sequence) -> int:
        """Take the alignments (``TerResult`` per job line, the draft line as
        hypothesis and the current line as reference) of the lines still stale
        whose draft and current line equal the job's; returns how many."""
        rows = result_rows(results)
        return sum(self.install_steps(job, rows, len(job[0]) or 1))

    def install_steps(self, job: tuple[list[int], list[str], list[str]], rows: np.ndarray, step: int = INSTALL_STEP):
        """:meth:`install` of :func:`result_rows`, ``step`` lines at a time:
        yields how many rows each slice took (edits may come in between: a
        row is taken only while its line and draft line are the job's)."""
        idx_all, drafts, lines = job
        for a in range(0, len(idx_all), step):
            b = a + step
            n = len(self.lines)
            cur, fresh, draft_line = self.lines, self.fresh, self.draft_of
            keep = [k for k, (i, draft, line) in enumerate(zip(idx_all[a:b], drafts[a:b], lines[a:b]), a)
                    if i < n and not fresh[i] and cur[i] == line and draft_line(i) == draft]
            if keep:
                idx = np.asarray([idx_all[k] for k in keep], dtype=np.int64)
                got = rows[keep]
                self.rows[idx] = got
                self.totals += got.sum(axis=0)
                self.fresh[idx] = True
                if self.too_long:
                    self.too_long.difference_update(idx.tolist())
            yield len(keep)

    # -- the document ---------------------------------------------------------------
    def line(self, i: int) -> Optional[dict]:
        """Line ``i``: score, edits, reference length and edit kinds (counted now if stale)."""
        if not 0 <= i < len(self.lines):
            return None
        if not self.fresh[i]:
            self.compute(i)
        row = self.rows[i].tolist()
        score = self.metric.sentence_score(row[:3])
        return {
            "score": score.score,
            "num_edits": row[0],
            "ref_length": score.extra["ref_length"],
            **dict(zip(KINDS, row[3:])),
        }

    def count_few(self, limit: int = QUIET_LINES) -> None:
        """Count the stale lines now when there are at most ``limit`` (an
        edit's lines whose background count waits for a quiet moment), lines
        expensive to align excepted (they stay for the worker thread)."""
        stale = self.stale_count()
        if 0 < stale <= limit:
            for i in np.flatnonzero(~self.fresh).tolist():
                if not self.heavy(i):
                    self.compute(i)

    def corpus(self) -> dict:
        """Document HTER, edit kinds and lines edited; the numbers are None
        while ``pending`` lines are still to be counted (an edit's few lines
        are counted now: :meth:`count_few`)."""
        self.count_few()
        t = self.totals.tolist()
        score = self.metric.corpus_score(t[:3])
        pending = self.stale_count()
        done = not pending
        return {
            "metric": "HTER",
            "score": score.score if done else None,
            "num_edits": t[0] if done else None,
            "ref_length": score.extra["ref_length"] if done else None,
            **{k: (v if done else None) for k, v in zip(KINDS, t[3:])},
            "pending": pending,
            "lines": len(self.lines),
            "linesEdited": self.track.edited_count(),
            "linesTooLongToAlign": len(self.too_long),
            "linesNew": self.track.new_count(),
            "draftLinesDeleted": self.track.deleted_count(),
            "signature": "HTER " + self.metric.signature(1),
        }

    def heavy(self, i: int) -> bool:
        """Counting line ``i`` is not cheap (TER's shift search on a long
        line, or a line so long that even counting its words takes long): it
        is counted in a worker thread."""
        draft, line = self.draft_of(i), self.lines[i]
        if len(draft) + len(line) > LONG_CHARS:
            return True
        if draft == line or max(len(draft.split()), len(line.split())) > MAX_ALIGN_WORDS:
            return False
        return not self.metric.cheap(draft, [line])

    async def until_quiet(self, alive) -> None:
        """Until no edit came for EDIT_QUIET seconds (or ``alive()`` is False)."""
        version = -1
        while alive() and version != self.version:
            version = self.version
            await asyncio.sleep(EDIT_QUIET)

    async def fill(self, alive, quiet: bool = True) -> None:
        """Count every stale line in the background, a few milliseconds at a
        time between real pauses (``alive()`` False: stop); lines expensive to
        align are aligned in a worker thread, never on the event loop.
        ``quiet``: an edit's few lines wait for :meth:`until_quiet` first."""
        if quiet and self.stale_count() <= QUIET_LINES:
            await self.until_quiet(alive)
        pos = self.first_stale()  # stale lines are looked for from here on, a block at a time:
        # listing every stale line of a 1M-line document for each slice cost
        # more than the slice itself
        while alive() and self.stale_count():
            deadline = time.perf_counter() + SLICE_SECONDS
            heavy: list[int] = []
            while time.perf_counter() < deadline and len(heavy) < HEAVY_JOB:
                if pos >= len(self.fresh):
                    pos = self.first_stale()  # edits meanwhile left stale lines behind
                    if not self.stale_count():  # (counting a 1M-line array costs ms: once a round)
                        break
                block = np.flatnonzero(~self.fresh[pos : pos + 256])
                stopped = False
                for j in (pos + block).tolist():
                    if self.heavy(j):
                        if j not in heavy:
                            heavy.append(j)
                        if len(heavy) >= HEAVY_JOB:
                            stopped = True
                            break
                        continue
                    self.compute(j)
                    if time.perf_counter() > deadline:
                        stopped = True
                        break
                if not stopped:
                    pos += 256
                elif not heavy:
                    break
                if heavy and pos >= len(self.fresh):
                    break  # send the heavy lines found this round
            if heavy:
                job = (heavy, [self.draft_of(i) for i in heavy], [self.lines[i] for i in heavy])
                metric = self.metric
                if any(len(d) + len(x) > LONG_CHARS for d, x in zip(job[1], job[2])):
                    from ..background.scoring import run_in_process  # a very long line: not even in this process

                    rows = await pools.run(run_in_process, rows_for, metric, job[1], job[2])
                else:
                    rows = await pools.run(rows_for, metric, job[1], job[2])
                if alive():
                    for i, draft, line, counted in zip(*job, rows):
                        if i < len(self.lines) and not self.fresh[i] and self.lines[i] == line and self.draft_of(i) == draft:
                            self._put(i, counted)
            await asyncio.sleep(PAUSE_SECONDS)
