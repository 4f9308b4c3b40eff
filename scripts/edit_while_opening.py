"""Edits typed right after opening a large document (issue 12, item 5).

A 100k-line pair of about 20 MB (two corpus sentences per line); the
document is opened and, ``--delay`` seconds later, a one-word edit is typed
on line 30, followed at once by an inlay-hint request for lines 0–60; then
``--edits`` more such edits, ``--gap`` seconds apart.  Prints edit → hints
(ms) per edit, for bleu-ls and the do-nothing pygls server (the floor: it
too must first read the 20 MB ``didOpen``), medians of ``--repeat`` runs.

    PYTHONPATH=. .venv/bin/python scripts/edit_while_opening.py --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import corpus  # noqa: E402
from benchmarks.corpus import CACHE  # noqa: E402
from benchmarks.lsp_client import RawClient  # noqa: E402
from benchmarks.run import ROOT, _floor_argv, _range, _server_argv  # noqa: E402


def pair_20mb(n: int) -> tuple[Path, Path, str]:
    ws = CACHE / f"ws-open-edit-{n}"
    path = ws / "big.hyp"
    if not path.exists():
        hyps, refs = corpus.Corpus(7).pairs(n + 1)
        ws.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(f"{hyps[i]} {hyps[i + 1]}" for i in range(n)) + "\n", encoding="utf-8")
        (ws / "big.ref").write_text("\n".join(f"{refs[i]} {refs[i + 1]}" for i in range(n)) + "\n", encoding="utf-8")
    return ws, path, path.read_text(encoding="utf-8")


def run(argv: list[str], ws: Path, path: Path, text: str, delay: float, edits: int, gap: float) -> list[float]:
    c = RawClient(cwd=ROOT, argv=argv)
    lines = text.split("\n")
    try:
        c.initialize(ws, pull=True, configuration=True)
        uri = path.as_uri()
        doc = {"uri": uri}
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        time.sleep(delay)
        out = []
        for v in range(2, edits + 3):
            t_edit = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                              "contentChanges": [{"range": {"start": {"line": 30, "character": 0},
                                                            "end": {"line": 30, "character": 0}}, "text": "the "}]})
            lines[30] = "the " + lines[30]
            rid = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)})
            out.append(c.answer(rid, timeout=600)["_t"] - t_edit)
            time.sleep(gap)
        return out
    finally:
        c.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lines", type=int, default=100_000)
    p.add_argument("--delay", type=float, default=0.05, help="seconds from didOpen to the first edit")
    p.add_argument("--edits", type=int, default=4, help="edits after the first one")
    p.add_argument("--gap", type=float, default=0.125, help="seconds between edits (8 keys/s)")
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    ws, path, text = pair_20mb(a.lines)
    load = os.getloadavg()[0]
    print(f"{a.lines:,} lines, {len(text.encode('utf-8')) / 2**20:.1f} MB; first edit {a.delay * 1000:.0f} ms after didOpen")
    for label, argv in (("bleu-ls", _server_argv()), ("floor", _floor_argv())):
        runs = [run(argv, ws, path, text, a.delay, a.edits, a.gap) for _ in range(a.repeat)]
        first = statistics.median(r[0] for r in runs) * 1000
        later = statistics.median(statistics.median(r[1:]) for r in runs) * 1000 if a.edits else float("nan")
        worst = max(max(r) for r in runs) * 1000
        print(f"  {label}: edit → hints 0–60, first edit {first:.1f} ms, later edits {later:.1f} ms (medians of {a.repeat}), "
              f"worst {worst:.1f} ms; runs: " + "; ".join(" ".join(f"{x * 1000:.0f}" for x in r) for r in runs))
    print(f"load average {load:.2f} → {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
