"""Which reference n-grams a system misses, and which n-grams one system
gets right where another does not (compare-mt's n-gram analysis, with
BLEU's clipped counts).

Per line, an n-gram's *matches* are ``min(hypothesis count, reference
count)`` with the reference count the most in any one reference, as BLEU
clips; its *misses* are the first reference's count minus the matches
against that reference.  Both are summed over the lines looked at.
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .words import merged_ref_counts, ngrams

Gram = tuple[str, ...]


@dataclass
class GramTally:
    """One system's summed matches per n-gram: against all references (BLEU's
    clip) and against the first reference (the same counter with one)."""

    matched: Counter = field(default_factory=Counter)
    matched_first: Counter = field(default_factory=Counter)


class RefGrams:
    """The first reference's n-gram counts over the lines looked at, by order."""

    def __init__(self, max_order: int) -> None:
        self.by_order: dict[int, Counter] = {n: Counter() for n in range(1, max_order + 1)}
        self._repeated: dict = {}

    def group(self, orders: range, repeated: bool) -> list:
        """(n-gram, count) of the given orders; only counts over 1 when ``repeated``."""
        key = (orders.start, orders.stop, repeated)
        if key not in self._repeated:
            items = [gc for n in orders for gc in self.by_order.get(n, Counter()).items()]
            self._repeated[key] = [gc for gc in items if gc[1] > 1] if repeated else items
        return self._repeated[key]

    def __getitem__(self, gram: Gram) -> int:
        return self.by_order[len(gram)][gram]


def _add_matches(into: Counter, hyp: Counter, ref: Counter) -> None:
    for gram in hyp.keys() & ref.keys():
        h, r = hyp[gram], ref[gram]
        into[gram] += h if h < r else r


def tally(
    tokens: Callable[[str], list[str]],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    lines: Sequence[int],
    max_order: int = 4,
) -> tuple[list[GramTally], RefGrams]:
    """Tallies of each system over ``lines``, and the first reference's n-gram counts."""
    several = len(refs) > 1
    out = []
    for _ in systems:
        t = GramTally()
        if not several:
            t.matched_first = t.matched
        out.append(t)
    in_ref = RefGrams(max_order)
    for i in lines:
        ref_toks = [tokens(r[i]) for r in refs]
        hyp_toks = [tokens(hyp[i]) for hyp in systems]
        for n in range(1, max_order + 1):
            grams = ngrams(ref_toks[0], n)
            first = Counter(grams)
            in_ref.by_order[n].update(grams)  # from a list: counted in C
            merged = merged_ref_counts(ref_toks, n) if several else first
            for t, toks in zip(out, hyp_toks):
                hyp_counts = Counter(ngrams(toks, n))
                _add_matches(t.matched, hyp_counts, merged)
                if several:
                    _add_matches(t.matched_first, hyp_counts, first)
    return out, in_ref


def _row(gram: Gram, **numbers: int) -> dict:
    return {"ngram": " ".join(gram), "n": len(gram), **numbers}


def most_missed(t: GramTally, in_ref: RefGrams, top: int, orders: range) -> list[dict]:
    """The n-grams of the given orders most often missed, most first (ties: longer, then by text).

    Misses are reference occurrences less matches.  The n-grams seen once in
    the reference are looked at only when the repeated ones do not fill the
    table with misses of 2 or more (on large inputs they are most n-grams).
    """
    got = t.matched_first.get

    def best(items: list) -> list:
        keyed = ((-(c - got(g, 0)), -len(g), g) for g, c in items if c > got(g, 0))
        return heapq.nsmallest(top, keyed)

    rows = best(in_ref.group(orders, repeated=True))
    if len(rows) < top or -rows[-1][0] < 2:
        rows = best(in_ref.group(orders, repeated=False))
    return [_row(g, missed=-m, in_reference=in_ref[g]) for m, _, g in rows]


def gained(a: GramTally, b: GramTally, top: int) -> list[dict]:
    """N-grams ``b`` matches more often than ``a``, by the difference, largest first."""
    got = a.matched.get
    keyed = ((-(cb - got(g, 0)), -len(g), g, cb) for g, cb in b.matched.items() if cb > got(g, 0))
    return [_row(g, this=cb, other=cb + d) for d, _, g, cb in heapq.nsmallest(top, keyed)]
