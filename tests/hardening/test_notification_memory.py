"""Memory per notification: the protocol must not keep anything for a
notification once it is handled.

pygls 2.1.1 files the future of every notification handled by a generator,
coroutine or thread handler under a fresh id in ``_request_futures`` and
never takes it out (only responses to requests do), so a session leaked one
future, one lock and one id per keystroke — about 10 MiB a minute at 100
edits/s (tests/hardening/test_load.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path


from bleu_ls.server.server import create_server


async def test_notifications_leave_nothing_behind(tmp_path: Path) -> None:
    (tmp_path / "m.ref").write_text("the cat sat\nhello\n", encoding="utf-8")
    server = create_server()
    proto = server.protocol
    sent: list = []
    proto._send_data = lambda data: sent.append(data)  # no transport: keep what would be sent
    uri = (tmp_path / "m.hyp").as_uri()

    def handle(msg) -> None:
        proto.handle_message(proto.structure_message(msg))

    handle({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
    handle({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    handle({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "plaintext", "version": 1, "text": "the cat sat\nhello\n"}}})
    await asyncio.sleep(0.1)
    base = len(proto._request_futures)
    for v in range(2, 502):
        handle({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]}})
        handle({"jsonrpc": "2.0", "method": "$/noSuchNotification", "params": {}})
    await asyncio.sleep(0.3)
    assert server.docs[uri].line(0).startswith("x" * 500)
    assert len(proto._request_futures) <= base + 2, len(proto._request_futures)
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.cancel()
