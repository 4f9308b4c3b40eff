"""Per-line values memoised by line text, recomputed only where the lines
changed since the previous pass."""

from __future__ import annotations

from typing import Callable, Iterable, Optional

from ..engine import common_splice

#: (start, end_old, new lines): old[:start] + lines + old[end_old:] == new
Splice = tuple[int, int, list]


class Memo(dict):
    """A dict that computes a missing value with ``fn`` (lookups stay in C)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key):
        value = self.fn(key)
        self[key] = value
        return value


class LineMemo:
    """``fn(line)`` for every line of a document, memoised by text.

    :meth:`values` takes the document's lines and gives the values; lines
    outside the window that changed since the previous call are taken from
    that call's answer (moved lines cost nothing either).  The memo is
    trimmed to the lines in use when it grows past ``limit`` and three
    times the document.
    """

    def __init__(self, fn: Callable, limit: int) -> None:
        self.memo = Memo(fn)
        self.limit = limit
        self._lines: Optional[list] = None
        self._values: list = []
        #: the caller's token for the last call (see :meth:`follows`)
        self.token = None

    def __getitem__(self, line: str):
        return self.memo[line]

    def values(self, lines: list, splice: Optional[Splice] = None, token=None) -> list:
        """Values of ``lines``; ``splice``: how they differ from the lines of
        the previous call, when the caller knows (else found here, unless
        ``lines`` is the very list of the previous call, changed in place
        since: then every line is looked up)."""
        get = self.memo.__getitem__
        old = self._lines
        self.token = token
        if old is not None and (splice is not None or old is not lines):
            start, end_old, new = splice if splice is not None else common_splice(old, lines)
            if end_old - start <= len(lines) // 2:
                values = self._values  # changed in place: callers read it during one pass only
                values[start:end_old] = list(map(get, new))
                self._lines, self._values = lines, values
                return values
        values = list(map(get, lines))
        self._lines, self._values = lines, values
        return values

    def forget(self) -> None:
        """Look every line up on the next call (the lines of the previous call are not compared)."""
        self._lines = None

    def follows(self, token) -> bool:
        """Was the previous call given ``token``?"""
        return token is not None and self.token == token

    def over(self, n: int) -> bool:
        """Would :meth:`trim` with ``n`` trim?"""
        return len(self.memo) > max(self.limit, 3 * n)

    def trim(self, keep: Iterable[str], n: int) -> None:
        memo = self.memo
        if not self.over(n):
            return
        fresh = Memo(memo.fn)
        for line in keep:
            if line in memo:
                fresh[line] = memo[line]
        self.memo = fresh

