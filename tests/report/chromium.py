"""Load a page in headless Chromium over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: no port, no extra package) and record its
console messages, exceptions and network requests; take a full-page
screenshot and a PDF (print) of it."""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

CHROMIUM = os.environ.get("BLEU_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--remote-debugging-pipe",
]


def find_chromium() -> Optional[str]:
    if os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class PageRun:
    console: list = field(default_factory=list)  # (level, text)
    exceptions: list = field(default_factory=list)
    requests: list = field(default_factory=list)  # URLs
    title: str = ""
    data_json: str = ""
    printed_pages: int = 0
    page_width: float = 0
    page_height: float = 0


class _Pipe:
    def __init__(self, exe: str, profile: str) -> None:
        to_r, self._to_w = os.pipe()
        self._from_r, from_w = os.pipe()

        def fds() -> None:
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_r)
        os.close(from_w)
        self._buf = b""
        self._id = 0
        self.events: list = []

    def call(self, method: str, params: Optional[dict] = None, session: Optional[str] = None, timeout: float = 60):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_w, json.dumps(msg).encode() + b"\0")
        reply = self._wait(lambda m: m.get("id") == self._id, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def _wait(self, want, timeout: float) -> dict:
        end = time.monotonic() + timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                m = json.loads(raw)
                if want(m):
                    return m
                self.events.append(m)
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer")
            ready, _, _ = select.select([self._from_r], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(self._from_r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self._buf += chunk

    def wait_event(self, method: str, timeout: float = 60) -> dict:
        for m in self.events:
            if m.get("method") == method:
                return m
        return self._wait(lambda m: m.get("method") == method, timeout)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_w)
        os.close(self._from_r)


def load(exe: str, page: Path, screenshot: Path, pdf: Optional[Path] = None, width: int = 1280) -> PageRun:
    """Open ``page`` (a local file), wait for it to load, record what happened."""
    with tempfile.TemporaryDirectory(prefix="bleu-ls-chromium-") as profile:
        pipe = _Pipe(exe, profile)
        try:
            target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            sid = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for method in ("Page.enable", "Runtime.enable", "Network.enable", "Log.enable"):
                pipe.call(method, session=sid)
            pipe.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=sid)
            pipe.call("Page.navigate", {"url": page.resolve().as_uri()}, session=sid)
            pipe.wait_event("Page.loadEventFired")
            run = _record(pipe)
            ev = pipe.call("Runtime.evaluate", {"expression": "[document.title, "
                           "document.getElementById('bleu-ls-data').textContent]", "returnByValue": True}, session=sid)
            run.title, run.data_json = ev["result"]["value"]
            size = pipe.call("Page.getLayoutMetrics", session=sid)["cssContentSize"]
            run.page_width, run.page_height = size["width"], size["height"]
            shot = pipe.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session=sid)
            screenshot.write_bytes(base64.b64decode(shot["data"]))
            _slices(pipe, sid, screenshot, size)
            if pdf is not None:
                printed = pipe.call("Page.printToPDF", {"printBackground": True}, session=sid, timeout=120)
                raw = base64.b64decode(printed["data"])
                pdf.write_bytes(raw)
                run.printed_pages = raw.count(b"/Type /Page") - raw.count(b"/Type /Pages")
            more = _record(pipe)  # anything printing triggered
            run.console += more.console
            run.exceptions += more.exceptions
            run.requests += more.requests
            return run
        finally:
            pipe.close()


SLICE = 1600


def _slices(pipe: _Pipe, sid: str, screenshot: Path, size: dict) -> None:
    """The page again in slices of SLICE pixels (NAME-1.png, …), small enough to look at."""
    for k, y in enumerate(range(0, int(size["height"]), SLICE), start=1):
        clip = {"x": 0, "y": y, "width": size["width"], "height": min(SLICE, size["height"] - y), "scale": 1}
        shot = pipe.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True},
                         session=sid)
        screenshot.with_name(f"{screenshot.stem}-{k}.png").write_bytes(base64.b64decode(shot["data"]))


def _record(pipe: _Pipe) -> PageRun:
    run = PageRun()
    for m in pipe.events:
        method, params = m.get("method"), m.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            run.console.append((params.get("type"), text))
        elif method == "Log.entryAdded":
            e = params.get("entry", {})
            run.console.append((e.get("level"), e.get("text")))
        elif method == "Runtime.exceptionThrown":
            run.exceptions.append(params.get("exceptionDetails", {}).get("text"))
        elif method == "Network.requestWillBeSent":
            run.requests.append(params.get("request", {}).get("url"))
    pipe.events.clear()
    return run
