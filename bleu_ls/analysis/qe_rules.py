"""Reference-free adequacy (``adequacy``, the optional ``qe`` extra).

Each line's meaning is compared with its source line's
(:class:`bleu_ls.checks.qe.Adequacy`, cached per (source, line) text), and
ranked together with its chrF against the reference: the mean of the two
percentile ranks, the weakest ``percent`` % of the document's lines flagged
(lines whose reference has fewer than ``min_tokens`` tokens are not ranked).
Measured on the WMT21 TED en-de MQM data, the two together find major
errors better than either alone (docs/diagnostics.md).  Without a reference
line the similarity alone is ranked.

Cost: about 7 ms of CPU per new (source, line) pair on a shared 2-core
machine, then a dictionary lookup; the first pass over a large document is
slow, which is why the code is off by default.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ..engine import ChrfMetric
from .context import LineContext
from .findings import Finding
from .score_rules import outlier_mask


def _percentile(x: np.ndarray) -> np.ndarray:
    order = np.argsort(np.argsort(x, kind="stable"), kind="stable")
    return order / max(len(x), 1)


def chrf_values(ctx: LineContext) -> np.ndarray:
    """Per-line chrF: the model's when chrF is on, else computed (memoised by text)."""
    if "chrf" in ctx.metrics:
        return np.asarray(ctx.model.values("chrf"), dtype=float)
    memo = ctx.analyzer.chrf_memo
    metric = memo.setdefault(None, ChrfMetric())
    out = np.full(ctx.n, np.nan)
    if not ctx.refs:
        return out
    for i, key in enumerate(zip(ctx.hyp, *[r[: ctx.n] for r in ctx.refs])):
        v = memo.get(key)
        if v is None:
            v = memo[key] = metric.sentence_score(metric.line_stats(key[0], list(key[1:]))).score
        out[i] = v
    return out


def adequacy(ctx: LineContext, c) -> Iterator[Finding]:
    if ctx.source is None or ctx.n < max(c.min_lines, 1):
        return
    qe = ctx.analyzer.adequacy_model()
    sims = qe.similarities(list(ctx.source[: ctx.n]), ctx.hyp)
    if qe.error:
        yield Finding(0, "adequacy", "information", f"{qe.error[0].upper()}{qe.error[1:]}.")
        return
    ok = ~np.isnan(sims)
    if not ok.any():
        return
    score = _percentile(np.where(ok, sims, np.inf))
    chrf = chrf_values(ctx)
    if ctx.refs and not np.isnan(chrf).all():
        score = score + _percentile(np.nan_to_num(chrf, nan=np.inf))
    ref_lens = ctx.lengths[1]
    ranked = np.where(ok, score, np.nan)
    if ref_lens is not None and c.min_tokens > 0:
        ranked[np.asarray(ref_lens) < c.min_tokens] = np.nan
    mask = outlier_mask(ranked, "bottom-percent", c.percent) & ~ctx.empty
    med = float(np.median(sims[ok]))
    for i in np.flatnonzero(mask).tolist():
        sim = float(sims[i])
        tail = f", chrF {chrf[i]:.1f}" if not np.isnan(chrf[i]) else ""
        yield Finding(
            i,
            "adequacy",
            c.severity,
            f"Among the lines furthest from their source in meaning (similarity {sim:.2f}, document median "
            f"{med:.2f}{tail}): something may be missing, added or mistranslated.",
            0,
            None,
            {"similarity": sim, "median": med, "chrf": None if np.isnan(chrf[i]) else float(chrf[i])},
        )
