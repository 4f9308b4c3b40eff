"""Sustained load through the real server over stdio: a client types 100
edits a second into a large paired document while asking for the inlay
hints of the lines in view, as an editor does while the user scrolls.

The server must keep up without an unbounded queue (stale work is
coalesced: a hint request sent right after the last edit is answered at
once), with latency and memory flat from start to end, and with hints that
equal a from-scratch computation at the end.

* normal suite: 10 s, 10,000 lines;
* ``-m slow``: 60 s, 100,000 lines (the figures of the hardening note).

Environment overrides: BLEU_LS_LOAD_SECONDS, BLEU_LS_LOAD_LINES, and
BLEU_LS_LOAD_STRUCTURAL (share of edits that insert or delete a line;
default 0.1).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path

import pytest
import sacrebleu

from benchmarks.lsp_client import RawClient

RATE = 100  # edits per second
VIEW = 60  # lines in view


def make_lines(n: int, seed: int = 7) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "in", "park", "today", "while", "it", "rained"]
    refs, hyps = [], []
    for _ in range(n):
        ref = [rng.choice(words) for _ in range(rng.randint(6, 14))]
        hyp = list(ref)
        for _ in range(rng.randint(0, 3)):
            hyp[rng.randrange(len(hyp))] = rng.choice(words)
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return hyps, refs


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_load(tmp_path: Path, seconds: float, n_lines: int, structural: float = 0.1) -> dict:
    hyps, refs = make_lines(n_lines)
    (tmp_path / "load.ref").write_text("\n".join(refs) + "\n", encoding="utf-8")
    hyp_path = tmp_path / "load.hyp"
    hyp_path.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    c = RawClient(cwd=tmp_path)
    rng = random.Random(11)
    words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "in", "park"]
    try:
        c.initialize(tmp_path)
        uri = c.open(hyp_path)
        # wait until the whole document is scored once (diagnostics are pushed after that)
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=300)
        lines = list(hyps)
        version = 1
        pending: dict[int, tuple[float, float]] = {}  # request id -> (elapsed at send, send time)
        rss: list[tuple[float, int]] = []
        t0 = time.monotonic()
        next_rss = 0.0
        tick = 0
        top = 0
        while True:
            now = time.monotonic() - t0
            if now >= seconds:
                break
            # one edit per tick: mostly typing in place, sometimes a line
            # inserted and one deleted (the lines after the insertion point
            # change partners and go stale until rescored)
            version += 1
            kind = rng.random()
            if kind >= structural or len(lines) < 3:
                i = rng.randrange(len(lines))
                new = lines[i] + " " + rng.choice(words) if len(lines[i]) < 120 else " ".join(lines[i].split()[:5])
                change = {"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": len(lines[i])}}, "text": new}
                lines[i] = new
                top = max(0, i - VIEW // 2)
            elif kind < structural / 2:
                i = rng.randrange(len(lines))
                new = " ".join(rng.choice(words) for _ in range(6))
                change = {"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": 0}}, "text": new + "\n"}
                lines.insert(i, new)
            else:
                i = rng.randrange(len(lines) - 1)
                change = {"range": {"start": {"line": i, "character": 0}, "end": {"line": i + 1, "character": 0}}, "text": ""}
                del lines[i]
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
            if tick % 10 == 0:  # 10 hint requests a second for the lines in view
                rid = c.request_async(
                    "textDocument/inlayHint",
                    {"textDocument": {"uri": uri}, "range": {"start": {"line": top, "character": 0}, "end": {"line": top + VIEW, "character": 0}}},
                )
                pending[rid] = (now, time.monotonic())
            if now >= next_rss:
                rss.append((now, c.rss_kib()))
                next_rss += 1.0
            tick += 1
            # pace: tick k is due at k / RATE
            delay = t0 + tick / RATE - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        edits = tick
        # right after the last edit: is the server caught up (no backlog)?
        t_last = time.monotonic()
        final = c.result(
            "textDocument/inlayHint",
            {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": VIEW, "character": 0}}},
            timeout=120,
        )
        catch_up = time.monotonic() - t_last
        latencies: list[tuple[float, float]] = []
        for rid, (at, sent) in pending.items():
            reply = c.wait(rid, timeout=120)
            assert "result" in reply, reply
            latencies.append((at, reply["_t"] - sent))
        rss.append((seconds, c.rss_kib()))
        # the hints equal a from-scratch computation on the client's copy
        want = [f"BLEU {sacrebleu.sentence_bleu(lines[i].rstrip(), [refs[i]]).score:.1f}" for i in range(min(VIEW + 1, len(lines), len(refs)))]
        assert [h["label"] for h in final] == want
        assert c.alive()
    finally:
        c.close()
    span = max(1.0, seconds / 6)
    first = [lat for at, lat in latencies if at < span]
    last = [lat for at, lat in latencies if at >= seconds - span]
    rss_first = [k for at, k in rss if at < span]
    rss_last = [k for at, k in rss if at >= seconds - span]
    return {
        "seconds": seconds,
        "lines": n_lines,
        "edits": edits,
        "edit_rate": edits / seconds,
        "requests": len(latencies),
        "p50_start_ms": 1000 * statistics.median(first),
        "p95_start_ms": 1000 * percentile(first, 0.95),
        "p50_end_ms": 1000 * statistics.median(last),
        "p95_end_ms": 1000 * percentile(last, 0.95),
        "max_ms": 1000 * max(lat for _, lat in latencies),
        "catch_up_ms": 1000 * catch_up,
        "rss_start_mib": statistics.median(rss_first) / 1024,
        "rss_end_mib": statistics.median(rss_last) / 1024,
        "rss_max_mib": max(k for _, k in rss) / 1024,
    }


def check(fig: dict) -> None:
    print(
        "load: {seconds:.0f} s, {lines} lines, {edits} edits ({edit_rate:.0f}/s), {requests} hint requests; "
        "latency p50/p95 start {p50_start_ms:.1f}/{p95_start_ms:.1f} ms, end {p50_end_ms:.1f}/{p95_end_ms:.1f} ms, "
        "max {max_ms:.1f} ms; caught up {catch_up_ms:.1f} ms after the last edit; "
        "RSS start {rss_start_mib:.1f} MiB, end {rss_end_mib:.1f} MiB, max {rss_max_mib:.1f} MiB".format(**fig)
    )
    assert fig["edit_rate"] > 0.9 * RATE
    # no backlog: what was sent is answered at once after the last edit
    assert fig["catch_up_ms"] < 1000
    # latency flat: the end no worse than the start, within the noise of a
    # shared 2-core machine (a backlog shows as seconds, not milliseconds)
    assert fig["p50_end_ms"] <= max(3 * fig["p50_start_ms"], 250)
    assert fig["p95_end_ms"] <= max(3 * fig["p95_start_ms"], 1000)
    # memory flat
    assert fig["rss_end_mib"] <= fig["rss_start_mib"] * 1.25 + 20


def test_sustained_load_short(tmp_path: Path) -> None:
    seconds = float(os.environ.get("BLEU_LS_LOAD_SECONDS", 10))
    n = int(os.environ.get("BLEU_LS_LOAD_LINES", 10_000))
    structural = float(os.environ.get("BLEU_LS_LOAD_STRUCTURAL", 0.1))
    check(run_load(tmp_path, seconds, n, structural))


@pytest.mark.slow
def test_sustained_load_full(tmp_path: Path) -> None:
    check(run_load(tmp_path, 60, 100_000))
