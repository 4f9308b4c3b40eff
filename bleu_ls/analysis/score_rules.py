"""Score rules: ``low-score`` and ``outlier``, vectorised over the line scores.

``low-score`` is a line rule (it reports on the lines the analyser asks
for); ``outlier`` keeps its previous pass and builds findings again only
where something moved.
"""

from __future__ import annotations

import math
from typing import Iterator, NamedTuple, Optional

import numpy as np

from . import wording
from .context import LineContext
from .findings import Finding


def low_score(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines (in the rule's span) whose BLEU (chrF) is under its threshold."""
    metrics, model = ctx.metrics, ctx.model
    thresholds = {"bleu": c.bleu_threshold, "chrf": c.chrf_threshold}
    lo, hi = ctx.span
    masks, vals_of = {}, {}
    for key, thr in thresholds.items():
        if key in metrics:
            vals_of[key] = v = model.values(key)[lo:hi]
            with np.errstate(invalid="ignore"):
                masks[key] = (v < thr) & ~ctx.empty[lo:hi]
    if not masks:
        return
    idx = np.flatnonzero(np.logical_or.reduce(list(masks.values())))
    keys = list(masks)
    if len(keys) == 1:
        k = keys[0]
        name, thr = metrics[k].name, thresholds[k]
        for i, v in zip((idx + lo).tolist(), vals_of[k][idx].tolist()):
            yield Finding(i, "low-score", c.severity, wording.low_score([(name, v, thr)]), 0, None, {k: v})
        return
    cols = {k: np.where(masks[k], vals_of[k], np.nan)[idx].tolist() for k in masks}
    for j, i in enumerate((idx + lo).tolist()):
        vs = tuple(None if cols[k][j] != cols[k][j] else cols[k][j] for k in keys)
        under = [(metrics[k].name, v, thresholds[k]) for k, v in zip(keys, vs) if v is not None]
        data = {k: v for k, v in zip(keys, vs) if v is not None}
        yield Finding(i, "low-score", c.severity, wording.low_score(under), 0, None, data)


class OutlierState(NamedTuple):
    """The previous pass of :func:`outlier`: what its findings depend on."""

    sig: tuple
    median: float
    values: np.ndarray
    mask: np.ndarray
    by_line: dict


def outlier(ctx: LineContext, c) -> tuple[dict, Optional[list]]:
    """Lines far below this document's typical line (``outlier_select``).

    Returns (findings by line, the lines whose findings changed since the
    previous pass, or None for any).  The threshold and the median are
    recomputed vectorised; a finding is built again only where the line's
    score or verdict changed, or everywhere when the median as shown (one
    decimal) moved (it is in every finding's message and data).
    """
    state = ctx.state("outlier")
    prev: Optional[OutlierState] = state.pop("prev", None)
    metrics = ctx.metrics
    if ctx.n < max(c.min_lines, 1):
        return {}, None
    # Ranked by a metric where higher is better (never TER, an error rate).
    ranked = [k for k, m in metrics.items() if getattr(m, "higher_is_better", True)]
    key = c.metric if c.metric in ranked else next(iter(ranked), None)
    if key is None:
        return {}, None
    vals = np.array(ctx.model.values(key), dtype=float)
    nan = np.isnan(vals)
    order = state.pop("order", None)
    if c.rule == "bottom-percent":
        order = SortedScores.follow(order, vals, nan, ctx.lengths[1], c.min_tokens)
        state["order"] = order
        mask = order.bottom_percent(c.value) & ~ctx.empty
    else:
        try:
            mask = outlier_select(vals, ctx.lengths[1], c) & ~ctx.empty
        except ValueError:
            return {}, None
    if not mask.any():
        return {}, None
    med = order.median_all() if order is not None else float(np.median(vals[~nan]))
    # the median as the message shows it (one decimal): the findings change
    # when it does, not with every move of the exact median (which would
    # rebuild and resend every outlier finding of a large document)
    med = float(f"{med:.1f}")
    name = metrics[key].name
    sig = (key, name, c.severity, c.rule, c.value)

    def build(i: int, v: float) -> list:
        data = {"metric": key, "score": v, "median": med, "rule": c.rule}
        return [Finding(i, "outlier", c.severity, wording.outlier(name, v, c.rule, c.value, med), 0, None, data)]

    if prev is not None and prev.sig == sig and prev.median == med and len(prev.values) == len(vals):
        old = prev.values
        same = (vals == old) | (nan & np.isnan(old))
        changed = np.flatnonzero((mask != prev.mask) | (mask & ~same)).tolist()
        by_line = prev.by_line
        for i in changed:
            if mask[i]:
                by_line[i] = build(i, float(vals[i]))
            else:
                by_line.pop(i, None)
    else:
        idx = np.flatnonzero(mask)
        by_line = {i: build(i, v) for i, v in zip(idx.tolist(), vals[idx].tolist())}
        changed = None
    state["prev"] = OutlierState(sig, med, vals, mask, by_line)
    return by_line, changed


def _median_sorted(s: np.ndarray) -> float:
    """``np.median`` of sorted values, read off (the same arithmetic: the
    mean of the two middle values when their number is even)."""
    m = len(s)
    return float(np.mean(s[(m - 1) // 2 : m // 2 + 1]))


def _resort(s: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Sorted ``s`` with the values ``old`` taken out and ``new`` put in (NaN: none)."""
    old, new = old[~np.isnan(old)], new[~np.isnan(new)]
    for v in old.tolist():
        s = np.delete(s, np.searchsorted(s, v))
    for v in new.tolist():
        s = np.insert(s, np.searchsorted(s, v), v)
    return s


class SortedScores:
    """The line scores kept sorted between passes (all of them, and those
    ranked by the outlier rule), so the bottom-percent threshold and the
    medians are read off instead of partitioning the document every pass:
    after an edit, the changed lines' scores move (O(log n) search, one
    vectorised shift each)."""

    #: more changed lines than this: sort again
    MOVES = 64

    def __init__(self, vals: np.ndarray, ranked: np.ndarray) -> None:
        self.vals, self.ranked = vals, ranked
        self.all_sorted = np.sort(vals[~np.isnan(vals)])
        self.ranked_sorted = np.sort(ranked[~np.isnan(ranked)])

    @classmethod
    def follow(cls, prev: Optional["SortedScores"], vals: np.ndarray, nan: np.ndarray, ref_lens, min_tokens: int) -> "SortedScores":
        ranked = vals.copy()
        if ref_lens is not None and min_tokens > 0:
            ranked[np.asarray(ref_lens) < min_tokens] = np.nan
        if prev is None or len(prev.vals) != len(vals):
            return cls(vals, ranked)
        out = cls.__new__(cls)
        out.vals, out.ranked = vals, ranked
        for name, new, old_sorted, old in (("all_sorted", vals, prev.all_sorted, prev.vals),
                                           ("ranked_sorted", ranked, prev.ranked_sorted, prev.ranked)):
            moved = np.flatnonzero(~((new == old) | (np.isnan(new) & np.isnan(old))))
            if len(moved) > cls.MOVES:
                setattr(out, name, np.sort(new[~np.isnan(new)]))
            else:
                setattr(out, name, _resort(old_sorted, old[moved], new[moved]))
        return out

    def median_all(self) -> float:
        return _median_sorted(self.all_sorted)

    def bottom_percent(self, value: float) -> np.ndarray:
        """``outlier_mask(ranked, "bottom-percent", value)``."""
        s = self.ranked_sorted
        m = len(s)
        if m == 0:
            return np.zeros(len(self.ranked), dtype=bool)
        k = min(max(1, int(math.floor(m * value / 100.0))), m)
        t, med = float(s[k - 1]), _median_sorted(s)
        with np.errstate(invalid="ignore"):
            return (self.ranked <= t) & (self.ranked < med)


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
