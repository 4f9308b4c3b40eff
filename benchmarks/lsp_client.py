"""A raw JSON-RPC-over-stdio language client: the one the server benchmarks
and the hardening tests (tests/hardening) drive the real server with.

It starts a server process, frames messages with Content-Length headers and
can also write anything else on the wire (broken JSON, bad headers, requests
before ``initialize``, huge messages).  A reader thread collects every
message and stamps it with its arrival time (``_t``, on the ``CLOCK`` that
``notify`` returns, taken once the JSON is parsed; ``_ta``: when its last
byte was read, before parsing); the server's own requests (configuration, progress,
refresh, registration) get a neutral answer so the server never waits.  No
editor and no pygls on this side: what is measured is the server plus the pipe.

It lives in benchmarks/ because the benchmarks run from a checkout without the
test tree's fixtures; the tests import it from here (the repository root is
on their path).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

REPO = Path(__file__).resolve().parents[1]
#: The clock of the ``_t`` stamps and of ``notify``'s return value.
CLOCK = time.monotonic


def server_argv(*extra: str) -> list[str]:
    """``bleu-ls serve --stdio`` with this interpreter."""
    return [sys.executable, "-m", "bleu_ls", "serve", "--stdio", *extra]


class ServerDied(AssertionError):
    """The server exited while an answer was awaited."""


class LspError(AssertionError):
    """The server answered a request with an error."""


class RawClient:
    #: What ``workspace/configuration`` is answered with, per item.
    configuration: Any = None

    def __init__(self, cwd: Optional[Path] = None, argv: Optional[list[str]] = None, env: Optional[dict] = None) -> None:
        e = dict(os.environ)
        e["PYTHONPATH"] = str(REPO) + os.pathsep + e.get("PYTHONPATH", "")
        if env:
            e.update(env)
        self.proc = subprocess.Popen(
            argv or server_argv(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd or REPO),
            env=e,
        )
        self._next_id = 0
        self._lock = threading.Lock()
        self.responses: dict[Any, dict] = {}
        self._cond = threading.Condition()
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self.stderr_lines: list[str] = []
        self.closed = False
        threading.Thread(target=self._read_loop, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- wire --------------------------------------------------------------------
    def write_raw(self, data: bytes) -> None:
        with self._lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send(self, msg: dict) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    def stderr_tail(self, chars: int = 3000) -> str:
        return "".join(self.stderr_lines)[-chars:]

    def _read_message(self) -> dict:
        """One framed message (EOFError when the server closed its output)."""
        out = self.proc.stdout
        length = None
        while True:
            line = out.readline()
            if not line:
                raise EOFError
            line = line.strip()
            if not line:
                if length is None:
                    continue  # a blank line without a header: keep reading
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        body = out.read(length)
        if len(body) < length:
            raise EOFError
        arrived = CLOCK()
        msg = json.loads(body)
        msg["_ta"] = arrived
        return msg

    def _read_loop(self) -> None:
        try:
            while True:
                msg = self._read_message()
                msg["_t"] = CLOCK()
                self._dispatch(msg)
                # let go of it now: otherwise a large reply (10,000 diagnostics)
                # is freed when the next message is assigned, between its read
                # and its stamp (~6 ms of the client's own time on a small
                # hint reply that came right after a full 100k-line report)
                del msg
        except (EOFError, ValueError, OSError):
            pass
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def _dispatch(self, msg: dict) -> None:
        if "method" in msg and "id" in msg:  # a request from the server
            self.server_requests.append(msg)
            result: Any = None
            if msg["method"] == "workspace/configuration":
                result = [self.configuration for _ in msg.get("params", {}).get("items", [])]
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            return
        with self._cond:
            if "method" in msg:
                self.notifications.append(msg)
            else:
                self.responses[msg.get("id")] = msg
            self._cond.notify_all()

    # -- requests ------------------------------------------------------------------
    def new_id(self) -> int:
        with self._lock:
            self._next_id += 1
            return self._next_id

    def request_async(self, method: str, params: Any = None) -> int:
        rid = self.new_id()
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid

    def wait(self, rid: Any, timeout: float = 30.0) -> dict:
        """The answer to request ``rid`` (with its arrival time in ``_t``)."""
        deadline = CLOCK() + timeout
        with self._cond:
            while rid not in self.responses:
                if self.closed:
                    raise ServerDied(f"server exited (code {self.proc.poll()}); stderr:\n{self.stderr_tail()}")
                left = deadline - CLOCK()
                if left <= 0:
                    raise TimeoutError(f"no answer to request {rid!r} within {timeout}s")
                self._cond.wait(left)
            return self.responses.pop(rid)

    def request(self, method: str, params: Any = None, timeout: float = 30.0) -> dict:
        return self.wait(self.request_async(method, params), timeout)

    def answer(self, rid: Any, timeout: float = 30.0) -> dict:
        """Like ``wait``, but an error answer raises LspError."""
        msg = self.wait(rid, timeout)
        if "error" in msg:
            raise LspError(f"request {rid!r} failed: {msg['error']}")
        return msg

    def result(self, method: str, params: Any = None, timeout: float = 30.0) -> Any:
        """The result of a request; LspError when the server answers with an error."""
        return self.answer(self.request_async(method, params), timeout)["result"]

    def timed(self, method: str, params: Any = None, timeout: float = 30.0) -> tuple[Any, float]:
        """(result, seconds from sending the request to its answer)."""
        t0 = CLOCK()
        msg = self.answer(self.request_async(method, params), timeout)
        return msg["result"], msg["_t"] - t0

    def notify(self, method: str, params: Any = None) -> float:
        """Send a notification; returns when it was sent (``CLOCK``)."""
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        t0 = CLOCK()
        self.send(msg)
        return t0

    def wait_notification(
        self, method: str, pred: Callable[[dict], bool] = lambda m: True, timeout: float = 20.0, since: int = 0
    ) -> dict:
        deadline = CLOCK() + timeout
        with self._cond:
            while True:
                for msg in self.notifications[since:]:
                    if msg["method"] == method and pred(msg.get("params")):
                        return msg
                if self.closed:
                    raise ServerDied(f"server exited; stderr:\n{self.stderr_tail()}")
                left = deadline - CLOCK()
                if left <= 0:
                    seen = [m["method"] for m in self.notifications[since:]]
                    raise TimeoutError(f"no {method} matching within {timeout}s; saw {seen}")
                self._cond.wait(left)

    def mark(self) -> int:
        with self._cond:
            return len(self.notifications)

    # -- session helpers -----------------------------------------------------------
    def initialize(
        self, root: Path, init_options: Any = None, pull: bool = False, configuration: bool = False, progress: bool = False
    ) -> dict:
        """``initialize`` + ``initialized``; ``pull``: the client pulls
        diagnostics; ``configuration``: it answers workspace/configuration
        (with ``self.configuration``) and lists workspace folders;
        ``progress``: it shows work-done progress (``$/progress``)."""
        caps: dict = {
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"showMessage": {}, "workDoneProgress": progress},
            "workspace": {"configuration": configuration, "didChangeWatchedFiles": {"dynamicRegistration": False}},
            "textDocument": {
                "synchronization": {"didSave": True},
                "inlayHint": {"dynamicRegistration": False},
                "codeLens": {},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "publishDiagnostics": {"versionSupport": True},
            },
        }
        if configuration:
            caps["workspace"]["workspaceFolders"] = True
        if pull:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
        result = self.result(
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

    def open(self, path: Path, text: Optional[str] = None, version: int = 1) -> str:
        uri = path.as_uri()
        if text is None:
            text = path.read_text(encoding="utf-8")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "plaintext", "version": version, "text": text}},
        )
        return uri

    def hints(self, uri: str, start: int = 0, end: int = 10_000, timeout: float = 30.0) -> list[dict]:
        return self.result(
            "textDocument/inlayHint",
            {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": start, "character": 0}, "end": {"line": end, "character": 0}},
            },
            timeout,
        ) or []

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.closed

    def rss_kib(self) -> int:
        try:
            with open(f"/proc/{self.proc.pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def close(self) -> None:
        if self.alive():
            try:
                self.request("shutdown", None, timeout=10)
                self.notify("exit")
                self.proc.wait(timeout=10)
            except Exception:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for fh in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                fh.close()
            except Exception:
                pass
