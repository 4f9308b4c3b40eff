"""Pulled diagnostics (``textDocument/diagnostic``).  The findings, their
LSP form and the push to clients without pull support are the manager's
(:mod:`bleu_ls.server.publish`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from lsprotocol import types

from ..render import SOURCE

if TYPE_CHECKING:
    from ..pairs import PairManager


async def pull(
    manager: "PairManager", params: types.DocumentDiagnosticParams
) -> Union[types.RelatedFullDocumentDiagnosticReport, types.RelatedUnchangedDocumentDiagnosticReport]:
    pair = manager.pair_for(params.text_document.uri)
    if pair is None:
        if params.previous_result_id == "none":
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id="none")
        return types.RelatedFullDocumentDiagnosticReport(items=[], result_id="none")
    await manager.wait_scored(pair)
    diags, rid = manager.diagnostics(pair)
    if params.previous_result_id == rid:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
    return types.RelatedFullDocumentDiagnosticReport(items=diags, result_id=rid)


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def _pull(ls, params: types.DocumentDiagnosticParams):
        return await pull(manager, params)
