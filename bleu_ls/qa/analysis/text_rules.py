"""Text rules: ``empty-hypothesis``, ``untranslated``, ``repetition``, ``doubled-word``.

They read the line text, so what they compute per line is memoised by text
(``Analyzer.line_facts``): a pass over unchanged lines costs dictionary
lookups.

A line over the ``maxLineBytes`` cap (the hypothesis line or a reference
line; see :func:`over_cap`) is not read by the text checks at all — here and
in the per-line checks of :mod:`bleu_ls.qa.text` (numbers, markup,
punctuation, language, the line alignment): looking for loops in a 10 MB
line took a minute, and a check on a megabyte of text says nothing about a
translation line.  ``bleu-ls check`` and the server share these rules and
the setting, so they give the same findings; the hover says the line is
over the cap.
"""

from __future__ import annotations

import re
from itertools import compress, count
from operator import eq
from typing import Callable, Iterator, Optional, Sequence

from ..text import doubled
from ..text import repetition as loops
from . import wording
from .context import EMPTY, PLAIN, LineContext
from ..findings import Finding
from .memo import Memo

Candidates = tuple[tuple[tuple[str, ...], int], ...]


def over_cap(text: str, cap: Optional[int]) -> bool:
    """Is ``text`` longer than ``cap`` UTF-8 bytes (None or 0: no cap)?  The
    engine's rule for lines scored in the background (only the length is
    read unless the line is near the cap)."""
    if not cap or len(text) * 4 <= cap:
        return False
    return len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap


def any_over_cap(key, cap: Optional[int]) -> bool:
    """Is a text of ``key`` (a text, or a tuple of texts and None) over the cap?"""
    if not cap:
        return False
    if isinstance(key, str):
        return over_cap(key, cap)
    return any(isinstance(x, str) and over_cap(x, cap) for x in key)


def skipping_long(fn: Callable, cap: Optional[int], nothing):
    """``fn(key)``, or ``nothing`` when a text of ``key`` is over the cap."""
    if not cap:
        return fn

    def guarded(key):
        return nothing if any_over_cap(key, cap) else fn(key)

    return guarded


def normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


def line_facts(line: str, repetition, tokens: Callable[[str], list], cap: Optional[int] = None):
    """EMPTY, PLAIN, or the line's looping candidates ((phrase, run), …):
    case-folded phrases starting with a letter or digit (checks.repetition).
    A line over ``cap`` bytes is PLAIN (not read)."""
    if over_cap(line, cap):
        return PLAIN
    if not line.strip():
        return EMPTY
    if not repetition.enabled:
        return PLAIN
    cands = loops.candidates(tokens(line), repetition.max_n, repetition.min_count)
    return cands or PLAIN


def empty_hypothesis(ctx: LineContext, c) -> Iterator[Finding]:
    """An empty line where a reference has a translation."""
    info, refs = ctx.info, ctx.refs
    for i in ctx.special:
        if info[i] is EMPTY and any(r[i].strip() for r in refs):
            yield Finding("empty-hypothesis", c.severity, wording.EMPTY_HYPOTHESIS, line=i)


_UNSEEN = object()
#: repetition verdicts kept between passes
VERDICT_LIMIT = 20000


def repetition(ctx: LineContext, c) -> Iterator[Finding]:
    """A phrase looping back to back, far more often than in the reference."""
    info, refs, tokens = ctx.info, ctx.refs, ctx.tokens
    # the verdict per (candidates, reference lines): an edit elsewhere
    # leaves every other looping line's reference untokenized
    memo = ctx.analyzer.repetition_verdicts
    if len(memo) > VERDICT_LIMIT:
        memo.clear()  # verdicts are recomputed as needed: only a cost
    cap = ctx.settings.max_line_bytes
    for i in ctx.special:
        cands = info[i]
        if cands is EMPTY or any(over_cap(r[i], cap) for r in refs):
            continue
        key = (cands, tuple(r[i] for r in refs), c.factor)
        best = memo.get(key, _UNSEEN)
        if best is _UNSEEN:
            best = memo[key] = pick_repetition(cands, [tokens(r[i]) for r in refs], c.factor)
        if best is None:
            continue
        gram, run, ref_count = best
        start, end = phrase_span(ctx.hyp[i], gram, True)
        phrase = first_occurrence(ctx.hyp[i], gram) or " ".join(gram)  # as written in the line
        data = {"phrase": phrase, "count": run, "referenceCount": ref_count}
        yield Finding("repetition", c.severity, wording.repetition(phrase, run, ref_count, bool(refs)), line=i, start_col=start, end_col=end, data=data)


