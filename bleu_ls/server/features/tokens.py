"""Semantic tokens: the words of a hypothesis line (or a segment's target)
changed since the draft, and the words that match no reference word.

Two token types of our own (:data:`TOKEN_TYPES`, the :data:`LEGEND` registered
here).  The answers are the document's (``manager.answers(uri)``): a line
file's in :mod:`bleu_ls.server.pairs.tokens` (full, delta and range answers
from the lines' encoded tokens kept in step with the document), a segment
file's in :mod:`bleu_ls.server.segdocs.draft_tokens` (always a full answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

# the line files' tokens, by the names they always had here
from ..pairs.tokens import COLD_LINES, LEGEND, TOKEN_MODIFIERS, TOKEN_TYPES, Tokens, _encode, line_tokens, range_end

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

__all__ = ["COLD_LINES", "LEGEND", "TOKEN_MODIFIERS", "TOKEN_TYPES", "Tokens", "_encode", "line_tokens", "register"]


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    async def _full(ls, params: types.SemanticTokensParams):
        uri = params.text_document.uri
        return await manager.answers(uri).tokens_full(uri)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, LEGEND)
    async def _delta(ls, params: types.SemanticTokensDeltaParams):
        uri = params.text_document.uri
        return await manager.answers(uri).tokens_delta(uri, params.previous_result_id)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    async def _range(ls, params: types.SemanticTokensRangeParams):
        uri, rng = params.text_document.uri, params.range
        return await manager.answers(uri).tokens_range(uri, rng.start.line, range_end(rng))
