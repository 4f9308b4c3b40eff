"""Confidence intervals and paired significance tests, as sacrebleu 2.6 gives them.

sacrebleu's bootstrap (``corpus_score(..., n_bootstrap=N)`` and
``PairedTest(test_type="bs")``) draws an N x lines index matrix from
``numpy.random.default_rng(seed)``, gathers the float32 statistics rows of
every resample (N x lines x width floats: about 1 GB for 10k lines of
chrF++) and scores each resample's column sums.  The approximate
randomization test (``test_type="ar"``) draws an N x lines boolean matrix
and mixes the two systems' rows with it.

Here the same random numbers are drawn from the same bit generator, a block
of resamples at a time, and turned into per-line counts: a resample's sums
are then ``counts @ stats``.  Statistics are non-negative whole numbers, so
as long as a column sum stays below 2**24 every float32 partial sum in
sacrebleu's loop is exact and equals the integer sum: the scores are the
same to the last bit.  A block whose sums are larger (or rows that are not
whole numbers, TER with three references) is summed exactly the way
sacrebleu does it, one resample at a time.  Memory is O(lines x block).

The score arithmetic on a resample's float32 sums follows sacrebleu's
(float32 in places, on numpy 2), so the means and intervals are the same
too.  Seeds: ``None`` means what sacrebleu does, the ``SACREBLEU_SEED``
environment variable or 12345 (``none`` there draws from the OS).
"""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, cast

import numpy as np

from .base import Metric

#: resamples x lines cells handled at once (8 bytes each): a block's few
#: arrays stay small (100k lines, 1,000 resamples: 6.8 s and 114 MB peak, where
#: 4M cells took 14.7 s and 379 MB), and at least ``_BLOCK_ROWS`` resamples
#: (a block of one resample was seven times slower)
_BLOCK_CELLS = 1 << 19
_BLOCK_ROWS = 4
_F32_EXACT = float(1 << 24)


@dataclass
class Estimate:
    score: float  # the corpus score on all lines
    mean: Optional[float] = None  # bootstrap mean (sacrebleu's "mean")
    ci: Optional[float] = None  # half-width of the 95% interval (sacrebleu's "ci", the ± value)
    p_value: Optional[float] = None


def default_seed() -> Optional[int]:
    """sacrebleu's seed: ``SACREBLEU_SEED`` or 12345; ``none`` means no fixed seed."""
    value = os.environ.get("SACREBLEU_SEED", "12345")
    return None if value.lower() == "none" else int(value)


def _resolve(seed: Optional[int]) -> Optional[int]:
    return default_seed() if seed is None else seed


# -- the random draws, a block at a time ---------------------------------------
class _Uint32Stream:
    """The 32-bit halves of a bit generator's raw 64-bit output, low half first.

    This is the buffer numpy's bounded-integer and boolean fills read from
    within one call, so drawing from it reproduces one big call in pieces.
    """

    def __init__(self, seed: Optional[int]) -> None:
        self._bits = np.random.default_rng(seed).bit_generator
        self._left = np.empty(0, dtype=np.uint32)

    def take(self, count: int) -> np.ndarray:
        if count > len(self._left):
            words = (count - len(self._left) + 1) // 2
            fresh = self._bits.random_raw(words).astype(np.uint64).view(np.uint32)
            self._left = np.concatenate([self._left, fresh])
        out, self._left = self._left[:count], self._left[count:]
        return out


