"""Inlay hints: each scored hypothesis line's (or segment's) score at the end
of the line.  The answers are the document's (``manager.answers(uri)``: a line
file's in :mod:`bleu_ls.server.pairs.hints`, sent as ready JSON text; a
segment file's in :mod:`bleu_ls.server.segdocs.answers`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

# the line files' hints, by the names they always had here
from ..pairs.hints import ENSURE_LIMIT, inlay_hints, inlay_hints_encoded, label_for, wait_for_heavy_lines

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

__all__ = ["ENSURE_LIMIT", "label_for", "inlay_hints", "inlay_hints_encoded", "wait_for_heavy_lines", "resolve", "register"]


def resolve(manager: "PairManager", hint: types.InlayHint) -> types.InlayHint:
    """A hint sent without its tooltip (``data`` names its document), with it."""
    data = hint.data if isinstance(hint.data, dict) else None
    if not data:
        return hint
    return manager.answers(data.get("uri", "")).resolve_hint(hint)


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def _inlay_hints(ls, params: types.InlayHintParams):
        uri = params.text_document.uri
        manager.pacing.hint_started(uri, asyncio.get_running_loop().time())  # (a pull of it waits: pairs/pacing.py)
        try:
            return await manager.answers(uri).hints(params)
        finally:
            manager.pacing.hint_ended(uri)

    @server.feature(types.INLAY_HINT_RESOLVE)
    def _resolve(ls, hint: types.InlayHint):
        return resolve(manager, hint)
