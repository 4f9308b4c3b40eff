"""``bleu-ls serve`` itself: the console script over stdio with ``--stdio``,
and ``--tcp`` on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_ls.server.main import build_parser


def frame(obj) -> bytes:
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_message(reader: asyncio.StreamReader) -> dict:
    length = 0
    while True:
        line = await reader.readline()
        if not line:
            raise EOFError("server closed the stream")
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        if line in (b"\r\n", b"\n"):
            break
    return json.loads(await reader.readexactly(length))


async def initialize(reader, writer) -> dict:
    writer.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    await writer.drain()
    while True:
        msg = await asyncio.wait_for(read_message(reader), timeout=30)
        if msg.get("id") == 1:
            return msg


def test_parser_accepts_stdio_and_defaults_to_localhost():
    args = build_parser().parse_args(["--stdio"])
    assert args.stdio and not args.tcp and args.host == "127.0.0.1"
    args = build_parser().parse_args(["--tcp", "--port", "9999", "-vv", "--log-file", "x.log"])
    assert args.tcp and args.port == 9999 and args.verbose == 2 and args.log_file == "x.log"


async def test_console_script_over_stdio(tmp_path):
    exe = shutil.which("bleu-ls") or str(Path(sys.executable).parent / "bleu-ls")
    if not os.path.exists(exe):
        pytest.skip("the bleu-ls console script is not installed (pip install -e .)")
    log = tmp_path / "server.log"
    proc = await asyncio.create_subprocess_exec(
        exe, "serve", "--stdio", "--log-file", str(log), "-v",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        res = await initialize(proc.stdout, proc.stdin)
        caps = res["result"]["capabilities"]
        assert caps["inlayHintProvider"] and caps["hoverProvider"] and caps["codeLensProvider"]
        assert set(caps["executeCommandProvider"]["commands"]) >= {
            "bleuLs.pairWith", "bleuLs.showReport", "bleuLs.nextFlagged", "bleuLs.exportScores"
        }
        assert caps["positionEncoding"] == "utf-16"
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), timeout=15) == 0
        assert log.exists()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_tcp_binds_localhost(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bleu_ls", "serve", "--tcp", "--port", str(port),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        for _ in range(100):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        else:
            pytest.fail("the server did not listen on 127.0.0.1")
        res = await initialize(reader, writer)
        assert "capabilities" in res["result"]
        writer.close()
    finally:
        proc.terminate()
        await proc.wait()
