"""Server rows at scale (issue 12): a client that pulls diagnostics after
every edit as VS Code does, the memory of the whole process tree, open →
first hints at 100k (and 1M) lines next to the do-nothing pygls floor, and a
10 MB single line.

Each scenario is a function returning plain numbers; ``scale_rows`` runs
them (medians of ``repeat`` runs) and adds the rows to the report.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bleu_ls.engine.ter import CHEAP_WORDS, TerMetric

from . import corpus
from .corpus import CACHE
from .run import ROOT, Report, Row, _floor_argv, _mutate, _range, _server_argv, pct, workspace

SEC = "Server at scale (issue 12)"
#: The diagnostics cap the VS Code extension sends (setting maxProblems: VS
#: Code shows at most 1,000 diagnostics per file); a Neovim-like client sends none.
VSCODE_CAP = 1000
#: The two clients of the pull scenario: (label, maxProblems sent).
PULL_CLIENTS = (("VS Code-like, maxProblems 1,000", VSCODE_CAP), ("Neovim-like, no cap", 0))


# -- helpers -------------------------------------------------------------------------


def tree_rss(pid: int) -> tuple[int, int]:
    """(RSS bytes of ``pid`` and all its descendants, number of processes)."""
    total, count, todo = 0, 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
            count += 1
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total, count


def decode_cost(result: Any, repeat: int = 3) -> tuple[float, float]:
    """What a Python LSP client pays for a reply: (seconds to parse the JSON
    text, seconds to parse it and structure it as lsprotocol objects), best of
    ``repeat``, on the same payload re-encoded."""
    from lsprotocol import converters, types

    conv = converters.get_converter()
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, ensure_ascii=False).encode("utf-8")
    parse, full = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        msg = json.loads(body)
        t1 = time.perf_counter()
        conv.structure(msg, types.DocumentDiagnosticResponse)
        t2 = time.perf_counter()
        parse.append(t1 - t0)
        full.append(t2 - t0)
    return min(parse), min(full)


def _open(c, path: Path, text: str) -> tuple[str, float]:
    uri = path.as_uri()
    t0 = c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
    return uri, t0


def _first_hints(argv: list[str], ws: Path, path: Path, text: str) -> tuple[float, int]:
    from .lsp_client import RawClient

    c = RawClient(cwd=ROOT, argv=argv)
    try:
        c.initialize(ws, pull=True, configuration=True)
        uri, t0 = _open(c, path, text)
        rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(0, 60)})
        msg = c.answer(rid, timeout=600)
        return msg["_t"] - t0, len(msg.get("result") or [])
    finally:
        c.close()


# -- scenarios -----------------------------------------------------------------------


def pull_every_edit(n: int, edits: int, seed: int = 11, cap: int = 0) -> dict[str, Any]:
    """VS Code's pattern: after each didChange, a diagnostics pull (with the
    previous resultId) and an inlay-hint request go out together; both are
    timed from the edit (the diagnostics reply twice: when its last byte
    arrived, and once the client has parsed its JSON; the parse of each full
    reply is kept too).  Also: the process-tree RSS once the pair is fully
    scored, and the client's own cost to decode the full diagnostics reply.
    ``cap``: the setting maxProblems the client sends (in the initialization
    options and its workspace/configuration answer, as the VS Code extension
    does; 0: none, as Neovim)."""
    from .lsp_client import RawClient

    ws, path, text = workspace(n)
    lines = text.split("\n")
    c = RawClient(cwd=ROOT, argv=_server_argv())
    out: dict[str, Any] = {"n": n, "cap": cap}
    settings = {"maxProblems": cap} if cap else None
    c.configuration = settings
    try:
        c.initialize(ws, init_options={"bleuLs": settings} if settings else None, pull=True, configuration=True)
        uri, _ = _open(c, path, text)
        doc = {"uri": uri}
        full = c.result("textDocument/diagnostic", {"textDocument": doc}, timeout=600)
        result_id = (full or {}).get("resultId")
        time.sleep(0.5)
        out["rss_tree"], out["processes"] = tree_rss(c.proc.pid)
        out["rss_server"] = c.rss_kib() * 1024
        out["items"] = len((full or {}).get("items") or [])
        out["decode_parse"], out["decode_full"] = decode_cost(full)
        rng = random.Random(seed)
        w0 = max(0, n // 2 - 30)
        hint_lat, diag_lat, diag_arrive, kinds, parse_full = [], [], [], [], []
        for v in range(2, edits + 2):
            i = w0 + rng.randrange(min(60, n - w0 - 1))
            lines[i] = _mutate(lines[i], rng)
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]})
            params: dict[str, Any] = {"textDocument": doc}
            if result_id:
                params["previousResultId"] = result_id
            rid_d = c.request_async("textDocument/diagnostic", params)
            rid_h = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(w0, w0 + 60)})
            hint = c.answer(rid_h, timeout=120)
            diag = c.answer(rid_d, timeout=120)
            hint_lat.append(hint["_t"] - t_edit)
            diag_lat.append(diag["_t"] - t_edit)
            diag_arrive.append(diag["_ta"] - t_edit)
            res = diag.get("result") or {}
            kinds.append(res.get("kind", "?"))
            if res.get("kind") == "full":
                parse_full.append(diag["_t"] - diag["_ta"])
            result_id = res.get("resultId") or result_id
        out["hint_lat"], out["diag_lat"], out["diag_arrive"] = hint_lat, diag_lat, diag_arrive
        out["parse_full"] = parse_full
        out["unchanged"] = kinds.count("unchanged")
    finally:
        c.close()
    return out


def open_vs_floor(n: int, repeat: int) -> dict[str, Any]:
    """open → first hints for lines 0–60, bleu-ls and the floor in turn."""
    ws, path, text = workspace(n)
    ours, floor, count = [], [], 0
    for _ in range(repeat):
        floor.append(_first_hints(_floor_argv(), ws, path, text)[0])
        t, count = _first_hints(_server_argv(), ws, path, text)
        ours.append(t)
    return {"ours": statistics.median(ours), "floor": statistics.median(floor), "hints": count}


#: Seconds after the open within which a scoring progress should begin; when
#: none did (a server that dropped it, or too few lines to score for one),
#: ``big_open`` stops waiting for its end (see there).
PROGRESS_GRACE = 10.0


def _scoring_kinds(c, since: int) -> set[str]:
    """The kinds (begin, report, end) of the scoring progress (``bleu-ls/score/…``) sent since ``since``."""
    kinds = set()
    for msg in c.notifications[since:]:
        p = msg.get("params") or {}
        if msg.get("method") == "$/progress" and str(p.get("token", "")).startswith("bleu-ls/score"):
            kinds.add((p.get("value") or {}).get("kind"))
    return kinds


def _scoring_ended(c, since: int) -> bool:
    """Has the server ended a scoring progress (``bleu-ls/score/…``) since ``since``?"""
    return "end" in _scoring_kinds(c, since)


def big_open(n: int, probes: int, edits: int, seed: int = 5, limit: float = 900.0, pull: bool = True) -> dict[str, Any]:
    """A pair of ``n`` lines (1M: ~130 MB) opened by a client that shows
    progress: the first hints (lines 0–60); then, until the scoring progress
    ends, a hint request for 60 lines and a hover at random places every
    0.1 s (latency, and how many hint answers came back empty because the
    lines were not read yet); the same ``probes`` times once scored; the
    process-tree RSS (peak while scoring, and once the diagnostics are in);
    the probes again once the first analysis is over (``idle_*``);
    ``edits`` one-line edits each followed by a hint request.  ``pull``: as
    VS Code does, a diagnostics pull goes out with the open, so the first
    analysis (a worker thread) runs beside the "scored" probes; its reply
    is awaited before the RSS is taken and the edits begin.  When no scoring
    progress began within ``PROGRESS_GRACE`` seconds, the pair counts as scored
    once the diagnostics reply came (the server sends it only after every
    line is scored; without ``pull``, at once) rather than after ``limit``
    seconds; ``progress_seen`` says which."""
    from .lsp_client import CLOCK, RawClient

    ws, path, text = workspace(n)
    c = RawClient(cwd=ROOT, argv=_server_argv())
    out: dict[str, Any] = {"n": n}
    rng = random.Random(seed)

    def hint_req(i: int) -> tuple[float, int]:
        res, dt = c.timed("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(i, i + 60)}, timeout=600)
        return dt, len(res or [])

    def probe_round() -> tuple[list[float], list[float]]:
        """``probes`` hint requests (60 lines at random) and hovers beside them."""
        hints, hovers = [], []
        for _ in range(probes):
            i = rng.randrange(n - 60)
            hints.append(hint_req(i)[0])
            hovers.append(hover_req(i + 5))
        return hints, hovers

    def hover_req(i: int) -> float:
        return c.timed("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": i, "character": 0}}, timeout=600)[1]

    try:
        c.initialize(ws, pull=True, configuration=True, progress=True)
        since = c.mark()
        uri, t0 = _open(c, path, text)
        rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(0, 60)})
        diag_id = c.request_async("textDocument/diagnostic", {"textDocument": {"uri": uri}}) if pull else None
        out["first_hint"] = c.answer(rid, timeout=600)["_t"] - t0
        del text
        during_h, during_v, empty, peak = [], [], 0, 0
        while CLOCK() - t0 < limit:
            kinds = _scoring_kinds(c, since)
            if "end" in kinds:
                break
            if not kinds and CLOCK() - t0 > PROGRESS_GRACE and (diag_id is None or diag_id in c.responses):
                break  # no progress shown: scored, as the diagnostics reply says
            i = rng.randrange(n - 60)
            dt, k = hint_req(i)
            during_h.append(dt)
            empty += k == 0
            during_v.append(hover_req(i + 5))
            peak = max(peak, tree_rss(c.proc.pid)[0])
            time.sleep(0.1)
        out["scored_after"] = CLOCK() - t0
        out["progress_seen"] = bool(_scoring_kinds(c, since))
        out["during_hint"], out["during_hover"], out["during_empty"] = during_h, during_v, empty
        # the HTER pass against the draft follows the scoring pass in worker
        # processes: "after" rows are taken once the server is alone again
        while tree_rss(c.proc.pid)[1] > 1 and CLOCK() - t0 < limit:
            peak = max(peak, tree_rss(c.proc.pid)[0])
            time.sleep(0.2)
        out["settled_after"] = CLOCK() - t0
        time.sleep(0.5)
        out["rss_settled"] = tree_rss(c.proc.pid)[0]
        out["after_hint"], out["after_hover"] = probe_round()
        out["after_done"] = CLOCK() - t0
        out["diagnostics_after"], out["diagnostics"] = None, None
        if diag_id is not None:
            msg = c.answer(diag_id, timeout=max(60.0, limit - (CLOCK() - t0)))
            out["diagnostics_after"] = msg["_t"] - t0
            out["diagnostics"] = len(((msg.get("result") or {}).get("items")) or [])
            time.sleep(0.5)
        # the first analysis is over: the same probes on an idle server
        out["idle_hint"], out["idle_hover"] = probe_round()
        out["rss_tree"], out["processes"] = tree_rss(c.proc.pid)
        out["rss_peak"] = max(peak, out["rss_tree"], out["rss_settled"])
        lines = path.read_text(encoding="utf-8").split("\n")
        lat = []
        w0 = n // 2
        for v in range(2, edits + 2):
            i = w0 + rng.randrange(60)
            lines[i] = _mutate(lines[i], rng)
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]})
            rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(w0, w0 + 60)})
            lat.append(c.answer(rid, timeout=120)["_t"] - t_edit)
        out["edit_hint"] = lat
    finally:
        c.close()
    return out


def long_line(mb: float, edits: int, seed: int = 3) -> dict[str, Any]:
    """A pair of 200 ordinary lines whose line 100 is ``mb`` MB long: the
    time to the first hints, an edit on the long line followed at once by a
    hint request for lines 0–60 (how long other requests wait) and a hover
    on the long line."""
    from .lsp_client import RawClient

    hyps, refs = corpus.Corpus(seed).pairs(200)
    rng = random.Random(seed)
    words = " ".join(hyps).split()
    big = []
    size = 0
    while size < mb * 2**20:
        w = rng.choice(words)
        big.append(w)
        size += len(w) + 1
    hyps[100] = " ".join(big)
    refs[100] = " ".join(reversed(big))
    ws = CACHE / f"ws-longline-{mb:g}"
    ws.mkdir(parents=True, exist_ok=True)
    path = ws / "long.hyp"
    text = "\n".join(hyps) + "\n"
    path.write_text(text, encoding="utf-8")
    (ws / "long.ref").write_text("\n".join(refs) + "\n", encoding="utf-8")
    c = RawClient(cwd=ROOT, argv=_server_argv())
    out: dict[str, Any] = {"mb": mb}
    try:
        c.initialize(ws, pull=True, configuration=True)
        uri, t0 = _open(c, path, text)
        doc = {"uri": uri}
        rid = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)})
        out["first_hint"] = c.answer(rid, timeout=600)["_t"] - t0
        waits, hovers, meanwhile, settle = [], [], [], []
        for v in range(2, edits + 2):
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": {"start": {"line": 100, "character": 0},
                                                            "end": {"line": 100, "character": 0}},
                                                  "text": rng.choice(words) + " "}]})
            rid = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)})
            waits.append(c.answer(rid, timeout=600)["_t"] - t_edit)
            _, dt = c.timed("textDocument/hover", {"textDocument": doc, "position": {"line": 100, "character": 0}}, timeout=600)
            hovers.append(dt)
            # until the long line's new score shows: other lines' hints and hovers meanwhile
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                _, dt = c.timed("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)}, timeout=600)
                meanwhile.append(dt)
                _, dt = c.timed("textDocument/hover", {"textDocument": doc, "position": {"line": 5, "character": 0}}, timeout=600)
                meanwhile.append(dt)
                msg = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(100, 101)}), 600)
                if any(h["position"]["line"] == 100 for h in msg.get("result") or []):
                    settle.append(msg["_t"] - t_edit)
                    break
                time.sleep(0.01)
        out["other_wait"], out["hover"], out["meanwhile"], out["settle"] = waits, hovers, meanwhile, settle
    finally:
        c.close()
    return out


def ter_edit_to_hint(n: int, edits: int, floor: bool = False, seed: int = 5, ter_on: bool = True) -> dict[str, Any]:
    """TER on (with BLEU): after each one-line edit in a 60-line window, the
    window's inlay hints are asked for until the edited line shows its new
    score — the score sacrebleu's ``TER`` gives, computed here before the
    edit is sent.  A line cheap to count is scored inside the edit; a longer
    one in the server's worker thread, so the first answers may not have it
    yet.  ``floor``: the do-nothing pygls server (its first answer counts)."""
    from sacrebleu.metrics import TER

    from .lsp_client import RawClient

    ws, path, text = workspace(n)
    lines = text.split("\n")
    refs = (ws / "bench.ref").read_text(encoding="utf-8").split("\n")
    ter = TER()
    ours = TerMetric()
    c = RawClient(cwd=ROOT, argv=_floor_argv() if floor else _server_argv())
    out: dict[str, Any] = {"n": n}
    try:
        c.initialize(ws, {"ter": {"enabled": ter_on}})
        uri, _ = _open(c, path, text)
        doc = {"uri": uri}
        if not floor:  # until every line is scored (the batch pass at open)
            c.result("bleuLs/corpusScore", {"textDocument": doc}, timeout=1800)
        rng = random.Random(seed)
        w0 = max(0, n // 2 - 30)
        lat, polls, heavy, sizes = [], [], 0, []
        for v in range(2, edits + 2):
            i = w0 + rng.randrange(min(60, n - w0 - 1))
            lines[i] = _mutate(lines[i], rng)
            want = f"TER {ter.sentence_score(lines[i].rstrip(), [refs[i].rstrip()]).score:.1f}"
            sizes.append(max(len(ours.tokens(t)) for t in (lines[i], refs[i])))
            heavy += sizes[-1] > CHEAP_WORDS
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]})
            for k in range(10_000):  # noqa: B007 (k, read after the loop, counts the polls)
                msg = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(w0, w0 + 60)}), 120)
                got = [h["label"] for h in msg.get("result") or [] if h["position"]["line"] == i]
                if floor or (got and (want in got[0] or not ter_on)):
                    break
                time.sleep(0.001)
            lat.append(msg["_t"] - t_edit)
            polls.append(k + 1)
        out["lat"], out["polls"], out["heavy"], out["tokens"] = lat, polls, heavy, sizes
    finally:
        c.close()
    return out


# -- rows ----------------------------------------------------------------------------


def _p(xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return f"{pct(ms, .5):.1f} / {pct(ms, .95):.1f} ms"


def _median_run(fn, repeat: int, key: str, *args) -> dict[str, Any]:
    """Run ``fn(*args)`` ``repeat`` times; keep the run whose p95 of ``key`` is the median."""
    runs = [fn(*args) for _ in range(repeat)]
    runs.sort(key=lambda r: pct(r[key], .95))
    return runs[len(runs) // 2]


def scale_rows(report: Report, sizes: list[int], edits: int, repeat: int, million: int, long_mb: float) -> None:
    """``million``: the size of the big pair (0: none)."""
    small, big = min(sizes), max(sizes)
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for n in sizes:
        for label, cap in PULL_CLIENTS:
            print(f"scale: pull after every edit, {n:,} lines, {label} x {repeat}", file=sys.stderr, flush=True)
            runs[label, n] = [pull_every_edit(n, edits, 11, cap) for _ in range(repeat)]
    vscode = PULL_CLIENTS[0][0]

    def p95(label: str, n: int, key: str) -> float:
        return _runs_p(runs[label, n], key)[1]

    for n in sizes:
        text, hint95, each = _runs_p(runs[vscode, n], "hint_lat")
        report.add(Row(SEC, f"pull after every edit ({vscode}): edit → inlay hints (60 lines), p50 / p95", f"{n:,}",
                       text, each, "", "p95 ≤ 10 ms" if n == big else "", hint95 <= 0.010 if n == big else None))
        for label, cap in PULL_CLIENTS:
            rs = runs[label, n]
            first = rs[0]
            target = n == big and cap == VSCODE_CAP
            text, arrive95, each = _runs_p(rs, "diag_arrive")
            unchanged = "/".join(str(r["unchanged"]) for r in rs)
            report.add(Row(SEC, f"pull after every edit ({label}): edit → diagnostics reply arrived (last byte read), "
                           "p50 / p95", f"{n:,}", text,
                           "; ".join(x for x in (each, f"client decode of the first full reply {first['decode_parse'] * 1000:.1f} ms "
                                     f"parse, {first['decode_full'] * 1000:.1f} ms parse + structure ({first['items']:,} items)") if x),
                           "", "p95 ≤ 30 ms" if target else "", arrive95 <= 0.030 if target else None,
                           f"{unchanged} of {len(first['diag_lat'])} answered unchanged"))
            text, _, each = _runs_p(rs, "diag_lat")
            parsed = [x for r in rs for x in r["parse_full"]]
            report.add(Row(SEC, f"pull after every edit ({label}): edit → diagnostics reply parsed by the client, "
                           "p50 / p95", f"{n:,}", text,
                           "; ".join(x for x in (each, f"the client's parse of each full reply: {_p(parsed)}" if parsed
                                                 else "no full reply") if x), "", "", None,
                           f"{len(parsed)} full replies in {len(rs)} runs"))
    if small != big:
        for label, cap in PULL_CLIENTS:
            keys = (("hint_lat", "hints"),) if cap == VSCODE_CAP else ()
            keys += (("diag_arrive", "diagnostics (arrived)"), ("diag_lat", "diagnostics (parsed)"))
            for key, what in keys:
                ratio = p95(label, big, key) / max(p95(label, small, key), 1e-9)
                # the issue's target is the reply "beyond the client's own cost of
                # decoding it": the parsed figure holds that cost (a 1,000-item
                # reply against a 93-item one) and is shown for information
                target = cap == VSCODE_CAP and key != "diag_lat"
                report.add(Row(SEC, f"pull after every edit ({label}): {what} p95 at {big:,} / at {small:,} lines "
                               f"(medians of {repeat} runs)", "",
                               f"{ratio:.2f}×", "", "", "≤ 1.5×" if target else "", ratio <= 1.5 if target else None))
    res = {n: sorted(runs[vscode, n], key=lambda r: r["rss_tree"])[len(runs[vscode, n]) // 2] for n in sizes}
    r = res[big]
    report.add(Row(SEC, "process-tree RSS, pair open and scored (server + workers)", f"{big:,}",
                   f"{r['rss_tree'] / 2**20:.0f} MB in {r['processes']} process(es) ({r['rss_tree'] / big:.0f} B/line)",
                   f"server alone {r['rss_server'] / 2**20:.0f} MB; the median of {len(runs[vscode, big])} runs "
                   f"({', '.join(str(round(x['rss_tree'] / 2**20)) for x in runs[vscode, big])} MB)", "",
                   "≤ 200 MB" if big >= 100_000 else "",
                   r["rss_tree"] <= 200 * 2**20 if big >= 100_000 else None))
    opens = [big] + ([million] if million else [])
    for n in opens:
        print(f"scale: open → first hints, {n:,} lines x {repeat}", file=sys.stderr, flush=True)
        o = open_vs_floor(n, repeat)
        budget = 100 if n >= 1_000_000 else 50
        ours, floor = o["ours"] * 1000, o["floor"] * 1000
        report.add(Row(SEC, "open → first inlay hints (lines 0–60) vs do-nothing pygls server", f"{n:,}", f"{ours:.0f} ms",
                       f"floor {floor:.0f} ms", f"+{ours - floor:.0f} ms", f"≤ floor + {budget} ms", ours <= floor + budget,
                       f"{o['hints']} hints"))
    if million:
        million_rows(report, million, probes=max(3, edits // 2), edits=max(3, edits // 2), repeat=repeat)
    ter_rows(report, sizes, edits, repeat)
    if long_mb > 0:
        print(f"scale: a {long_mb:g} MB line", file=sys.stderr, flush=True)
        lr = long_line(long_mb, max(3, edits // 10))
        report.add(Row(SEC, f"a {long_mb:g} MB line: edit on it → hints of lines 0–60 (p50 / p95); hover on it", "200",
                       _p(lr["other_wait"]), f"hover {_p(lr['hover'])}; open → first hints {lr['first_hint'] * 1000:.0f} ms",
                       "", "≤ 50 ms", pct(lr["other_wait"], .95) <= 0.050))
        report.add(Row(SEC, f"a {long_mb:g} MB line being scored: other lines' hints / hover (p50 / p95)", "200",
                       _p(lr["meanwhile"]), f"{len(lr['meanwhile'])} requests; edit → its new hint {_p(lr['settle'])}",
                       "", "≤ 50 ms", pct(lr["meanwhile"], .95) <= 0.050))


def _runs_p(runs: list[dict[str, Any]], key: str) -> tuple[str, float, str]:
    """Over ``runs``: "median p50 / median p95 ms", the median p95 (s) and each run's p95."""
    p50 = sorted(pct(r[key], .5) for r in runs)[len(runs) // 2] * 1000
    p95s = [pct(r[key], .95) for r in runs]
    mid = sorted(p95s)[len(runs) // 2]
    each = ", ".join(f"{x * 1000:.1f}" for x in p95s)
    return f"{p50:.1f} / {mid * 1000:.1f} ms", mid, (f"p95 of each run: {each} ms" if len(runs) > 1 else "")


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return sorted(r[key] for r in runs)[len(runs) // 2]


def million_rows(report: Report, n: int, probes: int, edits: int, repeat: int = 1) -> None:
    """The rows of a 1M-line pair: ``repeat`` sessions (minutes each);
    each figure is the median over the sessions, each session's p95 beside."""
    runs = []
    for k in range(repeat):
        print(f"scale: {n:,} lines opened, scored in the background, probed ({k + 1}/{repeat})", file=sys.stderr, flush=True)
        runs.append(big_open(n, probes, edits))
    size = f"{n:,}"
    during = [r for r in runs if r["during_hint"]]  # a session scored before its first probe has none
    for key, what in (("during_hint", "inlay hints (60 lines at random)"), ("during_hover", "hover")):
        label = f"while scoring in the background: {what} p50 / p95"
        if not during:
            report.add(Row(SEC, label, size, "n/a", "scored before the first probe", "", "p95 ≤ 50 ms", None))
            continue
        text, p95, each = _runs_p(during, key)
        note = each
        if key == "during_hint":
            empty = "/".join(str(r["during_empty"]) for r in during)
            note = (f"{each}; {sum(len(r[key]) for r in during)} requests, {empty} answered empty (lines not read "
                    f"yet: asked again later); scored after {_median(runs, 'scored_after'):.0f} s, background passes "
                    f"(HTER) over after {_median(runs, 'settled_after'):.0f} s")
            unseen = sum(not r["progress_seen"] for r in runs)
            if unseen:
                note += (f"; no scoring progress in {unseen}/{len(runs)} sessions (scored taken as the diagnostics "
                         f"reply, or {PROGRESS_GRACE:.0f} s without a pull)")
        report.add(Row(SEC, label, size, text, note, "", "p95 ≤ 50 ms", p95 <= 0.050))
    diag = runs[0]["diagnostics_after"] is not None
    analysing = (f"the first analysis (a diagnostics pull sent with the open, as VS Code does) running: "
                 f"{runs[0]['diagnostics']:,} diagnostics after {_median(runs, 'diagnostics_after'):.0f} s (still running "
                 f"at the last probe in {sum(r['diagnostics_after'] > r['after_done'] for r in runs)}/{len(runs)} sessions)"
                 if diag else "")
    for key, what in (("after_hint", "inlay hints (60 lines at random)"), ("after_hover", "hover")):
        text, p95, each = _runs_p(runs, key)
        report.add(Row(SEC, f"scored, first analysis running: {what} p50 / p95", size, text,
                       "; ".join(x for x in (each, analysing if key == "after_hint" else "") if x), "",
                       "p95 ≤ 10 ms", p95 <= 0.010))
    for key, what in (("idle_hint", "inlay hints (60 lines at random)"), ("idle_hover", "hover")):
        text, p95, each = _runs_p(runs, key)
        report.add(Row(SEC, f"scored and analysed (server idle): {what} p50 / p95", size, text, each, "",
                       "p95 ≤ 10 ms", p95 <= 0.010))
    text, p95, each = _runs_p(runs, "edit_hint")
    report.add(Row(SEC, "edit → inlay hints (60 lines) p50 / p95", size, text, each, "",
                   "p95 ≤ 10 ms (the 100k figure)", p95 <= 0.010))
    rss = _median(runs, "rss_tree")
    each = ", ".join(f"{r['rss_tree'] / 2**20:.0f}" for r in runs)
    report.add(Row(SEC, "process-tree RSS, pair open, scored and analysed", size,
                   f"{rss / 2**20:.0f} MB in {runs[0]['processes']} process(es) ({rss / n:.0f} B/line)",
                   f"each run {each} MB; peak while scoring {_median(runs, 'rss_peak') / 2**20:.0f} MB; scored, before "
                   f"the diagnostics {_median(runs, 'rss_settled') / 2**20:.0f} MB", "", "≤ 1.2 GB", rss <= 1.2 * 2**30))


def ter_rows(report: Report, sizes: list[int], edits: int, repeat: int) -> None:
    """edit → hint with TER on: p50 / p95 per size (the median run of ``repeat``), the floor beside."""
    big = max(sizes)
    for n in sizes:
        print(f"scale: TER on, edit → hint, {n:,} lines x {repeat}", file=sys.stderr, flush=True)
        r = _median_run(ter_edit_to_hint, repeat, "lat", n, edits)
        f = ter_edit_to_hint(n, edits, floor=True)
        report.add(Row(SEC, "TER on: edit → hint showing the edited line's new score, p50 / p95", f"{n:,}", _p(r["lat"]),
                       f"floor {_p(f['lat'])}", "", "p95 ≤ 10 ms" if n == big else "",
                       pct(r["lat"], .95) <= 0.010 if n == big else None,
                       f"{r['heavy']}/{len(r['lat'])} edited lines over {CHEAP_WORDS} TER tokens; hint requests per edit max {max(r['polls'])}"))


def main(argv: list[str]) -> int:
    """``python -m benchmarks.scale ter N [EDITS]``: the TER edit → hint row
    alone (three runs and the floor, medians); ``python -m benchmarks.scale
    long MB``: the long-line rows alone; ``python -m benchmarks.scale tree N
    [RUNS]``: the process-tree RSS on the real pair with a source (issue 25)."""
    if len(argv) >= 2 and argv[0] == "ter":
        n, edits = int(argv[1]), int(argv[2]) if len(argv) > 2 else 40
        load = os.getloadavg()[0]
        runs = [ter_edit_to_hint(n, edits) for _ in range(3)]
        floor = ter_edit_to_hint(n, edits, floor=True)
        p50 = statistics.median(pct(r["lat"], .5) for r in runs) * 1000
        p95 = statistics.median(pct(r["lat"], .95) for r in runs) * 1000
        print(f"{n:,} lines, TER on, edit → hint: p50 {p50:.1f} ms, p95 {p95:.1f} ms (medians of 3); floor {_p(floor['lat'])}; "
              f"load average {load:.2f} → {os.getloadavg()[0]:.2f}")
        print("  runs (p50 / p95 ms): " + ", ".join(f"{pct(r['lat'], .5) * 1000:.1f} / {pct(r['lat'], .95) * 1000:.1f}" for r in runs))
        mid = sorted(runs, key=lambda r: pct(r["lat"], .95))[1]
        slow = sorted(zip(mid["lat"], mid["tokens"], mid["polls"]), reverse=True)[:6]
        print(f"  median run, slowest edits (ms, TER tokens, hint requests; over {CHEAP_WORDS} tokens is counted off the loop): "
              + ", ".join(f"{t * 1000:.1f} / {k} / {q}" for t, k, q in slow))
        return 0
    if len(argv) >= 2 and argv[0] == "long":
        lr = long_line(float(argv[1]), 3)
        print(f"{argv[1]} MB line: edit → hints of lines 0–60 {_p(lr['other_wait'])}; hover on it {_p(lr['hover'])}; "
              f"other lines' hints / hover while it is scored {_p(lr['meanwhile'])} ({len(lr['meanwhile'])} requests); "
              f"edit → its new hint {_p(lr['settle'])}")
        return 0
    if len(argv) >= 2 and argv[0] == "tree":
        from .scale_tree import tree_main

        return tree_main(int(argv[1]), int(argv[2]) if len(argv) > 2 else 3)
    print(main.__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
