"""Translation edit rate between two word lists: the algorithm of sacrebleu 2.6.

The result must be the same edit count as ``sacrebleu.metrics.lib_ter``
gives, so the same search is made, with the same limits:

* edit distance on a band around the length-scaled diagonal (25 cells each
  side, wider when one side is far longer; the last row in full), where a
  cell keeps the first of substitution/match, hypothesis-word deletion,
  reference-word insertion that is strictly cheaper;
* greedy block shifts: each round tries moving a run (up to 10 words, at
  most 50 positions between its place in the hypothesis and in the
  reference) of wrongly placed words to a place the alignment suggests, in
  the order sacrebleu enumerates them, and takes the best (largest gain,
  then longest, then earliest run, then earliest target); rounds stop when
  no shift gains, or once 1,000 candidates were tried in all (the round
  that reaches the limit is dropped, as sacrebleu does).

What is different is only how the work is done: words become integers,
candidate shifts are scored with a cost-only band (no edit-operation
records); a shifted hypothesis equals the unshifted one outside the span its
move changes, so only that span's rows are computed, from the unshifted
rows before it (a prefix tree of rows shared across candidates), and joined
to the unshifted suffix rows after it (the cost from a band cell to the end;
the band's value is a cheapest path, so the join is exact); a round with
many candidates is costed all at once with numpy (``ter_shift``); a round
that reaches the candidate limit is not costed at all (sacrebleu drops it);
and the run search walks only positions where the words agree.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from .ter_shift import INF as _INF, shifted_costs

_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM = 25
_MAX_CANDIDATES = 1000
_MAX_CACHED_ROWS = 20000
#: a round's candidates are costed all at once with numpy (``ter_shift``) when
#: that is cheaper: measured (µs) a Python row ~_PY_ROW; numpy a set-up, a row
#: walked, and a row per candidate
_PY_ROW, _NP_SETUP, _NP_ROW, _NP_CELL = 3.6, 150, 7, 0.3

# edit operations as the band records them (rewriting the hypothesis into the reference)
NOP, SUB, INS, DEL, UNDEF = 0, 1, 2, 3, 4


class TerResult(NamedTuple):
    """The edits of one hypothesis against one reference."""

    edits: int  # shifts + insertions + deletions + substitutions
    ref_len: int
    shifts: int
    insertions: int  # reference words the hypothesis lacks
    deletions: int  # hypothesis words the reference lacks
    substitutions: int


class _Band:
    """Edit distance to one reference on sacrebleu's band, for hypotheses of one length."""

    def __init__(self, ref: Sequence[int], n_hyp: int) -> None:
        self.ref = list(ref)
        self.n_ref = n_ref = len(ref)
        self.n_hyp = n_hyp
        ratio = n_ref / n_hyp if n_hyp else 1
        beam = math.ceil(ratio / 2 + _BEAM) if _BEAM < ratio / 2 else _BEAM
        self.bounds = [(0, 0)]
        for i in range(1, n_hyp + 1):
            diag = math.floor(i * ratio)
            hi = n_ref + 1 if i == n_hyp else min(n_ref + 1, diag + beam)
            self.bounds.append((max(0, diag - beam), hi))
        self.first = list(range(n_ref + 1))
        # prefix tree: word -> (children, cost row)
        self._tree: dict = {}
        self._cached = 0
        # suffix rows: the words from a row on -> the row
        self._tails: dict = {}
        self.last = [n_ref - j for j in range(n_ref + 1)]
        self.none = [_INF] * (n_ref + 1)

    def _cost_row(self, prev: list[int], word: int, i: int) -> list[int]:
        lo, hi = self.bounds[i]
        ref = self.ref
        cur = [_INF] * (self.n_ref + 1)
        j = lo
        if lo == 0:
            cur[0] = prev[0] + 1
            j = 1
        left = cur[j - 1]
        for j in range(j, hi):  # noqa: B020 (the range is made once, from the start found above)
            c = prev[j - 1] if ref[j - 1] == word else prev[j - 1] + 1
            d = prev[j] + 1
            if d < c:
                c = d
            left += 1
            if left < c:
                c = left
            if c > _INF:
                c = _INF
            cur[j] = c
            left = c
        return cur

    def rows(self, words: Sequence[int]) -> list[list[int]]:
        """The band's cost rows for ``words`` (row 0 first), reusing shared prefixes."""
        node = self._tree
        out = [self.first]
        i = 0
        n = len(words)
        while i < n:
            hit = node.get(words[i])
            if hit is None:
                break
            node, row = hit
            out.append(row)
            i += 1
        while i < n:
            row = self._cost_row(out[-1], words[i], i + 1)
            out.append(row)
            if self._cached < _MAX_CACHED_ROWS:
                child: dict = {}
                node[words[i]] = (child, row)
                node = child
                self._cached += 1
            i += 1
        return out

    def cost(self, words: Sequence[int]) -> int:
        """The band's edit distance of ``words`` (cost only)."""
        return self.rows(words)[-1][-1]

    def suffix(self, words: Sequence[int], down_to: int = 1) -> list[list[int]]:
        """Rows of the cost from each band cell ``(i, j)`` to the last cell, for ``words`` (row 0 unused).

        The band's value is the cheapest path through its cells, so a
        hypothesis that agrees with ``words`` from position ``e`` on costs
        ``min(fwd[e][j] + suffix[e][j])`` with its own forward row ``e``.
        Rows are kept by the words they depend on (``words[i:]``); rows
        below ``down_to`` are left out (``None``).
        """
        n, memo = len(words), self._tails
        nxt = self.last
        out = [nxt]
        for i in range(n - 1, max(down_to, 1) - 1, -1):
            key = tuple(words[i:])
            row = memo.get(key)
            if row is None:
                row = self._tail_row(nxt, words[i], i)
                if len(memo) < _MAX_CACHED_ROWS:
                    memo[key] = row
            out.append(row)
            nxt = row
        out.extend([None] * max(down_to, 1))  # type: ignore[list-item]  # (rows no caller reads)
        out.reverse()
        return out

    def _tail_row(self, nxt: list[int], word: int, i: int) -> list[int]:
        """Suffix row ``i`` before ``nxt``: ``_cost_row`` from the other end."""
        lo, hi = self.bounds[i]
        ref, n_ref = self.ref, self.n_ref
        row = [_INF] * (n_ref + 1)
        right = _INF
        for j in range(hi - 1, lo - 1, -1):
            if j < n_ref:
                c = nxt[j + 1] if ref[j] == word else nxt[j + 1] + 1
            else:
                c = _INF
            d = nxt[j] + 1
            if d < c:
                c = d
            right += 1
            if right < c:
                c = right
            if c > _INF:
                c = _INF
            row[j] = c
            right = c
        return row

    def trace(self, words: Sequence[int]) -> tuple[int, list[int]]:
        """Edit distance and the operations (hypothesis to reference), as sacrebleu records them."""
        cost, path, _ = self.trace_rows(words)
        return cost, path

    def trace_rows(self, words: Sequence[int]) -> tuple[int, list[int], list[list[int]]]:
        """``trace`` and the band's cost rows it was read from.

        A cell keeps the first of match/substitution, deletion, insertion whose
        cost is strictly below the ones before, so its operation follows from
        the costs: the first of the three that reaches the cell's value.
        """
        ref = self.ref
        costs = self.rows(words)
        path: list[int] = []
        i, j = len(words), self.n_ref
        while i > 0 or j > 0:
            value = costs[i][j]
            if i == 0:
                how = INS
            elif j == 0:
                how = DEL
            else:
                same = words[i - 1] == ref[j - 1]
                if costs[i - 1][j - 1] + (0 if same else 1) == value:
                    how = NOP if same else SUB
                elif costs[i - 1][j] + 1 == value:
                    how = DEL
                else:
                    how = INS
            path.append(how)
            if how == NOP or how == SUB:
                i -= 1
                j -= 1
            elif how == INS:
                j -= 1
            else:
                i -= 1
        path.reverse()
        return costs[-1][-1], path, costs