def doubled_params(ctx: LineContext, c) -> frozenset:
    """What every line's ``doubled-word`` verdict depends on besides the line (and its
    source line): the allowed doubles of the setting's language, else of the language
    the file declares for its targets, else of every language."""
    return doubled.allowed_for(c.language or ctx.names.get("target_language"))


#: doubled-word: lines' doubles kept between passes (cleared past this and three times the document)
DOUBLES_LIMIT = 20000


def doubled_word(ctx: LineContext, c) -> Iterator[Finding]:
    """The same word twice in a row (:mod:`bleu_ls.qa.text.doubled`), unless the
    language allows that double or the source line (or a reference line) doubles
    the same word."""
    state = ctx.state("doubled-word")
    memo = state.get("memo")
    cap = ctx.settings.max_line_bytes
    if memo is None or len(memo) > max(DOUBLES_LIMIT, 3 * ctx.n):
        # a line's doubles, memoised by its text (most lines: the one empty tuple)
        memo = state["memo"] = Memo(skipping_long(doubled.pairs, cap, ()))
    allowed = doubled_params(ctx, c)
    lo, hi = ctx.span
    source = ctx.source
    values = list(map(memo.__getitem__, ctx.hyp[lo:hi]))
    for i in compress(count(lo), values):
        if all(d[0] in allowed for d in values[i - lo]):
            continue
        src = source[i] if source is not None and i < len(source) else None
        if src is not None and over_cap(src, cap):
            src = None
        line = ctx.hyp[i]
        refs = [r[i] for r in ctx.refs if i < len(r) and not over_cap(r[i], cap)]
        issue = doubled.check_doubled(line, src, allowed, refs)
        if issue is not None:
            d = issue.data
            yield Finding("doubled-word", c.severity, wording.doubled_word(d["first"], d["word"], d["count"]),
                          line=i, start_col=issue.start, end_col=issue.end, data=dict(d))


def untranslated(ctx: LineContext, c) -> Iterator[Finding]:
    """A line equal to its source line (spaces and case aside), unless the
    reference keeps the source too (a name, a title)."""
    if ctx.source is None:
        return
    hyp_norm, src_norm = ctx.normalised
    norm = ctx.analyzer.norm
    lo, hi = ctx.span
    for i in compress(count(lo), map(eq, hyp_norm[lo:hi], src_norm[lo:hi])):
        h = hyp_norm[i]
        if not h or not any(ch.isalpha() for ch in h):
            continue
        if any(norm[r[i]] == h for r in ctx.refs):
            continue
        yield Finding("untranslated", c.severity, wording.UNTRANSLATED, line=i)


#: phrases repeated back to back, case-folded: {phrase: longest run}
tandem_runs = loops.loops


def find_repetition(
    hyp_tokens: Sequence[str], ref_tokens, max_n: int, min_count: int, factor: float
) -> Optional[tuple[tuple[str, ...], int, int]]:
    """A looping phrase: (phrase, times in a row in the hypothesis, count in the reference).

    Looping is a phrase (1..max_n tokens, starting with a letter or digit)
    repeated back to back at least ``min_count`` times, and at least
    ``factor`` times as often as the phrase occurs in the reference that has
    it most (absent counts as once), compared case-folded.  "sehr, sehr,
    sehr" in both hypothesis and reference is not flagged; the same word
    three times spread over a long sentence is not looping and is not
    flagged either.  ``ref_tokens`` is the references' token lists, or a
    function returning them (called only when the hypothesis has a candidate).
    """
    cands = loops.candidates(hyp_tokens, max_n, min_count)
    if not cands:
        return None
    return pick_repetition(cands, ref_tokens() if callable(ref_tokens) else ref_tokens, factor)


#: among looping candidates, the one to report (checks.repetition.pick)
pick_repetition = loops.pick


def first_occurrence(line: str, gram: Sequence[str]) -> Optional[str]:
    """The phrase as the line writes it the first time (compared case-folded)."""
    try:
        m = re.search(r"\s*".join(re.escape(t) for t in gram), line, re.IGNORECASE)
    except re.error:
        return None
    return " ".join(m.group().split()) if m else None


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
