"""Semantic tokens: the words of a hypothesis line changed since the draft,
and the words that match no reference word.

Two token types of our own (:data:`TOKEN_TYPES`); a changed word that also
matches no reference word is a ``bleuChanged`` token with the ``unmatched``
modifier (tokens may not overlap).  The words and spans come from
:mod:`bleu_ls.postedit.diff`; this module turns them into LSP's relative
integer encoding, in the negotiated position encoding.

Cost: every line's encoded tokens are cached by what decides them (the
line's text, its draft line, its reference lines), so after an edit a full
request rebuilds only the lines whose inputs changed; lines that merely
moved (inserted lines above them) are found again by content.  A range
request looks at its lines only; a delta request (``full/delta``) answers
with the one stretch of integers that differs from the previous answer.
"""

from __future__ import annotations

import asyncio
import re
from itertools import chain, compress, repeat
from operator import sub
from typing import TYPE_CHECKING, Iterable, Optional, Sequence, Union

from lsprotocol import types

from ...postedit import changed_spans, unmatched_spans
from ..document import UTF8, UTF16

if TYPE_CHECKING:
    from ..document import LineDocument
    from ..pairs import Pair, PairManager

#: The token types the server registers (their index is the type on the wire).
TOKEN_TYPES = ["bleuChanged", "bleuUnmatched"]
#: ``unmatched`` on a ``bleuChanged`` token: the changed word matches no reference word either.
TOKEN_MODIFIERS = ["unmatched"]
CHANGED, UNMATCHED = 0, 1
MOD_UNMATCHED = 1
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

#: A full request computes this many uncached lines between two looks at the event loop.
SLICE = 400

_WORD = re.compile(r"\S+")
_EMPTY: tuple = ()


def line_tokens(
    line: str, draft_line: Optional[str], refs: Optional[Sequence[str]], lowercase: bool = False
) -> list[tuple[int, int, int, int]]:
    """(start, end, type, modifiers) per marked word of ``line``, in code points.

    ``draft_line`` None: no draft to compare with (nothing is "changed");
    ``refs`` None: no reference (nothing is "unmatched").
    """
    changed = changed_spans(draft_line, line) if draft_line is not None and draft_line != line else []
    unmatched = set(unmatched_spans(line, refs, lowercase)) if refs is not None else set()
    if not changed and not unmatched:
        return []
    out = []
    k = 0
    for m in _WORD.finditer(line):
        s, e = m.span()
        while k < len(changed) and changed[k][1] <= s:
            k += 1
        is_changed = k < len(changed) and changed[k][0] <= s
        if is_changed:
            out.append((s, e, CHANGED, MOD_UNMATCHED if (s, e) in unmatched else 0))
        elif (s, e) in unmatched:
            out.append((s, e, UNMATCHED, 0))
    return out


_CODECS = {UTF8: "utf-8", UTF16: "utf-16-le"}


def _column(line: str, index: int, encoding: str) -> int:
    """Code point ``index`` of ``line`` in ``encoding`` units (a non-ASCII line)."""
    codec = _CODECS.get(encoding)
    if codec is None:
        return index
    n = len(line[:index].encode(codec, "surrogatepass"))
    return n if codec == "utf-8" else n // 2


def _encode(line: str, toks: list[tuple[int, int, int, int]], encoding: str) -> tuple[int, ...]:
    """A line's tokens as LSP integers, without the first token's line delta."""
    out: list[int] = []
    prev = 0
    ascii_line = line.isascii()
    for s, e, kind, mods in toks:
        if ascii_line:
            us, ue = s, e
        else:
            us, ue = _column(line, s, encoding), _column(line, e, encoding)
        if out:
            out.append(0)
        out.extend((us - prev, ue - us, kind, mods))
        prev = us
    return tuple(out)


def _draft_lines(draft, start: int, end: int) -> list[str]:
    """The draft partner of lines [start, end), "" for a line new since the draft."""
    partner, lines = getattr(draft, "partner", None), getattr(draft, "draft", None)
    if partner is None or lines is None or len(partner) < end:
        return [draft.draft_line(i) or "" for i in range(start, end)]
    return [lines[j] if j >= 0 else "" for j in partner[start:end].tolist()]


def _common_prefix(a: list[int], b: list[int], step: int = 4096) -> int:
    """Length of the common prefix of two integer lists (compared in C-level chunks)."""
    n = min(len(a), len(b))
    i = 0
    while i + step <= n and a[i : i + step] == b[i : i + step]:
        i += step
    while i < n and a[i] == b[i]:
        i += 1
    return i


def delta_edit(old: list[int], new: list[int]) -> tuple[int, int, list[int]]:
    """One edit turning ``old`` into ``new``: (start, delete count, data to insert)."""
    start = _common_prefix(old, new)
    limit = min(len(old), len(new)) - start
    tail = min(_common_prefix(old[::-1], new[::-1]), limit)
    return start, len(old) - start - tail, new[start : len(new) - tail]


