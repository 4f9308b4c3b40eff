"""Per-line values memoised by line text, recomputed only where the lines
changed since the previous pass."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence

from ...engine import common_splice, common_tail

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



class WindowValues:
    """``fn(key_of(i))`` for every line ``i`` of a pass, where the key reads
    line ``i`` of several parallel columns and their neighbours up to ``pad``
    lines away (the misaligned check reads reference lines i-2 .. i+2).

    Kept by position instead of memoised by key: a key per line is a tuple of
    the line texts, which with its dictionary entry held ~130 bytes a line
    (13 MB at 100k lines).  After an edit whose changed lines the caller
    knows (``scope``), the windows within ``pad`` of them are computed again.
    Otherwise the columns are compared with the snapshots of the last two
    passes (slice comparison in C, lines shared by both compare by identity)
    and only the windows between the common head and the common tail are
    computed: lines inserted in every column alike keep the values after
    them, and a change undone (a line put in, then taken out again) finds
    the pass before it.  Two generations of (columns, values) are kept (``generations``).
    """

    def __init__(self, fn: Callable, pad: int, generations: int = 2) -> None:
        self.fn = fn
        self.pad = pad
        #: the passes whose (columns, values) are kept (1: a change undone is computed again)
        self.generations = generations
        #: [(columns snapshot, values)], the last pass's first
        self._gens: list[tuple[list[list], list]] = []
        #: the caller's pass number of the last call
        self.token = None
        #: windows computed by the last call (for tests and profiles)
        self.computed = 0
        #: the lines [lo, hi) whose values the last call may have changed in
        #: place (None: it gave a new list)
        self.changed: Optional[tuple[int, int]] = None

    @property
    def filled(self) -> bool:
        """Has a pass's values been kept?"""
        return bool(self._gens)

    @staticmethod
    def _snapshot(columns: Sequence[Sequence], n: int) -> list[list]:
        out = []
        for col in columns:
            part = list(col[:n])
            if len(part) < n:
                part.extend([None] * (n - len(part)))
            out.append(part)
        return out

    def values(self, columns: Sequence[Sequence], n: int, key_of: Callable[[int], Any],
               scope: Optional[tuple[int, int]] = None, token=None, follows=None) -> list:
        """The values of lines [0, n).  ``columns``: what ``key_of`` reads
        (a line past a column's end reads as None); ``scope``: the lines
        [lo, hi) that changed in any column since the call whose token was
        ``follows`` (then only their windows are computed again)."""
        fn, pad = self.fn, self.pad
        gens = self._gens
        last_token, self.token = self.token, token
        if gens and scope is not None and follows is not None and last_token == follows and len(gens[0][1]) == n:
            snap, values = gens[0]
            lo, hi = max(0, scope[0]), min(n, scope[1])
            if lo < hi:
                for part, col in zip(snap, columns):
                    m = min(hi, len(col))
                    part[lo:m] = col[lo:m]
                    if m < hi:
                        part[max(lo, m):hi] = [None] * (hi - max(lo, m))
            a, b = max(0, lo - pad), min(n, hi + pad)
            if a < b:
                values[a:b] = [fn(key_of(i)) for i in range(a, b)]
            self.computed = max(0, b - a)
            self.changed = (a, max(a, b))
            return values
        snap = self._snapshot(columns, n)
        best = None  # (windows to compute, lo, hi, values of the pass reused)
        for old_snap, old_values in gens:
            if len(old_snap) != len(snap):
                continue
            n_old = len(old_values)
            changed = []  # (head, tail, old, new) of each column that changed
            for old, new in zip(old_snap, snap):
                start, end_old, lines = common_splice(old, new)
                if not (start == end_old and not lines):
                    changed.append((start, n_old - end_old, old, new))
            # the lines the columns share at both ends: a column's own tail
            # stops where its own head ends, but the columns' common head may
            # end sooner (a line put in every column next to its equal is
            # placed at different spots), so a tail that reached its own
            # limit is counted again up to the common one
            head = min((h for h, _, _, _ in changed), default=n)
            limit = min(n, n_old) - head
            tail = min((t if h + t < min(n, n_old) else common_tail(old, new, limit)
                        for h, t, old, new in changed), default=n)
            lo, hi = max(0, head - pad), min(n, n - tail + pad)
            if head >= n == n_old:  # the same lines
                lo = hi = n
            if best is None or hi - lo < best[0]:
                best = (hi - lo, lo, hi, old_values, n_old)
        if best is None:
            values = [fn(key_of(i)) for i in range(n)]
            self.computed = n
        else:
            _, lo, hi, old_values, n_old = best
            values = old_values[:lo] + [fn(key_of(i)) for i in range(lo, hi)] + old_values[hi - (n - n_old):]
            self.computed = hi - lo
        self._gens = [(snap, values), *gens[:self.generations - 1]]
        self.changed = None
        return values
