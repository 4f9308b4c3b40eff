"""Length rules: ``length-ratio``, the line much shorter or longer than its
reference (token counts from the BLEU statistics, else counted); ``length-limit``,
the line longer than ``maxRatio`` × its source line's characters (off by default:
:mod:`bleu_ls.qa.text.length_limit`, the same verdict the PO, XLIFF and TMX checks give)."""

from __future__ import annotations

from typing import Iterator, Optional

import numpy as np

from ..text.length import length_issue
from ..text.length_limit import SMALL_SOURCE, line_finding
from .context import LineContext
from ..findings import Finding


def length_ratio(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines (in the rule's span) much shorter or longer than their
    reference; the message says what is known (checks.length): with a
    source, which of the two is out of line with it (against the document's
    length scale: :func:`length_params`)."""
    hl, rl = ctx.lengths
    if hl is None or rl is None:  # (both or neither)
        return
    lo, hi = ctx.span
    hlf = hl[lo:hi].astype(float)
    rlf = rl[lo:hi].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = hlf / rlf
        bad = (rlf >= max(c.min_tokens, 1)) & (hlf > 0) & ((ratio < c.min_ratio) | (ratio > c.max_ratio))
    idx = (np.flatnonzero(bad) + lo).tolist()
    if not idx:
        return
    src_len, scale = _source_lengths(ctx, hl, rl)
    for i in idx:
        issue = length_issue(int(hl[i]), int(rl[i]), c.min_ratio, c.max_ratio, src_len(i), scale)
        if issue is not None:
            yield Finding("length-ratio", c.severity, issue.message, line=i, data=issue.data)


def length_params(ctx: LineContext, c) -> Optional[float]:
    """What every line's ``length-ratio`` verdict depends on besides the line:
    with a source, the document's target/source token ratio (None without)."""
    hl, rl = ctx.lengths
    if hl is None or rl is None or ctx.source is None:
        return None
    return _source_lengths(ctx, hl, rl)[1]


def _source_lengths(ctx: LineContext, hyp_lens: np.ndarray, ref_lens: np.ndarray):
    """(tokens of source line i, the document's target/source token ratio
    (hypothesis and reference together, so one terse side does not set it;
    to three significant digits)),
    or a function giving None when no source is paired."""
    if ctx.source is None:
        return (lambda i: None), 1.0
    count = ctx.analyzer.token_count.__getitem__
    src = ctx.source
    total = ctx.analyzer.source_tokens(src, ctx.n)
    scale = float(ref_lens.sum() + hyp_lens.sum()) / (2 * total) if total else 1.0
    # three significant digits: the scale is a parameter of every line's verdict, so a scale that
    # moved with each token typed would have every line of the document judged again after each
    # edit (at 100,000 lines ~4 ms of it); an edit moves it across such a step rarely
    scale = float(f"{scale:.3g}")
    return (lambda i: count(src[i]) if i < len(src) else None), scale


def length_limit(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines (in the rule's span) longer than ``maxRatio`` × their source line (characters; see
    :func:`~bleu_ls.qa.text.length_limit.over_ratio`).  Nothing without a source or a ratio."""
    ratio = c.max_ratio
    src = ctx.source
    if ratio is None or src is None:
        return
    lo, hi = ctx.span
    hyp = ctx.hyp
    hi = min(hi, len(src))
    for i in range(lo, hi):
        h, s = hyp[i], src[i]
        if len(h) <= ratio * SMALL_SOURCE:  # fits whatever its source: most lines, for one len()
            continue
        issue = line_finding(h, s, ratio)
        if issue is not None:
            yield Finding("length-limit", c.severity, issue.message, line=i, data=dict(issue.data))


def limit_params(ctx: LineContext, c) -> Optional[float]:
    """What every line's ``length-limit`` verdict depends on besides the line: ``maxRatio``."""
    return c.max_ratio


def closest_lengths(hyp_lens: np.ndarray, ref_lens: list[np.ndarray]) -> np.ndarray:
    """Per line the reference length closest to the hypothesis's, ties to
    the shorter (as BLEU picks it)."""
    if len(ref_lens) == 1:
        return ref_lens[0]
    m = np.stack(ref_lens)
    diff = np.abs(m - hyp_lens) * (1 << 32) + m
    return m[np.argmin(diff, axis=0), np.arange(len(hyp_lens))]
