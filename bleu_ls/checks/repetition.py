"""Looping output: a phrase repeated back to back far more than in the reference.

The corrected rule: phrases are compared with the reference case-folded
("Ding, Ding, Ding" against "ding, ding, ding" is not a loop), and a phrase
must start with a letter or digit (", ding" is never reported; the loop is
"ding").  Tokens are whatever the caller's tokenizer makes of the line
(BLEU's tokens in the diagnostics).
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

from . import Issue, quoted


def _starts_with_word(gram: Sequence[str]) -> bool:
    return bool(gram) and bool(gram[0]) and gram[0][0].isalnum()


def loops(tokens: Sequence[str], max_n: int) -> dict[tuple[str, ...], int]:
    """{phrase: longest back-to-back run} for phrases of 1..max_n case-folded
    tokens that repeat at least twice in a row; a phrase that is itself a
    repetition of a shorter one ("die die") is left to the shorter one."""
    toks = [t.casefold() for t in tokens]
    n_tok = len(toks)
    runs: dict[tuple[str, ...], int] = {}
    for n in range(1, max_n + 1):
        for i in range(0, n_tok - 2 * n + 1):
            gram = tuple(toks[i : i + n])
            if tuple(toks[i + n : i + 2 * n]) != gram:
                continue
            if any(n % k == 0 and gram == gram[:k] * (n // k) for k in range(1, n)):
                continue
            run, j = 2, i + 2 * n
            while tuple(toks[j : j + n]) == gram:
                run += 1
                j += n
            runs[gram] = max(run, runs.get(gram, 0))
    return runs


def _count_in(tokens: Sequence[str], gram: tuple[str, ...]) -> int:
    n = len(gram)
    toks = [t.casefold() for t in tokens]
    return Counter(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)).get(gram, 0)


def check_repetition(
    tokens: Sequence[str],
    reference_tokens: Sequence[Sequence[str]],
    max_n: int = 4,
    min_count: int = 3,
    factor: float = 2.0,
) -> Optional[Issue]:
    """An issue for the looping phrase covering the most tokens: repeated at
    least ``min_count`` times in a row and ``factor`` times as often as in the
    reference that has it most (absent counts as once)."""
    if len(tokens) < min_count:
        return None
    best = None
    for gram, run in loops(tokens, max_n).items():
        if run < min_count or not _starts_with_word(gram):
            continue
        in_ref = max((_count_in(r, gram) for r in reference_tokens), default=0)
        if run < factor * max(in_ref, 1):
            continue
        key = (run * len(gram), -len(gram))
        if best is None or key > best[0]:
            best = (key, gram, run, in_ref)
    if best is None:
        return None
    _key, gram, run, in_ref = best
    phrase = " ".join(gram)
    where = "and not in the reference" if in_ref == 0 else f"but {in_ref} times in the reference"
    return Issue(
        f"{quoted(phrase)} repeats {run} times in a row here {where}: the output may be looping.",
        0,
        None,
        {"phrase": phrase, "count": run, "referenceCount": in_ref},
    )
