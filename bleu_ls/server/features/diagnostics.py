"""Pulled diagnostics (``textDocument/diagnostic``).  The findings, their
LSP form and the push to clients without pull support are the manager's
(:mod:`bleu_ls.server.views.publish`)."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Union

from lsprotocol import types

from ..wire.protocol import Encoded, full_report, unchanged_report
from ..views.render import SOURCE

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

#: A pull first lets the requests that came with it through (VS Code and
#: Neovim send an inlay-hint request together with the pull after each
#: edit; pygls reads a message in several event-loop turns): the hints of
#: the edited lines need not wait for the whole document's analysis.
YIELD_SECONDS = 0.004


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
    """The report and the result id it leaves the editor with (None: not a pair)."""
    await asyncio.sleep(YIELD_SECONDS)
    segment_docs = manager.segment_docs
    if params.text_document.uri in segment_docs.docs:  # a segment format (server/segdocs/)
        rid = segment_docs.result_id(params.text_document.uri)
        if params.previous_result_id == rid:
            return unchanged_report(rid), None
        return full_report(rid, segment_docs.diagnostics(params.text_document.uri)), None
    await manager.wait_opened(params.text_document.uri)  # a large document: built in the background first
    pair = manager.pair_for(params.text_document.uri)
    if pair is None:
        if params.previous_result_id == "none":
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id="none"), None
        return types.RelatedFullDocumentDiagnosticReport(items=[], result_id="none"), None
    await manager.wait_analysed(pair)
    body, rid = manager.publisher.encoded_body(pair)
    if params.previous_result_id == rid:
        return unchanged_report(rid), rid
    return Encoded('{"kind":"full","resultId":' + json.dumps(rid) + ',"items":[' + body + "]}"), rid


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def _pull(ls, params: types.DocumentDiagnosticParams):
        return await pull(manager, params)