def _alignment(path: Sequence[int]) -> tuple[dict[int, int], list[int], list[int]]:
    """sacrebleu's trace_to_alignment of the flipped trace (insertions and deletions swapped).

    Returns ref position -> hyp position, and per-position error flags of
    the reference and of the hypothesis.
    """
    pos_h = pos_r = -1
    align: dict[int, int] = {}
    ref_err: list[int] = []
    hyp_err: list[int] = []
    for how in path:
        if how == NOP or how == SUB:
            pos_h += 1
            pos_r += 1
            align[pos_r] = pos_h
            flag = 0 if how == NOP else 1
            hyp_err.append(flag)
            ref_err.append(flag)
        elif how == DEL:  # flipped: an insertion seen from the reference
            pos_h += 1
            hyp_err.append(1)
        else:  # INS, flipped: a deletion seen from the reference
            pos_r += 1
            align[pos_r] = pos_h
            ref_err.append(1)
    return align, ref_err, hyp_err


def _prefix(flags: Sequence[int]) -> list[int]:
    out = [0]
    for f in flags:
        out.append(out[-1] + f)
    return out


def _runs(hyp: Sequence[int], ref: Sequence[int], positions: dict[int, list[int]]):
    """(start_h, start_r, length) of matching runs, in sacrebleu's order."""
    n_h, n_r = len(hyp), len(ref)
    for start_h in range(n_h):
        for start_r in positions.get(hyp[start_h], ()):
            if start_r - start_h > _MAX_SHIFT_DIST:
                break
            if start_h - start_r > _MAX_SHIFT_DIST:
                continue
            length = 0
            while length < _MAX_SHIFT_SIZE and hyp[start_h + length] == ref[start_r + length]:
                length += 1
                yield start_h, start_r, length
                if start_h + length == n_h or start_r + length == n_r:
                    break


