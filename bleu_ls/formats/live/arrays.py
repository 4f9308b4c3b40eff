"""Offsets moved lazily: :class:`Shifted`, an array of int64 whose tail an edit moves
without rewriting it.

An edit in the middle of a 100k-segment file moves every segment after it: adding
the edit's length to 50k numbers of five arrays per key press is milliseconds on a
loaded machine.  :class:`Shifted` keeps its numbers in blocks of :data:`BLOCK`, each
block with an offset of its own (value ``i`` is ``raw[i] + block[i // BLOCK]``):
moving the tail from ``i`` adds to the rest of ``i``'s block and to the offsets of
the blocks after it — about a thousand numbers, whatever the file's size.  A
splice that changes the count (a unit pasted) makes the array again (that edit
reads the units it added anyway).

Plain numpy; imports nothing from the server.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

#: numbers per block (a power of two)
SHIFT = 10
BLOCK = 1 << SHIFT


class Shifted:
    """An int64 array whose tails are moved lazily (see the module's text).  Searches
    assume it is sorted (not decreasing), as the offsets of segments in file order are."""

    __slots__ = ("_raw", "_block")

    def __init__(self, values) -> None:
        self._raw = np.array(values, dtype=np.int64)
        self._block = np.zeros((len(self._raw) + BLOCK - 1) >> SHIFT, np.int64)

    def __len__(self) -> int:
        return len(self._raw)

    def values(self) -> np.ndarray:
        """The numbers (a new array)."""
        if not len(self._raw):
            return self._raw.copy()
        return self._raw + np.repeat(self._block, BLOCK)[: len(self._raw)]

    def tolist(self) -> list[int]:
        return self.values().tolist()

    def get(self, i: int) -> int:
        return int(self._raw[i]) + int(self._block[i >> SHIFT])

    def take(self, which: np.ndarray) -> np.ndarray:
        """The numbers at the indexes ``which`` (a new array)."""
        which = np.asarray(which, np.int64)
        return self._raw[which] + self._block[which >> SHIFT]

    def state(self) -> tuple:
        """The arrays as they are (references, no copy): an edit in place changes them, one that
        makes the array again leaves them (:meth:`holds` tells which)."""
        return (self._raw, self._block)

    def holds(self, state: tuple) -> bool:
        """``state`` is this array's own (changed in place since, maybe), not an older one."""
        return state[0] is self._raw and state[1] is self._block

    @staticmethod
    def take_from(state: tuple, which: np.ndarray) -> np.ndarray:
        """:meth:`take` of an array's old ``state`` (one it does not hold any more)."""
        raw, block = state
        return raw[which] + block[which >> SHIFT]

    def set(self, i: int, v: int) -> None:
        self._raw[i] = v - self._block[i >> SHIFT]

    def add_from(self, i: int, d: int) -> None:
        """Add ``d`` to the numbers from index ``i`` on."""
        n = len(self._raw)
        if not d or i >= n:
            return
        i = max(i, 0)
        k = i >> SHIFT
        self._raw[i : min(n, (k + 1) << SHIFT)] += d
        self._block[k + 1 :] += d

    def splice(self, a: int, b: int, values, d: int = 0) -> None:
        """Numbers ``[a, b)`` replaced by ``values``, those after them moved by ``d``."""
        values = np.asarray(values, np.int64)
        if len(values) == b - a:
            if b > a:
                self._raw[a:b] = values - self._block[np.arange(a, b) >> SHIFT]
            self.add_from(b, d)
            return
        self._fold()
        raw, n, c = self._raw, len(self._raw), len(values)
        out = np.empty(n - (b - a) + c, np.int64)
        out[:a] = raw[:a]
        out[a : a + c] = values
        tail = out[a + c :]
        tail[:] = raw[b:]
        if d:
            tail += d
        self._raw = out
        self._block = np.zeros((len(out) + BLOCK - 1) >> SHIFT, np.int64)

    def _fold(self) -> None:
        """The blocks' offsets added into the numbers (in place: no array made)."""
        n = len(self._raw)
        if not n or not self._block.any():
            return
        full = n >> SHIFT
        if full:
            self._raw[: full << SHIFT].reshape(full, BLOCK)[:] += self._block[:full, None]
        if full < len(self._block):
            self._raw[full << SHIFT :] += self._block[full]
        self._block[:] = 0

    def searchsorted(self, x: int, side: Literal["left", "right"] = "left") -> int:
        """``np.searchsorted`` of the numbers (sorted, not decreasing)."""
        n = len(self._raw)
        if not n:
            return 0
        lasts = np.empty(len(self._block), np.int64)
        lasts[:-1] = self._raw[BLOCK - 1 : n - 1 : BLOCK][: len(self._block) - 1]
        lasts[-1] = self._raw[n - 1]
        lasts += self._block
        k = int(np.searchsorted(lasts, x, side))  # the first block that ends at or past x
        if k >= len(self._block):
            return n
        lo = k << SHIFT
        return lo + int(np.searchsorted(self._raw[lo : min(n, lo + BLOCK)], x - int(self._block[k]), side))
