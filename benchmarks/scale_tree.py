"""The process-tree memory on the real pair with its source (issue 25,
item 3): ``python -m benchmarks.scale tree N [RUNS]`` runs :func:`real_tree`
``RUNS`` times (3 by default) and prints each run's figures, per process,
and the medians."""

from __future__ import annotations

import os
import time
from typing import Any

from .run import _range, _server_argv
from .scale import VSCODE_CAP, _median, tree_rss


def _tree_pids(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return out


def tree_parts(pid: int) -> list[tuple[str, int, int, int]]:
    """Per process of ``pid``'s tree: (its module or command, RSS, anonymous
    RSS, file-backed RSS) in bytes."""
    parts = []
    for p in _tree_pids(pid):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
            fields = {}
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    k, _, v = line.partition(":")
                    if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                        fields[k] = int(v.split()[0]) * 1024
        except OSError:
            continue
        name = argv[argv.index("-m") + 1] if "-m" in argv else " ".join(argv[:2])
        parts.append((name, fields.get("VmRSS", 0), fields.get("RssAnon", 0), fields.get("RssFile", 0) + fields.get("RssShmem", 0)))
    return parts


def real_tree(n: int, edits: int = 20, gap: float = 0.125, settle: float = 900.0, after: float = 2.0) -> dict[str, Any]:
    """The issue-25 memory figure: the real pair with its source
    (benchmarks/realpair.py) opened by a VS Code-like client (diagnostics
    pulled with the previous resultId, maxProblems 1,000), left to settle
    (the first pass and the adequacy values: no fresh reply and the process
    tree idle for 5 s), then ``edits`` edits of the middle line ``gap`` s
    apart, each followed by a pull and a hint request.  The process-tree RSS
    when settled, its peak, and ``after`` s after the work the edits caused
    (the tree idle for 5 s: the edited line's values are in), with each
    process's share; and once helper processes that exit when idle have
    gone (``rss_idle``, at most 90 s later)."""
    from .lsp_client import CLOCK, RawClient
    from .realpair import build

    folder = build(n)
    if folder is None:
        raise SystemExit("the WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) are not on this machine")
    c = RawClient(cwd=folder, argv=_server_argv())
    c.configuration = {"maxProblems": VSCODE_CAP}
    out: dict[str, Any] = {"n": n}
    peak = 0
    peak_parts: list = []
    rid = None

    def pull() -> dict:
        nonlocal rid, peak
        params: dict[str, Any] = {"textDocument": {"uri": uri}}
        if rid is not None:
            params["previousResultId"] = rid
        res = c.result("textDocument/diagnostic", params, timeout=600) or {}
        rid = res.get("resultId") or rid
        now = tree_rss(c.proc.pid)[0]
        if now > peak:
            peak, peak_parts[:] = now, tree_parts(c.proc.pid)
        return res

    helpers: set = set()  # helper process ids seen (a worker started again is a new one)

    def cpu(exited: bool = False) -> float:
        """CPU seconds of the tree's live processes (``exited``: and of the
        helpers that ended, which the server waited for)."""
        total = 0.0
        for p in _tree_pids(c.proc.pid):
            try:
                with open(f"/proc/{p}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if exited else 0)) / os.sysconf("SC_CLK_TCK")
                if p != c.proc.pid:
                    helpers.add(p)
            except (OSError, ValueError, IndexError):
                pass
        return total

    def runnable() -> bool:
        """Is a thread of the tree running or waiting for a core (a helper
        at lower priority on a busy machine uses little CPU but is not idle)?"""
        for p in _tree_pids(c.proc.pid):
            try:
                for task in os.listdir(f"/proc/{p}/task"):
                    with open(f"/proc/{p}/task/{task}/stat") as f:
                        if f.read().rsplit(")", 1)[1].split()[0] == "R":
                            return True
            except (OSError, IndexError):
                continue
        return False

    try:
        c.initialize(folder, init_options={"bleuLs": c.configuration}, pull=True, configuration=True)
        hyp = folder / "big.hyp"
        lines = hyp.read_text(encoding="utf-8").split("\n")
        t0 = CLOCK()
        uri = c.open(hyp)
        line = n // 2
        c.hints(uri, line - 25, line + 25, timeout=600)
        deadline, quiet = t0 + settle, 0
        while CLOCK() < deadline and quiet < 5:
            seen = len(c.notifications) + len(c.server_requests)
            used = cpu()
            fresh = pull().get("kind") != "unchanged"
            time.sleep(1.0)
            fresh = fresh or seen != len(c.notifications) + len(c.server_requests)
            quiet = 0 if fresh or cpu() - used > 0.3 or runnable() else quiet + 1
        out["settled_after"] = CLOCK() - t0
        out["cpu_settled"], out["helpers_settled"] = cpu(True), len(helpers)
        out["rss_settled"] = tree_rss(c.proc.pid)[0]
        out["settled_parts"] = tree_parts(c.proc.pid)
        words = lines[line].split()
        for j in range(edits):
            w = list(words)
            w.insert((j * 7) % (len(w) + 1), "neu" + "abcdefghijklmnopqrstuvwxyz"[j % 26])
            if j % 2:
                del w[(j * 3) % len(w)]
            old = len(lines[line])
            lines[line] = " ".join(w)
            sent = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": j + 2}, "contentChanges": [
                {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": old}}, "text": lines[line]}]})
            h = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(line - 25, line + 25)})
            pull()
            c.wait(h, timeout=600)
            time.sleep(max(0.0, gap - (CLOCK() - sent)))
        # the edits' own work over (their adequacy values: the worker may have
        # to start again), then ``after`` s more
        t1, quiet = CLOCK(), 0
        while CLOCK() - t1 < 180 and quiet < 5:
            used = cpu()
            time.sleep(1.0)
            quiet = 0 if cpu() - used > 0.1 or runnable() else quiet + 1
        out["typed_settled_after"] = CLOCK() - t1
        out["cpu_typed"], out["helpers_typed"] = cpu(True) - out["cpu_settled"], len(helpers) - out["helpers_settled"]
        time.sleep(after)
        pull()
        out["rss_tree"], out["processes"] = tree_rss(c.proc.pid)
        out["parts"] = tree_parts(c.proc.pid)
        out["rss_peak"] = max(peak, out["rss_tree"])
        out["peak_parts"] = out["parts"] if out["rss_tree"] >= peak else list(peak_parts)
        # then idle: helper processes that exit when idle have gone (at most 90 s)
        t2 = CLOCK()
        while CLOCK() - t2 < 90 and tree_rss(c.proc.pid)[1] > 1:
            time.sleep(1.0)
        time.sleep(after)
        out["idle_after"] = CLOCK() - t1
        out["rss_idle"], out["processes_idle"] = tree_rss(c.proc.pid)
    finally:
        c.close()
    return out


def tree_main(n: int, repeat: int = 3) -> int:
    runs = []
    for k in range(repeat):
        r = real_tree(n)
        runs.append(r)
        parts, peak_parts, settled_parts = ("; ".join(f"{name} {rss / 2**20:.0f} MB (anon {anon / 2**20:.0f}, file {f / 2**20:.0f})"
                                       for name, rss, anon, f in r[key]) for key in ("parts", "peak_parts", "settled_parts"))
        print(f"run {k + 1}: settled after {r['settled_after']:.0f} s at {r['rss_settled'] / 2**20:.0f} MB [{settled_parts}]; after typing "
              f"{r['rss_tree'] / 2**20:.0f} MB ({r['typed_settled_after']:.0f} s after the last key) in {r['processes']} process(es) [{parts}]; peak {r['rss_peak'] / 2**20:.0f} MB [{peak_parts}]; "
              f"idle {r['rss_idle'] / 2**20:.0f} MB in {r['processes_idle']} process(es) ({r['idle_after']:.0f} s after the last key); "
              f"CPU to settle {r['cpu_settled']:.1f} s ({r['helpers_settled']} helper process(es) seen), "
              f"typing and its work {r['cpu_typed']:.1f} s ({r['helpers_typed']} helper start(s) seen)",
              flush=True)
    each = ", ".join(f"{r['rss_tree'] / 2**20:.0f}" for r in runs)
    idle = ", ".join(f"{r['rss_idle'] / 2**20:.0f}" for r in runs)
    print(f"{n:,} real lines with a source, scored and typed in: process-tree RSS {_median(runs, 'rss_tree') / 2**20:.0f} MB "
          f"(median of {repeat}: {each} MB); "
          f"settled {_median(runs, 'rss_settled') / 2**20:.0f} MB; peak {_median(runs, 'rss_peak') / 2**20:.0f} MB; "
          f"idle after typing {_median(runs, 'rss_idle') / 2**20:.0f} MB (each {idle} MB)")
    return 0
