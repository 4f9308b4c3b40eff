"""The semantic tokens of one document, line by line, kept in step with its edits.

Each line's tokens are kept encoded (LSP's relative integers without the
line delta of its first token) in blocks of about :data:`BLOCK` consecutive
lines.  The pair manager hands every splice of the document to
:meth:`TokenLines.splice`: only the blocks that hold the spliced lines are
replaced, and the new lines wait to be computed.  A block keeps its JSON
text, so a full answer costs the edited lines plus one join over the
blocks; the answer remembers its blocks, so a delta against it is the run
of blocks that changed (a block is a new object when its lines changed).

Block contents are relative: a block knows where its first and last
token lines are within itself, and the line delta of its first token is
worked out when the answer is assembled.  Inserting lines therefore
touches one block, never the ones after it.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence

#: Lines per block (a block grows to twice this before it is split).
BLOCK = 128

#: A line's tokens: the integers of its tokens without the first line delta
#: (empty: no token on the line); None: not computed yet.
LineEnc = Optional[tuple[int, ...]]

#: A block's summary (:meth:`_Block.built`): first and last token line (the
#: first None: no token), integer count with the first line delta, JSON text.
_Built = tuple[Optional[int], int, int, str]


def _common_prefix(a: list[int], b: list[int], step: int = 4096) -> int:
    """Length of the common prefix of two integer lists (compared in C-level chunks)."""
    n = min(len(a), len(b))
    i = 0
    while i + step <= n and a[i : i + step] == b[i : i + step]:
        i += step
    while i < n and a[i] == b[i]:
        i += 1
    return i


def delta_edit(old: list[int], new: list[int]) -> tuple[int, int, list[int]]:
    """One edit turning ``old`` into ``new``: (start, delete count, data to insert)."""
    start = _common_prefix(old, new)
    limit = min(len(old), len(new)) - start
    tail = min(_common_prefix(old[::-1], new[::-1]), limit)
    return start, len(old) - start - tail, new[start : len(new) - tail]


class _Block:
    """Consecutive lines' encodings, with their JSON text once built."""

    __slots__ = ("encs", "_built", "todo")

    def __init__(self, encs: list[LineEnc]) -> None:
        self.encs = encs
        self._built: Optional[_Built] = None
        #: how many of ``encs`` are None
        self.todo = encs.count(None)

    def built(self) -> _Built:
        """(first token line, last token line, integer count with the first
        line delta, JSON text after the first line delta); lines relative;
        the first None (and the last 0) when no line has a token."""
        if self._built is None:
            first: Optional[int] = None
            last = 0
            parts: list[str] = []
            count = 0
            for j, e in enumerate(self.encs):
                if not e:
                    continue
                text = ",".join(map(str, e))
                parts.append(text if first is None else f"{j - last},{text}")
                count += 1 + len(e)
                if first is None:
                    first = j
                last = j
            self._built = (first, last, count, ",".join(parts))
        return self._built

    def ints(self, d0: int) -> list[int]:
        """This block's integers, its first token's line delta ``d0``."""
        out: list[int] = []
        last = None
        for j, e in enumerate(self.encs):
            if not e:
                continue
            out.append(d0 if last is None else j - last)
            out.extend(e)
            last = j
        return out


class Answer:
    """A full answer: its blocks, their first line deltas and integer counts;
    its JSON text (``{"resultId", "data"}``) is made when first asked for."""

    __slots__ = ("result_id", "blocks", "firsts", "counts", "_bodies", "_json")

    def __init__(self, result_id: str, blocks: tuple[_Block, ...], firsts: tuple[Optional[int], ...],
                 counts: tuple[int, ...], bodies: list[str]) -> None:
        self.result_id, self.blocks, self.firsts, self.counts = result_id, blocks, firsts, counts
        self._bodies = bodies
        self._json: Optional[str] = None

    @property
    def json(self) -> str:
        if self._json is None:
            rid = self.result_id.replace("\\", "\\\\").replace('"', '\\"')
            parts = ['{"resultId":"', rid, '","data":[']
            for d0, body in zip(self.firsts, self._bodies):
                if d0 is not None:
                    parts += (str(d0), ",", body, ",")
            if parts[-1] == ",":
                parts.pop()
            parts.append("]}")
            self._json = "".join(parts)
            self._bodies = []
        return self._json


