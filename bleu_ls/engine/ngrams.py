"""Vectorised n-gram matching of many lines at once (the core of the batch pass).

A chunk of lines is turned into integer id sequences (one tokenization per
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
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .tokenizers import also_forget, fast_tokenizer, split_punctuation

if TYPE_CHECKING:
    from .base import BleuLike as BleuMetric

# -- id sequences ----------------------------------------------------------------


class _Ids(dict):
    """token -> dense int id, assigned on first sight."""

    def __missing__(self, token: str) -> int:
        i = self[token] = len(self)
        return i


class _WordIds(dict):
    """word -> tuple of token ids, computed by ``split`` on first sight."""

    def __init__(self, split, alnum_whole: bool = False) -> None:
        super().__init__()
        self.split = split
        #: whether ``split`` keeps every alphanumeric word whole (13a, chrF++'s words)
        self.alnum_whole = alnum_whole
        self.ids = _Ids()
        #: the code of each word (see ``_WordCodes``), by the same split
        self.codes = _WordCodes(self)

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self[word] = tuple(map(self.ids.__getitem__, self.split(word)))
        return ids


#: a word that is no word: the line break of the joined text (``_seq_from_words``)
_BREAK = "\x00"
_BREAK_CODE = -1


class _WordCodes(dict):
    """word -> one int: its token id when it is one token (most words), else
    ``-2 - k`` for the k-th entry of ``multi`` (its tuple of token ids); the
    line break ``_BREAK`` is ``_BREAK_CODE``.  One array of codes then stands
    for the words of many lines (``_seq_from_words``)."""

    def __init__(self, words: _WordIds) -> None:
        super().__init__()
        self.words = words
        self.multi: list[tuple[int, ...]] = []
        self._table: tuple[int, np.ndarray, np.ndarray, np.ndarray] = (0, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))
        self[_BREAK] = _BREAK_CODE

    def __missing__(self, word: str) -> int:
        words = self.words
        if words.alnum_whole and word.isalnum():
            # one token, the word itself: no split, no tuple
            ids_of = words.ids
            code = ids_of.get(word)
            if code is None:
                code = ids_of[word] = len(ids_of)
            self[word] = code
            return code
        ids = tuple(map(words.ids.__getitem__, words.split(word)))
        if len(ids) == 1:
            code = self[word] = ids[0]
        else:
            code = self[word] = -2 - len(self.multi)
            self.multi.append(ids)
        return code

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(flat ids, offsets, lengths) of the ``multi`` entries, as arrays."""
        if self._table[0] != len(self.multi):
            lens = np.fromiter(map(len, self.multi), dtype=np.int64, count=len(self.multi))
            offs = np.zeros(len(lens), dtype=np.int64)
            np.cumsum(lens[:-1], out=offs[1:])
            flat = np.fromiter(chain.from_iterable(self.multi), dtype=np.int64, count=int(lens.sum()))
            self._table = (len(self.multi), flat, offs, lens)
        return self._table[1:]


#: per process: caches live as long as the worker (bounded below)
_CACHES: dict = {}
_CACHE_LIMIT = 1 << 20


def _word_ids(name: str, split, alnum_whole: bool = False) -> _WordIds:
    c = _CACHES.get(name)
    if c is None or len(c) > _CACHE_LIMIT or len(c.ids) > _CACHE_LIMIT:
        c = _CACHES[name] = _WordIds(split, alnum_whole)
    return c


def forget_ids() -> int:
    """Drop this process's word / token id caches; how many entries they held."""
    held = sum(len(c) for c in _CACHES.values())
    _CACHES.clear()
    return held


also_forget(forget_ids)


def _token_ids(name: str) -> _Ids:
    c = _CACHES.get(name)
    if c is None or len(c) > _CACHE_LIMIT:
        c = _CACHES[name] = _Ids()
    return c


