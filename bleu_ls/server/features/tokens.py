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
request looks at its lines only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Sequence

from lsprotocol import types

from ...postedit import changed_spans, unmatched_spans
from ..document import to_units

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

_WORD = re.compile(r"\S+")
_EMPTY: tuple = ()


def line_tokens(
    line: str, draft_line: Optional[str], refs: Optional[Sequence[str]], lowercase: bool = False
) -> list[tuple[int, int, int, int]]:
    """(start, end, type, modifiers) per marked word of ``line``, in code points.

    ``draft_line`` None: no draft to compare with (nothing is "changed");
    ``refs`` None: no reference (nothing is "unmatched").
    """
    changed = changed_spans(draft_line, line) if draft_line is not None else []
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


def _encode(line: str, toks: list[tuple[int, int, int, int]], encoding: str) -> tuple[int, ...]:
    """A line's tokens as LSP integers, without the first token's line delta."""
    out: list[int] = []
    prev = 0
    ascii_line = line.isascii()
    for s, e, kind, mods in toks:
        if ascii_line:
            us, ue = s, e
        else:
            us, ue = to_units(line, s, encoding), to_units(line, e, encoding)
        if out:
            out.append(0)
        out.extend((us - prev, ue - us, kind, mods))
        prev = us
    return tuple(out)


class TokenCache:
    """Encoded tokens of one document's lines, by (line, draft line, reference lines)."""

    def __init__(self) -> None:
        self.config: tuple = ()
        self.lines: dict[tuple, tuple[int, ...]] = {}
        self.built = 0  # lines computed (not found in the cache), for tests and benchmarks

    def data(self, pair: "Pair", doc: "LineDocument", start: int, end: int, encoding: str) -> list[int]:
        """The LSP ``data`` array for lines [start, end) (first delta from line 0)."""
        hl = pair.settings.highlights
        draft = getattr(pair, "draft", None) if hl.changed else None
        model = pair.model if hl.unmatched else None
        lowercase = bool(pair.settings.bleu.lowercase)
        config = (encoding, draft is not None, model is not None, lowercase)
        if config != self.config:
            self.config, self.lines = config, {}
        if draft is None and model is None:
            return []
        refs = model.refs if model is not None else []
        n_paired = model.n_paired if model is not None else 0
        cache = self.lines
        seen: Optional[dict] = {} if start == 0 and end >= doc.n_lines else None
        out: list[int] = []
        last = 0
        for i in range(start, end):
            line = doc.line(i)
            d = (draft.draft_line(i) or "") if draft is not None else None
            r = tuple(ref[i] for ref in refs) if i < n_paired else None
            key = (line, d, r)
            enc = cache.get(key)
            if enc is None:
                enc = _encode(line, line_tokens(line, d, r, lowercase), encoding) if line else _EMPTY
                cache[key] = enc
                self.built += 1
            if seen is not None:
                seen[key] = enc
            if enc:
                out.append(i - last)
                out.extend(enc)
                last = i
        if seen is not None:
            self.lines = seen  # a full pass keeps exactly the current lines
        elif len(cache) > 2 * doc.n_lines + 4096:
            cache.clear()
        return out


class Tokens:
    """The semantic token answers of a server, with a cache per pair."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        #: uri -> (the pair, its cache); a closed document's entry goes at the next request
        self.caches: dict[str, tuple["Pair", TokenCache]] = {}

    def cache_for(self, pair: "Pair") -> TokenCache:
        entry = self.caches.get(pair.uri)
        if entry is None or entry[0] is not pair:
            pairs = self.manager.pairs
            for uri in [u for u, (p, _c) in self.caches.items() if pairs.get(u) is not p]:
                del self.caches[uri]
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

    def full(self, params: types.SemanticTokensParams) -> types.SemanticTokens:
        return types.SemanticTokens(data=self.data(params.text_document.uri))

    def range(self, params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
        rng = params.range
        end = rng.end.line + (1 if rng.end.character > 0 else 0)
        return types.SemanticTokens(data=self.data(params.text_document.uri, rng.start.line, end))


def register(server, manager: "PairManager") -> Tokens:
    tokens = Tokens(manager)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def _full(ls, params: types.SemanticTokensParams):
        return tokens.full(params)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    def _range(ls, params: types.SemanticTokensRangeParams):
        return tokens.range(params)

    return tokens
