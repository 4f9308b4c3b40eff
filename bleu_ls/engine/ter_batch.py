"""TER over whole files on every core.

A line's TER costs from microseconds (equal lines) to tens of milliseconds
(long lines with many shift candidates), so the lines are cut into many
small chunks that a process pool hands out as workers get free, and the
parts are joined in order.  Small inputs stay in this process.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
from typing import Optional, Sequence

import numpy as np

from .batch import _blob, _unblob
from .ter import UNITS, TerMetric
from .ter_core import TerResult

#: below this many lines a pool costs more than it saves
PARALLEL_MIN_LINES = 2000
#: chunks per worker: enough to even out lines of very different cost
CHUNKS_PER_WORKER = 16


def _stats_part(args) -> np.ndarray:
    metric, hyp, refs = _lines_of(args)
    return metric.batch_stats(hyp, refs)


def _align_part(args) -> list[TerResult]:
    metric, hyp, refs = _lines_of(args)
    return [metric.best(h, list(rs)) for h, *rs in zip(hyp, *refs)]


def _align_rows_part(args) -> np.ndarray:
    return np.array(_align_part(args), dtype=np.float64).reshape(-1, len(TerResult._fields))


def _lines_of(args) -> tuple:
    """A job's (metric, hypothesis lines, reference line lists): lines that
    crossed to a worker as UTF-8 blobs (``batch._blob``) are split again."""
    metric, hyp, refs = args
    return metric, _unblob(hyp), [_unblob(r) for r in refs]


def _workers(n: int, workers: Optional[int]) -> int:
    if workers is not None:
        return max(1, workers)
    if n < PARALLEL_MIN_LINES:
        return 1
    from .batch import default_workers

    return default_workers(n)


def _run(
    fn,
    metric: TerMetric,
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int],
    start_method: Optional[str] = None,
):
    n = min(len(hyp), *(len(r) for r in refs))
    workers = _workers(n, workers)
    if workers <= 1:
        return [fn((metric, list(hyp[:n]), [list(r[:n]) for r in refs]))]
    n_chunks = min(n, workers * CHUNKS_PER_WORKER)
    bounds = [round(n * i / n_chunks) for i in range(n_chunks + 1)]
    # as blobs: pickling the str lists would leave a UTF-8 copy inside every non-ASCII line here
    jobs = [(metric, _blob(hyp[a:b]), [_blob(r[a:b]) for r in refs]) for a, b in zip(bounds, bounds[1:])]
    method = start_method or ("fork" if sys.platform.startswith("linux") else None)
    with mp.get_context(method).Pool(workers) as pool:
        return pool.map(fn, jobs, chunksize=1)


def ter_stats(
    metric: TerMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]], workers: Optional[int] = None
) -> np.ndarray:
    """Statistics rows of every line pair (lines x 3), on ``workers`` processes
    (None: all CPUs for large inputs, 1: this process)."""
    parts = _run(_stats_part, metric, hyp, refs, workers)
    return np.concatenate(parts) if parts else np.zeros((0, metric.width), np.int64)


def ter_alignments(
    metric: TerMetric,
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
) -> list[TerResult]:
    """Per line, the counted alignment (edits by kind) against its best reference;
    ``start_method``: how worker processes start (default: fork on Linux; a
    process with threads should use "forkserver")."""
    out: list[TerResult] = []
    for part in _run(_align_part, metric, hyp, refs, workers, start_method):
        out.extend(part)
    return out


def corpus_of_alignments(metric: TerMetric, results: Sequence[TerResult]):
    """The corpus score of counted alignments (``ter_alignments``): their
    statistics rows summed as sacrebleu sums them."""
    rows = np.array([[r.edits, r.ref_len * UNITS, 1] for r in results], dtype=np.int64).reshape(len(results), 3)
    return metric.corpus_from_rows(rows)


def ter_alignment_rows(
    metric: TerMetric,
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
) -> np.ndarray:
    """:func:`ter_alignments` as one array (lines x 6, float64, columns in
    ``TerResult``'s order: edits, ref_len, shifts, insertions, deletions,
    substitutions).  The worker processes send arrays back, not an object
    per line: turning a million of those into numbers held the calling
    process's interpreter for hundreds of milliseconds at a time."""
    parts = _run(_align_rows_part, metric, hyp, refs, workers, start_method)
    return np.concatenate(parts) if parts else np.zeros((0, len(TerResult._fields)))
