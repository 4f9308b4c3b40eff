"""The numbers of a report: corpus scores with intervals and the paired
test, sentence-score histograms, scores by reference length, and per-line
differences between systems.  Every figure comes from the engine's
statistics rows, so it is the one sacrebleu gives."""

from __future__ import annotations

import math
import os
from typing import Optional, Sequence

import numpy as np

from ..engine import Metric
from ..engine.significance import confidence, paired_bs

HIST_STEP = 10
HIST_BINS = 10  # the last bin takes everything from 90 up (an exact match is 100.00000000000004)


def clean(x) -> Optional[float]:
    """A float for the data block (None for NaN / undefined)."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def corpus_of(metric: Metric, rows: np.ndarray):
    """The corpus score of some lines' statistics rows, as the pair model gives it."""
    from_rows = getattr(metric, "corpus_from_rows", None)
    if from_rows is not None:
        return from_rows(rows)
    totals = [int(x) for x in rows.sum(axis=0, dtype=np.int64)] if len(rows) else [0] * metric.width
    last = [int(x) for x in rows[-1]] if len(rows) else None
    return metric.corpus_score(totals, last)


def seed_text(seed: Optional[int]) -> str:
    """The seed as sacrebleu's signature shows it (its default: SACREBLEU_SEED or 12345)."""
    return os.environ.get("SACREBLEU_SEED", "12345").lower() if seed is None else str(seed)


def bootstrap_signature(signature: str, n: int, seed: Optional[int]) -> str:
    """sacrebleu's signature of a score with bootstrap statistics: ``bs`` and ``seed`` after ``nrefs``."""
    first, _, rest = signature.partition("|")
    return f"{first}|bs:{n}|seed:{seed_text(seed)}|{rest}"


def corpus_section(models: Sequence, key: str, n_boot: int, seed: Optional[int]) -> list[dict]:
    """Per system: the corpus score with its breakdown, bootstrap mean ± ci, and the
    paired bootstrap p-value against the first system (sacrebleu's PairedTest "bs")."""
    metric = models[0].metrics[key]
    out = [dict(models[i].corpus(key).as_dict()) for i in range(len(models))]
    for rec in out:
        rec["score"] = clean(rec["score"])
        rec.update(mean=None, ci=None, p_value=None)
    if n_boot <= 1 or models[0].n_paired == 0 or not metric.bootstrap:  # sacrebleu's metrics only, not the NLTK presets
        return out
    stats = [m.stats_array(key) for m in models]
    if len(models) == 1:
        est = confidence(metric, stats[0], n=n_boot, seed=seed)
        out[0].update(mean=est.mean, ci=est.ci)
        return out
    base, others = paired_bs(metric, stats[0], stats[1:], n=n_boot, seed=seed)
    out[0].update(mean=base.mean, ci=base.ci)
    for rec, est in zip(out[1:], others):
        rec.update(mean=est.mean, ci=est.ci, p_value=est.p_value)
    return out


def histogram(values: np.ndarray) -> dict:
    """Counts of sentence scores in bins of 10 (the last open-ended); undefined apart."""
    defined = values[~np.isnan(values)]
    bins = np.clip((defined // HIST_STEP).astype(np.int64), 0, HIST_BINS - 1)
    counts = np.bincount(bins, minlength=HIST_BINS)
    return {
        "edges": [HIST_STEP * k for k in range(HIST_BINS)],
        "counts": [int(c) for c in counts],
        "undefined": int(len(values) - len(defined)),
    }


def bucket_labels(edges: Sequence[int]) -> list[str]:
    labels = [f"<{edges[0]}"]
    labels += [f"{a}–{b - 1}" for a, b in zip(edges, edges[1:])]
    labels.append(f"≥{edges[-1]}")
    return labels


def bucket_of(ref_words: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    """Bucket index per line: 0 below the first edge, len(edges) at or above the last."""
    return np.searchsorted(np.asarray(edges), ref_words, side="right")


def bucket_section(models: Sequence, ref_lines: Sequence[str], edges: Sequence[int]) -> dict:
    """compare-mt's bucketed analysis: the corpus score of the lines in each
    reference-length bucket (words of the first reference), per system and metric."""
    words = np.fromiter((len(r.split()) for r in ref_lines), dtype=np.int64, count=len(ref_lines))
    which = bucket_of(words, edges)
    members = [np.flatnonzero(which == b) for b in range(len(edges) + 1)]
    scores: dict = {}
    for key, metric in models[0].metrics.items():
        per_system = []
        for m in models:
            rows = m.stats_array(key)
            per_system.append([clean(corpus_of(metric, rows[idx]).score) if len(idx) else None for idx in members])
        scores[key] = per_system
    return {
        "by": "words in the first reference",
        "edges": list(edges),
        "labels": bucket_labels(edges),
        "lines": [int(len(idx)) for idx in members],
        "scores": scores,
    }


def differences(base: np.ndarray, other: np.ndarray, better_high: bool) -> np.ndarray:
    """Per line, how much better ``other`` is than ``base`` (positive: better)."""
    d = other - base
    return d if better_high else -d


def win_loss(delta: np.ndarray, points: int = 360) -> dict:
    """Wins / ties / losses of a comparison and its sorted differences, sampled as quantiles."""
    defined = np.sort(delta[~np.isnan(delta)])
    if len(defined) > points:
        picks = np.linspace(0, len(defined) - 1, points).round().astype(np.int64)
        curve = defined[picks]
    else:
        curve = defined
    return {
        "wins": int(np.count_nonzero(defined > 0)),
        "ties": int(np.count_nonzero(defined == 0)),
        "losses": int(np.count_nonzero(defined < 0)),
        "mean_difference": clean(defined.mean()) if len(defined) else None,
        "curve": [float(x) for x in curve[::-1]],
    }


def extreme_lines(values: np.ndarray, k: int, lowest: bool) -> list[int]:
    """The ``k`` lines with the lowest (highest) defined values; ties by line number."""
    idx = np.flatnonzero(~np.isnan(values))
    if not len(idx):
        return []
    v = values[idx]
    order = np.lexsort((idx, v if lowest else -v))
    return [int(i) for i in idx[order[:k]]]
