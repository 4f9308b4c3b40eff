"""Text rules: ``empty-hypothesis``, ``untranslated``, ``repetition``.

They read the line text, so what they compute per line is memoised by text
(``Analyzer.line_facts``): a pass over unchanged lines costs dictionary
lookups.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import compress, count
from operator import eq
from typing import Callable, Iterable, Iterator, Optional, Sequence

from . import wording
from .context import EMPTY, PLAIN, LineContext
from .findings import Finding

Candidates = tuple[tuple[tuple[str, ...], int], ...]


def normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


def has_word(tokens: Iterable[str]) -> bool:
    return any(ch.isalnum() for t in tokens for ch in t)


def line_facts(line: str, repetition, tokens: Callable[[str], list]):
    """EMPTY, PLAIN, or the line's looping candidates ((phrase, run), …)."""
    if not line.strip():
        return EMPTY
    if not repetition.enabled:
        return PLAIN
    toks = tokens(line)
    if len(toks) < repetition.min_count:
        return PLAIN
    cands = tuple(
        (g, r) for g, r in tandem_runs(toks, repetition.max_n).items() if r >= repetition.min_count and has_word(g)
    )
    return cands or PLAIN


def empty_hypothesis(ctx: LineContext, c) -> Iterator[Finding]:
    """An empty line where a reference has a translation."""
    info, refs = ctx.info, ctx.refs
    for i in ctx.special:
        if info[i] is EMPTY and any(r[i].strip() for r in refs):
            yield Finding(i, "empty-hypothesis", c.severity, wording.EMPTY_HYPOTHESIS)


def repetition(ctx: LineContext, c) -> Iterator[Finding]:
    """A phrase looping back to back, far more often than in the reference."""
    info, refs, tokens = ctx.info, ctx.refs, ctx.tokens
    lowercase = ctx.settings.bleu.lowercase
    for i in ctx.special:
        cands = info[i]
        if cands is EMPTY:
            continue
        best = pick_repetition(cands, [tokens(r[i]) for r in refs], c.factor)
        if best is None:
            continue
        gram, run, ref_count = best
        phrase = " ".join(gram)
        start, end = phrase_span(ctx.hyp[i], gram, lowercase)
        data = {"phrase": phrase, "count": run, "referenceCount": ref_count}
        yield Finding(i, "repetition", c.severity, wording.repetition(phrase, run, ref_count), start, end, data)


def untranslated(ctx: LineContext, c) -> Iterator[Finding]:
    """A line equal to its source line (spaces and case aside), unless the
    reference keeps the source too (a name, a title)."""
    if ctx.source is None:
        return
    hyp_norm, src_norm = ctx.normalised
    norm = ctx.analyzer.norm
    for i in compress(count(), map(eq, hyp_norm, src_norm)):
        h = hyp_norm[i]
        if not h or not any(ch.isalpha() for ch in h):
            continue
        if any(norm[r[i]] == h for r in ctx.refs):
            continue
        yield Finding(i, "untranslated", c.severity, wording.UNTRANSLATED)


def tandem_runs(tokens: Sequence[str], max_n: int) -> dict[tuple[str, ...], int]:
    """Phrases repeated back to back: {phrase: longest run} for runs of 2 or more.

    A phrase is 1..max_n tokens; a phrase that is itself a repetition of a
    shorter one ("die die") is reported as the shorter one.
    """
    toks = list(tokens)
    n_tok = len(toks)
    runs: dict[tuple[str, ...], int] = {}
    for n in range(1, max_n + 1):
        for i in range(0, n_tok - 2 * n + 1):
            if toks[i] != toks[i + n] or toks[i : i + n] != toks[i + n : i + 2 * n]:
                continue
            gram = tuple(toks[i : i + n])
            run, j = 2, i + 2 * n
            while j + n <= n_tok and tuple(toks[j : j + n]) == gram:
                run += 1
                j += n
            if not any(n % k == 0 and gram == gram[:k] * (n // k) for k in range(1, n)):
                if run > runs.get(gram, 0):
                    runs[gram] = run
    return runs


def find_repetition(
    hyp_tokens: Sequence[str], ref_tokens, max_n: int, min_count: int, factor: float
) -> Optional[tuple[tuple[str, ...], int, int]]:
    """A looping phrase: (phrase, times in a row in the hypothesis, count in the reference).

    Looping is a phrase (1..max_n tokens, with at least one letter or
    digit) repeated back to back at least ``min_count`` times, and at least
    ``factor`` times as often as the phrase occurs in the reference that has
    it most (absent counts as once).  "sehr, sehr, sehr" in both hypothesis
    and reference is not flagged; the same word three times spread over a
    long sentence is not looping and is not flagged either.  Among flagged
    phrases the one covering the most tokens wins.  ``ref_tokens`` is the
    references' token lists, or a function returning them (called only when
    the hypothesis has a candidate).
    """
    if len(hyp_tokens) < min_count:
        return None
    cands = [(g, r) for g, r in tandem_runs(hyp_tokens, max_n).items() if r >= min_count and has_word(g)]
    if not cands:
        return None
    return pick_repetition(cands, ref_tokens() if callable(ref_tokens) else ref_tokens, factor)


def pick_repetition(
    cands: Iterable[tuple[tuple[str, ...], int]], ref_tokens: Sequence[Sequence[str]], factor: float
) -> Optional[tuple[tuple[str, ...], int, int]]:
    """Among looping candidates (phrase, run), the one that repeats at least
    ``factor`` times as often as in the references and covers the most tokens."""
    best: Optional[tuple[tuple[str, ...], int, int]] = None
    best_cover = 0
    for gram, run in cands:
        n = len(gram)
        r = max((Counter(zip(*[t[i:] for i in range(n)])).get(gram, 0) for t in ref_tokens), default=0)
        if run >= factor * max(r, 1):
            cover = run * n
            if cover > best_cover or (cover == best_cover and best is not None and n < len(best[0])):
                best, best_cover = (gram, run, r), cover
    return best


def phrase_span(line: str, gram: Sequence[str], ignore_case: bool) -> tuple[int, Optional[int]]:
    """Columns from the phrase's first to its last occurrence, else the line."""
    try:
        rx = re.compile(r"\s*".join(re.escape(t) for t in gram), re.IGNORECASE if ignore_case else 0)
    except re.error:
        return 0, None
    spans = [m.span() for m in rx.finditer(line)]
    if len(spans) < 2:
        return 0, None
    return spans[0][0], spans[-1][1]
