"""A do-nothing pygls server: the floor for open latency.

It accepts the same documents as bleu-ls (pygls parses every message) and
answers ``textDocument/inlayHint`` with ``[]``; whatever bleu-ls takes above
this is its own work.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

server = LanguageServer("floor", "0")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    pass


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
def inlay_hint(ls: LanguageServer, params: types.InlayHintParams) -> list:
    return []


if __name__ == "__main__":
    server.start_io()
