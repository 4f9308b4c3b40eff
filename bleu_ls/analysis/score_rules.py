"""Score rules: ``low-score`` and ``outlier``, vectorised over the line scores.

Finding objects are reused from the previous pass when the line and its
numbers are unchanged (``LineContext.reuse``).
"""

from __future__ import annotations

import math
from typing import Iterator, Optional

import numpy as np

from . import wording
from .context import LineContext
from .findings import Finding


def low_score(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines whose BLEU (chrF) is under its threshold."""
    metrics, model = ctx.metrics, ctx.model
    thresholds = {"bleu": c.bleu_threshold, "chrf": c.chrf_threshold}
    masks, vals_of = {}, {}
    for key, thr in thresholds.items():
        if key in metrics:
            vals_of[key] = v = model.values(key)
            with np.errstate(invalid="ignore"):
                masks[key] = (v < thr) & ~ctx.empty
    if not masks:
        return
    idx = np.flatnonzero(np.logical_or.reduce(list(masks.values())))
    keys = list(masks)
    if len(keys) == 1:
        yield from _low_score_one(ctx, c, keys[0], idx, vals_of[keys[0]][idx].tolist(), thresholds[keys[0]])
        return
    cols = {k: np.where(masks[k], vals_of[k], np.nan)[idx].tolist() for k in masks}
    for j, i in enumerate(idx.tolist()):
        vs = tuple(None if cols[k][j] != cols[k][j] else cols[k][j] for k in keys)
        key = ("low-score", i, vs)
        f = ctx.previous(key)
        if f is None:
            under = [(metrics[k].name, v, thresholds[k]) for k, v in zip(keys, vs) if v is not None]
            data = {k: v for k, v in zip(keys, vs) if v is not None}
            f = Finding(i, "low-score", c.severity, wording.low_score(under), 0, None, data)
        yield ctx.keep(key, f)


def _low_score_one(ctx: LineContext, c, k: str, idx: np.ndarray, values: list, threshold: float) -> Iterator[Finding]:
    """``low_score`` with one metric on: the same findings under the same
    keys, without the per-line tuple of metrics (half the time at 100k lines)."""
    name = ctx.metrics[k].name
    previous, kept = ctx.analyzer.previous_findings.get, ctx.kept
    for i, v in zip(idx.tolist(), values):
        key = ("low-score", i, (v,))
        f = previous(key)
        if f is None:
            f = Finding(i, "low-score", c.severity, wording.low_score([(name, v, threshold)]), 0, None, {k: v})
        kept[key] = f
        yield f


def outlier(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines far below this document's typical line (``outlier_select``)."""
    metrics = ctx.metrics
    if ctx.n < max(c.min_lines, 1):
        return
    # Ranked by a metric where higher is better (never TER, an error rate).
    ranked = [k for k, m in metrics.items() if getattr(m, "higher_is_better", True)]
    key = c.metric if c.metric in ranked else next(iter(ranked), None)
    if key is None:
        return
    vals = ctx.model.values(key)
    try:
        mask = outlier_select(vals, ctx.lengths[1], c) & ~ctx.empty
    except ValueError:
        return
    idx = np.flatnonzero(mask)
    if not len(idx):
        return
    med = float(np.median(vals[~np.isnan(vals)]))
    name = metrics[key].name
    for i, v in zip(idx.tolist(), vals[idx].tolist()):
        fkey = ("outlier", i, v, med)
        f = ctx.previous(fkey)
        if f is None:
            data = {"metric": key, "score": v, "median": med, "rule": c.rule}
            f = Finding(i, "outlier", c.severity, wording.outlier(name, v, c.rule, c.value, med), 0, None, data)
        yield ctx.keep(fkey, f)


def outlier_select(values: np.ndarray, ref_lens: Optional[np.ndarray], o) -> np.ndarray:
    """The outlier setting applied to a document: lines whose reference has
    fewer than ``o.min_tokens`` tokens are left out of the ranking, then
    :func:`outlier_mask` with ``o.rule`` / ``o.value``."""
    x = np.array(values, dtype=float)
    if ref_lens is not None and o.min_tokens > 0:
        x[np.asarray(ref_lens) < o.min_tokens] = np.nan
    return outlier_mask(x, o.rule, o.value)


def outlier_mask(values: np.ndarray, rule: str, value: float) -> np.ndarray:
    """Which of ``values`` are low outliers under ``rule`` (NaN never is).

    * ``robust-z``: (median - x) / (1.4826 * MAD) > value.  When more than
      half the values are equal (MAD = 0) the mean absolute deviation from
      the median (scaled by 1.2533) stands in; all equal: nothing flagged.
    * ``bottom-percent``: x <= the k-th smallest value, k = floor(n * value
      / 100) (at least 1); ties with that value are flagged too.
    * ``below-median``: x < median - value.

    Every rule flags only values strictly under the median, so a document
    whose lines all score the same has no outliers.
    """
    x = np.asarray(values, dtype=float)
    out = np.zeros(len(x), dtype=bool)
    ok = ~np.isnan(x)
    v = x[ok]
    if len(v) == 0:
        return out
    med = float(np.median(v))
    if rule == "robust-z":
        dev = np.abs(v - med)
        scale = 1.4826 * float(np.median(dev))
        if scale == 0:
            scale = 1.2533 * float(dev.mean())
        if scale == 0:
            return out
        flag = (med - v) / scale > value
    elif rule == "bottom-percent":
        k = min(max(1, int(math.floor(len(v) * value / 100.0))), len(v))
        t = float(np.partition(v, k - 1)[k - 1])
        flag = v <= t
    elif rule == "below-median":
        flag = v < med - value
    else:
        raise ValueError(f"unknown outlier rule {rule!r}")
    flag &= v < med
    out[ok] = flag
    return out
