"""scripts/lsp_timeline.py: passes an editor's session to the real server byte
for byte and logs each message with its direction, method or id, and time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import REPO


def _frame(msg: dict) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(stream) -> dict:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def test_the_relay_passes_the_session_through_and_logs_each_message(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    env = dict(os.environ, BLEU_LS_TIMELINE=str(log), PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, str(REPO / "scripts" / "lsp_timeline.py"), "serve"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=tmp_path)
    try:
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
        proc.stdin.flush()
        reply = _read(proc.stdout)
        while "id" not in reply or reply.get("method"):  # server-to-client notifications first
            reply = _read(proc.stdout)
        assert reply["id"] == 1 and "inlayHintProvider" in reply["result"]["capabilities"]
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    sent = [(r["dir"], r.get("method"), r.get("id")) for r in rows if r["dir"] == "in"]
    assert sent == [("in", "initialize", 1), ("in", "shutdown", 2), ("in", "exit", None)]
    answers = [r for r in rows if r["dir"] == "out" and "method" not in r]
    assert [r["id"] for r in answers] == [1, 2]
    assert all(r["t"] >= rows[0]["t"] for r in rows) and all(r["bytes"] > 0 for r in rows)