class TokenCache:
    """Encoded tokens of one document's lines, by (line, draft line, reference lines)."""

    def __init__(self) -> None:
        self.config: tuple = ()
        self.lines: dict[tuple, tuple[int, ...]] = {}
        self.lowercase = False
        self.built = 0  # lines computed (not found in the cache), for tests and benchmarks

    def keys(self, pair: "Pair", doc: "LineDocument", start: int, end: int, encoding: str) -> Optional[list[tuple]]:
        """What decides the tokens of each line in [start, end); None: nothing to mark."""
        hl = pair.settings.highlights
        draft = getattr(pair, "draft", None) if hl.changed else None
        model = pair.model if hl.unmatched else None
        self.lowercase = bool(pair.settings.bleu.lowercase)
        config = (encoding, draft is not None, model is not None, self.lowercase)
        if config != self.config:
            self.config, self.lines = config, {}
        if (draft is None and model is None) or start >= end:
            return None
        lines = doc.lines[start:end]
        drafts = _draft_lines(draft, start, end) if draft is not None else repeat(None)
        refs: Iterable = repeat(None)
        if model is not None:
            paired = max(start, min(end, model.n_paired))
            refs = chain(zip(*(r[start:paired] for r in model.refs)), repeat(None, end - paired))
        return list(zip(lines, drafts, refs))

    def missing(self, keys: list[tuple]) -> tuple[list, list[tuple]]:
        """The cached tokens per key (None where not cached) and the keys not cached."""
        encs = list(map(self.lines.get, keys))
        return encs, [k for k, v in zip(keys, encs) if v is None]

    def compute(self, keys: Iterable[tuple]) -> None:
        """Compute and cache the tokens of lines not in the cache."""
        cache, encoding, lowercase = self.lines, self.config[0], self.lowercase
        for key in keys:
            line, d, r = key
            cache[key] = _encode(line, line_tokens(line, d, r, lowercase), encoding) if line else _EMPTY
            self.built += 1

    def assemble(self, keys: list[tuple], start: int, whole: bool) -> list[int]:
        """The LSP ``data`` of lines ``start``… (first delta from line 0)."""
        encs, todo = self.missing(keys)
        if todo:
            self.compute(todo)
            encs = list(map(self.lines.__getitem__, keys))
        if whole and len(self.lines) > 2 * len(keys) + 4096:
            self.lines = dict(zip(keys, encs))  # forget lines no longer in the document
        rows = list(compress(range(start, start + len(keys)), encs))
        deltas = map(sub, rows, chain((0,), rows))
        return list(chain.from_iterable(chain.from_iterable(zip(zip(deltas), filter(None, encs)))))

    def data(self, pair: "Pair", doc: "LineDocument", start: int, end: int, encoding: str) -> list[int]:
        """The LSP ``data`` array for lines [start, end), computed at once."""
        keys = self.keys(pair, doc, start, end, encoding)
        if keys is None:
            return []
        return self.assemble(keys, start, start == 0 and end >= doc.n_lines)


class Tokens:
    """The semantic token answers of a server, with a cache per pair."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        #: uri -> (the pair, its cache); a closed document's entry goes at the next request
        self.caches: dict[str, tuple["Pair", TokenCache]] = {}
        #: uri -> (result id, data) of the last full answer, for delta requests
        self.sent: dict[str, tuple[str, list[int]]] = {}
        self._ids = 0

    def cache_for(self, pair: "Pair") -> TokenCache:
        entry = self.caches.get(pair.uri)
        if entry is None or entry[0] is not pair:
            pairs = self.manager.pairs
            for uri in [u for u, (p, _c) in self.caches.items() if pairs.get(u) is not p]:
                del self.caches[uri]
                self.sent.pop(uri, None)
            entry = self.caches[pair.uri] = (pair, TokenCache())
        return entry[1]

    def data(self, uri: str, start: int = 0, end: Optional[int] = None) -> list[int]:
        pair = self.manager.pair_for(uri)
        doc = self.manager.docs.get(uri)
        if pair is None or doc is None:
            return []
        n = doc.n_lines
        stop = n if end is None else max(0, min(end, n))
        return self.cache_for(pair).data(pair, doc, max(0, start), stop, self.manager.encoding)

    async def full(self, uri: str) -> list[int]:
        """The whole document's ``data``; lines not cached are computed in
        slices, letting other requests and edits through in between."""
        pair, doc = self.manager.pair_for(uri), self.manager.docs.get(uri)
        if pair is None or doc is None:
            return []
        cache = self.cache_for(pair)
        keys = cache.keys(pair, doc, 0, doc.n_lines, self.manager.encoding)
        if keys is None:
            return []
        _encs, todo = cache.missing(keys)
        for k in range(0, len(todo) if len(todo) > SLICE else 0, SLICE):
            cache.compute(todo[k : k + SLICE])
            await asyncio.sleep(0)
        return self.data(uri)  # keys again: the document may have changed meanwhile

    def remember(self, uri: str, data: list[int]) -> types.SemanticTokens:
        """A full answer with a result id that a later delta request can refer to."""
        self._ids += 1
        rid = str(self._ids)
        self.sent[uri] = (rid, data)
        return types.SemanticTokens(data=data, result_id=rid)

    async def delta(self, uri: str, previous: str) -> Union[types.SemanticTokens, types.SemanticTokensDelta]:
        """Only what changed since the answer ``previous`` (a full answer when it is unknown)."""
        data = await self.full(uri)
        last = self.sent.get(uri)
        answer = self.remember(uri, data)
        if last is None or last[0] != previous:
            return answer
        start, count, insert = delta_edit(last[1], data)
        edits = [types.SemanticTokensEdit(start=start, delete_count=count, data=insert)] if count or insert else []
        return types.SemanticTokensDelta(edits=edits, result_id=answer.result_id)

    def range(self, params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
        rng = params.range
        end = rng.end.line + (1 if rng.end.character > 0 else 0)
        return types.SemanticTokens(data=self.data(params.text_document.uri, rng.start.line, end))


def register(server, manager: "PairManager") -> Tokens:
    tokens = Tokens(manager)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    async def _full(ls, params: types.SemanticTokensParams):
        uri = params.text_document.uri
        return tokens.remember(uri, await tokens.full(uri))

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, LEGEND)
    async def _delta(ls, params: types.SemanticTokensDeltaParams):
        return await tokens.delta(params.text_document.uri, params.previous_result_id)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    def _range(ls, params: types.SemanticTokensRangeParams):
        return tokens.range(params)

    return tokens
