"""The fast first full pass: statistics and per-line scores of many lines at once.

Scoring line by line spends its time building small Counters.  Here a
chunk of lines is counted at once by the vectorised matcher of ngrams.py
(a few sorts and bincounts over the whole chunk), into the same statistics
rows as each metric's ``line_stats``.

The integers are exactly the ones the per-line code computes (and sacrebleu /
NLTK compute): the oracle tests and the benchmark compare them.  Per-line
scores are then computed from the rows with the metric's own Python
arithmetic, so the floats are the same to the last bit.

Large inputs are split into chunks scored by a process pool; workers return
compact numpy arrays, never Counters.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np

from .base import Metric
from .ngrams import clear_caches

#: below this many lines the pool is not worth starting
PARALLEL_MIN_LINES = 4000

# Each metric picks its counter: ``Metric.batch_stats`` (BleuMetric, ChrfMetric and
# NltkBleuMetric call the functions of :mod:`.batch_stats`) and scores the rows with its own float
# arithmetic in ``Metric.batch_scores``.


# -- the pass ----------------------------------------------------------------------


def _blob(lines: Sequence[str]):
    """Lines for a worker: one UTF-8 blob when no line holds a newline.

    Pickling a list of str would leave a cached UTF-8 copy inside every
    non-ASCII line of this process (about the size of the text, for as
    long as the lines live); encoding a joined copy leaves nothing behind.
    """
    text = "\n".join(lines)
    if text.count("\n") != max(len(lines) - 1, 0):
        return list(lines)
    return (len(lines), text.encode("utf-8", "surrogatepass"))


def _unblob(blob) -> list[str]:
    if isinstance(blob, list):
        return blob
    n, data = blob
    return data.decode("utf-8", "surrogatepass").split("\n") if n else []


#: what a pass may also make of each chunk's rows, in the process that counted
#: them: ``render(key, metric, stats, scores, first)`` (``first``: the index of
#: the chunk's first line); a picklable module-level function or partial
Render = Callable[[str, Metric, np.ndarray, np.ndarray, int], Any]


def _work(args) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], dict[str, Any]]:
    metrics, hyp, refs, render, first = args
    hyp = _unblob(hyp)
    refs = [_unblob(r) for r in refs]
    out, made = {}, {}
    for key, metric in metrics.items():
        st = metric.batch_stats(hyp, refs)
        out[key] = (st, metric.batch_scores(st))
        if render is not None:
            made[key] = render(key, metric, st, out[key][1], first)
    return out, made


#: the most worker processes a large input gets by default (``default_workers``)
MAX_DEFAULT_WORKERS = 8

#: lines per job of the parallel first pass (at most)
CHUNK_LINES = 50_000


def default_workers(n_lines: int) -> int:
    if n_lines < PARALLEL_MIN_LINES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_DEFAULT_WORKERS))


def first_pass(
    metrics: Mapping[str, Metric],
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Statistics rows and per-line scores of the first ``min(len)`` line pairs
    (``first_pass_with`` without a render)."""
    return first_pass_with(metrics, hyp, refs, workers, start_method)[0]


def first_pass_with(
    metrics: Mapping[str, Metric],
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
    render: Optional[Render] = None,
) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], dict[str, list]]:
    """Statistics rows and per-line scores of the first ``min(len)`` line pairs,
    and per metric what ``render`` made of each chunk, in line order.

    Returns ``{key: (stats int64[lines, width], scores float64[lines])}``.
    ``workers`` processes share the work (None: the CPUs, for large inputs;
    1: in this process).  ``start_method`` picks the multiprocessing start
    method (default: "fork" where available — pass "forkserver" or "spawn"
    from a process that runs threads).
    """
    n = min(len(hyp), *(len(r) for r in refs)) if refs else 0
    hyp = hyp[:n]
    refs = [r[:n] for r in refs]
    if workers is None:
        workers = default_workers(n)
    if workers <= 1 or n < 2 * 256:
        # in this process, CHUNK_LINES lines at a time: the peak follows the
        # chunk (the words and id arrays of a chunk), not the document
        done = [
            _work((dict(metrics), hyp[a : a + CHUNK_LINES], [r[a : a + CHUNK_LINES] for r in refs], render, a))
            for a in range(0, max(n, 1), CHUNK_LINES)
        ]
        if len(done) == 1:
            result, made_one = done[0]
            made = {key: [made_one[key]] if render is not None else [] for key in metrics}
        else:
            result = {
                key: (np.concatenate([p[key][0] for p, _ in done]), np.concatenate([p[key][1] for p, _ in done]))
                for key in metrics
            }
            made = {key: [m[key] for _, m in done] if render is not None else [] for key in metrics}
        del done
        if n >= PARALLEL_MIN_LINES:
            # a long-lived process (the server) should not keep a whole
            # document's vocabulary around after a one-off pass
            clear_caches()
            _trim_heap()
        return result, made
    import multiprocessing as mp

    if start_method is None:
        methods = mp.get_all_start_methods()
        start_method = "fork" if ("fork" in methods and sys.platform.startswith("linux")) else methods[0]
    ctx = mp.get_context(start_method)
    # chunks of at most CHUNK_LINES lines, made as the workers take them
    # (imap reads the generator as the pipe to the workers drains): a
    # worker's peak follows the chunk, not the document
    n_chunks = max(workers * 2, -(-n // CHUNK_LINES))
    bounds = [round(n * i / n_chunks) for i in range(n_chunks + 1)]
    jobs = (
        (dict(metrics), _blob(hyp[a:b]), [_blob(r[a:b]) for r in refs], render, a) for a, b in zip(bounds, bounds[1:])
    )
    with ctx.Pool(workers) as pool:
        both = list(pool.imap(_work, jobs, chunksize=1))
    parts = [p for p, _ in both]
    made = {key: [m[key] for _, m in both] if render is not None else [] for key in metrics}
    del both
    result = {
        key: (
            np.concatenate([p[key][0] for p in parts]) if parts else np.zeros((0, m.width), np.int64),
            np.concatenate([p[key][1] for p in parts]) if parts else np.zeros(0),
        )
        for key, m in metrics.items()
    }
    del parts
    _trim_heap()
    return result, made


def _trim_heap() -> None:
    """Hand the pass's freed buffers back to the OS (glibc keeps them otherwise)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
