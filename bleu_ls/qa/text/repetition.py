"""Looping output: a phrase repeated back to back far more than in the reference.

The corrected rule: phrases are compared case-folded, in the line and in the
reference ("Ding, Ding, Ding" against "ding, ding, ding" is not a loop), and
a phrase must start with a letter or digit (", ding" is never reported; the
loop is "ding ,").  Tokens are whatever the caller's tokenizer makes of the
line (BLEU's tokens in the diagnostics).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Optional, Sequence

from . import Finding, finding, quoted

Gram = tuple[str, ...]


def starts_with_word(gram: Sequence[str]) -> bool:
    """Does the phrase start with a letter or digit?"""
    return bool(gram) and gram[0][:1].isalnum()


def loops(tokens: Sequence[str], max_n: int) -> dict[Gram, int]:
    """{phrase: longest back-to-back run} for phrases of 1..max_n case-folded
    tokens that repeat at least twice in a row; a phrase that is itself a
    repetition of a shorter one ("die die") is left to the shorter one."""
    toks = [t.casefold() for t in tokens]
    n_tok = len(toks)
    runs: dict[Gram, int] = {}
    for n in range(1, max_n + 1):
        for i in range(0, n_tok - 2 * n + 1):
            if toks[i] != toks[i + n] or toks[i : i + n] != toks[i + n : i + 2 * n]:
                continue
            gram = tuple(toks[i : i + n])
            if any(n % k == 0 and gram == gram[:k] * (n // k) for k in range(1, n)):
                continue
            run, j = 2, i + 2 * n
            while j + n <= n_tok and tuple(toks[j : j + n]) == gram:
                run += 1
                j += n
            if run > runs.get(gram, 0):
                runs[gram] = run
    return runs


def reference_count(tokens: Sequence[str], gram: Gram) -> int:
    """How often the (case-folded) phrase occurs in a reference's tokens."""
    n = len(gram)
    toks = [t.casefold() for t in tokens]
    return Counter(zip(*[toks[i:] for i in range(n)])).get(gram, 0)


def pick(cands: Iterable[tuple[Gram, int]], reference_tokens: Sequence[Sequence[str]], factor: float) -> Optional[tuple[Gram, int, int]]:
    """Among looping candidates (phrase, run), the one that repeats at least
    ``factor`` times as often as in the reference that has it most (absent
    counts as once) and covers the most tokens (ties: the shorter phrase):
    (phrase, run, count in that reference)."""
    best, best_key = None, None
    for gram, run in cands:
        in_ref = max((reference_count(r, gram) for r in reference_tokens), default=0)
        if run < factor * max(in_ref, 1):
            continue
        key = (run * len(gram), -len(gram))
        if best_key is None or key > best_key:
            best, best_key = (gram, run, in_ref), key
    return best


def candidates(tokens: Sequence[str], max_n: int, min_count: int) -> tuple[tuple[Gram, int], ...]:
    """Looping candidates of a line: runs of at least ``min_count`` of a phrase starting with a word."""
    if len(tokens) < min_count:
        return ()
    return tuple((g, r) for g, r in loops(tokens, max_n).items() if r >= min_count and starts_with_word(g))


def check_repetition(
    tokens: Sequence[str],
    reference_tokens: Sequence[Sequence[str]],
    max_n: int = 4,
    min_count: int = 3,
    factor: float = 2.0,
) -> Optional[Finding]:
    """An issue for the line's looping phrase (see :func:`pick`), else None."""
    best = pick(candidates(tokens, max_n, min_count), reference_tokens, factor)
    if best is None:
        return None
    gram, run, in_ref = best
    phrase = " ".join(gram)
    where = "and not in the reference" if in_ref == 0 else f"but {in_ref} times in the reference"
    return finding(
        "repetition",
        f"{quoted(phrase)} repeats {run} times in a row here {where}: the output may be looping.",
        0,
        None,
        {"phrase": phrase, "count": run, "referenceCount": in_ref},
    )
