"""BLEU with sacrebleu 2.6 semantics, split into statistics and score.

Statistics of a line: ``[hyp_len, ref_len, correct_1..N, total_1..N]``,
exactly the list sacrebleu's ``BLEU._compute_segment_statistics`` returns,
so corpus totals are plain element-wise sums.  The score arithmetic follows
``BLEU.compute_bleu`` operation for operation, so the floats are the same
to the last bit.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterator, Optional, Protocol, Sequence, cast

import numpy as np

from .base import Metric, Score
from .tokenizers import fast_tokenizer, get_tokenizer, sacrebleu_version

#: sacrebleu's BLEU smoothing methods with their default smoothing value.
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: The smoothing method names, in sacrebleu's order.
SMOOTHING = tuple(SMOOTH_DEFAULTS)
#: sacrebleu's default smoothing.
DEFAULT_SMOOTH = "exp"
#: sacrebleu's default tokenizer.
DEFAULT_TOKENIZE = "13a"


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``; ties go to the shorter."""
    best_diff, best_len = -1, -1
    for ref_len in ref_lens:
        diff = abs(hyp_len - ref_len)
        if best_diff == -1 or diff < best_diff or (diff == best_diff and ref_len < best_len):
            best_diff, best_len = diff, ref_len
    return best_len


