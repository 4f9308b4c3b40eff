"""Large segment files through the real server over stdio (issue 22, item 8): open →
first hints of lines 0–60, open → hints in the middle of the file (the whole read),
typing inside a target → its hint and a unit pasted (structural) → its hint, p50 /
p95, and the process tree's RSS, beside the do-nothing pygls floor in the same run.

Synthetic files of ``N`` units (the XLIFF of ``segments_xliff``, a PO of the same
words, the SRT of ``segments_live``, the TMX of ``segments_tmx_live``; ``xlf-codes``: the
Angular-like XLIFF of ``scripts/xml_parse_throughput.py``, inline codes in every unit), the
reference the same keys with other words.
Run: ``python -m benchmarks.segments_open [N] [EDITS] [FORMATS…]`` (formats: xlf po srt tmx
xlf-codes; the TMX of ``segments_tmx_live``, every ``tu`` with a ``tuid``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Optional

from .corpus import CACHE
from .run import ROOT, _floor_argv, _range, _server_argv, pct
from .scale import tree_rss
from .segments_live import srt
from .segments_tmx_live import TARGET as TMX_TARGET, TU_END, memory
from .segments_xliff import W, xlf


def po(n: int, seed: int) -> str:
    rng, ids = random.Random(seed), random.Random(0)  # the same msgids in every file (the keys), other msgstrs
    out = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n']
    for i in range(n):
        out.append(f'#: src/app.c:{i}\nmsgid "{" ".join(ids.choice(W) for _ in range(8))} {i}"\n'
                   f'msgstr "{" ".join(rng.choice(W) for _ in range(8))}"\n')
    return "\n".join(out)


def po_alone(n: int, seed: int) -> str:
    """A catalogue to check without a reference: ``po``'s entries with the number kept in the
    target, and one target in 50 left as its source (``untranslated``)."""
    rng, ids = random.Random(seed), random.Random(0)
    out = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n']
    for i in range(n):
        source = f'{" ".join(ids.choice(W) for _ in range(8))} {i}'
        target = source if i % 50 == 7 else f'{" ".join(rng.choice(W) for _ in range(8))} {i}'
        out.append(f'#: src/app.c:{i}\nmsgid "{source}"\nmsgstr "{target}"\n')
    return "\n".join(out)


def angular(n: int, seed: int) -> str:
    """The Angular-like XLIFF of ``scripts/xml_parse_throughput.py`` (inline codes, an entity, a note a unit)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("xml_parse_throughput", ROOT / "scripts" / "xml_parse_throughput.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.synthetic_xliff(n, seed)


MAKERS = {"xlf": lambda n, s: xlf(n, s), "po": po, "po-alone": po_alone, "srt": lambda n, s: srt(n, 120 * (s - 1), s),
          "tmx": lambda n, s: memory(n, s, change=0.3), "xlf-codes": angular}
#: where a target's text starts on its line, and a unit to paste after the line that ends one
TARGET = {"xlf": "        <target>", "po": 'msgstr "', "po-alone": 'msgstr "', "srt": None, "tmx": TMX_TARGET,
          "xlf-codes": '    <target state="translated">'}
UNIT_END = {"xlf": "      </trans-unit>", "po": None, "po-alone": None, "srt": None, "tmx": TU_END, "xlf-codes": "   </trans-unit>"}


#: ``FMT-alone``: the file with no reference beside it (no hints: the edit is timed to its diagnostics)
ALONE = "-alone"


def workspace(fmt: str, n: int) -> tuple[Path, Path, str]:
    ws = CACHE / f"segments-open-{fmt}-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    alone = fmt.endswith(ALONE)
    ext = fmt.split("-")[0]  # xlf-codes: an .xlf
    hyp = ws / f"big.hyp.{ext}"
    if not hyp.exists():
        hyp.write_text(MAKERS[fmt](n, 1), encoding="utf-8")
        if not alone:
            (ws / f"big.ref.{ext}").write_text(MAKERS[fmt](n, 2), encoding="utf-8")
    return ws, hyp, hyp.read_text(encoding="utf-8")


def _edit(fmt: str, lines: list[str], rng: random.Random, paste: bool, k: int) -> tuple[dict, int]:
    """One edit near the middle of the file (the change and the line to ask hints around); ``lines`` follows it."""
    at = len(lines) // 2 + rng.randrange(1000)
    if fmt == "srt":
        while "-->" not in lines[at]:
            at += 1
        if paste:
            while lines[at].strip():
                at += 1
            cue = ["", str(900000 + k), lines[at - 2], "Pasted words"]
            lines[at:at] = cue
            return {"range": _range(at, at), "text": "\n".join(cue) + "\n"}, at
        at += 1
        lines[at] = "word " + lines[at]
        return {"range": _range(at, at), "text": "word "}, at
    if paste:
        if fmt.startswith("xlf") or fmt == "tmx":
            while lines[at] != UNIT_END[fmt]:
                at += 1
            at += 1
            unit = [f'      <trans-unit id="p{k}">', "        <source>pasted words</source>",
                    "        <target>pasted words here</target>", "      </trans-unit>"] if fmt.startswith("xlf") else [
                    f'    <tu tuid="p{k}">', '      <tuv xml:lang="en"><seg>pasted words</seg></tuv>',
                    f"{TMX_TARGET}pasted words here</seg></tuv>", TU_END]
        else:
            while lines[at].strip():
                at += 1
            at += 1
            unit = [f'msgid "pasted {k}"', 'msgstr "pasted words here"', ""]
        lines[at:at] = unit
        return {"range": _range(at, at), "text": "\n".join(unit) + "\n"}, at
    head = TARGET[fmt]
    while not lines[at].startswith(head):
        at += 1
    col = len(head)
    lines[at] = lines[at][:col] + "word " + lines[at][col:]
    return {"range": {"start": {"line": at, "character": col}, "end": {"line": at, "character": col}}, "text": "word "}, at


def open_document(c: Any, ws: Path, path: Path, text: str, out: dict[str, Any], whole: bool = True,
                  alone: bool = False) -> dict[str, str]:
    """The server of client ``c`` initialised in ``ws``, ``path`` opened with ``text``: open → the first
    hints (lines 0–60) in ``out["open"]`` (their number in ``out["hints"]``); with ``whole``, open → hints in
    the middle of the file (the whole read; ``alone``: a file with no hints, the diagnostics of the whole
    file, the rule table's first pass done) in ``out["whole"]``.  The document's identifier."""
    c.initialize(ws, pull=True, configuration=True)
    doc = {"uri": path.as_uri()}
    t0 = c.notify("textDocument/didOpen", {"textDocument": {**doc, "languageId": "plaintext", "version": 1, "text": text}})
    msg = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)}), timeout=600)
    out["open"] = msg["_t"] - t0
    out["hints"] = len(msg.get("result") or [])
    if not whole:
        return doc
    mid = text.count("\n") // 2
    while time.perf_counter() - t0 < 600:
        if alone:
            msg = c.answer(c.request_async("textDocument/diagnostic", {"textDocument": doc}), timeout=600)
            if any(d.get("code") == "untranslated" for d in (msg.get("result") or {}).get("items", [])):
                out["whole"] = msg["_t"] - t0
                return doc
            time.sleep(0.2)
            continue
        msg = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(mid, mid + 60)}), timeout=600)
        if msg.get("result"):
            out["whole"] = msg["_t"] - t0
            return doc
        time.sleep(0.05)
    raise RuntimeError("no hints in the middle of the file after 600 s")