def _index_blocks(seed: Optional[int], n: int, lines: int) -> Iterator[np.ndarray]:
    """The rows of ``default_rng(seed).choice(lines, size=(n, lines))``, in blocks.

    numpy draws each index with Lemire's method on 32-bit values: the value
    ``u`` gives ``(u * lines) >> 32`` unless the low half of that product
    falls under ``2**32 mod lines`` (then it is dropped and the next is used).
    """
    if lines > 0xFFFFFFFF:  # numpy takes another path there; never a text file
        raise ValueError("too many lines for the bootstrap")
    block = max(_BLOCK_ROWS, _BLOCK_CELLS // max(lines, 1))
    if lines == 1:  # a range of one value consumes no random numbers
        for start in range(0, n, block):
            yield np.zeros((min(block, n - start), 1), dtype=np.int64)
        return
    stream = _Uint32Stream(seed)
    size = np.uint64(lines)
    threshold = np.uint64((1 << 32) % lines)
    for start in range(0, n, block):
        rows = min(block, n - start)
        need = rows * lines
        parts: list[np.ndarray] = []
        got = 0
        while got < need:
            product = stream.take(need - got).astype(np.uint64) * size
            kept = (product >> np.uint64(32))[(product & np.uint64(0xFFFFFFFF)) >= threshold]
            parts.append(kept)
            got += len(kept)
        yield np.concatenate(parts).astype(np.int64).reshape(rows, lines)


def _mask_blocks(seed: Optional[int], n: int, lines: int) -> Iterator[np.ndarray]:
    """The rows of ``default_rng(seed).integers(2, size=(n, lines), dtype=bool)``, in blocks.

    numpy spends one bit of a 32-bit value per boolean, lowest bit first.
    """
    block = max(_BLOCK_ROWS, _BLOCK_CELLS // max(lines, 1))
    bits = np.random.default_rng(seed).bit_generator
    left = np.empty(0, dtype=bool)
    for start in range(0, n, block):
        rows = min(block, n - start)
        need = rows * lines
        if need > len(left):
            words = (need - len(left) + 63) // 64
            fresh = np.unpackbits(bits.random_raw(words).view(np.uint8), bitorder="little").astype(bool)
            left = np.concatenate([left, fresh])
        out, left = left[:need], left[need:]
        yield out.reshape(rows, lines)


# -- resample sums and scores ---------------------------------------------------
def _counts(idx: np.ndarray, lines: int) -> np.ndarray:
    """How often each line is drawn in each resample (rows x lines, float64)."""
    rows = idx.shape[0]
    flat = idx + (np.arange(rows, dtype=np.int64) * lines)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * lines).reshape(rows, lines).astype(np.float64)


class _Resampler:
    """One system's statistics, ready to give the float32 sums sacrebleu sees.

    Rows that are multiples of 1/scale (scale 1, 2 or 4: TER's averages over
    1, 2 or 4 references) are summed exactly as integers of 1/scale.
    """

    def __init__(self, stats: np.ndarray) -> None:
        self._stats = stats
        f32 = np.asarray(stats, dtype=np.float32)
        f64 = np.asarray(stats, dtype=np.float64)
        self.scaled: Optional[np.ndarray] = None
        self.scale = 1.0
        if np.all(f64 >= 0) and np.array_equal(f32, f64):
            for scale in (1.0, 2.0, 4.0):
                if np.array_equal(np.floor(f64 * scale), f64 * scale):
                    # (f64 itself when it is a copy already: one array less)
                    own = scale == 1.0 and f64 is not stats and not np.may_share_memory(f64, stats)
                    self.scaled, self.scale = (f64 if own else f64 * scale), scale
                    break
        # the float32 rows only when the exact integer sums may not do
        # (made again when needed: 4 bytes a cell less at 100k lines)
        self._f32: Optional[np.ndarray] = f32 if self.scaled is None else None
        del f32, f64

    @property
    def f32(self) -> np.ndarray:
        if self._f32 is None:
            self._f32 = np.asarray(self._stats, dtype=np.float32)
        return self._f32

    def sums(self, idx: np.ndarray, counts: np.ndarray) -> np.ndarray:
        if self.scaled is not None:
            totals = counts @ self.scaled
            if totals.size == 0 or totals.max() < _F32_EXACT:
                return (totals / self.scale).astype(np.float32)
        # sacrebleu's own operation, one resample at a time
        return np.stack([self.f32[row].sum(0) for row in idx])


def resample_score(metric: Metric, row: np.ndarray):
    """A resample's score from its float32 sums, with sacrebleu's arithmetic and types."""
    return metric.resample_score(row)


def _oracle(metric: Metric, stats: np.ndarray) -> np.ndarray:
    """The rows as sacrebleu keeps them (TER: float averages of reference lengths)."""
    convert = getattr(metric, "oracle_rows", None)
    return convert(stats) if convert is not None else stats


def _bootstrap_scores(metric: Metric, arrays: Sequence[np.ndarray], n: int, seed) -> list[list]:
    """The n bootstrap scores of each array, all on the same draws."""
    lines = len(arrays[0])
    samplers = [_Resampler(a) for a in arrays]
    out: list[list] = [[] for _ in arrays]
    for idx in _index_blocks(seed, n, lines):
        counts = _counts(idx, lines)
        for sampler, scores in zip(samplers, out):
            scores.extend(resample_score(metric, row) for row in sampler.sums(idx, counts))
    return out


def _score(metric: Metric, stats: np.ndarray) -> float:
    from_rows = getattr(metric, "corpus_from_rows", None)
    if from_rows is not None:
        return from_rows(stats).score
    totals = [int(x) if float(x).is_integer() else float(x) for x in np.asarray(stats).sum(0)]
    last = [int(x) for x in stats[-1]] if len(stats) else None
    # (TER's totals hold float reference lengths, as sacrebleu's do; a corpus score is a number)
    return cast(float, metric.corpus_score(cast(Sequence[int], totals), last).score)


def _check(stats: np.ndarray, metric: Metric) -> np.ndarray:
    arr = np.asarray(stats)
    if arr.ndim != 2 or len(arr) == 0:
        raise ValueError("statistics must be a non-empty lines x width array")
    if metric.width and arr.shape[1] != metric.width:
        raise ValueError(f"statistics have {arr.shape[1]} columns, {metric.name} needs {metric.width}")
    return arr


def _array_ci(scores: list) -> tuple[float, float]:
    """Mean and half 95% interval of bootstrap scores, as sacrebleu's significance.estimate_ci."""
    ordered = np.sort(np.array(scores))
    low = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - low - 1] - ordered[low]))


