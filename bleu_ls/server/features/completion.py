"""Completion: the glossary's target terms for the segment (or line) under the cursor —
the allowed translations of the terms its source holds, and its do-not-translate terms.
Offered when the user asks (no trigger character: a translation file keeps its quiet editor,
and the VS Code extension leaves word-based suggestions off).  The answer is the document's
(``manager.answers(uri).completion``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

__all__ = ["completion", "register"]


def completion(manager: "PairManager", params: types.CompletionParams) -> Optional[types.CompletionList]:
    return manager.answers(params.text_document.uri).completion(params)


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(resolve_provider=False))
    def _completion(ls, params: types.CompletionParams):
        return completion(manager, params)