class TokenLines:
    """Encoded semantic tokens of one document's lines (see the module doc)."""

    def __init__(self) -> None:
        #: what every line's tokens depend on besides its own inputs (encoding,
        #: draft, model, reference version, settings); another config resets
        self.config: Optional[tuple[object, ...]] = None
        self.blocks: list[_Block] = []
        self.n = 0
        self.shifts = False
        #: lines computed so far (for tests and benchmarks)
        self.built = 0

    def reset(self, n: int, config: tuple[object, ...], shifts: bool = False) -> None:
        """``n`` lines, none computed, under ``config``.  ``shifts``: a line's
        tokens depend on its index (the reference line it pairs with), so
        inserting or deleting lines changes every line after them."""
        self.config, self.n, self.shifts = config, n, shifts
        self.blocks = [_Block([None] * min(BLOCK, n - k)) for k in range(0, n, BLOCK)]

    def valid(self, n: int, config: tuple[object, ...]) -> bool:
        return self.config is not None and self.n == n and self.config == config

    # -- edits -------------------------------------------------------------------
    def splice(self, start: int, end: int, n_new: int) -> None:
        """Lines [start, end) were replaced by ``n_new`` lines (not computed yet)."""
        if self.config is None:
            return
        if not 0 <= start <= end <= self.n:
            self.config = None  # out of step: the next request starts again
            return
        if not self.blocks:
            self.reset(n_new, self.config, self.shifts)
            return
        if self.shifts and n_new != end - start:
            n_new, end = n_new + self.n - end, self.n
        base, i = 0, 0
        while i < len(self.blocks) - 1 and base + len(self.blocks[i].encs) <= start:
            base += len(self.blocks[i].encs)
            i += 1
        j, top = i, base + len(self.blocks[i].encs)
        while j < len(self.blocks) - 1 and top < end:
            j += 1
            top += len(self.blocks[j].encs)
        merged: list[LineEnc] = []
        for b in self.blocks[i : j + 1]:
            merged.extend(b.encs)
        merged[start - base : end - base] = [None] * n_new
        size = len(merged)
        parts = max(1, round(size / BLOCK)) if size > 2 * BLOCK else 1
        bounds = [round(size * k / parts) for k in range(parts + 1)]
        new = [_Block(merged[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]
        self.blocks[i : j + 1] = new
        self.n += n_new - (end - start)

    # -- computing -------------------------------------------------------------------
    def missing(self) -> list[int]:
        """The lines not computed yet, in order."""
        out: list[int] = []
        base = 0
        for b in self.blocks:
            encs = b.encs
            if b.todo:
                out.extend(base + j for j, e in enumerate(encs) if e is None)
            base += len(encs)
        return out

    def missing_from(self, start: int, limit: int) -> list[int]:
        """Up to ``limit`` lines not computed yet, from line ``start`` on
        (blocks with nothing to compute are stepped over whole)."""
        out: list[int] = []
        base = 0
        for b in self.blocks:
            n = len(b.encs)
            if b.todo and base + n > start:
                lo = max(0, start - base)
                out.extend(base + j for j in range(lo, n) if b.encs[j] is None)
                if len(out) >= limit:
                    return out[:limit]
            base += n
        return out

    def fill(self, lines: Sequence[int], compute: Callable[[list[int]], Iterable[LineEnc]]) -> None:
        """Compute the encodings of ``lines`` (still missing) with ``compute``."""
        want = [i for i in lines if 0 <= i < self.n]
        if not want:
            return
        encs = list(compute(want))
        pos = self._positions(want)
        for (b, j), e in zip(pos, encs):
            if b.encs[j] is None:
                b.todo -= 1
            b.encs[j] = e
            b._built = None
        self.built += len(want)

    def _positions(self, lines: Sequence[int]) -> list[tuple[_Block, int]]:
        out = []
        bi, base = 0, 0
        for i in lines:  # increasing
            while base + len(self.blocks[bi].encs) <= i:
                base += len(self.blocks[bi].encs)
                bi += 1
            out.append((self.blocks[bi], i - base))
        return out

    def line_encs(self, start: int, end: int) -> list[LineEnc]:
        """The encodings of lines [start, end) (None where not computed)."""
        out: list[LineEnc] = []
        base = 0
        for b in self.blocks:
            n = len(b.encs)
            if base + n > start and base < end:
                out.extend(b.encs[max(0, start - base) : min(n, end - base)])
            base += n
            if base >= end:
                break
        return out

    # -- answers -----------------------------------------------------------------------
    def answer(self, result_id: str) -> Answer:
        """The full answer (every line computed)."""
        firsts: list[Optional[int]] = []
        counts: list[int] = []
        bodies: list[str] = []
        prev, start = 0, 0
        for b in self.blocks:
            first, last, count, body = b.built()
            if first is None:
                firsts.append(None)
                counts.append(0)
            else:
                firsts.append(start + first - prev)
                counts.append(count)
                prev = start + last
            bodies.append(body)
            start += len(b.encs)
        return Answer(result_id, tuple(self.blocks), tuple(firsts), tuple(counts), bodies)

    @staticmethod
    def delta(old: Answer, new: Answer) -> tuple[int, int, list[int]]:
        """One edit turning ``old``'s data into ``new``'s: (start, delete count, data)."""
        a, n_old, n_new = 0, len(old.blocks), len(new.blocks)
        while a < min(n_old, n_new) and old.blocks[a] is new.blocks[a] and old.firsts[a] == new.firsts[a]:
            a += 1
        s = 0
        while (
            s < min(n_old, n_new) - a
            and old.blocks[n_old - 1 - s] is new.blocks[n_new - 1 - s]
            and old.firsts[n_old - 1 - s] == new.firsts[n_new - 1 - s]
        ):
            s += 1
        def ints(ans: Answer, lo: int, hi: int) -> list[int]:
            out: list[int] = []
            for k in range(lo, hi):
                d0 = ans.firsts[k]
                if d0 is not None:
                    out.extend(ans.blocks[k].ints(d0))
            return out

        # the blocks that differ, then only the integers that differ in them
        p, deleted, data = delta_edit(ints(old, a, n_old - s), ints(new, a, n_new - s))
        return sum(old.counts[:a]) + p, deleted, data

    @staticmethod
    def data_of(answer: Answer) -> list[int]:
        """The integers of a full answer."""
        out: list[int] = []
        for b, d0 in zip(answer.blocks, answer.firsts):
            if d0 is not None:
                out.extend(b.ints(d0))
        return out
