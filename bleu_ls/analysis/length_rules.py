"""Length rule: ``length-ratio``, the line much shorter or longer than its
reference (token counts from the BLEU statistics, else counted)."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from . import wording
from .context import LineContext
from .findings import Finding


def length_ratio(ctx: LineContext, c) -> Iterator[Finding]:
    hl, rl = ctx.lengths
    if hl is None:
        return
    hlf = hl.astype(float)
    rlf = rl.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = hlf / rlf
        bad = (rlf >= max(c.min_tokens, 1)) & (hlf > 0) & ((ratio < c.min_ratio) | (ratio > c.max_ratio))
    for i in np.flatnonzero(bad).tolist():
        h, r, q = int(hl[i]), int(rl[i]), float(ratio[i])
        yield Finding(
            i,
            "length-ratio",
            c.severity,
            wording.length_ratio(h, r, q, c.min_ratio, c.max_ratio),
            0,
            None,
            {"hypothesisTokens": h, "referenceTokens": r, "ratio": q},
        )


def closest_lengths(hyp_lens: np.ndarray, ref_lens: list[np.ndarray]) -> np.ndarray:
    """Per line the reference length closest to the hypothesis's, ties to
    the shorter (as BLEU picks it)."""
    if len(ref_lens) == 1:
        return ref_lens[0]
    m = np.stack(ref_lens)
    diff = np.abs(m - hyp_lens) * (1 << 32) + m
    return m[np.argmin(diff, axis=0), np.arange(len(hyp_lens))]
