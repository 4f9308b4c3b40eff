"""The translator-QA checks in the real server over stdio: typing in a 100,000-segment file →
its diagnostics, p50 / p95, each check on against all of them off.

Two documents, both from the real en→de pair (:mod:`benchmarks.realpair`, every line made
distinct as in :mod:`benchmarks.check_qe`):

- ``xlf``: an XLIFF 1.2 file of N units (the English source, the German MT line as target,
  ``target-language="de"``), opened alone (no reference: its own sources);
- ``pair``: the line file ``big.hyp`` with its ``big.ref`` and ``big.src`` beside it.

Variants (a ``bleu-ls.toml`` in the workspace; adequacy off in all: the sentence encoder is
measured by :mod:`benchmarks.check_qe` and would hide the rest): ``off``; ``spelling``
(``[diagnostics.spelling] enabled = true, language = "de"``); ``ratio``
(``[diagnostics.length-limit] maxRatio = 2``); ``rules`` (the three example ``[[rules]]`` of
docs/diagnostics.md, without ``files``: they apply to every document).

Per variant one server: the document opened, its diagnostics pulled until their number holds
still (the whole first pass done), then EDITS edits near the middle of the file, each the text
``"Qwertz" `` typed at the start of a target (a word the dictionary does not know, in quotes
the fr-quotes rule flags), timed from ``didChange`` to the answer of the
``textDocument/diagnostic`` sent after it (with the ``previousResultId`` of the last full reply, as
VS Code sends it), the reply parsed; this client's garbage collector is off during the edits, so that
its own pauses are not counted as the server's.

    PYTHONPATH=. python -m benchmarks.qa_checks_live [N] [EDITS] [--docs xlf pair] [--variants off spelling ratio rules]

``--check R``: instead, ``bleu-ls check`` of the same documents (in their workspaces, so with their
``bleu-ls.toml``), the variants run in turn R times (off, spelling, ratio, rules, off, …): the
median CPU seconds (user + system of the child) of each and its ratio to ``off`` (target ≤ 1.1).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from . import realpair
from .check_qe import distinct
from .corpus import CACHE
from .run import _server_argv, pct

NO_ADEQUACY = "[diagnostics.adequacy]\nenabled = false\n"
RULES = r'''
[[rules]]
code = "fr-quotes"
message = "Use « » in French, not \"…\"."
target = '(?<![=\w])"[^"<>]*"'

[[rules]]
code = "brand"
message = "Keep the product name as written."
source = '\bBleuCorp\b'
case_sensitive = true

[[rules]]
code = "decimal-comma"
message = "Decimal numbers: a comma, and the same digits."
source = '(\d+)\.(\d+)'
target = '(\d+),(\d+)'
severity = "error"
'''
VARIANTS = {
    "off": NO_ADEQUACY,
    "spelling": NO_ADEQUACY + '\n[diagnostics.spelling]\nenabled = true\nlanguage = "de"\n',
    "ratio": NO_ADEQUACY + "\n[diagnostics.length-limit]\nmaxRatio = 2.0\n",
    "rules": NO_ADEQUACY + RULES,
}
TYPED = '"Qwertz" '
TARGET = "        <target>"


def xliff(src: list[str], hyp: list[str]) -> str:
    units = "".join(f'      <trans-unit id="u{i}">\n        <source>{escape(s)}</source>\n{TARGET}{escape(t)}</target>\n'
                    "      </trans-unit>\n" for i, (s, t) in enumerate(zip(src, hyp)))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '  <file original="talks" source-language="en" target-language="de" datatype="plaintext">\n    <body>\n'
            f"{units}    </body>\n  </file>\n</xliff>\n")


def workspace(doc: str, variant: str, n: int) -> Path:
    """The folder of one document and one variant (its ``bleu-ls.toml``); the document's path."""
    folder = realpair.build(n)
    if folder is None:
        sys.exit("benchmarks.qa_checks_live: the WMT21 data are not on this machine")
    folder = distinct(folder)
    ws = CACHE / f"qa-live-{n}" / f"{doc}-{variant}"
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "bleu-ls.toml").write_text(VARIANTS[variant], encoding="utf-8")
    if doc == "xlf":
        path = ws / "talks.de.xlf"
        if not path.exists():
            src = (folder / "big.src").read_text(encoding="utf-8").splitlines()
            hyp = (folder / "big.hyp").read_text(encoding="utf-8").splitlines()
            path.write_text(xliff(src, hyp), encoding="utf-8")
        return path
    for name in ("big.hyp", "big.ref", "big.src"):
        if not (ws / name).exists():
            shutil.copyfile(folder / name, ws / name)
    return ws / "big.hyp"


