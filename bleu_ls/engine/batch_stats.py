"""The statistics rows of many lines at once, per metric (BLEU, chrF, NLTK
BLEU), counted by the vectorised matcher of :mod:`.ngrams`.

The integers are exactly the ones each metric's ``line_stats`` computes; the
metrics call these from their ``batch_stats`` (the batch pass, :mod:`.batch`,
calls those).  A metric is seen here through the few names these read of it
(:class:`.base.BleuLike`, :class:`.base.ChrfLike`, :class:`.base.NltkLike`),
so this module imports no metric module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from .ngrams import (
    bleu_token_ids,
    char_ids,
    chrf_word_ids,
    closest_ref_lens,
    match_table,
    ngram_totals,
    word_ids,
)

if TYPE_CHECKING:
    from .base import BleuLike as BleuMetric, ChrfLike as ChrfMetric, NltkLike as NltkBleuMetric

# -- statistics per metric ---------------------------------------------------------


def bleu_stats(metric: BleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [bleu_token_ids(metric, hyp)] + [bleu_token_ids(metric, r) for r in refs]
    N = metric.max_order
    m = match_table(sides, N)[-1]  # (N, lines)
    hyp_lens = sides[0][1]
    ref_len = closest_ref_lens(hyp_lens, [s[1] for s in sides[1:]])
    return np.column_stack([hyp_lens, ref_len, m.T, ngram_totals(hyp_lens, N)]).astype(np.int64)


def nltk_stats(metric: NltkBleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [word_ids(hyp, metric.lowercase)] + [word_ids(r, metric.lowercase) for r in refs]
    K = metric.n
    want5 = metric.method in (5, 7)
    order = max(K, 5) if want5 else K
    m = match_table(sides, order)[-1]
    hyp_lens = sides[0][1]
    ref_len = closest_ref_lens(hyp_lens, [s[1] for s in sides[1:]])
    totals = ngram_totals(hyp_lens, order)
    dens = np.maximum(totals, 1)
    cols = [hyp_lens, ref_len, m[:K].T, dens[:, :K]]
    if want5:
        cols += [m[4], dens[:, 4]]
    else:
        cols += [np.zeros_like(hyp_lens), np.ones_like(hyp_lens)]
    return np.column_stack(cols).astype(np.int64)


def chrf_stats(metric: ChrfMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    n_lines = len(hyp)
    lower = metric.lowercase
    per_ref = []  # per reference: (lines, 3 * order)
    char_sides = [char_ids(hyp, lower, metric.whitespace)] + [char_ids(r, lower, metric.whitespace) for r in refs]
    cm = match_table(char_sides, metric.char_order)
    if metric.word_order:
        word_sides = [chrf_word_ids(hyp, lower)] + [chrf_word_ids(r, lower) for r in refs]
        wm = match_table(word_sides, metric.word_order)
    for k in range(len(refs)):
        blocks = []
        for sides, m, order in ((char_sides, cm, metric.char_order),) + (
            ((word_sides, wm, metric.word_order),) if metric.word_order else ()
        ):
            h_tot = ngram_totals(sides[0][1], order)
            r_tot = ngram_totals(sides[k + 1][1], order)
            h_cnt = np.where(r_tot > 0, h_tot, 0)
            blocks.append(np.stack([h_cnt, r_tot, m[k].T], axis=2).reshape(n_lines, 3 * order))
        per_ref.append(np.concatenate(blocks, axis=1).astype(np.int64))
    if len(per_ref) == 1:
        return per_ref[0]
    # the reference with the best F (the first on ties), as sacrebleu picks
    best = per_ref[0].copy()
    rows = [p.tolist() for p in per_ref]
    f = metric.f_score
    for i in range(n_lines):
        best_f, best_k = -1.0, 0
        for k, r in enumerate(rows):
            fk = f(r[i])
            if fk > best_f:
                best_f, best_k = fk, k
        if best_k:
            best[i] = per_ref[best_k][i]
    return best
