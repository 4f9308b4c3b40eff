"""The fast first full pass: statistics and per-line scores of many lines at once.

Scoring line by line spends its time building small Counters.  Here a
chunk of lines is turned into integer id sequences (one tokenization per
line and side), and the clipped n-gram matches of every line and order are
counted with a few sorts over the whole chunk:

* the n-grams of order n of every side and line get dense ids by sorting
  ``(id of the (n-1)-gram prefix, next token)`` pairs — the prefix id
  already includes the line, so equal ids mean the same n-gram *in the same
  line*;
* per dense id, the hypothesis count, each reference's count and their
  clipped minimum are ``bincount``s; per line, the sum is one more;
* an n-gram can only match if its (n-1)-gram prefix matched, so each order
  keeps only the positions whose prefix is shared by both sides.

The integers are exactly the ones the per-line code computes (and sacrebleu /
NLTK compute): the oracle tests and the benchmark compare them.  Per-line
scores are then computed from the rows with the metric's own Python
arithmetic, so the floats are the same to the last bit.

Large inputs are split into chunks scored by a process pool; workers return
compact numpy arrays, never Counters.
"""

from __future__ import annotations

import os
import sys
from itertools import chain
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

import numpy as np

from .base import Metric
from .chrf import split_punctuation
from .tokenizers import fast_tokenizer

if TYPE_CHECKING:  # the metric modules import this one lazily, for their batch_stats
    from .bleu import BleuMetric
    from .chrf import ChrfMetric
    from .nltk_bleu import NltkBleuMetric

#: below this many lines the pool is not worth starting
PARALLEL_MIN_LINES = 4000

# -- id sequences ----------------------------------------------------------------


class _Ids(dict):
    """token -> dense int id, assigned on first sight."""

    def __missing__(self, token: str) -> int:
        i = self[token] = len(self)
        return i


class _WordIds(dict):
    """word -> tuple of token ids, computed by ``split`` on first sight."""

    def __init__(self, split) -> None:
        super().__init__()
        self.split = split
        self.ids = _Ids()

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self[word] = tuple(map(self.ids.__getitem__, self.split(word)))
        return ids


#: per process: caches live as long as the worker (bounded below)
_CACHES: dict = {}
_CACHE_LIMIT = 1 << 20


def _word_ids(name: str, split) -> _WordIds:
    c = _CACHES.get(name)
    if c is None or len(c) > _CACHE_LIMIT or len(c.ids) > _CACHE_LIMIT:
        c = _CACHES[name] = _WordIds(split)
    return c


def _token_ids(name: str) -> _Ids:
    c = _CACHES.get(name)
    if c is None or len(c) > _CACHE_LIMIT:
        c = _CACHES[name] = _Ids()
    return c


def _seq_from_words(lines: Sequence[str], cache: _WordIds) -> tuple[np.ndarray, np.ndarray]:
    """(flat token ids, tokens per line): each whitespace word of a line maps
    to a tuple of token ids through ``cache`` (C-level loops only)."""
    words_per_line = list(map(str.split, lines))
    n_words = np.fromiter(map(len, words_per_line), dtype=np.int64, count=len(lines))
    tuples = list(map(cache.__getitem__, chain.from_iterable(words_per_line)))
    n_toks = np.fromiter(map(len, tuples), dtype=np.int64, count=len(tuples))
    cs = np.zeros(len(tuples) + 1, dtype=np.int64)
    np.cumsum(n_toks, out=cs[1:])
    word_end = np.cumsum(n_words)
    lens = cs[word_end] - cs[word_end - n_words]
    flat = np.fromiter(chain.from_iterable(tuples), dtype=np.int64, count=int(cs[-1]))
    return flat, lens


def _seq_from_tokens(lines: Sequence[str], ids: _Ids) -> tuple[np.ndarray, np.ndarray]:
    """(flat ids, lengths) of whitespace tokens."""
    toks = list(map(str.split, lines))
    lens = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
    flat = np.fromiter(map(ids.__getitem__, chain.from_iterable(toks)), dtype=np.int64, count=int(lens.sum()))
    return flat, lens


