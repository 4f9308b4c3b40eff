"""TER's candidate shifts costed all at once (numpy), for ``ter_core``'s search.

A round of sacrebleu's shift search costs every candidate shift of the
hypothesis: the band edit distance of the hypothesis with one block of words
moved.  Here the round's candidates are costed together: one row of the band
per hypothesis position for all candidates at once, a ``(candidates × ref+1)``
integer matrix.  A shifted hypothesis equals the unshifted one outside
``[p, e)`` (its first and last changed positions), so its rows up to ``p``
are the unshifted rows (the round's trace): candidates are taken in order of
``p`` and each joins the matrix at its own ``p``; at row ``e`` its cost is
``min(row[j] + tail[j])`` with the unshifted hypothesis's suffix row ``e``
(the cost from cell ``(e, j)`` to the end).

The row recurrence is the band's, cell for cell: ``cur[j] = min(prev[j-1] +
(ref[j-1] != w), prev[j] + 1, cur[j-1] + 1)`` on the band ``[lo, hi)`` of the
row (cells outside it unreachable).  It is kept as ``q[j] = cost[j] - j - i``
(row ``i``), where it reads ``q[j] = min(q'[j-1] - 1 - (ref[j-1] == w), q'[j],
q[j-1])``: the left-to-right term is a running minimum
(``minimum.accumulate``) — exact in integers.  Unreachable cells start at a
large constant and are not capped: they stay far above every reachable value,
never win a minimum against one, and every cell of the band is reachable, so
the finite costs are the same.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

import numpy as np

#: an unreachable cell (the pure-Python band's value too)
INF = 10**16
#: (start, length, target): the block of ``length`` words at ``start`` moved to
#: sacrebleu's ``target`` index
Shift = tuple[int, int, int]
#: int32 rows (unreachable = ``_INF32``) when every finite value and
#: ``_INF32`` plus a row's growth stay far below 2**31
_INF32 = 1 << 29
_SMALL = 1 << 20


def shifted_words(hyp: np.ndarray, shifts: Sequence[Shift]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The shifted hypotheses (one per row), their first changed positions and the ends of the changes."""
    n = len(hyp)
    sh = np.array(shifts, dtype=np.int64).reshape(len(shifts), 3)
    start, length, target = sh[:, 0:1], sh[:, 1:2], sh[:, 2:3]
    dest = np.where(target > start + length, target - length, np.minimum(target, n - length))
    k = np.arange(n)[None, :]
    # the block at [dest, dest + length); the other words keep their order
    rest = np.where(k < dest, k, k - length)
    src = np.where(rest < start, rest, rest + length)
    src = np.where((k >= dest) & (k < dest + length), start + (k - dest), src)
    return hyp[src], np.minimum(start, dest)[:, 0], (np.maximum(start, dest) + length)[:, 0]


def shifted_costs(bounds: Sequence[tuple[int, int]], ref: Sequence[int], hyp: Sequence[int],
                  rows: Sequence[Sequence[int]], tails: Sequence[Sequence[int]],
                  shifts: Sequence[Shift]) -> list[int]:
    """The band edit distance of ``hyp`` with each shift applied, in ``shifts``' order.

    ``bounds``: the band ``[lo, hi)`` per row (row 0 first); ``rows``: the
    band's cost rows of the unshifted ``hyp``; ``tails``: its suffix rows
    (the cost from a cell to the end).  A shifted hypothesis differs from
    ``hyp`` only on ``[first, end)``: its rows are computed on that span and
    joined to the tail row ``end``.
    """
    n_ref = len(ref)
    width = n_ref + 1
    dt = np.int32 if len(hyp) + width < _SMALL else np.int64
    inf = _INF32 if dt is np.int32 else INF
    words, first, end = shifted_words(np.asarray(hyp, dtype=np.int64), shifts)
    order = np.argsort(first, kind="stable")
    codes = words[order]
    # a word's row: -1 - (ref[j-1] == word) at column j (the diagonal step;
    # words are small integers, ``ter_core._ids``)
    step = np.zeros((int(codes.max()) + 1, width), dtype=dt)
    step[:, 1:] = -1 - (np.arange(len(step))[:, None] == np.asarray(ref, dtype=np.int64)[None, :])
    first_sorted = first[order].tolist()
    finish: dict[int, list[int]] = {}
    for k, e in enumerate(end[order].tolist()):
        finish.setdefault(e, []).append(k)
    count = len(shifts)
    cols = np.arange(width, dtype=np.int64)
    res = np.empty(count, dtype=np.int64)
    prev = np.empty((count, width), dtype=dt)
    cur = np.empty((count, width), dtype=dt)
    active = 0
    for i in range(first_sorted[0], max(finish)):
        joined = bisect_right(first_sorted, i, active)
        if joined > active:
            prev[active:joined] = np.minimum(np.asarray(rows[i], dtype=np.int64), inf) - cols - i
            active = joined
        lo, hi = bounds[i + 1]
        p, c = prev[:active], cur[:active]
        j0 = lo if lo > 0 else 1
        seg = c[:, j0:hi]
        np.add(p[:, j0 - 1 : hi - 1], step[codes[:active, i], j0:hi], out=seg)
        np.minimum(seg, p[:, j0:hi], out=seg)
        if lo == 0:
            c[:, 0] = p[:, 0]
        else:
            c[:, lo - 1] = inf
        if hi < width:
            c[:, hi:] = inf
        band = c[:, lo:hi]
        np.minimum.accumulate(band, axis=1, out=band)
        done = finish.get(i + 1)
        if done is not None:
            tail = np.minimum(np.asarray(tails[i + 1][lo:hi], dtype=np.int64), inf) + cols[lo:hi] + (i + 1)
            res[done] = (band[done] + tail).min(axis=1)
        prev, cur = cur, prev
    out = np.empty(count, dtype=np.int64)
    out[order] = res
    return out.tolist()
