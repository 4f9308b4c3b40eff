"""Hover on a hypothesis line, in the order a translator reads it: the
score and the line's findings in plain words, the reference and source
lines, the draft and the changes once edited, the reference n-grams the
line misses; then the numbers (text from :mod:`bleu_ls.server.views.render`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from ..views.render import breakdown_of, hover_text

if TYPE_CHECKING:
    from ..pairs.manager import PairManager


#: said for a line of a huge document not read yet
NOT_READ = "_Still reading the files: this line's scores in a moment._"


def _preview_hover(pair, i: int) -> Optional[str]:
    """The hover of a line of a huge document still being read: its scores
    only (the rest once the file is read), or that it is not read yet
    (building it now would keep every other request waiting for seconds)."""
    preview = pair.preview
    if preview is None or preview.wait_is_short():
        return None
    if not preview.known(i):
        return NOT_READ
    if preview.hyp(i) is None:
        return None
    return f"**Line {i + 1:,}**\n\n{breakdown_of(preview, i)}\n\n_(still reading the files: more here in a moment)_"


def hover(manager: "PairManager", params: types.HoverParams) -> Optional[types.Hover]:
    if params.text_document.uri in manager.segment_docs.docs:  # a segment format (server/segdocs/)
        return manager.segment_docs.hover(params)
    early = manager.peek(params.text_document.uri)
    if early is not None and early.preview is not None:
        text = _preview_hover(early, params.position.line)
        if text is not None:
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
        if not early.preview.wait_is_short():
            return None  # a line known to be unpaired: nothing to say (never build the pair for a hover)
    pair = manager.pair_for(params.text_document.uri)
    if pair is None or (pair.model is None and pair.effort is None and not pair.draft_problem):
        return None
    line = params.position.line
    text = hover_text(pair, line, manager.line_findings(pair, line))
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def _hover(ls, params: types.HoverParams):
        return hover(manager, params)