def bleu_token_ids(metric: BleuMetric, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The tokens of ``lines`` as ids (the same tokens as ``metric.tokens``)."""
    if metric.lowercase:
        lines = list(map(str.lower, lines))
    lines = list(map(str.rstrip, lines))
    name = metric.tokenize_name
    if name == "13a":
        fast = fast_tokenizer("13a")
        if any(map(fast.needs_prepare, lines)):
            lines = list(map(fast.prepare_13a, lines))
        return _seq_from_words(lines, _word_ids("13a", fast.word_tokens))
    if name == "none":
        return _seq_from_tokens(lines, _token_ids("none"))
    tok = metric.tokenizer
    return _seq_from_tokens([tok(line) for line in lines], _token_ids("tok:" + name))


def word_ids(lines: Sequence[str], lower: bool) -> tuple[np.ndarray, np.ndarray]:
    """Whitespace tokens as ids (the NLTK presets)."""
    if lower:
        lines = list(map(str.lower, lines))
    return _seq_from_tokens(lines, _token_ids("ws"))


def char_ids(lines: Sequence[str], lower: bool, whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """Code points of the lines (whitespace removed unless kept), as chrF counts them."""
    if lower:
        lines = [line.lower() for line in lines]
    if not whitespace:
        lines = ["".join(line.split()) for line in lines]
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    flat = np.frombuffer("".join(lines).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)
    return flat, lens


def chrf_word_ids(lines: Sequence[str], lower: bool) -> tuple[np.ndarray, np.ndarray]:
    """chrF++'s words (punctuation split off per word) as ids."""
    if lower:
        lines = list(map(str.lower, lines))
    return _seq_from_words(lines, _word_ids("chrf-words", _split_word))


def _split_word(word: str) -> list[str]:
    return split_punctuation(word)


# -- the counting core -------------------------------------------------------------


#: lines are counted in blocks of about this many positions (cache-sized sorts)
BLOCK_POSITIONS = 1 << 17


def match_table(sides: Sequence[tuple[np.ndarray, np.ndarray]], max_order: int) -> np.ndarray:
    """Clipped matches of side 0 against each other side, per order and line
    (see ``_match_block``), counted over blocks of lines."""
    n_lines = len(sides[0][1])
    per_line = np.zeros(n_lines, dtype=np.int64)
    for _, lens in sides:
        per_line += lens
    cum = np.cumsum(per_line)
    if n_lines == 0 or cum[-1] <= BLOCK_POSITIONS:
        return _match_block(sides, max_order)
    # line boundaries: each block holds about BLOCK_POSITIONS positions (at least one line)
    cuts = np.searchsorted(cum, np.arange(BLOCK_POSITIONS, int(cum[-1]), BLOCK_POSITIONS), side="right")
    bounds = np.unique(np.concatenate(([0], cuts, [n_lines])))
    starts = [np.concatenate(([0], np.cumsum(lens))) for _, lens in sides]
    out = np.zeros((len(sides), max_order, n_lines), dtype=np.int64)
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        if a == b:
            continue
        block = [(flat[st[a] : st[b]], lens[a:b]) for (flat, lens), st in zip(sides, starts)]
        out[:, :, a:b] = _match_block(block, max_order)
    return out


def _dense(key: np.ndarray) -> tuple[np.ndarray, int]:
    """(inverse, count): dense ids of ``key`` in sorted order, as np.unique's inverse.

    When key and position fit in 62 bits together, one plain sort of
    ``key << bits | position`` stands in for the slower argsort.
    """
    n = len(key)
    pbits = max(1, (n - 1).bit_length())
    if int(key.max()).bit_length() + pbits <= 62:
        s = np.sort((key << pbits) | np.arange(n, dtype=np.int64))
        order = s & ((1 << pbits) - 1)
        sk = s >> pbits
    else:
        order = np.argsort(key)
        sk = key[order]
    flag = np.empty(n, dtype=bool)
    flag[0] = True
    np.not_equal(sk[1:], sk[:-1], out=flag[1:])
    ids = np.cumsum(flag) - 1
    inv = np.empty(n, dtype=np.int64)
    inv[order] = ids
    return inv, int(ids[-1]) + 1


def _match_block(sides: Sequence[tuple[np.ndarray, np.ndarray]], max_order: int) -> np.ndarray:
    """Clipped matches of side 0 (hypothesis) against each other side, per order.

    ``sides[k] = (flat ids, lengths)``, every side with the same number of
    lines.  Returns ``m[k, n-1, line]`` for reference k (0-based): the sum
    over the order-n n-grams g of the line of min(count in hyp, count in
    reference k); and, as ``m[-1]``, the same with the max over all
    references of the count (BLEU's and NLTK's merge).
    """
    n_lines = len(sides[0][1])
    n_sides = len(sides)
    n_refs = n_sides - 1
    out = np.zeros((n_refs + 1, max_order, n_lines), dtype=np.int64)
    if n_lines == 0 or max_order == 0:
        return out
    tok = np.concatenate([s[0] for s in sides])
    total = len(tok)
    if total == 0:
        return out
    # dense token ids (no sort): V stays small for characters
    top = int(tok.max()) + 1
    if top > 4 * total + 1024:
        _, tok = np.unique(tok, return_inverse=True)
        tok = tok.reshape(-1).astype(np.int64)
    else:
        present = np.zeros(top, dtype=bool)
        present[tok] = True
        remap = np.cumsum(present) - 1
        tok = remap[tok]
    V = int(tok.max()) + 1
    lens_all = np.concatenate([s[1] for s in sides])
    L = np.repeat(np.tile(np.arange(n_lines, dtype=np.int64), n_sides), lens_all)
    seq_start = np.cumsum(lens_all) - lens_all
    pos = np.arange(total, dtype=np.int64)
    rem = np.repeat(lens_all + seq_start, lens_all) - pos  # tokens left in the line, >= 1
    side_start = np.searchsorted(pos, [int(seq_start[k * n_lines]) if n_lines else 0 for k in range(n_sides)] + [total])
    # aligned arrays over the current positions (ascending): pos, rem, L, prefix id
    prev = L
    bounds = side_start
    for n in range(1, max_order + 1):
        if n > 1:
            ok = rem >= n
            pos, rem, L, prev = pos[ok], rem[ok], L[ok], prev[ok]
            c = np.concatenate(([0], np.cumsum(ok)))
            bounds = c[bounds]
        if len(pos) == 0:
            break
        key = prev * V + tok[pos + (n - 1)]
        inv, U = _dense(key)
        counts = [np.bincount(inv[bounds[k]:bounds[k + 1]], minlength=U) for k in range(n_sides)]
        hc = counts[0]
        gram_line = np.empty(U, dtype=np.int64)
        gram_line[inv] = L
        rmax = counts[1]
        for k in range(1, n_sides):
            if k > 1:
                rmax = np.maximum(rmax, counts[k])
            if n_refs > 1:
                out[k - 1, n - 1] = np.bincount(gram_line, weights=np.minimum(hc, counts[k]), minlength=n_lines).astype(np.int64)
        out[-1, n - 1] = np.bincount(gram_line, weights=np.minimum(hc, rmax), minlength=n_lines).astype(np.int64)
        if n == max_order:
            break
        shared = (hc > 0) & (rmax > 0)
        keep = shared[inv]
        pos, rem, L, prev = pos[keep], rem[keep], L[keep], inv[keep]
        c = np.concatenate(([0], np.cumsum(keep)))
        bounds = c[bounds]
    if n_refs == 1:
        out[0] = out[-1]
    return out


def _closest_ref_len(hyp_lens: np.ndarray, ref_lens: list[np.ndarray]) -> np.ndarray:
    best = ref_lens[0].copy()
    best_diff = np.abs(hyp_lens - best)
    for r in ref_lens[1:]:
        d = np.abs(hyp_lens - r)
        better = (d < best_diff) | ((d == best_diff) & (r < best))
        best = np.where(better, r, best)
        best_diff = np.where(better, d, best_diff)
    return best


def _ngram_totals(lens: np.ndarray, order: int) -> np.ndarray:
    """(lines, order): number of n-grams of each order n in each line."""
    n = np.arange(1, order + 1, dtype=np.int64)
    return np.maximum(lens[:, None] - n[None, :] + 1, 0)


# -- statistics per metric ---------------------------------------------------------


def bleu_stats(metric: BleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [bleu_token_ids(metric, hyp)] + [bleu_token_ids(metric, r) for r in refs]
    N = metric.max_order
    m = match_table(sides, N)[-1]  # (N, lines)
    hyp_lens = sides[0][1]
    ref_len = _closest_ref_len(hyp_lens, [s[1] for s in sides[1:]])
    return np.column_stack([hyp_lens, ref_len, m.T, _ngram_totals(hyp_lens, N)]).astype(np.int64)


def nltk_stats(metric: NltkBleuMetric, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    sides = [word_ids(hyp, metric.lowercase)] + [word_ids(r, metric.lowercase) for r in refs]
    K = metric.n
    want5 = metric.method in (5, 7)
    order = max(K, 5) if want5 else K
    m = match_table(sides, order)[-1]
    hyp_lens = sides[0][1]
    ref_len = _closest_ref_len(hyp_lens, [s[1] for s in sides[1:]])
    totals = _ngram_totals(hyp_lens, order)
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
            h_tot = _ngram_totals(sides[0][1], order)
            r_tot = _ngram_totals(sides[k + 1][1], order)
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


# Each metric picks its counter: ``Metric.batch_stats`` (BleuMetric, ChrfMetric and
# NltkBleuMetric call the functions above) and scores the rows with its own float
# arithmetic in ``Metric.batch_scores``.


# -- the pass ----------------------------------------------------------------------


def _blob(lines: Sequence[str]):
    """Lines for a worker: one UTF-8 blob when no line holds a newline.

    Pickling a list of str would leave a cached UTF-8 copy inside every
    non-ASCII line of this process (about the size of the text, for as
    long as the lines live); encoding a joined copy leaves nothing behind.
    """
    text = "\n".join(lines)
    if text.count("\n") != max(len(lines) - 1, 0):
        return list(lines)
    return (len(lines), text.encode("utf-8", "surrogatepass"))


def _unblob(blob) -> list[str]:
    if isinstance(blob, list):
        return blob
    n, data = blob
    return data.decode("utf-8", "surrogatepass").split("\n") if n else []


def _work(args) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    metrics, hyp, refs = args
    hyp = _unblob(hyp)
    refs = [_unblob(r) for r in refs]
    out = {}
    for key, metric in metrics.items():
        st = metric.batch_stats(hyp, refs)
        out[key] = (st, metric.batch_scores(st))
    return out


def default_workers(n_lines: int) -> int:
    if n_lines < PARALLEL_MIN_LINES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def first_pass(
    metrics: Mapping[str, Metric],
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    workers: Optional[int] = None,
    start_method: Optional[str] = None,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Statistics rows and per-line scores of the first ``min(len)`` line pairs.

    Returns ``{key: (stats int64[lines, width], scores float64[lines])}``.
    ``workers`` processes share the work (None: the CPUs, for large inputs;
    1: in this process).  ``start_method`` picks the multiprocessing start
    method (default: "fork" where available — pass "forkserver" or "spawn"
    from a process that runs threads).
    """
    n = min(len(hyp), *(len(r) for r in refs)) if refs else 0
    hyp = hyp[:n]
    refs = [r[:n] for r in refs]
    if workers is None:
        workers = default_workers(n)
    if workers <= 1 or n < 2 * 256:
        result = _work((dict(metrics), hyp, refs))
        if n >= PARALLEL_MIN_LINES:
            # a long-lived process (the server) should not keep a whole
            # document's vocabulary around after a one-off pass
            _CACHES.clear()
            _trim_heap()
        return result
    import multiprocessing as mp

    if start_method is None:
        methods = mp.get_all_start_methods()
        start_method = "fork" if ("fork" in methods and sys.platform.startswith("linux")) else methods[0]
    ctx = mp.get_context(start_method)
    n_chunks = workers * 2
    bounds = [round(n * i / n_chunks) for i in range(n_chunks + 1)]
    jobs = [(dict(metrics), _blob(hyp[a:b]), [_blob(r[a:b]) for r in refs]) for a, b in zip(bounds, bounds[1:])]
    with ctx.Pool(workers) as pool:
        parts = pool.map(_work, jobs, chunksize=1)
    del jobs
    result = {
        key: (
            np.concatenate([p[key][0] for p in parts]) if parts else np.zeros((0, m.width), np.int64),
            np.concatenate([p[key][1] for p in parts]) if parts else np.zeros(0),
        )
        for key, m in metrics.items()
    }
    del parts
    _trim_heap()
    return result


def _trim_heap() -> None:
    """Hand the pass's freed buffers back to the OS (glibc keeps them otherwise)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
