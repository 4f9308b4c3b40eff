"""Score rules: ``low-score`` and ``outlier``, vectorised over the line scores.

``low-score`` is a line rule (it reports on the lines the analyser asks
for); ``outlier`` keeps its previous pass and builds findings again only
where something moved.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, NamedTuple, Optional

import numpy as np

from . import wording
from .context import LineContext
from ..findings import Finding
from .ranking import SortedLines


def low_score(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines (in the rule's span) whose BLEU (chrF) is under its threshold."""
    metrics = ctx.metrics
    thresholds = {"bleu": c.bleu_threshold, "chrf": c.chrf_threshold}
    lo, hi = ctx.span
    masks, vals_of = {}, {}
    for key, thr in thresholds.items():
        if key in metrics:
            vals_of[key] = v = ctx.values(key, lo, hi)
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
            yield Finding("low-score", c.severity, wording.low_score([(name, v, thr)]), line=i, data={k: v})
        return
    cols = {k: np.where(masks[k], vals_of[k], np.nan)[idx].tolist() for k in masks}
    for j, i in enumerate((idx + lo).tolist()):
        vs = tuple(None if cols[k][j] != cols[k][j] else cols[k][j] for k in keys)
        under = [(metrics[k].name, v, thresholds[k]) for k, v in zip(keys, vs) if v is not None]
        data = {k: v for k, v in zip(keys, vs) if v is not None}
        yield Finding("low-score", c.severity, wording.low_score(under), line=i, data=data)


class OutlierState(NamedTuple):
    """The previous pass of :func:`outlier` recomputed whole (``robust-z``):
    what its findings depend on."""

    sig: tuple
    median: float
    values: np.ndarray
    mask: np.ndarray
    by_line: dict


#: rules whose threshold is read off the sorted scores after an edit
TRACKED = ("bottom-percent", "below-median")
#: an edit changing more lines than this rebuilds the sorted scores
MAX_MOVES = 256


def outlier(ctx: LineContext, c) -> tuple[dict, Optional[list]]:
    """Lines far below this document's typical line (``outlier_select``).

    Returns (findings by line, the lines whose findings changed since the
    previous pass, or None for any).  A full pass computes the mask from
    scratch (``outlier_select``); after an edit, ``bottom-percent`` and
    ``below-median`` follow the changed lines' scores in sorted order
    (:class:`OutlierTrack`) and look again only at the changed lines and at
    the lines between the old and the new threshold; ``robust-z`` is
    recomputed vectorised.  A finding is built again only where the line's
    score or verdict changed, or everywhere when the median as shown (one
    decimal) moved (it is in every finding's message and data).
    """
    state = ctx.state("outlier")
    prev: Optional[OutlierState] = state.pop("prev", None)
    track: Optional[OutlierTrack] = state.pop("track", None)
    metrics = ctx.metrics
    if ctx.n < max(c.min_lines, 1):
        return {}, None
    # Ranked by a metric where higher is better (never TER, an error rate).
    ranked = [k for k, m in metrics.items() if getattr(m, "higher_is_better", True)]
    key = c.metric if c.metric in ranked else next(iter(ranked), None)
    if key is None:
        return {}, None
    name = metrics[key].name
    sig = (key, name, c.severity, c.rule, c.value, c.min_tokens, ctx.n)

    def build(i: int, v: float, med: float) -> list:
        data = {"metric": key, "score": v, "median": med, "rule": c.rule}
        return [Finding("outlier", c.severity, wording.outlier(name, v, c.rule, c.value, med), line=i, data=data)]

    if c.rule in TRACKED:
        scope = ctx.pass_scope
        if (track is not None and track.sig == sig and track.seen == ctx.previous_pass
                and scope is not None and scope[1] - scope[0] <= MAX_MOVES):
            changed = track.follow(ctx, key, scope, build)
        else:
            track, changed = OutlierTrack.build(ctx, key, sig, c, build), None
        track.seen = ctx.passes
        state["track"] = track
        return track.by_line, changed
    vals = np.array(ctx.model.values(key), dtype=float)
    nan = np.isnan(vals)
    try:
        mask = outlier_select(vals, ctx.lengths[1], c) & ~ctx.empty
    except ValueError:
        return {}, None
    if not mask.any():
        return {}, None
    # the median as the message shows it (one decimal): the findings change
    # when it does, not with every move of the exact median (which would
    # rebuild and resend every outlier finding of a large document)
    med = float(f"{float(np.median(vals[~nan])):.1f}")
    if prev is not None and prev.sig == sig and prev.median == med and len(prev.values) == len(vals):
        old = prev.values
        same = (vals == old) | (nan & np.isnan(old))
        changed = np.flatnonzero((mask != prev.mask) | (mask & ~same)).tolist()
        by_line = prev.by_line
        for i in changed:
            if mask[i]:
                by_line[i] = build(i, float(vals[i]), med)
            else:
                by_line.pop(i, None)
    else:
        idx = np.flatnonzero(mask)
        by_line = {i: build(i, v, med) for i, v in zip(idx.tolist(), vals[idx].tolist())}
        changed = None
    state["prev"] = OutlierState(sig, med, vals, mask, by_line)
    return by_line, changed


