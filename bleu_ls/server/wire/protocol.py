"""The LSP protocol layer, adjusted so that documents are ours alone.

pygls 2.1.1 applies every ``didChange`` to its own ``TextDocument`` before
the server's handler runs, and on the way clamps each change's ``character``
in place using ``str.splitlines`` lines (which break on form feed, U+2028,
NEL…).  A server with its own line model would then see wrong ranges.  Here
the open/change/close notifications go straight to the server's handlers
with the parameters exactly as the client sent them; pygls' workspace keeps
no copy of the text (which also spares an O(document) string rebuild per
keystroke).

A request handler may also answer with :class:`Encoded` JSON text (e.g. a
diagnostics report assembled from the cached JSON of each unchanged
diagnostic), which is written out as it is.
"""

from __future__ import annotations

import asyncio
import inspect
import json

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method


def _range(a: int = 0, b: int = 0) -> dict:
    return {"start": {"line": a, "character": 0}, "end": {"line": b, "character": 0}}


#: One message of each kind a client sends on the hot paths (open, edit,
#: hints, diagnostics, hover), structured once at start-up: cattrs builds
#: (compiles) a converter function per type on first use, ~0.1 s for these,
#: which would otherwise land on the first didOpen → first hint.
_WARM_MESSAGES = [
    ("textDocument/didOpen", {"textDocument": {"uri": "file:///w", "languageId": "t", "version": 1, "text": "a"}}),
    ("textDocument/didChange", {"textDocument": {"uri": "file:///w", "version": 2},
                                "contentChanges": [{"range": _range(0, 1), "text": "b"}]}),
    ("textDocument/inlayHint", {"textDocument": {"uri": "file:///w"}, "range": _range(0, 1)}),
    ("textDocument/diagnostic", {"textDocument": {"uri": "file:///w"}, "previousResultId": "r"}),
    ("textDocument/hover", {"textDocument": {"uri": "file:///w"}, "position": {"line": 0, "character": 0}}),
    ("textDocument/codeLens", {"textDocument": {"uri": "file:///w"}}),
]


def _warm_replies() -> list:
    pos = types.Position(line=0, character=0)
    rng = types.Range(start=pos, end=pos)
    md = types.MarkupContent(kind=types.MarkupKind.Markdown, value="x")
    return [
        [types.InlayHint(position=pos, label="x", padding_left=True, data={"line": 0}, tooltip=md)],
        types.RelatedFullDocumentDiagnosticReport(
            items=[types.Diagnostic(range=rng, message="x", severity=types.DiagnosticSeverity.Warning,
                                    code="c", source="bleu-ls", data={"line": 0})],
            result_id="r",
        ),
        types.RelatedUnchangedDocumentDiagnosticReport(result_id="r"),
        types.Hover(contents=md, range=rng),
        [types.CodeLens(range=rng, command=types.Command(title="x", command="c", arguments=["a"]))],
    ]


class BleuProtocol(LanguageServerProtocol):
    def __init__(self, server, converter):
        super().__init__(server, converter)
        self.warm_up()

    def warm_up(self) -> None:
        """Build the converter functions of the hot messages now, not on the
        first open/edit (best effort: a failure only costs that time later)."""
        try:
            for i, (method, params) in enumerate(_WARM_MESSAGES):
                msg = {"jsonrpc": "2.0", "method": method, "params": params}
                if not method.startswith("textDocument/did"):
                    msg["id"] = i
                super().structure_message(msg)
            for reply in _warm_replies():
                self._converter.unstructure(reply)
        except Exception:  # pragma: no cover - depends on the pygls/lsprotocol versions
            pass

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

    # -- pre-encoded results ---------------------------------------------------------
    def encode(self, obj) -> str:
        """The JSON text of an lsprotocol object (or list of them), as pygls
        would send it; cache it and answer with :class:`Encoded`."""
        return json.dumps(self._converter.unstructure(obj), separators=(",", ":"))

    def _send_response(self, msg_id, result=None, error=None):
        if error is None and isinstance(result, Encoded):
            self._result_types.pop(msg_id, None)
            body = '{"jsonrpc":"2.0","id":' + json.dumps(msg_id) + ',"result":' + result.json + "}"
            self._write_body(body)
            return
        super()._send_response(msg_id, result=result, error=error)

    def _write_body(self, body: str) -> None:
        if self.writer is None:
            return
        data = body.encode(self.CHARSET)
        if self._include_headers:
            header = f"Content-Length: {len(data)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            data = header.encode(self.CHARSET) + data
        res = self.writer.write(data)
        if inspect.isawaitable(res):
            asyncio.ensure_future(res)


class Encoded:
    """A request's result whose JSON text is already made (``json``): sent as
    it is, without unstructuring lsprotocol objects again.  Build the text
    from cached fragments, e.g. :func:`full_report`."""

    __slots__ = ("json",)

    def __init__(self, json_text: str) -> None:
        self.json = json_text


def full_report(result_id: str, items: list[str]) -> Encoded:
    """A full document diagnostic report from encoded diagnostics
    (:meth:`BleuProtocol.encode` of each ``Diagnostic``)."""
    return Encoded('{"kind":"full","resultId":' + json.dumps(result_id) + ',"items":[' + ",".join(items) + "]}")


def unchanged_report(result_id: str) -> Encoded:
    return Encoded('{"kind":"unchanged","resultId":' + json.dumps(result_id) + "}")