def _edit_line(doc: str, lines: list[str], rng: random.Random) -> tuple[int, int]:
    """A line near the middle to type on, and the column where a target's text starts."""
    at = len(lines) // 2 + rng.randrange(max(len(lines) // 20, 1))
    if doc == "xlf":
        while not lines[at].startswith(TARGET):
            at += 1
        return at, len(TARGET)
    return at, 0


def _settled(c: Any, uri: str, limit: float = 900.0) -> tuple[float, int]:
    """Seconds until the pulled diagnostics' number holds still over three pulls, and that number."""
    t0 = time.perf_counter()
    last, same = -1, 0
    while time.perf_counter() - t0 < limit:
        msg = c.answer(c.request_async("textDocument/diagnostic", {"textDocument": {"uri": uri}}), timeout=600)
        k = len((msg.get("result") or {}).get("items", []))
        same = same + 1 if k == last and k > 0 else 0
        last = k
        if same >= 3:
            return time.perf_counter() - t0, k
        time.sleep(0.5)
    raise RuntimeError(f"the diagnostics of {uri} did not settle in {limit:.0f} s")


def run(doc: str, variant: str, n: int, edits: int, seed: int = 7) -> dict:
    from .lsp_client import RawClient

    path = workspace(doc, variant, n)
    text = path.read_text(encoding="utf-8")
    c = RawClient(cwd=path.parent, argv=_server_argv())
    out: dict = {}
    try:
        c.initialize(path.parent, pull=True, configuration=True)
        uri = path.as_uri()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        out["open"], out["diagnostics"] = _settled(c, uri)
        rng = random.Random(seed)
        lines = text.split("\n")
        times, flagged = [], 0
        items: list = []
        result_id = None
        kinds: Counter = Counter()
        # this client's own collector kept out of the timings: a reply of 1,000 diagnostics parsed
        # here makes thousands of dicts, and CPython's collections of this process (its 100k lines
        # held) took 10 ms now and then, counted as the server's before (an editor's parse is its own)
        gc.collect()
        gc.freeze()
        gc.disable()
        for k in range(edits):
            at, col = _edit_line(doc, lines, rng)
            lines[at] = lines[at][:col] + TYPED + lines[at][col:]
            change = {"range": {"start": {"line": at, "character": col}, "end": {"line": at, "character": col}}, "text": TYPED}
            t = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
            params: dict = {"textDocument": {"uri": uri}}
            if result_id is not None:  # as VS Code: an unchanged reply is a few bytes
                params["previousResultId"] = result_id
            msg = c.answer(c.request_async("textDocument/diagnostic", params), timeout=600)
            times.append(msg["_t"] - t)
            result = msg.get("result") or {}
            if result.get("kind") == "full":
                items, result_id = result.get("items", []), result.get("resultId")
            kinds[result.get("kind")] += 1
            flagged += any(d["range"]["start"]["line"] == at and d.get("code") in ("spelling", "rule:fr-quotes")
                           for d in items)
        out["edits"], out["flagged"], out["unchanged"] = times, flagged, kinds["unchanged"]
    finally:
        gc.enable()
        gc.unfreeze()
        c.close()
    return out


