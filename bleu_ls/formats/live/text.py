"""The text of a live index, edited without copying it whole (:class:`ChunkText`).

A 16 MB file copied at every key press (``text[:a] + new + text[b:]``) costs
10–15 ms on a loaded machine — more than the whole answer to the edit may take.
:class:`ChunkText` keeps the text as a list of pieces of about :data:`CHUNK`
characters, each with the offsets of its own line breaks (the idea of the line
documents in ``server/documents/``: the parts kept apart, an edit rebuilding
only the part it falls in).  An edit rebuilds the one or two pieces it touches
and the running sums over the pieces (a few hundred numbers); a slice joins the
pieces it spans.  The whole string (:meth:`value`) is joined on demand and kept
until the next edit, for the readers that need it (a whole read, a reference).

Lines are as the live indexes count them: a line ends at ``\\n`` (a ``\\r``
before it stays in the line's content).

Plain Python (and numpy); imports nothing from the server.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

#: the pieces' size (characters): an edit rebuilds one, a piece grown past twice this is cut
CHUNK = 1 << 16


def _newlines(s: str) -> np.ndarray:
    """Offsets of the ``\\n`` of ``s``."""
    if "\n" not in s:
        return np.zeros(0, np.int64)
    try:
        codes = np.frombuffer(s.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        codes = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return np.flatnonzero(codes == 10).astype(np.int64)


def _cut(s: str) -> list[str]:
    """``s`` in pieces of about :data:`CHUNK` characters (at least one piece)."""
    if len(s) <= 2 * CHUNK:
        return [s]
    return [s[i : i + CHUNK] for i in range(0, len(s), CHUNK)]


class ChunkText:
    """A text edited in place, piece by piece (see the module's text)."""

    __slots__ = ("_pieces", "_nls", "_starts", "_lines", "_len", "_whole")

    def __init__(self, text: str = "") -> None:
        # one piece, the text given (no copy) until it is cut: at the first edit, or before it
        # (:meth:`cut`, where time does not count: a thread reading the whole file)
        self._pieces: list[str] = [text]
        self._nls: list[np.ndarray] = [_newlines(text)]
        #: the whole text (the one piece, or joined once after an edit, kept until the next)
        self._whole: Optional[str] = text
        self._sums()

    def cut(self) -> None:
        """Cut a text still in one piece into pieces (a copy of it: done once, before the first edit)."""
        if len(self._pieces) != 1 or self._len <= 2 * CHUNK:
            return
        text, nl = self._pieces[0], self._nls[0]
        self._pieces = _cut(text)
        bounds = np.searchsorted(nl, np.arange(0, self._len, CHUNK), "left").tolist() + [len(nl)]
        self._nls = [nl[bounds[k] : bounds[k + 1]] - k * CHUNK for k in range(len(self._pieces))]
        self._whole = None  # the pieces hold it
        self._sums()

    def _sums(self) -> None:
        lens = np.fromiter((len(p) for p in self._pieces), np.int64, len(self._pieces))
        counts = np.fromiter((len(n) for n in self._nls), np.int64, len(self._nls))
        #: piece k starts at offset _starts[k] and holds the line breaks after the first _lines[k]
        self._starts = np.zeros(len(lens) + 1, np.int64)
        np.cumsum(lens, out=self._starts[1:])
        self._lines = np.zeros(len(counts) + 1, np.int64)
        np.cumsum(counts, out=self._lines[1:])
        self._len = int(self._starts[-1])

    # -- the text ------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._len

    def value(self) -> str:
        """The whole text (joined once per edit, on demand)."""
        if self._whole is None:
            self._whole = "".join(self._pieces)
        return self._whole

    def __str__(self) -> str:
        return self.value()

    def _piece(self, offset: int) -> int:
        """The piece holding ``offset`` (the last piece for the end of the text)."""
        k = int(np.searchsorted(self._starts, offset, "right")) - 1
        return min(max(k, 0), len(self._pieces) - 1)

    def slice(self, a: int, b: int) -> str:
        """``text[a:b]`` (``a``, ``b`` in the text, not negative)."""
        a, b = max(0, a), min(b, self._len)
        if b <= a:
            return ""
        if self._whole is not None:
            return self._whole[a:b]
        ka, kb = self._piece(a), self._piece(b - 1)
        sa = int(self._starts[ka])
        if ka == kb:
            return self._pieces[ka][a - sa : b - sa]
        sb = int(self._starts[kb])
        return "".join([self._pieces[ka][a - sa :], *self._pieces[ka + 1 : kb], self._pieces[kb][: b - sb]])

    def __getitem__(self, k):
        if isinstance(k, slice):
            a, b, step = k.indices(self._len)
            if step != 1:
                return self.value()[k]
            return self.slice(a, b)
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError(k)
        return self.slice(k, k + 1)

    def startswith(self, s: str, at: int = 0) -> bool:
        return at >= 0 and self.slice(at, at + len(s)) == s

    def find(self, sub: str, start: int = 0, end: Optional[int] = None) -> int:
        """``str.find``, read a growing stretch at a time from ``start`` (what is looked for is near)."""
        end = self._len if end is None else min(end, self._len)
        a, step = max(0, start), 4096
        while a <= end - len(sub):
            b = min(end, a + step)
            k = self.slice(a, min(end, b + len(sub) - 1)).find(sub)
            if k >= 0:
                return a + k
            if b >= end:
                break
            a, step = b, step * 4
        return -1

    def count(self, s: str, a: int = 0, b: Optional[int] = None) -> int:
        return self.slice(a, self._len if b is None else b).count(s)

    def __eq__(self, other) -> bool:
        if isinstance(other, ChunkText):
            other = other.value()
        return isinstance(other, str) and len(other) == self._len and self.value() == other

    __hash__ = None  # type: ignore[assignment]

    # -- lines ---------------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return int(self._lines[-1]) + 1

    def line_start(self, j: int) -> int:
        """Offset of line ``j``'s start (0 <= j < line_count)."""
        if j <= 0:
            return 0
        # the j-th line break (1-based): in the piece whose breaks pass j - 1
        k = int(np.searchsorted(self._lines, j, "left")) - 1
        return int(self._starts[k]) + int(self._nls[k][j - 1 - int(self._lines[k])]) + 1

    def line_starts(self, js: np.ndarray) -> np.ndarray:
        """:meth:`line_start` of each of ``js`` (a new array)."""
        return np.fromiter((self.line_start(int(j)) for j in js), np.int64, len(js))

    def line_end(self, j: int) -> int:
        """Offset of the end of line ``j``'s content (its ``\\n`` excluded)."""
        if j + 1 < self.line_count:
            return self.line_start(j + 1) - 1
        return self._len

    def line(self, j: int) -> str:
        return self.slice(self.line_start(j), self.line_end(j))

    def line_of(self, offset: int) -> int:
        """The line of ``offset`` (the line breaks before it)."""
        if offset <= 0:
            return 0
        k = self._piece(min(offset, self._len) - 1)
        rel = offset - int(self._starts[k])
        return int(self._lines[k]) + int(np.searchsorted(self._nls[k], rel, "left"))

    # -- edits ---------------------------------------------------------------------------
    def replace(self, a: int, b: int, new: str) -> None:
        """``text[a:b]`` becomes ``new`` (``0 <= a <= b <= len``)."""
        if a == b and not new:
            return
        self.cut()
        pieces = self._pieces
        ka = self._piece(a)
        kb = self._piece(b - 1) if b > a else ka
        sa, sb = int(self._starts[ka]), int(self._starts[kb])
        joined = pieces[ka][: a - sa] + new + pieces[kb][b - sb :]
        lo, hi = ka, kb + 1
        # a piece left small is joined to its neighbour (pieces do not crumble under deletions)
        if len(joined) < CHUNK // 4 and len(pieces) > hi - lo:
            if hi < len(pieces):
                joined, hi = joined + pieces[hi], hi + 1
            else:
                joined, lo = pieces[lo - 1] + joined, lo - 1
        fresh = _cut(joined)
        pieces[lo:hi] = fresh
        self._nls[lo:hi] = [_newlines(p) for p in fresh]
        if len(fresh) == hi - lo == 1:  # one piece for one: the sums moved, not made again
            d = len(fresh[0]) - (int(self._starts[hi]) - int(self._starts[lo]))
            dl = len(self._nls[lo]) - (int(self._lines[hi]) - int(self._lines[lo]))
            if d:
                self._starts[hi:] += d
            if dl:
                self._lines[hi:] += dl
            self._len = int(self._starts[-1])
        else:
            self._sums()
        self._whole = None