def ngram_counter(tokens: Sequence[str], n: int) -> Counter:
    """Counts of the order-``n`` n-grams of ``tokens`` (tuples; plain tokens for n=1)."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def match_counts(hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int) -> list[int]:
    """Clipped n-gram matches of ``hyp`` per order, max-count merged over ``refs``.

    An order with no match ends the work early: every match of order n+1
    contains a match of order n, so all higher orders are zero too.
    """
    correct = [0] * max_order
    hyp_len = len(hyp)
    for n in range(1, max_order + 1):
        if hyp_len < n:
            break
        hyp_counts = ngram_counter(hyp, n)
        if len(refs) == 1:
            ref_counts = ngram_counter(refs[0], n)
        else:
            ref_counts = Counter()
            for ref in refs:
                for gram, count in ngram_counter(ref, n).items():
                    if count > ref_counts[gram]:
                        ref_counts[gram] = count
        get = ref_counts.get
        c = 0
        for gram, count in hyp_counts.items():
            r = get(gram)
            if r:
                c += count if count < r else r
        if not c:
            break
        correct[n - 1] = c
    return correct


def compute_bleu(
    correct: Sequence[float] | np.ndarray,
    total: Sequence[float] | np.ndarray,
    sys_len: int,
    ref_len: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    max_order: int,
) -> tuple[float, list[float], float]:
    """(score, precisions, bp) with the arithmetic of sacrebleu's BLEU.compute_bleu."""
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]

    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0

    precisions = [0.0] * max_order
    if not any(correct):
        return 0.0, precisions, bp

    correct = list(correct)
    total = list(total)
    smooth_mteval = 1.0
    eff_order = max_order
    for n in range(1, max_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += cast(float, smooth_value)  # (add-k has a value)
            total[n - 1] += cast(float, smooth_value)
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * cast(float, smooth_value) / total[n - 1]  # (so has floor)
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    logs = [math.log(p) if p != 0.0 else -9999999999 for p in precisions[:eff_order]]
    score = bp * math.exp(sum(logs) / eff_order)
    return score, precisions, bp


#: whether ``sum`` of floats adds them one after the other, as numpy's ``+``
#: does (CPython before 3.12; later ones compensate, and the rows are then
#: scored one at a time by :func:`compute_bleu`)
_PLAIN_SUM = sum([1e100, 1.0, -1e100]) == 0.0


def compute_bleu_rows(
    stats: np.ndarray,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    max_order: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`compute_bleu` of every statistics row at once: (scores,
    precisions ``(rows, max_order)``, bp), each float the same to the last bit.

    The divisions and products are numpy's, which round as Python's do (IEEE
    double, the same operands in the same order); the logarithms and
    exponentials are ``math``'s own, mapped over the values that need them;
    the logarithms of a row are added in order, as ``sum`` does."""
    n_max = max_order
    st = np.asarray(stats, dtype=np.int64).reshape(-1, 2 + 2 * n_max)
    rows = len(st)
    if not _PLAIN_SUM:
        out = [compute_bleu(r[2 : 2 + n_max], r[2 + n_max :], r[0], r[1], smooth_method, smooth_value,
                            effective_order, n_max) for r in st.tolist()]
        return (np.array([o[0] for o in out], dtype=np.float64),
                np.array([o[1] for o in out], dtype=np.float64).reshape(rows, n_max),
                np.array([o[2] for o in out], dtype=np.float64))
    value = SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
    sys_len, ref_len = st[:, 0], st[:, 1]
    correct, total = st[:, 2 : 2 + n_max], st[:, 2 + n_max :]
    bp = np.ones(rows)
    short = sys_len < ref_len
    bp[short] = 0.0
    some = short & (sys_len > 0)
    if some.any():
        bp[some] = list(map(math.exp, (1 - ref_len[some] / sys_len[some]).tolist()))
    c = correct.astype(np.float64)
    t = total.astype(np.float64)
    if smooth_method == "add-k" and n_max > 1:
        c[:, 1:] += cast(float, value)
        t[:, 1:] += cast(float, value)
    # the orders before the first with no n-gram (the loop's break)
    alive = np.cumprod(t != 0, axis=1, dtype=bool)
    hit = alive & (c != 0)
    prec = np.zeros((rows, n_max))
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(100.0 * c, t, out=prec, where=hit)
        missed = alive & ~hit
        if smooth_method == "exp":
            mteval = np.exp2(np.cumsum(missed, axis=1))
            np.divide(100.0, mteval * t, out=prec, where=missed)
        elif smooth_method == "floor":
            np.divide(100.0 * cast(float, value), t, out=prec, where=missed)
    scored: np.ndarray = np.asarray(correct.any(axis=1))
    prec[~scored] = 0.0
    if effective_order:
        eff = alive.sum(axis=1)
        eff[eff == 0] = n_max
    else:
        eff = np.full(rows, n_max, dtype=np.int64)
    used: np.ndarray = np.arange(n_max)[None, :] < eff[:, None]
    logs = np.full((rows, n_max), -9999999999.0)
    positive = used & (prec != 0.0) & scored[:, None]
    logs[positive] = list(map(math.log, prec[positive].tolist()))
    total_log = logs[:, 0].copy()
    for k in range(1, n_max):
        np.add(total_log, logs[:, k], out=total_log, where=used[:, k])
    scores = np.zeros(rows)
    if scored.any():
        mean = (total_log[scored] / eff[scored]).tolist()
        scores[scored] = bp[scored] * np.array(list(map(math.exp, mean)), dtype=np.float64)
    return scores, prec, bp


class BleuFamily(Metric):
    """BLEU however it is computed (sacrebleu's here, the NLTK presets in
    nltk_bleu.py): one table row, one key, one settings section, and the
    n-gram breakdown in its records and reports."""

    key = "bleu"
    section = "bleu"
    short = "BLEU"
    name = "BLEU"
    ngram_precisions = True

    def text_line(self, score: Score, value: str, signature: str) -> str:
        prec = "/".join(f"{p:.1f}" for p in score.precisions)
        ratio = score.sys_len / score.ref_len if score.ref_len else 0
        return (
            f"{self.name} = {value} {prec} (BP = {score.bp:.3f} ratio = {ratio:.3f} "
            f"hyp_len = {score.sys_len} ref_len = {score.ref_len})  {signature}"
        )

    def text_columns(self) -> str:
        return f"  {'BP':>5}  {'hyp/ref':>9}"

    def text_cells(self, score: Score) -> str:
        return f"  {score.bp:5.3f}  {f'{score.sys_len}/{score.ref_len}':>9}"

    def tsv_columns(self) -> list[str]:
        n = len(self.sentence_score([0] * self.width).precisions)
        return [self.key, "bp", "sys_len", "ref_len"] + [f"p{j}" for j in range(1, n + 1)]

    def tsv_cells(self, score: Score) -> list[str]:
        return [
            repr(score.score) if score.score is not None else "nan",
            repr(score.bp), str(score.sys_len), str(score.ref_len), *map(repr, score.precisions),
        ]


class BleuSection(Protocol):
    """What BLEU reads of its settings section (``settings.BleuSettings``)."""

    preset: str
    tokenize: str
    smooth: str | None
    smooth_value: float | None
    max_order: int
    weights: list[float] | None
    lowercase: bool
    effective_order: bool


class BleuMetric(BleuFamily):
    """sacrebleu's BLEU: per-line with effective order, corpus without."""

    presets = ("sacrebleu",)

    def __init__(
        self,
        tokenize: str = DEFAULT_TOKENIZE,
        smooth: str = DEFAULT_SMOOTH,
        smooth_value: Optional[float] = None,
        max_order: int = 4,
        lowercase: bool = False,
        effective_order: bool = True,
    ) -> None:
        if smooth not in SMOOTH_DEFAULTS:
            raise ValueError(f"unknown BLEU smoothing {smooth!r}")
        self.tokenizer = get_tokenizer(tokenize)
        self.tokenize_name = tokenize
        #: line -> tokens, the same as ``tokenizer(line).split()`` (a per-word
        #: cache for 13a and none: see tokenizers.FastWordTokenizer)
        self._split = fast_tokenizer(tokenize)
        self.smooth = smooth
        self.smooth_value = smooth_value
        self.max_order = max_order
        self.lowercase = lowercase
        self.effective_order = effective_order
        self.width = 2 + 2 * max_order

    @classmethod
    def from_section(cls, section: BleuSection) -> BleuMetric:
        return cls(
            tokenize=section.tokenize,
            smooth=section.smooth or DEFAULT_SMOOTH,
            smooth_value=section.smooth_value,
            max_order=section.max_order,
            lowercase=section.lowercase,
            effective_order=section.effective_order,
        )

    # -- statistics ----------------------------------------------------------
    def tokens(self, line: str) -> list[str]:
        if self.lowercase:
            line = line.lower()
        return self._split(line.rstrip())

    def stats_from_tokens(self, hyp: list[str], refs: Sequence[list[str]]) -> list[int]:
        n_max = self.max_order
        hyp_len = len(hyp)
        ref_len = closest_ref_len(hyp_len, [len(r) for r in refs])
        correct = match_counts(hyp, refs, n_max)
        totals = [hyp_len - n + 1 if hyp_len >= n else 0 for n in range(1, n_max + 1)]
        return [hyp_len, ref_len, *correct, *totals]

    def line_stats(self, hyp: str, refs: Sequence[str]) -> list[int]:
        return self.stats_from_tokens(self.tokens(hyp), [self.tokens(r) for r in refs])

    # -- scores --------------------------------------------------------------
    def _score(self, stats: Sequence[int], effective_order: bool) -> Score:
        n = self.max_order
        stats = [int(x) for x in stats]
        correct, total = stats[2 : 2 + n], stats[2 + n : 2 + 2 * n]
        score, precisions, bp = compute_bleu(
            correct, total, stats[0], stats[1], self.smooth, self.smooth_value, effective_order, n
        )
        return Score(
            metric=self.name,
            score=score,
            counts=correct,
            totals=total,
            precisions=precisions,
            bp=bp,
            sys_len=stats[0],
            ref_len=stats[1],
            ngram=True,
        )

    def batch_stats(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        from .batch_stats import bleu_stats

        return bleu_stats(self, hyp, refs)

    def batch_scores(self, stats: np.ndarray) -> np.ndarray:
        return compute_bleu_rows(stats, self.smooth, self.smooth_value, self.effective_order, self.max_order)[0]

    def line_record_values(self, stats: np.ndarray, scores: np.ndarray) -> Iterator[tuple]:
        """Per statistics row, the numbers of its ``line_record`` in their order,
        lists flattened (score, counts, totals, precisions, bp, sys_len, ref_len):
        what the JSON report's template of a line is filled with."""
        n = self.max_order
        score, precisions, bp = compute_bleu_rows(stats, self.smooth, self.smooth_value, self.effective_order, n)
        st = np.asarray(stats, dtype=np.int64).reshape(-1, self.width)
        return zip(
            score.tolist(), *st[:, 2 : 2 + 2 * n].T.tolist(), *precisions.T.tolist(),
            bp.tolist(), st[:, 0].tolist(), st[:, 1].tolist(),
        )

    def resample_score(self, row):
        n = self.max_order
        return compute_bleu(
            row[2 : 2 + n], row[2 + n :], int(row[0]), int(row[1]),
            self.smooth, self.smooth_value, False, n,
        )[0]

    def sentence_score(self, stats: Sequence[int]) -> Score:
        return self._score(stats, self.effective_order)

    def corpus_score(self, totals: Sequence[int], last: Optional[Sequence[int]] = None) -> Score:
        return self._score(totals, False)

    def signature(self, nrefs: int, sentence: bool = False) -> str:
        smooth = self.smooth
        default = SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = self.smooth_value if self.smooth_value is not None else default
            smooth += f"[{value:.2f}]"
        eff = "yes" if (sentence and self.effective_order) else "no"
        case = "lc" if self.lowercase else "mixed"
        parts = [f"nrefs:{nrefs}", f"case:{case}", f"eff:{eff}", f"tok:{self.tokenizer.signature()}", f"smooth:{smooth}"]
        if self.max_order != 4:
            # sacrebleu leaves max order out of its signature; a number that
            # is not comparable with the default must say so.
            parts.append(f"order:{self.max_order}")
        parts.append(f"version:{sacrebleu_version()}")
        return "|".join(parts)
