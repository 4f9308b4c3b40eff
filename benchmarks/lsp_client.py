"""A minimal JSON-RPC-over-stdio language client for the server benchmarks.

It starts a server process, frames messages with Content-Length headers,
answers the server's own requests (configuration, progress, refresh,
registration) with neutral replies, and times requests with
``time.perf_counter``.  No editor, no pygls on this side: what is measured is
the server plus the pipe.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Optional


class LspError(RuntimeError):
    pass


class Client:
    def __init__(self, argv: list[str], cwd: Optional[Path] = None, env: Optional[dict] = None) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            bufsize=0,
        )
        self._next_id = 0
        self._lock = threading.Lock()
        self._pending: dict[int, dict] = {}
        self._events: dict[int, threading.Event] = {}
        self.notifications: list[tuple[float, dict]] = []
        self._notif_cond = threading.Condition()
        self.stderr_tail: list[bytes] = []
        threading.Thread(target=self._read_loop, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- wire --------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self._lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def _drain_stderr(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):
            self.stderr_tail.append(line)
            del self.stderr_tail[:-40]

    def _read_loop(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self._closed()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            body = b""
            while len(body) < length:
                chunk = out.read(length - len(body))
                if not chunk:
                    self._closed()
                    return
                body += chunk
            t = time.perf_counter()
            msg = json.loads(body)
            if "id" in msg and "method" in msg:
                self._answer(msg)
            elif "id" in msg:
                msg["_t"] = t
                ev = self._events.get(msg["id"])
                self._pending[msg["id"]] = msg
                if ev is not None:
                    ev.set()
            else:
                with self._notif_cond:
                    self.notifications.append((t, msg))
                    self._notif_cond.notify_all()

    def _closed(self) -> None:
        for ev in list(self._events.values()):
            ev.set()

    def _answer(self, msg: dict) -> None:
        method = msg["method"]
        if method == "workspace/configuration":
            result: Any = [None for _ in msg.get("params", {}).get("items", [])]
        else:
            result = None
        self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    # -- API ---------------------------------------------------------------------
    def request_async(self, method: str, params: Any) -> tuple[int, float]:
        with self._lock:
            self._next_id += 1
            rid = self._next_id
        self._events[rid] = threading.Event()
        t0 = time.perf_counter()
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid, t0

    def wait(self, rid: int, timeout: float = 120.0) -> dict:
        ev = self._events[rid]
        if not ev.wait(timeout):
            raise LspError(f"no reply to request {rid} within {timeout}s")
        self._events.pop(rid, None)
        msg = self._pending.pop(rid, None)
        if msg is None:
            tail = b"".join(self.stderr_tail).decode("utf-8", "replace")[-2000:]
            raise LspError(f"server exited (code {self.proc.poll()}); stderr: {tail}")
        if "error" in msg:
            raise LspError(f"request {rid} failed: {msg['error']}")
        return msg

    def request(self, method: str, params: Any, timeout: float = 120.0) -> tuple[Any, float]:
        """(result, seconds from send to reply)."""
        rid, t0 = self.request_async(method, params)
        msg = self.wait(rid, timeout)
        return msg.get("result"), msg["_t"] - t0

    def notify(self, method: str, params: Any) -> float:
        t0 = time.perf_counter()
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return t0

    def wait_notification(self, method: str, pred=None, after: float = 0.0, timeout: float = 120.0) -> tuple[float, dict]:
        deadline = time.monotonic() + timeout
        with self._notif_cond:
            while True:
                for t, msg in self.notifications:
                    if t >= after and msg.get("method") == method and (pred is None or pred(msg["params"])):
                        return t, msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LspError(f"no {method} notification within {timeout}s")
                self._notif_cond.wait(left)

    def initialize(self, root: Path, pull_diagnostics: bool = True, init_options: Any = None) -> dict:
        caps = {
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {
                "synchronization": {"didSave": True},
                "inlayHint": {"dynamicRegistration": False},
                "codeLens": {},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "publishDiagnostics": {"versionSupport": True},
            },
            "workspace": {"configuration": True, "workspaceFolders": True},
            "window": {"workDoneProgress": False},
        }
        if pull_diagnostics:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
        result, _ = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": caps,
                "initializationOptions": init_options,
            },
        )
        self.notify("initialized", {})
        return result

    def rss_bytes(self) -> int:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
