"""The corpus score: a code lens on line 1 and the ``bleuLs/corpusScore``
request (polled by status items; answered once every line is scored).  The
answers are the document's (``manager.answers(uri)``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

CORPUS_SCORE = "bleuLs/corpusScore"


async def code_lens(manager: "PairManager", params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    return await manager.answers(uri).lens(uri)


async def corpus_score(manager: "PairManager", params: Any) -> Optional[dict[str, Any]]:
    td = params.get("textDocument") if isinstance(params, dict) else getattr(params, "textDocument", None)
    uri = td.get("uri") if isinstance(td, dict) else getattr(td, "uri", None)
    uri = uri if isinstance(uri, str) else ""  # (none: nothing to score)
    return await manager.answers(uri).corpus(uri)


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def _lens(ls, params: types.CodeLensParams):
        return await code_lens(manager, params)

    @server.feature(CORPUS_SCORE)
    async def _corpus(ls, params):
        return await corpus_score(manager, params)