def run(argv: list[str], fmt: str, ws: Path, path: Path, text: str, edits: int = 0, seed: int = 7,
        hooks: Optional[dict] = None) -> dict[str, Any]:
    from .lsp_client import RawClient

    c = RawClient(cwd=ROOT, argv=argv)
    out: dict[str, Any] = {}
    alone = fmt.endswith(ALONE)
    fmt = fmt.removesuffix(ALONE)
    try:
        doc = open_document(c, ws, path, text, out, whole=bool(edits), alone=alone)
        uri = doc["uri"]
        if not edits:
            return out
        out["rss"], out["procs"] = tree_rss(c.proc.pid)
        rng = random.Random(seed)
        lines = text.split("\n")
        typing, pasting = [], []
        if hooks and "before_edits" in hooks:
            hooks["before_edits"](c)
        for k in range(edits):
            paste = k % 5 == 4
            change, line = _edit(fmt, lines, rng, paste, k)
            t = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
            rid_d = c.request_async("textDocument/diagnostic", {"textDocument": doc})
            hint = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(line - 30, line + 30)}), timeout=600)
            diags = c.answer(rid_d, timeout=600)
            (pasting if paste else typing).append((diags if alone else hint)["_t"] - t)
            if not alone and not hint.get("result"):
                out["empty"] = out.get("empty", 0) + 1
        out["typing"], out["pasting"] = typing, pasting
        if hooks and "after_edits" in hooks:
            hooks["after_edits"](c)
        out["rss_after"], _ = tree_rss(c.proc.pid)
    finally:
        c.close()
    return out


def rows(n: int, edits: int, formats: list[str]) -> list[str]:
    out = []
    ms = lambda x: f"{x * 1000:.1f}"  # noqa: E731
    for fmt in formats:
        ws, path, text = workspace(fmt, n)
        floor = run(_floor_argv(), fmt, ws, path, text)
        ours = run(_server_argv(), fmt, ws, path, text, edits)
        t, p = ours["typing"], ours["pasting"]
        out.append(
            f"| .{fmt.replace('-codes', ' (inline codes)')}, {n:,} units, {len(text) / 1e6:.1f} MB | {ours['open']:.2f} s ({ours['hints']} hints) | "
            f"{floor['open']:.2f} s | {ours['whole']:.2f} s | {ms(statistics.median(t))} / {ms(pct(t, 0.95))} ms | "
            f"{ms(statistics.median(p))} / {ms(pct(p, 0.95))} ms | {ours['rss'] / 2**20:.0f} MB "
            f"({ours['procs']} process{'es' if ours['procs'] > 1 else ''}; after the edits {ours['rss_after'] / 2**20:.0f} MB) |"
            + (f" {ours['empty']} edits answered with no hint" if ours.get("empty") else "")
        )
        print(out[-1], flush=True)
    return out


HEAD = ("| file | open → first hints (lines 0–60) | pygls floor | open → hints mid-file (whole read) | "
        "typing in a target → hint p50 / p95 | unit pasted → hint p50 / p95 | process-tree RSS |\n|---|---|---|---|---|---|---|")


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    edits = int(argv[1]) if len(argv) > 1 else 40
    formats = argv[2:] or ["xlf", "po", "srt"]
    print(HEAD, flush=True)
    rows(n, edits, formats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