def _same(a: float, b: float) -> bool:
    """The same score (NaN equals NaN; 0.0 and -0.0 differ: the median shows the sign)."""
    if a != b:
        return a != a and b != b
    return a != 0.0 or math.copysign(1.0, a) == math.copysign(1.0, b)


class OutlierTrack:
    """The outlier rule's state between passes for the rules with one
    threshold read off sorted scores (``bottom-percent``, ``below-median``):
    every line's score and ranked score, both kept sorted
    (:class:`~.ranking.SortedLines`), the threshold, which lines are
    flagged, and their findings.

    A line is flagged when its ranked score is under the threshold — ``<= t``
    (the k-th smallest) and ``< median`` for bottom-percent, ``< median -
    value`` and ``< median`` for below-median: one cut (x, inclusive) — and
    its hypothesis is not empty.  After an edit only the changed lines and
    the lines whose score lies between the old and the new cut can change
    verdict; both are found in O(log n) from the sorted scores.
    """

    # set by ``build``
    sig: tuple
    rule: str
    value: float
    min_tokens: int
    v: np.ndarray  # every line's score
    r: np.ndarray  # and its ranked score (NaN: not ranked)
    all: SortedLines
    ranked: SortedLines
    cut: Optional[tuple[float, bool]]
    mask: np.ndarray
    med: float
    by_line: dict[int, Any]

    def __init__(self) -> None:
        self.seen: int = -1

    @classmethod
    def build(cls, ctx: LineContext, key: str, sig: tuple, c, build) -> "OutlierTrack":
        """From scratch: the mask is ``outlier_select`` (the definition)."""
        self = cls()
        self.sig, self.rule, self.value, self.min_tokens = sig, c.rule, c.value, c.min_tokens
        vals = np.array(ctx.model.values(key), dtype=float)
        ranked = vals.copy()
        rl = ctx.lengths[1]
        if rl is not None and c.min_tokens > 0:
            ranked[np.asarray(rl) < c.min_tokens] = np.nan
        self.v, self.r = vals, ranked
        ok = ~np.isnan(vals)
        self.all = SortedLines(vals[ok], np.flatnonzero(ok))
        ok = ~np.isnan(ranked)
        self.ranked = SortedLines(ranked[ok], np.flatnonzero(ok))
        self.cut = self._cut()
        self.mask = outlier_select(vals, rl, c) & ~ctx.empty
        self.med = self._median_shown()
        idx = np.flatnonzero(self.mask)
        self.by_line = {i: build(i, v, self.med) for i, v in zip(idx.tolist(), vals[idx].tolist())}
        return self

    def _median_shown(self) -> float:
        return float(f"{self.all.median():.1f}") if len(self.all) else math.nan

    def _cut(self) -> Optional[tuple[float, bool]]:
        """(x, inclusive): a ranked score is under the threshold when < x (<= x)."""
        s = self.ranked
        m = len(s)
        if m == 0:
            return None
        med = s.median()
        if self.rule == "bottom-percent":
            k = min(max(1, int(math.floor(m * self.value / 100.0))), m)
            t = s.kth(k - 1)
            return (t, True) if t < med else (med, False)
        thr = med - self.value
        return (thr, False) if thr < med else (med, False)

    def _position(self, cut: Optional[tuple[float, bool]]) -> int:
        return 0 if cut is None else self.ranked.count_below(*cut)

    def follow(self, ctx: LineContext, key: str, scope: tuple[int, int], build) -> list:
        """Take in the scores of the lines in ``scope`` (the lines that
        changed since the previous pass); returns the lines whose findings
        changed (``by_line`` is changed in place)."""
        lo, hi = scope
        lo, hi = max(0, lo), min(ctx.n, hi)
        new_v = ctx.values(key, lo, hi)
        new_r = new_v.copy()
        rl = ctx.lengths[1]
        if rl is not None and self.min_tokens > 0:
            new_r[np.asarray(rl[lo:hi]) < self.min_tokens] = np.nan
        old_cut = self.cut
        rescored = set()
        for structure, kept, new in ((self.all, self.v, new_v), (self.ranked, self.r, new_r)):
            for i, nv in zip(range(lo, hi), new.tolist()):
                ov = float(kept[i])
                if _same(ov, nv):
                    continue
                if ov == ov:
                    structure.remove(ov, i)
                if nv == nv:
                    structure.insert(nv, i)
                kept[i] = nv
                rescored.add(i)
        self.cut = cut = self._cut()
        p, q = sorted((self._position(old_cut), self._position(cut)))
        look = set(range(lo, hi))
        look.update(self.ranked.lines_between(p, q))
        med = self._median_shown()
        rebuild = not _same(med, self.med)
        self.med = med
        empty, r, mask, v = ctx.empty, self.r, self.mask, self.v
        x, inclusive = cut if cut is not None else (math.nan, False)
        by_line = self.by_line
        changed = []
        for i in look:
            ri = float(r[i])
            flag = (ri <= x if inclusive else ri < x) and not empty[i]
            if flag == mask[i] and not (flag and i in rescored):
                continue
            mask[i] = flag
            changed.append(i)
            if flag:
                by_line[i] = build(i, float(v[i]), med)
            else:
                by_line.pop(i, None)
        if rebuild:  # the median as shown moved: every finding says it
            for i in by_line:
                by_line[i] = build(i, float(v[i]), med)
            changed.extend(by_line)
        return changed


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
