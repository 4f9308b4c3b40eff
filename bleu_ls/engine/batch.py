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
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

import numpy as np

from .base import Metric
from .ngrams import (
    bleu_token_ids,
    char_ids,
    chrf_word_ids,
    clear_caches,
    closest_ref_lens,
    match_table,
    ngram_totals,
    word_ids,
)

if TYPE_CHECKING:  # the metric modules import this one lazily, for their batch_stats
    from .bleu import BleuMetric
    from .chrf import ChrfMetric
    from .nltk_bleu import NltkBleuMetric

#: below this many lines the pool is not worth starting
PARALLEL_MIN_LINES = 4000

# -- statistics per metric ---------------------------------------------------------


def bleu_stats(metric: BleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [bleu_token_ids(metric, hyp)] + [bleu_token_ids(metric, r) for r in refs]
    N = metric.max_order
    m = match_table(sides, N)[-1]  # (N, lines)
    hyp_lens = sides[0][1]
    ref_len = closest_ref_lens(hyp_lens, [s[1] for s in sides[1:]])
    return np.column_stack([hyp_lens, ref_len, m.T, ngram_totals(hyp_lens, N)]).astype(np.int64)


def nltk_stats(metric: NltkBleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [word_ids(hyp, metric.lowercase)] + [word_ids(r, metric.lowercase) for r in refs]
    K = metric.n
    want5 = metric.method in (5, 7)
    order = max(K, 5) if want5 else K
    m = match_table(sides, order)[-1]
    hyp_lens = sides[0][1]
    ref_len = closest_ref_lens(hyp_lens, [s[1] for s in sides[1:]])
    totals = ngram_totals(hyp_lens, order)
    dens = np.maximum(totals, 1)
    cols = [hyp_lens, ref_len, m[:K].T, dens[:, :K]]
    if want5:
        cols += [m[4], dens[:, 4]]
    else:
        cols += [np.zeros_like(hyp_lens), np.ones_like(hyp_lens)]
    return np.column_stack(cols).astype(np.int64)


def chrf_stats(metric: ChrfMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    n_lines = len(hyp)
    lower = metric.lowercase
    per_ref = []  # per reference: (lines, 3 * order)
    char_sides = [char_ids(hyp, lower, metric.whitespace)] + [char_ids(r, lower, metric.whitespace) for r in refs]
    cm = match_table(char_sides, metric.char_order)
    if metric.word_order:
        word_sides = [chrf_word_ids(hyp, lower)] + [chrf_word_ids(r, lower) for r in refs]
        wm = match_table(word_sides, metric.word_order)
    for k in range(len(refs)):
        blocks = []
        for sides, m, order in ((char_sides, cm, metric.char_order),) + (
            ((word_sides, wm, metric.word_order),) if metric.word_order else ()
        ):
            h_tot = ngram_totals(sides[0][1], order)
            r_tot = ngram_totals(sides[k + 1][1], order)
            h_cnt = np.where(r_tot > 0, h_tot, 0)
            blocks.append(np.stack([h_cnt, r_tot, m[k].T], axis=2).reshape(n_lines, 3 * order))
        per_ref.append(np.concatenate(blocks, axis=1).astype(np.int64))
    if len(per_ref) == 1:
        return per_ref[0]
    # the reference with the best F (the first on ties), as sacrebleu picks
    best = per_ref[0].copy()
    rows = [p.tolist() for p in per_ref]
    f = metric.f_score
    for i in range(n_lines):
        best_f, best_k = -1.0, 0
        for k, r in enumerate(rows):
            fk = f(r[i])
            if fk > best_f:
                best_f, best_k = fk, k
        if best_k:
            best[i] = per_ref[best_k][i]
    return best


# Each metric picks its counter: ``Metric.batch_stats`` (BleuMetric, ChrfMetric and
# NltkBleuMetric call the functions above) and scores the rows with its own float
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


def _work(args) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    metrics, hyp, refs = args
    hyp = _unblob(hyp)
    refs = [_unblob(r) for r in refs]
    out = {}
    for key, metric in metrics.items():
        st = metric.batch_stats(hyp, refs)
        out[key] = (st, metric.batch_scores(st))
    return out


#: lines per job of the parallel first pass (at most)
CHUNK_LINES = 50_000


def default_workers(n_lines: int) -> int:
    if n_lines < PARALLEL_MIN_LINES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def first_pass(
    metrics: Mapping[str, Metric],
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Statistics rows and per-line scores of the first ``min(len)`` line pairs.

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
        result = _work((dict(metrics), hyp, refs))
        if n >= PARALLEL_MIN_LINES:
            # a long-lived process (the server) should not keep a whole
            # document's vocabulary around after a one-off pass
            clear_caches()
            _trim_heap()
        return result
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
    jobs = ((dict(metrics), _blob(hyp[a:b]), [_blob(r[a:b]) for r in refs]) for a, b in zip(bounds, bounds[1:]))
    with ctx.Pool(workers) as pool:
        parts = list(pool.imap(_work, jobs, chunksize=1))
    result = {
        key: (
            np.concatenate([p[key][0] for p in parts]) if parts else np.zeros((0, m.width), np.int64),
            np.concatenate([p[key][1] for p in parts]) if parts else np.zeros(0),
        )
        for key, m in metrics.items()
    }
    del parts
    _trim_heap()
    return result


def _trim_heap() -> None:
    """Hand the pass's freed buffers back to the OS (glibc keeps them otherwise)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