def _seq_from_words(lines: Sequence[str], cache: _WordIds) -> tuple[np.ndarray, np.ndarray]:
    """(flat token ids, tokens per line): each whitespace word of a line maps
    to a tuple of token ids through ``cache`` (C-level loops only).

    The lines are joined by a break word and split once (one list of words,
    not one per line); each word becomes one code (``_WordCodes``) and the
    words of several tokens are spread out with numpy."""
    n = len(lines)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    joined = f" {_BREAK} ".join(lines)
    if joined.count(_BREAK) != n - 1:  # a line holds the break itself
        return _seq_from_word_lists(lines, cache)
    words = joined.split()
    del joined
    codes_of = cache.codes
    codes = np.fromiter(map(codes_of.__getitem__, words), dtype=np.int64, count=len(words))
    del words
    breaks = np.flatnonzero(codes == _BREAK_CODE)
    multi = np.flatnonzero(codes < _BREAK_CODE)
    counts = (codes >= 0).astype(np.int64)  # tokens per word; 0 for a break
    if len(multi):
        m_flat, m_offs, m_lens = codes_of.table()
        which = -2 - codes[multi]
        counts[multi] = m_lens[which]
    ends = np.cumsum(counts)
    starts = ends - counts
    flat = np.empty(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
    single = codes >= 0
    flat[starts[single]] = codes[single]
    if len(multi):
        lens = m_lens[which]
        total = int(lens.sum())
        local = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
        flat[np.repeat(starts[multi], lens) + local] = m_flat[np.repeat(m_offs[which], lens) + local]
    # tokens per line: between the breaks
    cum = np.concatenate(([0], ends))
    line_end = np.concatenate((breaks, [len(codes)]))
    line_start = np.concatenate(([0], breaks + 1))
    return flat, cum[line_end] - cum[line_start]


def _seq_from_word_lists(lines: Sequence[str], cache: _WordIds) -> tuple[np.ndarray, np.ndarray]:
    """``_seq_from_words`` a line at a time (lines that hold the break word)."""
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
        return _seq_from_words(lines, _word_ids("13a", fast.word_tokens, alnum_whole=True))
    if name == "none":
        return _seq_from_tokens(lines, _token_ids("none"))
    tok = metric.tokenizer
    return _seq_from_tokens([tok(line) for line in lines], _token_ids("tok:" + name))


def bleu_tokens(metric: BleuMetric, lines: Sequence[str]) -> list[list[str]]:
    """The tokens of ``lines`` as :func:`bleu_token_ids` counts them, as strings
    (what the batch pass sees of each line; for tests and checks)."""
    flat, lens = bleu_token_ids(metric, lines)
    name = metric.tokenize_name
    ids = _CACHES["13a"].ids if name == "13a" else _CACHES["none" if name == "none" else "tok:" + name]
    names = [""] * len(ids)
    for token, i in ids.items():
        names[i] = token
    toks = [names[i] for i in flat.tolist()]
    ends = np.cumsum(lens).tolist()
    return [toks[e - k : e] for e, k in zip(ends, lens.tolist())]


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
    return _seq_from_words(lines, _word_ids("chrf-words", _split_word, alnum_whole=True))


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


def closest_ref_lens(hyp_lens: np.ndarray, ref_lens: list[np.ndarray]) -> np.ndarray:
    best = ref_lens[0].copy()
    best_diff = np.abs(hyp_lens - best)
    for r in ref_lens[1:]:
        d = np.abs(hyp_lens - r)
        better = (d < best_diff) | ((d == best_diff) & (r < best))
        best = np.where(better, r, best)
        best_diff = np.where(better, d, best_diff)
    return best


def ngram_totals(lens: np.ndarray, order: int) -> np.ndarray:
    """(lines, order): number of n-grams of each order n in each line."""
    n = np.arange(1, order + 1, dtype=np.int64)
    return np.maximum(lens[:, None] - n[None, :] + 1, 0)


def clear_caches() -> None:
    """Forget the token and word id caches of this process."""
    _CACHES.clear()
