"""Reference-free adequacy (``adequacy``, the optional ``qe`` extra).

Each line's meaning is compared with its source line's (the sentence
encoder of :mod:`bleu_ls.qa.adequacy.qe`, cached per text), and ranked together
with its chrF against the reference: the percentile of its similarity plus
the percentile of its chrF, the weakest ``percent`` % of the document's lines
flagged (lines whose reference has fewer than ``min_tokens`` tokens are not
ranked).  Measured on the WMT21 TED MQM data, the two together find major
errors better than either alone (docs/diagnostics.md).

Only the weakest ``candidates`` % of the lines by chrF are encoded
(:func:`adequacy_flags`), and their similarity is ranked among them; chrF
is ranked over the document.  The encoder costs about 2 ms of CPU per text,
chrF about 0.05 ms per line, and the flagged few are not among the lines of
good chrF: the flag study measures the same lift or better.  Without a
reference every line is encoded and the similarity alone is ranked.

Where the values come from: the analyser's adequacy source
(:meth:`Analyzer.adequacy_model`).  ``bleu-ls check`` computes them here and
now; the server hands lines to a worker process
(:class:`bleu_ls.qa.adequacy.qe_background.BackgroundAdequacy`), chrF first and
then the candidates' similarities, and re-analyses when values arrive.  A
line without a value yet is not judged yet; while more than
:data:`MAX_WAITING` of the lines asked for wait (the first pass after
opening), no line is ranked, so flags do not shift under the reader.
"""

from __future__ import annotations

import math
from typing import Callable, Iterator, Optional

import numpy as np

from ..text import has_letter
from ...engine.chrf import ChrfMetric
from .context import LineContext
from ..findings import Finding

#: share of the lines asked for that may wait for values while lines are ranked
MAX_WAITING = 0.05
#: candidates (lines encoded) at least this many times the lines that may be
#: flagged, in a short document too
MIN_CANDIDATES = 5


def _percentile(x: np.ndarray) -> np.ndarray:
    """Each value's rank (ties in line order) / the line count: the inverse
    of the stable sort order (one sort instead of two)."""
    rank = np.empty(len(x), dtype=np.int64)
    rank[np.argsort(x, kind="stable")] = np.arange(len(x))
    return rank / max(len(x), 1)


def adequacy_flags(eligible: np.ndarray, chrf: Optional[np.ndarray], similarity: Callable[[np.ndarray], np.ndarray],
                   percent: float, candidates: float) -> tuple[np.ndarray, np.ndarray]:
    """The ``adequacy`` rule: (flagged lines, candidate lines).

    ``eligible``: the lines that may be ranked (N of them).  With chrF values
    (``chrf`` not None), the candidates are the eligible lines among the
    weakest ``candidates`` % of N by chrF, and at least :data:`MIN_CANDIDATES`
    times as many as may be flagged (ties with the last included; lines
    without a chrF too); without, every eligible line.  ``similarity(mask)``
    gives the similarity of the lines of ``mask`` (the candidates: no other
    line is ever encoded); NaN (not known yet) is not ranked.  Each candidate
    with a similarity scores the percentile of its similarity among those
    candidates plus the percentile of its chrF among the N eligible lines
    (NaN ranks last), ties in line order; the weakest ``percent`` % of N by
    that score are flagged (ties with the last included), only scores under
    the candidates' median."""
    eligible = np.asarray(eligible, dtype=bool)
    n = int(eligible.sum())
    cand = eligible.copy()
    if n == 0:
        return np.zeros(len(eligible), dtype=bool), cand
    k = max(1, int(math.floor(n * percent / 100.0)))
    chrf_rank = None
    if chrf is not None:
        has = eligible & ~np.isnan(chrf)
        if has.any():
            m = min(max(MIN_CANDIDATES * k, int(math.floor(n * candidates / 100.0))), int(has.sum()))
            t = float(np.partition(chrf[has], m - 1)[m - 1])
            cand = eligible & ~(chrf > t)  # chrF at most the m-th smallest, or NaN
            chrf_rank = np.full(len(eligible), np.nan)
            chrf_rank[eligible] = _percentile(np.nan_to_num(chrf[eligible], nan=np.inf))
    sims = similarity(cand)
    rank = np.flatnonzero(cand & ~np.isnan(sims))
    flags = np.zeros(len(eligible), dtype=bool)
    if len(rank) == 0:
        return flags, cand
    score = _percentile(sims[rank])
    if chrf_rank is not None:
        score = score + chrf_rank[rank]
    k = min(k, len(rank))
    t = float(np.partition(score, k - 1)[k - 1])
    flags[rank] = (score <= t) & (score < float(np.median(score)))
    return flags, cand


