"""Reference-free adequacy (``adequacy``, the optional ``qe`` extra).

Each line's meaning is compared with its source line's (the sentence
encoder of :mod:`bleu_ls.checks.qe`, cached per text), and ranked together
with its chrF against the reference: the mean of the two percentile ranks,
the weakest ``percent`` % of the document's lines flagged (lines whose
reference has fewer than ``min_tokens`` tokens are not ranked).  Measured on
the WMT21 TED en-de MQM data, the two together find major errors better
than either alone (docs/diagnostics.md).  Without a reference line the
similarity alone is ranked.

Where the values come from: the analyser's adequacy source
(:meth:`Analyzer.adequacy_model`).  ``bleu-ls check`` encodes here and now;
the server hands lines to a worker process
(:class:`bleu_ls.checks.qe_background.BackgroundAdequacy`) and re-analyses
when values arrive.  A line without a value yet is not judged yet; while more
than :data:`MAX_WAITING` of the document waits (the first pass after
opening), no line is ranked, so flags do not shift under the reader.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .context import LineContext
from .findings import Finding
from .score_rules import outlier_mask

#: share of the document that may wait for values while lines are ranked
MAX_WAITING = 0.05


def _percentile(x: np.ndarray) -> np.ndarray:
    """Each value's rank (ties in line order) / the line count: the inverse
    of the stable sort order (one sort instead of two)."""
    rank = np.empty(len(x), dtype=np.int64)
    rank[np.argsort(x, kind="stable")] = np.arange(len(x))
    return rank / max(len(x), 1)


class StableRanks:
    """:func:`_percentile`'s ranks of an array, kept up to date when a few
    values change (an edit): each changed value is taken out of the sorted
    order and put back where it now belongs (ties in line order), and only
    the ranks between its old and new place move, instead of sorting the
    document again (two sorts of 100,000 values cost ~18 ms)."""

    #: more changed values than this: sort again
    MAX_MOVES = 32

    def __init__(self) -> None:
        self.x: np.ndarray = np.empty(0)

    def percentile(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        n = len(x)
        if len(self.x) != n:
            self._sort(x)
        else:
            changed = np.flatnonzero(self.x != x)
            if len(changed) > self.MAX_MOVES:
                self._sort(x)
            else:
                for p in changed.tolist():
                    self._move(p, float(x[p]))
                self.x = x.copy()
        return self.rank / max(n, 1)

    def _sort(self, x: np.ndarray) -> None:
        self.order = np.argsort(x, kind="stable")
        self.values = x[self.order]
        self.rank = np.empty(len(x), dtype=np.int64)
        self.rank[self.order] = np.arange(len(x))
        self.x = x.copy()

    def _move(self, p: int, v: float) -> None:
        old = int(self.rank[p])
        order = np.delete(self.order, old)
        values = np.delete(self.values, old)
        lo, hi = np.searchsorted(values, v, "left"), np.searchsorted(values, v, "right")
        new = int(lo + np.searchsorted(order[lo:hi], p))  # equal values stay in line order
        order = np.insert(order, new, p)
        values = np.insert(values, new, v)
        if new > old:
            self.rank[order[old:new]] -= 1
        elif new < old:
            self.rank[order[new + 1 : old + 1]] += 1
        self.rank[p] = new
        self.order, self.values = order, values


def adequacy(ctx: LineContext, c) -> Iterator[Finding]:
    if ctx.source is None or ctx.n < max(c.min_lines, 1):
        return
    qe = ctx.analyzer.adequacy_model()
    refs = [r[: ctx.n] for r in ctx.refs]
    source = list(ctx.source[: ctx.n])
    if len(source) < ctx.n:  # a source shorter than the document: the lines past it have none
        source += [""] * (ctx.n - len(source))
    sims, chrf, waiting = qe.line_values(source, ctx.hyp, refs)
    if qe.error:
        yield Finding(0, "adequacy", "information", f"{qe.error[0].upper()}{qe.error[1:]}.")
        return
    if waiting > MAX_WAITING * ctx.n:
        return
    if "chrf" in ctx.metrics:
        chrf = np.asarray(ctx.model.values("chrf"), dtype=float)
    ok = ~np.isnan(sims)
    if not ok.any():
        return
    # the ranks of the previous pass, kept by the analyser (per document)
    ranks = vars(ctx.analyzer).setdefault("adequacy_ranks", (StableRanks(), StableRanks()))
    score = ranks[0].percentile(np.where(ok, sims, np.inf))
    if refs and not np.isnan(chrf).all():
        score = score + ranks[1].percentile(np.nan_to_num(chrf, nan=np.inf))
    ref_lens = ctx.lengths[1]
    ranked = np.where(ok, score, np.nan)
    if ref_lens is not None and c.min_tokens > 0:
        ranked[np.asarray(ref_lens) < c.min_tokens] = np.nan
    mask = outlier_mask(ranked, "bottom-percent", c.percent) & ~ctx.empty
    med = float(np.median(sims[ok]))
    previous, keep = ctx.previous, ctx.keep
    for i in np.flatnonzero(mask).tolist():
        sim, score = float(sims[i]), float(chrf[i])
        key = ("adequacy", i, sim, score, med, c.severity)
        f = previous(key)
        if f is None:
            tail = f", chrF {score:.1f}" if not np.isnan(score) else ""
            f = Finding(
                i,
                "adequacy",
                c.severity,
                f"Among the lines furthest from their source in meaning (similarity {sim:.2f}, document median "
                f"{med:.2f}{tail}): something may be missing, added or mistranslated.",
                0,
                None,
                {"similarity": sim, "median": med, "chrf": None if np.isnan(score) else score},
            )
        yield keep(key, f)
