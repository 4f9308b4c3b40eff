"""Relay an editor's LSP session to ``bleu-ls serve`` and log every message.

    BLEU_LS_TIMELINE=/tmp/t.jsonl python scripts/lsp_timeline.py [serve args...]

Stands between the editor and the server on stdio (the editor's server
command points at this script), passes every byte through unchanged and
writes one JSON line per message to $BLEU_LS_TIMELINE: wall-clock time in ms
(``time.time()``, comparable with a browser driver's ``Date.now()``), the
direction (``in``: editor -> server, ``out``: server -> editor), the method
or the id it answers, and its size.  ``python scripts/lsp_timeline.py
--summary FILE`` prints each request's reply time per method; ``--typing FILE
DRIVER.json`` counts the diagnostics traffic while the VS Code driver typed.

A measuring tool for the real editors (tests/editors, BLEU_LS_VSCODE_SERVER);
the server itself is unchanged by it.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from typing import BinaryIO


#: bodies longer than this are not parsed: only their method is read
BIG = 1 << 20
_HEAD = re.compile(rb'"method"\s*:\s*"([^"]+)"')


def _frames(stream: BinaryIO):
    """(raw bytes, parsed body) of each framed message until EOF."""
    while True:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            c = stream.read(1)
            if not c:
                return
            header += c
        length = 0
        for line in header.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        body = stream.read(length)
        yield header + body, body


def _relay(src: BinaryIO, dst: BinaryIO, direction: str, log, lock: threading.Lock) -> None:
    for raw, body in _frames(src):
        t = time.time() * 1000.0
        dst.write(raw)
        dst.flush()
        if len(body) > BIG:
            # a whole document (didOpen of 100k lines): parsing it here held
            # the interpreter ~0.1 s while the other direction waited
            head = _HEAD.search(body[:4096]) or _HEAD.search(body[-4096:])
            msg = {"method": head.group(1).decode()} if head else {}
        else:
            try:
                msg = json.loads(body)
            except ValueError:
                msg = {}
        row = {"t": round(t, 2), "dir": direction, "bytes": len(body)}
        if "method" in msg:
            row["method"] = msg["method"]
        if "id" in msg:
            row["id"] = msg["id"]
        if direction == "out" and "method" not in msg and isinstance(msg.get("result"), dict):
            kind = msg["result"].get("kind")
            if kind:
                row["kind"] = kind
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        if msg.get("method") == "textDocument/diagnostic":
            row["prev"] = params.get("previousResultId") is not None
        if "contentChanges" in params:
            row["changes"] = [
                (c.get("range", {}).get("start", {}).get("line"), len(c.get("text", ""))) for c in params["contentChanges"]
            ]
        if msg.get("method") == "$/cancelRequest":
            row["cancels"] = params.get("id")
        if "range" in params:
            r = params["range"]
            row["range"] = [r["start"]["line"], r["end"]["line"]]
        with lock:
            log.write(json.dumps(row) + "\n")
            log.flush()
    try:
        dst.close()
    except OSError:
        pass


def summary(path: str) -> None:
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    asked: dict[object, dict] = {}
    took: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["dir"] == "in" and "method" in r and "id" in r:
            asked[r["id"]] = r
        elif r["dir"] == "out" and "method" not in r and r.get("id") in asked:
            q = asked.pop(r["id"])
            took[q["method"]].append(r["t"] - q["t"])
    for method, ms in sorted(took.items()):
        ms.sort()
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"{method:45s} n={len(ms):4d} p50 {statistics.median(ms):8.1f} ms  p95 {p95:8.1f}  max {ms[-1]:8.1f}")


def typing(path: str, driver: str) -> dict:
    """What went between editor and server while the driver typed: from its
    first key to its last burst's hint drawn (the driver's ``keyAt`` and
    ``burstAt``, tests/editors/vscode_driver.mjs): diagnostics pulls with and
    without ``previousResultId``, full replies (and their bytes), unchanged
    replies, cancellations and refresh requests."""
    d = json.load(open(driver, encoding="utf-8"))
    lo, hi = d["keyAt"][0], d["burstAt"][-1][1]
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    pulls = {r["id"]: r for r in rows if r.get("method") == "textDocument/diagnostic" and r["dir"] == "in"}
    out = {"pulls": 0, "pulls_without_previous": 0, "full": 0, "full_bytes": 0, "unchanged": 0,
           "cancelled_pulls": 0, "diagnostic_refresh": 0, "didChange": 0}
    for r in rows:
        if not lo <= r["t"] <= hi:
            continue
        m = r.get("method")
        if r["dir"] == "in" and m == "textDocument/diagnostic":
            out["pulls"] += 1
            out["pulls_without_previous"] += not r.get("prev")
        elif r["dir"] == "in" and m == "textDocument/didChange":
            out["didChange"] += 1
        elif r["dir"] == "out" and m == "workspace/diagnostic/refresh":
            out["diagnostic_refresh"] += 1
        elif r["dir"] == "out" and m is None and r.get("id") in pulls:
            if r.get("kind") == "full":
                out["full"] += 1
                out["full_bytes"] += r["bytes"]
            elif r.get("kind") == "unchanged":
                out["unchanged"] += 1
    cancels = [r for r in rows if r.get("method") == "$/cancelRequest" and lo <= r["t"] <= hi]
    out["cancelled_pulls"] = sum(1 for r in cancels if r.get("cancels") in pulls)
    return out


def main() -> int:
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2])
        return 0
    if sys.argv[1:2] == ["--typing"]:
        print(json.dumps(typing(sys.argv[2], sys.argv[3])))
        return 0
    log = open(os.environ.get("BLEU_LS_TIMELINE", "lsp-timeline.jsonl"), "a", encoding="utf-8")
    cmd = [sys.executable, "-m", "bleu_ls", *(sys.argv[1:] or ["serve"])]
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    up = threading.Thread(target=_relay, args=(sys.stdin.buffer, child.stdin, "in", log, lock), daemon=True)
    up.start()
    _relay(child.stdout, sys.stdout.buffer, "out", log, lock)
    return child.wait()


if __name__ == "__main__":
    raise SystemExit(main())
