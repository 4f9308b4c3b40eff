"""A large subtitle file in the server (issue 22): open → first hints, and
edit → hint of a cue typed into or a cue pasted, beside the do-nothing pygls
floor in the same run.

The files are synthetic (``N`` cues of two lines of 5–6 words drawn from a
small vocabulary, 3 s apart; the reference shifted by 120 ms), written under
the benchmark cache.  Run: ``python -m benchmarks.segments_live [N] [EDITS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path
from typing import Any

from .corpus import CACHE
from .run import ROOT, _floor_argv, _range, _server_argv, pct

WORDS = "the cat sat on a mat dog ran fast and slow we will meet at noon rain today piano station".split()


def _clock(ms: int) -> str:
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def srt(n: int, shift: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a = i * 3000 + shift
        l1 = " ".join(rng.choice(WORDS) for _ in range(6))
        l2 = " ".join(rng.choice(WORDS) for _ in range(5))
        out.append(f"{i + 1}\n{_clock(a)} --> {_clock(a + 2500)}\n{l1}\n{l2}\n")
    return "\n".join(out)


def workspace(n: int) -> tuple[Path, Path, str]:
    ws = CACHE / f"segments-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    hyp = ws / "film.hyp.srt"
    if not hyp.exists():
        hyp.write_text(srt(n, 0, 1), encoding="utf-8")
        (ws / "film.ref.srt").write_text(srt(n, 120, 2), encoding="utf-8")
    return ws, hyp, hyp.read_text(encoding="utf-8")


def first_hints(argv: list[str], ws: Path, path: Path, text: str, edits: int = 0, seed: int = 7) -> dict[str, Any]:
    from .lsp_client import RawClient

    c = RawClient(cwd=ROOT, argv=argv)
    out: dict[str, Any] = {}
    try:
        c.initialize(ws, pull=True, configuration=True)
        uri = path.as_uri()
        t0 = c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "srt", "version": 1, "text": text}})
        rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(0, 60)})
        msg = c.answer(rid, timeout=600)
        out["open"] = msg["_t"] - t0
        out["hints"] = len(msg.get("result") or [])
        out["rss"] = c.rss_kib() * 1024
        if not edits:
            return out
        rng = random.Random(seed)
        lines = text.split("\n")
        n_lines = len(lines)
        typing, pasting = [], []
        v = 1
        doc = {"uri": uri}
        for k in range(edits):
            # a cue in the middle of the file: the line after its timing line is its first text line
            t_line = n_lines // 2 + rng.randrange(1000)
            while "-->" not in lines[t_line]:
                t_line += 1
            line = t_line + 1
            v += 1
            paste = k % 5 == 4
            if paste:  # a whole cue pasted after this one (at the start of the blank line after it)
                at = line
                while lines[at].strip():
                    at += 1
                ms = int(lines[t_line][:2]) * 3600000 + int(lines[t_line][3:5]) * 60000 + int(lines[t_line][6:8]) * 1000 + int(lines[t_line][9:12])
                timing = f"{_clock(ms + 2600)} --> {_clock(ms + 2900)}"
                change = {"range": _range(at, at), "text": f"\n{900000 + k}\n{timing}\nPasted words\n"}
                lines[at : at + 1] = ["", str(900000 + k), timing, "Pasted words", lines[at]]
                n_lines = len(lines)
            else:
                word = rng.choice(WORDS) + " "
                change = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": word}
                lines[line] = word + lines[line]
            t = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [change]})
            rid_d = c.request_async("textDocument/diagnostic", {"textDocument": doc})
            rid_h = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(line - 30, line + 30)})
            hint = c.answer(rid_h, timeout=120)
            c.answer(rid_d, timeout=120)
            (pasting if paste else typing).append(hint["_t"] - t)
            if not hint.get("result"):
                out["empty"] = out.get("empty", 0) + 1
        out["typing"], out["pasting"] = typing, pasting
    finally:
        c.close()
    return out


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    edits = int(argv[1]) if len(argv) > 1 else 100
    ws, path, text = workspace(n)
    floor = first_hints(_floor_argv(), ws, path, text)
    ours = first_hints(_server_argv(), ws, path, text, edits)
    ms = lambda x: f"{x * 1000:.1f} ms"  # noqa: E731
    print(f"synthetic .srt: {n:,} cues, {len(text) / 1e6:.1f} MB (reference: the same cues' timings shifted 120 ms)")
    print(f"open → first hints (lines 0–60): bleu-ls {ours['open']:.2f} s ({ours['hints']} hints), do-nothing pygls floor {floor['open']:.2f} s")
    t, p = ours["typing"], ours["pasting"]
    print(f"edit inside a cue's text → hint: p50 {ms(statistics.median(t))}, p95 {ms(pct(t, 0.95))} ({len(t)} edits)")
    print(f"cue pasted → hint: p50 {ms(statistics.median(p))}, p95 {ms(pct(p, 0.95))} ({len(p)} edits)")
    if ours.get("empty"):
        print(f"{ours['empty']} edits answered with no hints (a check that the edits landed where meant)")
    print(f"server RSS after open: {ours['rss'] / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
