"""The LSP protocol layer, adjusted so that documents are ours alone.

pygls 2.1.1 applies every ``didChange`` to its own ``TextDocument`` before
the server's handler runs, and on the way clamps each change's ``character``
in place using ``str.splitlines`` lines (which break on form feed, U+2028,
NEL…).  A server with its own line model would then see wrong ranges.  Here
the open/change/close notifications go straight to the server's handlers
with the parameters exactly as the client sent them; pygls' workspace keeps
no copy of the text (which also spares an O(document) string rebuild per
keystroke).
"""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method


class BleuProtocol(LanguageServerProtocol):
    def structure_message(self, data):
        # pygls logs a request whose params do not fit the method's types
        # (a negative position, a string for an object) and never answers it,
        # so the client would wait forever: answer it with the JSON-RPC error.
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), (int, str)):
                self._send_response(data["id"], error=exc.to_response_error())
            raise

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        # pygls 2.1.1 files the future of a notification handled by a
        # generator/coroutine/thread under a fresh id and never removes it
        # (only responses do): one future per keystroke, kept forever.
        if callback == self._check_handler_result:  # a notification
            check = callback

            def callback(future, _id=msg_id):
                self._request_futures.pop(_id, None)
                check(future)

        super()._execute_handler(msg_id=msg_id, handler=handler, callback=callback, args=args, kwargs=kwargs)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