def adequacy(ctx: LineContext, c) -> Iterator[Finding]:
    if ctx.source is None or ctx.n < max(c.min_lines, 1):
        return
    qe = ctx.analyzer.adequacy_model()
    n = ctx.n
    refs = [r[:n] for r in ctx.refs]
    source = list(ctx.source[:n])
    if len(source) < n:  # a source shorter than the document: the lines past it have none
        source += [""] * (n - len(source))
    hyp = ctx.hyp
    chrf = None
    if refs:
        if ChrfMetric.key in ctx.metrics:  # the pair's own chrF, when it scores one
            chrf = np.asarray(ctx.model.values(ChrfMetric.key), dtype=float)
        else:  # chrF alone first: it decides which lines need a similarity
            values = qe.line_values(source, hyp, refs, np.zeros(n, dtype=bool))
            if qe.error:
                yield _off(qe.error)
                return
            if values.waiting > MAX_WAITING * n:
                return
            chrf = values.chrf
        if np.isnan(chrf).all():
            chrf = None
    eligible = _eligible(ctx, source, c.min_tokens if refs else 0)
    got: dict = {}

    def similarity(cand: np.ndarray) -> np.ndarray:
        values = got["values"] = qe.line_values(source, hyp, refs, cand)
        return values.sims

    mask, cand = adequacy_flags(eligible, chrf, similarity, c.percent, c.candidates)
    if qe.error:
        yield _off(qe.error)
        return
    values = got.get("values")
    if values is None or values.waiting > MAX_WAITING * max(int(cand.sum()), 1):
        return
    sims = values.sims
    known = sims[cand & ~np.isnan(sims)]
    if len(known) == 0:
        return
    share = "the lines compared" if chrf is None or c.candidates >= 100 else f"the weakest {c.candidates:g} % by chrF"
    chrf = values.chrf if chrf is None else chrf
    med = float(np.median(known))
    previous, keep = ctx.previous, ctx.keep
    for i in np.flatnonzero(mask).tolist():
        sim, score = float(sims[i]), float(chrf[i])
        key = ("adequacy", i, sim, score, med, share, c.severity)
        f = previous(key)
        if f is None:
            tail = f", chrF {score:.1f}" if not np.isnan(score) else ""
            f = Finding(
                "adequacy",
                c.severity,
                f"Among the lines furthest from their source in meaning (similarity {sim:.2f}{tail}; median "
                f"similarity {med:.2f} among {share}): something may be missing, added or mistranslated.",
                line=i,
                data={"similarity": sim, "median": med, "chrf": None if np.isnan(score) else score},
            )
        yield keep(key, f)


def _off(error: str) -> Finding:
    return Finding("adequacy", "information", f"{error[0].upper()}{error[1:]}.", line=0)


def _eligible(ctx: LineContext, source: list, min_tokens: int) -> np.ndarray:
    """Lines that may be ranked: not empty, a letter in the line and in its
    source line, a reference of at least ``min_tokens`` tokens."""
    memo = vars(ctx.analyzer).setdefault("adequacy_letters", {})
    if len(memo) > 400000:
        memo.clear()

    def letters(t: str) -> bool:
        v = memo.get(t)
        if v is None:
            v = memo[t] = has_letter(t)
        return v

    ok = np.fromiter((letters(s) and letters(h) for s, h in zip(source, ctx.hyp)), dtype=bool, count=ctx.n)
    ok &= ~np.asarray(ctx.empty, dtype=bool)
    ref_lens = ctx.lengths[1]
    if ref_lens is not None and min_tokens > 0:
        ok &= np.asarray(ref_lens)[: ctx.n] >= min_tokens
    return ok
