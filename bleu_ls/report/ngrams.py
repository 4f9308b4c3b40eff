"""Which reference n-grams a system misses, and which n-grams one system
gets right where another does not (compare-mt's n-gram analysis, with
BLEU's clipped counts).

Per line, an n-gram's *matches* are ``min(hypothesis count, reference
count)`` with the reference count the most in any one reference, as BLEU
clips; its *misses* are the first reference's count minus the matches
against that reference.  Both are summed over the lines looked at.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .words import merged_ref_counts, ngrams

Gram = tuple[str, ...]


@dataclass
class GramTally:
    """One system's summed matches and misses per reference n-gram."""

    matched: Counter = field(default_factory=Counter)
    missed: Counter = field(default_factory=Counter)


def tally(
    tokens: Callable[[str], list[str]],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    lines: Sequence[int],
    max_order: int = 4,
) -> tuple[list[GramTally], Counter]:
    """Tallies of each system over ``lines``, and the first reference's n-gram counts."""
    out = [GramTally() for _ in systems]
    in_ref: Counter = Counter()
    for i in lines:
        ref_toks = [tokens(r[i]) for r in refs]
        hyp_toks = [tokens(hyp[i]) for hyp in systems]
        for n in range(1, max_order + 1):
            first = Counter(ngrams(ref_toks[0], n))
            in_ref.update(first)
            merged = first if len(refs) == 1 else merged_ref_counts(ref_toks, n)
            for s, toks in enumerate(hyp_toks):
                hyp_counts = Counter(ngrams(toks, n))
                t = out[s]
                for gram, c in hyp_counts.items():
                    r = merged.get(gram)
                    if r:
                        t.matched[gram] += c if c < r else r
                for gram, r in first.items():
                    c = hyp_counts.get(gram, 0)
                    if c < r:
                        t.missed[gram] += r - c
    return out, in_ref


def _row(gram: Gram, **numbers: int) -> dict:
    return {"ngram": " ".join(gram), "n": len(gram), **numbers}


def most_missed(t: GramTally, in_ref: Counter, top: int, orders: range) -> list[dict]:
    """The n-grams of the given orders most often missed, most first."""
    grams = [(g, c) for g, c in t.missed.items() if len(g) in orders]
    grams.sort(key=lambda gc: (-gc[1], -len(gc[0]), gc[0]))
    return [_row(g, missed=c, in_reference=in_ref[g]) for g, c in grams[:top]]


def gained(a: GramTally, b: GramTally, top: int) -> list[dict]:
    """N-grams ``b`` matches more often than ``a``, by the difference, largest first."""
    diffs = []
    for g, cb in b.matched.items():
        d = cb - a.matched.get(g, 0)
        if d > 0:
            diffs.append((g, d, cb))
    diffs.sort(key=lambda x: (-x[1], -len(x[0]), x[0]))
    return [_row(g, this=cb, other=cb - d) for g, d, cb in diffs[:top]]
