"""Pulled diagnostics (``textDocument/diagnostic``).  The report is the
document's (``manager.answers(uri)``); the findings, their LSP form and the
push to clients without pull support are the manager's
(:mod:`bleu_ls.server.views.publish`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Union

from lsprotocol import types

from ..wire.protocol import Encoded
from ..views.render import SOURCE

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

#: A pull first lets the requests that came with it through (VS Code and
#: Neovim send an inlay-hint request together with the pull after each
#: edit): a few event-loop turns (:data:`TURNS`) dispatch the requests read
#: with it, and an inlay-hint request of the same document then being
#: answered is waited for, at most this long.  The hints of the edited lines
#: need not wait for the analysis, and a pull with no hint request beside it
#: waits for nothing (a fixed sleep here cost every pull its length).
YIELD_SECONDS = 0.004
#: Event-loop turns a pull lets pass before it looks for hint requests.
TURNS = 16
#: How often a waiting pull looks again.
POLL_SECONDS = 0.0005


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
    await let_hints_through(manager, params.text_document.uri)
    return await manager.answers(params.text_document.uri).diagnostics(params)


async def let_hints_through(manager: "PairManager", uri: str) -> None:
    """Let the requests that came with a pull of ``uri`` be dispatched, then wait (at most
    :data:`YIELD_SECONDS`) while an inlay-hint request of ``uri`` is being answered."""
    for _ in range(TURNS):
        await asyncio.sleep(0)
    busy = manager.hints_in_flight
    if not busy.get(uri):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + YIELD_SECONDS
    while busy.get(uri) and loop.time() < deadline:
        await asyncio.sleep(POLL_SECONDS)


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def _pull(ls, params: types.DocumentDiagnosticParams):
        return await pull(manager, params)
