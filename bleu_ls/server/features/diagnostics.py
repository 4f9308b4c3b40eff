"""Pulled diagnostics (``textDocument/diagnostic``).  The report is the
document's (``manager.answers(uri)``); the findings, their LSP form and the
push to clients without pull support are the manager's
(:mod:`bleu_ls.server.views.publish`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from lsprotocol import types

from ..wire.protocol import Encoded
from ..views.render import SOURCE

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

async def pull(
    manager: "PairManager", params: types.DocumentDiagnosticParams
) -> Union[types.RelatedFullDocumentDiagnosticReport, types.RelatedUnchangedDocumentDiagnosticReport, Encoded]:
    # what the editor holds once answered (views/pulled.py: after a change,
    # a refresh only when the diagnostics differ and no pull is being answered)
    uri = params.text_document.uri
    held = manager.publisher.pulled
    held.begin(uri)
    rid = None
    try:
        answer, rid = await _answer(manager, params)
    finally:
        held.end(uri, rid)
    return answer


async def _answer(manager: "PairManager", params: types.DocumentDiagnosticParams) -> tuple:
    """The report and the result id it leaves the editor with (None: not followed)."""
    await manager.pacing.before_pull(params.text_document.uri)  # the hint request sent with it first
    return await manager.answers(params.text_document.uri).diagnostics(params)


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def _pull(ls, params: types.DocumentDiagnosticParams):
        return await pull(manager, params)
