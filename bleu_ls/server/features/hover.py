"""Hover on a hypothesis line: the score's breakdown, the reference and
source lines, the reference n-grams the line misses, the change since the
document was opened (text from :mod:`bleu_ls.server.render`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from ..render import hover_text

if TYPE_CHECKING:
    from ..pairs import PairManager


def hover(manager: "PairManager", params: types.HoverParams) -> Optional[types.Hover]:
    pair = manager.pair_for(params.text_document.uri)
    if pair is None or (pair.model is None and pair.effort is None and not pair.draft_problem):
        return None
    text = hover_text(pair, params.position.line)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def _hover(ls, params: types.HoverParams):
        return hover(manager, params)
