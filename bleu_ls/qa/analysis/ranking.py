"""Line scores kept sorted between passes, so a document-relative threshold
(the outlier rule's bottom percent, the median) is read off in O(log n)
after an edit instead of sorting or partitioning the document again.

:class:`SortedLines` holds (score, line) pairs ordered by score, then line
(ties in line order, so every pair has one place), in blocks of a few
hundred: an edit takes a changed line's old pair out and puts the new one in
(a search over the blocks' last pairs, one small block copied), the k-th
smallest score is found through the blocks' running sizes, and the lines
whose scores lie between two thresholds are the pairs between two
positions.  The values are the very floats of the model's score array, so a
threshold read here equals the one ``np.partition`` / ``np.median`` find
on the whole document, bit for bit.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Optional

import numpy as np

#: pairs per block after a split (a block splits past twice this)
LOAD = 512


class SortedLines:
    """(value, line) pairs (no NaN) sorted by value, then line."""

    def __init__(self, values: np.ndarray, lines: np.ndarray) -> None:
        values = np.asarray(values, dtype=float)
        lines = np.asarray(lines, dtype=np.int64)
        order = np.lexsort((lines, values))
        v, ln = values[order], lines[order]
        self.vals: list[np.ndarray] = [v[i : i + LOAD].copy() for i in range(0, len(v), LOAD)]
        self.lines: list[np.ndarray] = [ln[i : i + LOAD].copy() for i in range(0, len(ln), LOAD)]
        self.maxes: list[tuple[float, int]] = [(float(b[-1]), int(c[-1])) for b, c in zip(self.vals, self.lines)]
        self._len = len(v)
        self._cum: Optional[list[int]] = None

    def __len__(self) -> int:
        return self._len

    def _sizes(self) -> list[int]:
        cum = self._cum
        if cum is None:
            cum = self._cum = list(accumulate(map(len, self.vals)))
        return cum

    def _find(self, v: float, line: int) -> tuple[int, int]:
        j = bisect_left(self.maxes, (v, line))
        if j == len(self.maxes):
            j -= 1
        vb = self.vals[j]
        a = int(np.searchsorted(vb, v, "left"))
        b = int(np.searchsorted(vb, v, "right"))
        return j, a + int(np.searchsorted(self.lines[j][a:b], line))

    def _set(self, j: int, vb: np.ndarray, lb: np.ndarray) -> None:
        if len(vb) > 2 * LOAD:
            self.vals[j : j + 1] = [vb[:LOAD], vb[LOAD:]]
            self.lines[j : j + 1] = [lb[:LOAD], lb[LOAD:]]
            self.maxes[j : j + 1] = [(float(vb[LOAD - 1]), int(lb[LOAD - 1])), (float(vb[-1]), int(lb[-1]))]
        elif len(vb) == 0:
            del self.vals[j], self.lines[j], self.maxes[j]
        else:
            self.vals[j], self.lines[j] = vb, lb
            self.maxes[j] = (float(vb[-1]), int(lb[-1]))
        self._cum = None

    def insert(self, v: float, line: int) -> None:
        if not self.vals:
            self.vals, self.lines = [np.array([v], dtype=float)], [np.array([line], dtype=np.int64)]
            self.maxes, self._len, self._cum = [(float(v), int(line))], 1, None
            return
        j, pos = self._find(v, line)
        self._set(j, np.insert(self.vals[j], pos, v), np.insert(self.lines[j], pos, line))
        self._len += 1

    def remove(self, v: float, line: int) -> None:
        j, pos = self._find(v, line) if self.vals else (0, 0)
        if not self.vals or pos >= len(self.vals[j]) or self.vals[j][pos] != v or self.lines[j][pos] != line:
            raise KeyError((v, line))
        self._set(j, np.delete(self.vals[j], pos), np.delete(self.lines[j], pos))
        self._len -= 1

    def kth(self, k: int) -> float:
        """The k-th smallest value (from 0)."""
        cum = self._sizes()
        j = bisect_right(cum, k)
        return float(self.vals[j][k - (cum[j - 1] if j else 0)])

    def median(self) -> float:
        """``np.median`` of the values (same arithmetic: the mean of the two
        middle values when their number is even)."""
        m = self._len
        if m % 2:
            return self.kth((m - 1) // 2)
        return float(np.mean(np.array([self.kth(m // 2 - 1), self.kth(m // 2)])))

    def count_below(self, x: float, inclusive: bool) -> int:
        """How many values are < x (<= x when ``inclusive``)."""
        if inclusive:
            j = bisect_right(self.maxes, (x, math.inf))
        else:
            j = bisect_left(self.maxes, (x, -math.inf))
        if j == len(self.maxes):
            return self._len
        cum = self._sizes()
        return (cum[j - 1] if j else 0) + int(np.searchsorted(self.vals[j], x, "right" if inclusive else "left"))

    def lines_between(self, p: int, q: int) -> list[int]:
        """The lines of the pairs at sorted positions [p, q)."""
        out: list[int] = []
        if p >= q:
            return out
        cum = self._sizes()
        j = bisect_right(cum, p)
        while j < len(cum) and p < q:
            start = cum[j - 1] if j else 0
            out += self.lines[j][p - start : min(q, cum[j]) - start].tolist()
            p = cum[j]
            j += 1
        return out

    def values(self) -> np.ndarray:
        """Every value, sorted (for tests)."""
        return np.concatenate(self.vals) if self.vals else np.empty(0)
