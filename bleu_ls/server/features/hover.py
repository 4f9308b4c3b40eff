"""Hover on a hypothesis line (or a segment), in the order a translator reads
it: the score and the line's findings in plain words, the reference and
source lines, the draft and the changes once edited, the reference n-grams
the line misses; then the numbers.  The answer is the document's
(``manager.answers(uri)``: :mod:`bleu_ls.server.pairs.answers` for a line
file, :mod:`bleu_ls.server.segdocs.answers` for a segment file; the text from
:mod:`bleu_ls.server.views.render`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from ..pairs.answers import NOT_READ

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

__all__ = ["NOT_READ", "hover", "register"]


def hover(manager: "PairManager", params: types.HoverParams) -> Optional[types.Hover]:
    return manager.answers(params.text_document.uri).hover(params)


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def _hover(ls, params: types.HoverParams):
        return hover(manager, params)
