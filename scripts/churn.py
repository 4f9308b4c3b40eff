"""What one keystroke costs the client in diagnostics, on the real pair with
a source (benchmarks/realpair.py): the real server over stdio, a client that
behaves as VS Code (``--client vscode``: pulls diagnostics after every edit
with its previousResultId, asks for the visible lines' hints, pulls again
after every ``workspace/diagnostic/refresh``, ``maxProblems`` 1,000) or as
Neovim (``--client nvim``: diagnostics pushed; hints of the whole buffer's
window neighbourhood).  Per edit: items in each diagnostics reply (pulled or
pushed), replies that were ``unchanged``, refresh requests from the server,
and how long the hint of the edited line took.

    PYTHONPATH=. python scripts/churn.py --n 3000 --client vscode [--edits 40] [--gap 0.125]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))


def _tree(pid: int) -> list[int]:
    import os

    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in open(f"/proc/{p}/task/{t}/children").read().split()]
        except (OSError, ValueError):
            pass
    return out


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants (MB)."""
    total = 0
    for p in _tree(pid):
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (Linux /proc)."""
    import os

    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for t in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in open(f"/proc/{p}/task/{t}/children").read().split()]
        except (OSError, ValueError, IndexError):
            pass
    return total


def _initialize(client, folder: Path, vscode: bool) -> None:
    """``initialize`` with what the editor declares: VS Code pulls
    diagnostics and honours every refresh request; Neovim 0.11 is pushed
    diagnostics and refreshes inlay hints (its own ``vim.lsp.inlay_hint``)."""
    import os

    refresh = {"refreshSupport": True}
    ws = {"configuration": True, "workspaceFolders": True, "inlayHint": refresh}
    if vscode:
        ws.update(diagnostics=refresh, codeLens=refresh, semanticTokens=refresh)
    td = {"synchronization": {"didSave": True}, "inlayHint": {}, "codeLens": {},
          "publishDiagnostics": {"versionSupport": True}}
    if vscode:
        td["diagnostic"] = {"dynamicRegistration": False}
    client.result("initialize", {
        "processId": os.getpid(), "rootUri": folder.as_uri(),
        "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}],
        "capabilities": {"general": {"positionEncodings": ["utf-16"]}, "workspace": ws, "textDocument": td},
    })
    client.notify("initialized", {})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--client", choices=("vscode", "nvim"), default="vscode")
    ap.add_argument("--edits", type=int, default=40)
    ap.add_argument("--gap", type=float, default=0.125, help="seconds between keys (8 keys/s)")
    ap.add_argument("--settle", type=float, default=120.0, help="wait at most this long for the first pass and adequacy")
    ap.add_argument("--pause", type=float, default=2.0, help="idle seconds after the edits (the re-rank)")
    args = ap.parse_args()

    from benchmarks.lsp_client import CLOCK, RawClient
    from benchmarks.realpair import build

    folder = build(args.n)
    if folder is None:
        sys.exit("no WMT21 data on this machine")
    vscode = args.client == "vscode"
    client = RawClient(cwd=folder)
    client.configuration = {"maxProblems": 1000} if vscode else {}
    _initialize(client, folder, vscode)
    hyp = folder / "big.hyp"
    lines = hyp.read_text(encoding="utf-8").split("\n")
    uri = client.open(hyp)
    line = args.n // 2
    t0 = CLOCK()
    rid = None

    def pull() -> dict:
        nonlocal rid
        params = {"textDocument": {"uri": uri}}
        if rid is not None:
            params["previousResultId"] = rid
        res = client.result("textDocument/diagnostic", params, timeout=600)
        if res.get("resultId"):
            rid = res["resultId"]
        return res

    # settle: the first pass, the adequacy worker's values (nothing new and
    # the server's process tree idle for 5 s)
    deadline, quiet = t0 + args.settle, 0
    client.hints(uri, line - 25, line + 25, timeout=600)
    while CLOCK() < deadline and quiet < 5:
        seen = (len(client.notifications), len(client.server_requests))
        cpu = _tree_cpu(client.proc.pid)
        if vscode:
            res = pull()
            fresh = res.get("kind") != "unchanged"
        time.sleep(1.0)
        fresh = (vscode and fresh) or seen != (len(client.notifications), len(client.server_requests))
        busy = _tree_cpu(client.proc.pid) - cpu > 0.3
        quiet = 0 if fresh or busy else quiet + 1
    settled, settled_rss = CLOCK() - t0, _tree_rss_mb(client.proc.pid)
    print(f"settled {settled:.1f} s after open", flush=True)
    lo, hi = max(0, line - 25), line + 25
    client.hints(uri, lo, hi, timeout=600)
    n_req = len(client.server_requests)
    mark = client.mark()
    version = 1
    words = lines[line].split()
    rows = []
    for j in range(args.edits):
        w = list(words)
        w.insert((j * 7) % (len(w) + 1), "neu" + "abcdefghijklmnopqrstuvwxyz"[j % 26] * (1 + j // 26))
        if j % 2:
            del w[(j * 3) % len(w)]
        text = " ".join(w)
        version += 1
        old_len = len(lines[line])
        lines[line] = text
        sent = client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                                          "end": {"line": line, "character": old_len}}, "text": text}]})
        row = {"items": [], "unchanged": 0, "refresh": 0}
        h_rid = client.request_async("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": lo, "character": 0}, "end": {"line": hi, "character": 0}}})
        if vscode:
            res = pull()
            if res.get("kind") == "unchanged":
                row["unchanged"] += 1
            else:
                row["items"].append(len(res.get("items", [])))
        msg = client.wait(h_rid, timeout=600)
        row["hint_ms"] = (msg["_t"] - sent) * 1e3
        time.sleep(max(0.0, args.gap - (CLOCK() - sent)))
        reqs = client.server_requests[n_req:]
        n_req = len(client.server_requests)
        refreshes = [r for r in reqs if r["method"] == "workspace/diagnostic/refresh"]
        row["refresh"] = sum(1 for r in reqs if r["method"].endswith("/refresh"))
        if vscode:
            for _ in refreshes:  # VS Code pulls again after each
                res = pull()
                if res.get("kind") == "unchanged":
                    row["unchanged"] += 1
                else:
                    row["items"].append(len(res.get("items", [])))
        else:
            got = client.notifications[mark:]
            mark = client.mark()
            row["items"] = [len(m["params"]["diagnostics"]) for m in got if m["method"] == "textDocument/publishDiagnostics"]
        rows.append(row)
    # the pause: what the idle re-rank sends
    time.sleep(args.pause)
    reqs = client.server_requests[n_req:]
    pause = {"refresh": sum(1 for r in reqs if r["method"].endswith("/refresh")), "items": []}
    if vscode:
        res = pull()
        pause["items"].append("unchanged" if res.get("kind") == "unchanged" else len(res.get("items", [])))
    else:
        pause["items"] = [len(m["params"]["diagnostics"]) for m in client.notifications[mark:]
                          if m["method"] == "textDocument/publishDiagnostics"]
    rss = client.rss_kib()
    tree_rss = _tree_rss_mb(client.proc.pid)
    client.close()
    sent_items = [sum(r["items"]) for r in rows]
    hint = sorted(r["hint_ms"] for r in rows)
    print(f"{args.client}, {args.n:,} lines, {args.edits} edits of line {line + 1} every {args.gap * 1e3:.0f} ms:")
    print("  items sent per edit:", " ".join(map(str, sent_items)))
    print(f"  diagnostics replies with items: {sum(len(r['items']) for r in rows)}, unchanged: "
          f"{sum(r['unchanged'] for r in rows)}; refresh requests: {sum(r['refresh'] for r in rows)} "
          f"(max {max(r['refresh'] for r in rows)} per edit)")
    print(f"  items per edit: total {sum(sent_items):,}, mean {statistics.mean(sent_items):.0f}, max {max(sent_items):,}")
    print(f"  hint reply after the edit: p50 {statistics.median(hint):.1f} ms, p95 "
          f"{hint[min(len(hint) - 1, int(0.95 * len(hint)))]:.1f} ms, max {hint[-1]:.1f} ms")
    print(f"  after {args.pause:.0f} s idle: refresh requests {pause['refresh']}, replies {pause['items']}")
    print(f"  server RSS {rss / 1024:.0f} MB (main process), {tree_rss:.0f} MB (process tree)")
    print(f"  settled after {settled:.1f} s, tree RSS then {settled_rss:.0f} MB")
    print(json.dumps({"rows": rows, "pause": pause}), file=sys.stderr)


if __name__ == "__main__":
    main()
