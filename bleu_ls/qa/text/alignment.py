"""Stretches of lines shifted against the reference.

When a line is dropped or split upstream, every line after it is compared
with its neighbour's reference and scores low: a run of low-score warnings
that hides the one real problem.  Here each line is compared with its own
reference line and with the reference lines 1 and 2 away (a bag-of-words F1
over case-folded words); a line *leans* by ``d`` when reference line
``i + d`` matches it clearly better than its own.  A run of at least
``min_run`` lines leaning the same way, with gaps of at most ``max_gap``
lines between them, is one stretch, reported once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from . import Finding, finding

_WORD_RE = re.compile(r"\w+")
_WORDS_IN_ENGLISH = {1: "one", 2: "two"}


@lru_cache(maxsize=4096)
def _bag(text: str) -> tuple[Counter, int]:
    """(word counts, word total) of a line.  The cache serves a pass over the
    document's windows (each reference line is read by five neighbouring
    lines), not the whole document: 65,536 entries held ~100 MB at 100k lines."""
    words = _WORD_RE.findall(text.casefold())
    return Counter(words), len(words)


def forget_bags() -> None:
    """Drop the word bags of the last pass (a server calls it between passes)."""
    _bag.cache_clear()


def overlap(a: Counter, b: Counter) -> float:
    """Bag-of-words F1 of two lines (0 when either has no words)."""
    return _overlap(a, sum(a.values()), b, sum(b.values()))


def _overlap(a: Counter, total_a: int, b: Counter, total_b: int) -> float:
    """:func:`overlap` with the word totals known: only the words the two
    share are visited (their key sets intersect in C)."""
    if not total_a or not total_b:
        return 0.0
    common = sum(min(a[k], b[k]) for k in a.keys() & b.keys())
    return 2.0 * common / (total_a + total_b)


@dataclass
class Stretch:
    """Lines ``start``..``end`` (0-based, inclusive) match reference lines ``shift`` away."""

    start: int
    end: int
    shift: int

    def issue(self) -> Finding:
        n = abs(self.shift)
        by = _WORDS_IN_ENGLISH.get(n, str(n))
        cause = (
            "a line seems to be missing (or merged) at the start"
            if self.shift > 0
            else "there seems to be an extra (or split) line at the start"
        )
        return finding(
            "misaligned",
            f"Lines {self.start + 1}\u2013{self.end + 1} look shifted by {by} against the reference: each "
            f"matches the reference line {n} {'below' if self.shift > 0 else 'above'} its own better; {cause}.",
            0,
            None,
            {"start": self.start, "end": self.end, "shift": self.shift},
        )


#: how far a line looks for its reference line (±2 lines)
REACH = 2


def window_key(hypothesis: Sequence[str], reference: Sequence[str], i: int, reach: int = REACH,
               n: Optional[int] = None) -> tuple:
    """(line i, reference lines i-reach .. i+reach), None past the ends (the
    paired lines: ``n``, else the shorter list's): what decides a line's
    leaning, so :func:`lean` can be memoised by it."""
    if n is None:
        n = min(len(hypothesis), len(reference))
    return (hypothesis[i], *[reference[j] if 0 <= j < n else None for j in range(i - reach, i + reach + 1)])


def window_keys(hypothesis: Sequence[str], reference: Sequence[str], reach: int = REACH) -> list[tuple]:
    """:func:`window_key` of every paired line."""
    n = min(len(hypothesis), len(reference))
    padded = [None] * reach + list(reference[:n]) + [None] * reach
    width = 2 * reach + 1
    return [(hypothesis[i], *padded[i : i + width]) for i in range(n)]


def lean(key: tuple, margin: float = 0.2, min_overlap: float = 0.3) -> Optional[int]:
    """The leaning of one line from its :func:`window_keys` key: the shift d
    whose reference line matches it better than its own by ``margin`` and at
    least ``min_overlap``; 0 when its own line is best; None when no line
    matches (too short, no words)."""
    hyp, total = _bag(key[0])
    window = key[1:]
    reach = len(window) // 2
    own = _overlap(hyp, total, *_bag(window[reach]))
    best_d, best = 0, own
    for k, ref in enumerate(window):
        if k != reach and ref is not None:
            s = _overlap(hyp, total, *_bag(ref))
            if s > best:
                best_d, best = k - reach, s
    if best_d and best >= min_overlap and best >= own + margin:
        return best_d
    return 0 if own >= min_overlap else None


def leanings(hypothesis: Sequence[str], reference: Sequence[str], reach: int = REACH) -> list[Optional[int]]:
    """:func:`lean` of every paired line."""
    return [lean(k) for k in window_keys(hypothesis, reference, reach)]


def stretches_from(lean_of_line: Sequence[Optional[int]], min_run: int = 3, max_gap: int = 3) -> list[Stretch]:
    """Runs of lines leaning the same way, joined across gaps of up to
    ``max_gap`` lines (paraphrased lines that cannot tell, a line matching
    its own reference by chance); a stretch needs ``min_run`` leaning lines."""
    runs: list[list[int]] = []  # [start, last, shift, leaning lines]
    for i, d in enumerate(lean_of_line):
        if not d:
            continue
        if runs and runs[-1][2] == d and i - runs[-1][1] - 1 <= max_gap:
            runs[-1][1] = i
            runs[-1][3] += 1
        else:
            runs.append([i, i, d, 1])
    return [Stretch(a, b, d) for a, b, d, count in runs if count >= min_run]


def find_stretches(hypothesis: Sequence[str], reference: Sequence[str], min_run: int = 3) -> list[Stretch]:
    """The shifted stretches of a document (see the module doc)."""
    return stretches_from(leanings(hypothesis, reference), min_run)
