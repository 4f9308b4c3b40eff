"""Pre-encoded results: what goes on the wire equals what pygls writes for
the same lsprotocol objects."""

from __future__ import annotations

import json

from lsprotocol import types

from bleu_ls.server.wire.protocol import Encoded, full_report, unchanged_report
from bleu_ls.server.server import create_server


class Sink:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data) -> None:
        self.data += data if isinstance(data, bytes) else data.encode("utf-8")


def messages(raw: bytes) -> list[dict]:
    out = []
    while raw:
        head, _, rest = raw.partition(b"\r\n\r\n")
        length = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length"))
        out.append(json.loads(rest[:length]))
        raw = rest[length:]
    return out


def diagnostic(line: int, message: str) -> types.Diagnostic:
    pos = types.Position(line=line, character=0)
    return types.Diagnostic(
        range=types.Range(start=pos, end=types.Position(line=line, character=7)),
        message=message,
        severity=types.DiagnosticSeverity.Warning,
        code="low-score",
        source="bleu-ls",
        data={"score": 1.5},
    )


def test_encoded_report_equals_the_pygls_encoding():
    proto = create_server().protocol
    sink = Sink()
    proto.set_writer(sink)
    # non-ASCII text: the header must count bytes, not characters
    diags = [diagnostic(0, "BLEU 3.1 — Größe 😀"), diagnostic(5, 'quote " and \\ backslash')]
    proto._send_response(1, result=types.RelatedFullDocumentDiagnosticReport(items=diags, result_id="r1"))
    proto._send_response(2, result=full_report("r1", [proto.encode(d) for d in diags]))
    proto._send_response(3, result=types.RelatedUnchangedDocumentDiagnosticReport(result_id="r1"))
    proto._send_response(4, result=unchanged_report("r1"))
    proto._send_response(5, result=Encoded("[]"))
    a, b, c, d, e = messages(sink.data)
    assert a.pop("id") == 1 and b.pop("id") == 2
    assert a == b
    assert b["result"]["items"][0]["message"] == "BLEU 3.1 — Größe 😀"
    assert c.pop("id") == 3 and d.pop("id") == 4
    assert c == d
    assert e == {"jsonrpc": "2.0", "id": 5, "result": []}


def test_errors_still_go_the_usual_way():
    from pygls.exceptions import JsonRpcInvalidParams

    proto = create_server().protocol
    sink = Sink()
    proto.set_writer(sink)
    proto._send_response(7, error=JsonRpcInvalidParams("bad").to_response_error())
    (msg,) = messages(sink.data)
    assert msg["id"] == 7 and msg["error"]["message"] == "bad" and "result" not in msg