def check_cpu(path: Path) -> tuple[float, float]:
    """(wall, CPU seconds) of one ``bleu-ls check`` of ``path`` in its workspace."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bleu_ls", "check", "--fail-on", "never", str(path)], cwd=path.parent,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def checks(docs: list[str], variants: list[str], n: int, rounds: int) -> None:
    for doc in docs:
        got: dict[str, list[tuple[float, float]]] = {v: [] for v in variants}
        for _ in range(rounds):
            for v in variants:
                got[v].append(check_cpu(workspace(doc, v, n)))
        base = statistics.median(c for _, c in got["off"]) if "off" in got else None
        for v in variants:
            cpu = statistics.median(c for _, c in got[v])
            wall = statistics.median(w for w, _ in got[v])
            ratio = f", {cpu / base:.3f}× off" if base else ""
            print(f"  {doc:4} {v:8}: check CPU {cpu:6.2f} s ({', '.join(f'{c:.2f}' for _, c in got[v])}), "
                  f"wall {wall:6.2f} s{ratio}", flush=True)


def passes(variants: list[str], n: int, edits: int, seed: int = 7) -> None:
    """The analysis pass after an edit, in process (no server, no diagnostics view): the pair's
    targets with their sources (``Unreferenced``: the rules that need no reference), the same
    typing as :func:`run`; p50 / p95 of the pass, per variant."""
    import tomllib

    from bleu_ls.config.settings import Settings
    from bleu_ls.qa.analysis.analyzer import Analyzer
    from bleu_ls.qa.analysis.unreferenced import Unreferenced

    for v in variants:
        path = workspace("pair", v, n)
        hyp = path.read_text(encoding="utf-8").splitlines()
        src = (path.parent / "big.src").read_text(encoding="utf-8").splitlines()
        settings = Settings.from_dict(tomllib.loads(VARIANTS[v]))
        model = Unreferenced({}, hyp)
        names = {"hypothesis": path.name, "path": str(path)}
        a = Analyzer(settings)
        t = time.perf_counter()
        first = len(a.analyse(model, src, names))
        whole = time.perf_counter() - t
        rng = random.Random(seed)
        times = []
        for _ in range(edits):
            at, _col = _edit_line("pair", hyp, rng)
            hyp[at] = TYPED + hyp[at]
            model.splice_hyp(at, at + 1, [hyp[at]])
            t = time.perf_counter()
            a.analyse(model, src, names)
            times.append((time.perf_counter() - t) * 1000)
        print(f"  pass {v:8}: after an edit p50 {pct(times, 0.5):6.2f} ms, p95 {pct(times, 0.95):6.2f} ms; "
              f"the first pass {whole:.2f} s ({first:,} findings)", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=100_000)
    ap.add_argument("edits", nargs="?", type=int, default=100)
    ap.add_argument("--docs", nargs="+", default=["xlf", "pair"], choices=["xlf", "pair"])
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--check", type=int, default=0, metavar="R", help="time `bleu-ls check` instead, R rounds")
    ap.add_argument("--in-process", action="store_true", help="the analysis pass after an edit, in process")
    args = ap.parse_args(argv)
    if args.in_process:
        print(f"the analysis pass after an edit, in process, {args.n:,} lines with their sources, "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
        passes(args.variants, args.n, args.edits)
        return 0
    if args.check:
        print(f"bleu-ls check, {args.n:,} segments, {args.check} rounds in turn, load {os.getloadavg()[0]:.2f}", flush=True)
        checks(args.docs, args.variants, args.n, args.check)
        return 0
    print(f"typing → diagnostics in the server, {args.n:,} segments, {args.edits} edits a run, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    for doc in args.docs:
        for variant in args.variants:
            got = run(doc, variant, args.n, args.edits)
            e = [x * 1000 for x in got["edits"]]
            print(f"  {doc:4} {variant:8}: edit → diagnostics p50 {pct(e, 0.5):6.1f} ms, p95 {pct(e, 0.95):6.1f} ms, "
                  f"max {max(e):6.1f} ms; first pass settled after {got['open']:.1f} s ({got['diagnostics']:,} "
                  f"diagnostics); the typed word flagged on {got['flagged']} of {len(e)} edits; "
                  f"{got['unchanged']} replies unchanged", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