def _p_value(values: np.ndarray, real: float) -> float:
    """(1 + how many exceed the real difference) / (1 + trials), as sacrebleu."""
    return (np.sum(values > real).item() + 1) / (len(values) + 1)


# -- the public API -------------------------------------------------------------
def confidence(metric: Metric, stats: np.ndarray, n: int = 1000, seed: Optional[int] = None) -> Estimate:
    """The corpus score with the bootstrap mean and 95% half-interval of
    sacrebleu's ``corpus_score(..., n_bootstrap=n)``."""
    stats = _check(stats, metric)
    score = _score(metric, stats)
    if n <= 1:
        return Estimate(score)
    (scores,) = _bootstrap_scores(metric, [_oracle(metric, stats)], n, _resolve(seed))
    ordered = sorted(scores)
    low = len(ordered) // 40
    ci = 0.5 * (ordered[len(ordered) - low - 1] - ordered[low])
    return Estimate(score, float(statistics.mean(ordered)), float(ci))


def _same_shape(baseline: np.ndarray, systems: Sequence[np.ndarray], metric: Metric) -> list[np.ndarray]:
    base = _check(baseline, metric)
    out = [_check(s, metric) for s in systems]
    for s in out:
        if s.shape != base.shape:
            raise ValueError(f"a system has {len(s)} lines, the baseline {len(base)}")
    return out


def paired_bs(
    metric: Metric, baseline: np.ndarray, systems: Sequence[np.ndarray], n: int = 1000, seed: Optional[int] = None
) -> tuple[Estimate, list[Estimate]]:
    """sacrebleu's paired bootstrap resampling test (``PairedTest(test_type="bs")``).

    The baseline gets its score, bootstrap mean and interval; each system its
    score, mean, interval and the p-value of its difference to the baseline.
    """
    base = _check(baseline, metric)
    others = _same_shape(base, systems, metric)
    seed = _resolve(seed)
    all_scores = _bootstrap_scores(metric, [_oracle(metric, a) for a in (base, *others)], n, seed)
    base_mean, base_ci = _array_ci(all_scores[0])
    base_score = _score(metric, base)
    base_est = Estimate(base_score, base_mean, base_ci)
    base_arr = np.array(all_scores[0])
    results = []
    for stats, scores in zip(others, all_scores[1:]):
        score = _score(metric, stats)
        mean, ci = _array_ci(scores)
        diffs = np.abs(np.array(scores) - base_arr)
        p = _p_value(diffs - diffs.mean(), abs(base_score - score))
        results.append(Estimate(score, mean, ci, p))
    return base_est, results


def _mixed_scores(metric: Metric, rows: np.ndarray) -> np.ndarray:
    """Scores of float64 sums: with integer sums the arithmetic is the integers' own."""
    return np.array([resample_score(metric, row) for row in rows], dtype=np.float64)


def paired_ar(
    metric: Metric, baseline: np.ndarray, systems: Sequence[np.ndarray], n: int = 10000, seed: Optional[int] = None
) -> tuple[Estimate, list[Estimate]]:
    """sacrebleu's paired approximate randomization test (``PairedTest(test_type="ar")``):
    scores and p-values (no interval, as sacrebleu without ``n_ar_confidence``)."""
    base = _check(baseline, metric)
    others = _same_shape(base, systems, metric)
    seed = _resolve(seed)
    base_score = _score(metric, base)
    base64 = _oracle(metric, base).astype(np.float64)
    results = []
    for stats in others:
        score = _score(metric, stats)
        sys64 = _oracle(metric, stats).astype(np.float64)
        trial_diffs = []
        for mask in _mask_blocks(seed, n, len(base)):
            keep = mask.astype(np.float64)
            swap = 1.0 - keep
            a = _mixed_scores(metric, keep @ base64 + swap @ sys64)
            b = _mixed_scores(metric, swap @ base64 + keep @ sys64)
            trial_diffs.append(np.abs(a - b))
        p = _p_value(np.concatenate(trial_diffs), abs(base_score - score))
        results.append(Estimate(score, p_value=p))
    return Estimate(base_score), results