def _dest(start: int, length: int, target: int, n: int) -> int:
    """Where the moved block starts in the shifted words (``_moved``; ``n`` words)."""
    return target - length if target > start + length else min(target, n - length)


def _moved(words: list[int], start: int, length: int, target: int) -> list[int]:
    if target < start:
        return words[:target] + words[start : start + length] + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + words[start : start + length] + words[target:]
    return words[:start] + words[start + length : length + target] + words[start : start + length] + words[length + target :]


def _candidates(hyp: list[int], ref: Sequence[int], positions, align, ref_err, hyp_err, checked: int):
    """The round's candidate shifts (start, length, target), in sacrebleu's order, and the count so far."""
    hyp_sum, ref_sum = _prefix(hyp_err), _prefix(ref_err)
    out: list[tuple[int, int, int]] = []
    for start_h, start_r, length in _runs(hyp, ref, positions):
        if hyp_sum[start_h + length] == hyp_sum[start_h]:
            continue
        if ref_sum[start_r + length] == ref_sum[start_r]:
            continue
        if start_h <= align[start_r] < start_h + length:
            continue
        prev_idx = -1
        for offset in range(-1, length):
            if start_r + offset == -1:
                idx = 0
            elif start_r + offset in align:
                idx = align[start_r + offset] + 1
            else:
                break
            if idx == prev_idx:
                continue
            prev_idx = idx
            out.append((start_h, length, idx))
        if checked + len(out) >= _MAX_CANDIDATES:
            break
    return out, checked + len(out)


def _best_shift(band: _Band, hyp: list[int], ref: Sequence[int], positions, checked: int):
    """One round of the shift search: (gain, shifted words, candidates checked so far).

    A round that reaches the candidate limit is dropped by the caller, so
    its candidates are not costed.
    """
    pre, path, rows = band.trace_rows(hyp)
    align, ref_err, hyp_err = _alignment(path)
    cands, checked = _candidates(hyp, ref, positions, align, ref_err, hyp_err, checked)
    if not cands or checked >= _MAX_CANDIDATES:
        return 0, hyp, checked
    n_hyp = len(hyp)
    spans = []
    for start, length, target in cands:
        dest = _dest(start, length, target, n_hyp)
        spans.append((min(start, dest), max(start, dest) + length))
    tails = band.suffix(hyp, min(e for _, e in spans))
    work = sum(e - p for p, e in spans)
    walk = max(e for _, e in spans) - min(p for p, _ in spans)
    if _PY_ROW * work > _NP_SETUP + walk * (_NP_ROW + _NP_CELL * len(cands)):
        costs = shifted_costs(band.bounds, ref, hyp, rows, tails, cands)
    else:
        costs = []
        for (start, length, target), (_, e) in zip(cands, spans):
            fwd = band.rows(_moved(hyp, start, length, target)[:e])[e]
            tail = tails[e]
            lo, hi = band.bounds[e]
            costs.append(min([fwd[j] + tail[j] for j in range(lo, hi)]))
    best = None
    for (start_h, length, idx), cost in zip(cands, costs):
        key = (pre - cost, length, -start_h, -idx)
        if best is None or key > best:
            best = key
    assert best is not None  # cands is not empty
    gain, length, start_h, idx = best[0], best[1], -best[2], -best[3]
    return gain, _moved(hyp, start_h, length, idx), checked


def _ids(hyp: Sequence[str], ref: Sequence[str]) -> tuple[list[int], list[int]]:
    vocab: dict[str, int] = {}
    ref_ids = [vocab.setdefault(w, len(vocab)) for w in ref]
    hyp_ids = [vocab.setdefault(w, len(vocab)) for w in hyp]
    return hyp_ids, ref_ids


def ter_edits(hyp_words: Sequence[str], ref_words: Sequence[str]) -> TerResult:
    """TER's edits of ``hyp_words`` against ``ref_words`` (sacrebleu's translation_edit_rate)."""
    n_ref = len(ref_words)
    if n_ref == 0:
        n = len(hyp_words)
        return TerResult(n, 0, 0, 0, n, 0)
    if list(hyp_words) == list(ref_words):
        return TerResult(0, n_ref, 0, 0, 0, 0)
    hyp, ref = _ids(hyp_words, ref_words)
    positions: dict[int, list[int]] = {}
    for j, w in enumerate(ref):
        positions.setdefault(w, []).append(j)
    band = _Band(ref, len(hyp))
    shifts = checked = 0
    while True:
        gain, moved, checked = _best_shift(band, hyp, ref, positions, checked)
        if checked >= _MAX_CANDIDATES or gain <= 0:
            break
        shifts += 1
        hyp = moved
    distance, path = band.trace(hyp)
    ins = path.count(INS)
    dels = path.count(DEL)
    subs = path.count(SUB)
    return TerResult(shifts + distance, n_ref, shifts, ins, dels, subs)
