"""Profile the server's edit path: ``python -m benchmarks.profile_server [LINES] [EDITS]``,
or its open path: ``python -m benchmarks.profile_server open [LINES]`` (didOpen → the
first inlay hints of lines 0–60, then the background open and scoring until done).

Runs ``bleu-ls serve`` under cProfile, opens a pair of LINES lines, waits for
full diagnostics, then makes EDITS one-line edits, each followed by an
inlay-hint request for 60 lines and a diagnostics pull; prints the top
functions by cumulative and by own time (main thread: the event loop).
"""

from __future__ import annotations

import pstats
import random
import sys
import time

from .lsp_client import RawClient
from .run import PY, ROOT, _mutate, _range, workspace


def profile_open(n: int) -> int:
    """didOpen → first hints for lines 0–60, then until the background
    scoring ends (the client shows progress); prints where the time went."""
    from .scale import PROGRESS_GRACE, _scoring_ended, _scoring_kinds

    out = ROOT / "benchmarks" / ".cache" / f"server-open-{n}.prof"
    ws, path, text = workspace(n)
    c = RawClient(cwd=ROOT, argv=[PY, "-m", "cProfile", "-o", str(out), "-m", "bleu_ls", "serve", "--stdio"])
    c.initialize(ws, pull=True, configuration=True, progress=True)
    since = c.mark()
    uri = path.as_uri()
    t0 = c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
    rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(0, 60)})
    first = c.answer(rid, timeout=600)["_t"] - t0
    while not _scoring_ended(c, since):
        if time.monotonic() - t0 > PROGRESS_GRACE and not _scoring_kinds(c, since):
            print(f"no scoring progress began within {PROGRESS_GRACE:.0f} s (too few lines for one?): not waiting for its end")
            break
        time.sleep(0.2)
    done = time.monotonic() - t0
    c.close()
    time.sleep(1)
    print(f"open -> first hints {first * 1000:.0f} ms; scored after {done:.1f} s")
    st = pstats.Stats(str(out))
    st.sort_stats("cumulative").print_stats(40)
    st.sort_stats("tottime").print_stats(20)
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "open":
        return profile_open(int(argv[1]) if len(argv) > 1 else 100_000)
    n = int(argv[0]) if argv else 100_000
    edits = int(argv[1]) if len(argv) > 1 else 100
    out = ROOT / "benchmarks" / ".cache" / f"server-{n}.prof"
    ws, path, text = workspace(n)
    lines = text.split("\n")
    c = RawClient(cwd=ROOT, argv=[PY, "-m", "cProfile", "-o", str(out), "-m", "bleu_ls", "serve", "--stdio"])
    c.initialize(ws, pull=True, configuration=True)
    uri = path.as_uri()
    doc = {"uri": uri}
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
    c.result("textDocument/diagnostic", {"textDocument": doc}, timeout=600)
    rng = random.Random(1)
    w0 = max(0, n // 2 - 30)
    hint, diag = [], []
    for v in range(2, edits + 2):
        i = w0 + rng.randrange(min(60, n - w0 - 1))
        lines[i] = _mutate(lines[i], rng)
        t0 = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                      "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]})
        rid = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(w0, w0 + 60)})
        hint.append(c.answer(rid, timeout=120)["_t"] - t0)
        _, dt = c.timed("textDocument/diagnostic", {"textDocument": doc}, timeout=120)
        diag.append(dt)
    c.close()
    time.sleep(1)
    hint.sort()
    diag.sort()
    print(f"hint p50 {hint[len(hint) // 2] * 1000:.1f} ms, diag p50 {diag[len(diag) // 2] * 1000:.1f} ms")
    st = pstats.Stats(str(out))
    st.sort_stats("cumulative").print_stats(25)
    st.sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
