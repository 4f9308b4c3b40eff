"""Key-value localization files live in the editor, through the real server over stdio: open →
first hints (lines 0–60, beside the do-nothing pygls floor in the same run), open → hints in the
middle of the file (the whole read), then edits each followed by the hints around it, p50 / p95:
a word typed inside a value, an entry pasted between two entries, a line break typed between two
entries; the server's resident memory after the edits and at its peak (``/proc``: VmRSS, VmHWM).

Synthetic files of ``N`` keys, each with its source-language file beside it (the same keys, other
words) where the server's convention finds it, and a reference (the same keys, other words again)
named by a ``[[pairs]]`` rule of the workspace's ``bleu-ls.toml``, so every segment is paired and scored:

* ``json``: an i18next ``locales/de/translation.json`` of namespaces of 1,000 keys each (two levels),
  the source ``locales/en/translation.json``;
* ``android``: ``res/values-de/strings.xml``, the source ``res/values/strings.xml``;
* ``properties``: ``messages_de.properties``, the source ``messages.properties``;
* ``strings``: an Apple ``de.lproj/Localizable.strings``, the source ``en.lproj/Localizable.strings`` (not in
  the default list).

Run: ``python -m benchmarks.keyed_live [N] [EDITS] [FORMATS…]`` (default 100000 40 json android properties);
``python -m benchmarks.keyed_live --in-process [N] [EDITS] [FORMATS…]``: the row's live index alone, in this
process (its whole read, its pairing with the source, and each edit's time).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from .corpus import CACHE
from .run import ROOT, _floor_argv, _range, _server_argv, pct
from .segments_open import open_document
from .segments_xliff import W

#: keys per JSON namespace
NS = 1000


def _words(rng: random.Random) -> str:
    return " ".join(rng.choice(W) for _ in range(8))


def json_file(n: int, seed: int) -> str:
    rng = random.Random(seed)
    out = ["{"]
    for ns in range(0, n, NS):
        out.append(f'  "ns{ns // NS}": {{')
        last = min(n, ns + NS)
        for i in range(ns, last):
            out.append(f'    "key_{i}": "{_words(rng)} {i}"' + ("," if i + 1 < last else ""))
        out.append("  }" + ("," if last < n else ""))
    out.append("}")
    return "\n".join(out) + "\n"


def android_file(n: int, seed: int) -> str:
    rng = random.Random(seed)
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<resources>"]
    out += [f'    <string name="key_{i}">{escape(_words(rng))} {i}</string>' for i in range(n)]
    out.append("</resources>")
    return "\n".join(out) + "\n"


def strings_file(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(f'"key_{i}" = "{_words(rng)} {i}";\n' for i in range(n))


def properties_file(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(f"key_{i} = {_words(rng)} {i}\n" for i in range(n))


#: format -> (maker, target path, source path, the text before a value on its line, a pasted entry)
FORMATS: dict[str, tuple] = {
    "json": (json_file, "locales/de/translation.json", "locales/en/translation.json", '": "',
             lambda k: f'    "pasted_{k}": "pasted words here",'),
    "android": (android_file, "res/values-de/strings.xml", "res/values/strings.xml", '">',
                lambda k: f'    <string name="pasted_{k}">pasted words here</string>'),
    "properties": (properties_file, "messages_de.properties", "messages.properties", " = ",
                   lambda k: f"pasted_{k} = pasted words here"),
    "strings": (strings_file, "de.lproj/Localizable.strings", "en.lproj/Localizable.strings", '" = "',
                lambda k: f'"pasted_{k}" = "pasted words here";'),
}


def workspace(fmt: str, n: int) -> tuple[Path, Path, str]:
    make, target, source = FORMATS[fmt][:3]
    ws = CACHE / f"keyed-live-{fmt}-{n}"
    hyp, src, ref = ws / target, ws / source, ws / "ref" / Path(target).name
    if not hyp.exists() or not src.exists() or not ref.exists():
        for p, seed in ((src, 2), (ref, 3), (hyp, 1)):
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(make(n, seed), encoding="utf-8")
        (ws / "bleu-ls.toml").write_text(f'[[pairs]]\nhypothesis = "{target}"\nreferences = ["ref/{ref.name}"]\n',
                                         encoding="utf-8")
    return ws, hyp, hyp.read_text(encoding="utf-8")


def _entry_line(lines: list[str], at: int) -> int:
    """The first line at or after ``at`` holding one whole entry that another entry follows."""
    while not (lines[at].lstrip().startswith(('"key_', "<string", "key_")) and "key_" in lines[at + 1]):
        at += 1
    return at


def _edit(fmt: str, lines: list[str], rng: random.Random, kind: str, k: int) -> tuple[dict, int]:
    """One edit near the middle of the file (the change and the line to ask hints around); ``lines`` follows it."""
    at = _entry_line(lines, len(lines) // 2 + rng.randrange(min(1000, len(lines) // 4)))
    if kind == "type":
        col = lines[at].index(FORMATS[fmt][3]) + len(FORMATS[fmt][3])
        lines[at] = lines[at][:col] + "word " + lines[at][col:]
        return {"range": {"start": {"line": at, "character": col}, "end": {"line": at, "character": col}},
                "text": "word "}, at
    if kind == "paste":  # a whole entry pasted at the start of the next entry's line
        entry = FORMATS[fmt][4](k)
        lines[at + 1:at + 1] = [entry]
        return {"range": _range(at + 1, at + 1), "text": entry + "\n"}, at + 1
    # a line break typed at the end of an entry's line: a blank line between two entries
    col = len(lines[at])
    lines[at + 1:at + 1] = [""]
    return {"range": {"start": {"line": at, "character": col}, "end": {"line": at, "character": col}},
            "text": "\n"}, at


KINDS = ("type", "paste", "newline")
#: the formats run when none is named
DEFAULT = ["json", "android", "properties"]


def _rss_mb(pid: int) -> tuple[float, float]:
    """The server process's resident memory now and at its peak (VmRSS, VmHWM), in MB."""
    got = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                got[line.split(":")[0]] = int(line.split()[1]) / 1024
    return got.get("VmRSS", 0.0), got.get("VmHWM", 0.0)


def run(argv: list[str], ws: Path, path: Path, text: str, fmt: str = "", edits: int = 0, seed: int = 7) -> dict[str, Any]:
    from .lsp_client import RawClient

    c = RawClient(cwd=ROOT, argv=argv)
    out: dict[str, Any] = {}
    try:
        doc = open_document(c, ws, path, text, out, whole=bool(edits))
        uri = doc["uri"]
        if not edits:
            return out
        rng = random.Random(seed)
        lines = text.split("\n")
        times: dict[str, list[float]] = {k: [] for k in KINDS}
        for k in range(edits):
            kind = KINDS[0] if k % 5 < 3 else KINDS[1 + k % 5 - 3]  # 3 typed, 1 pasted, 1 line break in 5
            change, line = _edit(fmt, lines, rng, kind, k)
            t = c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
            hint = c.answer(c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(line - 30, line + 30)}), timeout=600)
            times[kind].append(hint["_t"] - t)
            if not hint.get("result"):
                out["empty"] = out.get("empty", 0) + 1
        out.update(times)
        out["rss"], out["peak"] = _rss_mb(c.proc.pid)
    finally:
        c.close()
    return out


def rows(n: int, edits: int, formats: list[str]) -> list[str]:
    out = []
    ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} / {pct(xs, 0.95) * 1000:.1f} ms"  # noqa: E731
    for fmt in formats:
        ws, path, text = workspace(fmt, n)
        floor = run(_floor_argv(), ws, path, text)
        ours = run(_server_argv(), ws, path, text, fmt, edits)
        out.append(
            f"| {fmt}, {n:,} keys, {len(text) / 1e6:.1f} MB | {ours['open']:.2f} s ({ours['hints']} hints) | "
            f"{floor['open']:.2f} s | {ours['whole']:.2f} s | {ms(ours['type'])} | {ms(ours['paste'])} | {ms(ours['newline'])} | "
            f"{ours['rss']:.0f} / {ours['peak']:.0f} MB |"
            + (f" {ours['empty']} edits answered with no hint" if ours.get("empty") else "")
        )
        print(out[-1], flush=True)
    return out


HEAD = ("| file | open → first hints (lines 0–60) | pygls floor | open → hints mid-file (whole read) | "
        "word typed in a value → hints p50 / p95 | entry pasted → hints p50 / p95 | line break between entries → hints p50 / p95 | "
        "server RSS after the edits / peak |\n"
        "|---|---|---|---|---|---|---|---|")


def in_process(n: int, edits: int, formats: list[str]) -> list[str]:
    """The row's live index alone, paired with the source as the server pairs it: each edit's time (a word
    typed at a value's start, an entry pasted at the next line's start, a line break at that line's end, near
    the middle of the file), p50 / p95; the whole read and the pairing at the start."""
    from bleu_ls.formats.read import parse
    from bleu_ls.formats.table import row

    out = []
    ms = lambda xs: f"{statistics.median(xs) * 1000:.2f} / {pct(xs, 0.95) * 1000:.2f} ms"  # noqa: E731
    for fmt in formats:
        ws, path, text = workspace(fmt, n)
        name = fmt  # the benchmark names its files by their format
        source_path = ws / FORMATS[fmt][2]
        source = parse(name, b"", source_path.name, text=source_path.read_text(encoding="utf-8"))
        t0 = time.perf_counter()
        idx = row(name).live_index.resolve()(name, text)  # type: ignore[union-attr]
        t1 = time.perf_counter()
        idx.set_source(source, source_path.name)
        t2 = time.perf_counter()
        times: dict[str, list[float]] = {k: [] for k in KINDS}
        marker, entry = FORMATS[fmt][3], FORMATS[fmt][4]
        for k in range(edits):
            buf = idx.buf
            at = buf.find(marker, len(buf) // 2 + k * 997) + len(marker)
            for kind in KINDS:  # typed at the value's start, then the entry pasted after its line, then a line break after that
                if kind == "type":
                    a, new = at, "word "
                elif kind == "paste":
                    a, new = buf.find("\n", at) + 1, entry(k) + "\n"
                else:
                    a, new = buf.find("\n", buf.find("\n", at) + 1), "\n"
                s = time.perf_counter()
                idx.edit(a, a, new)
                times[kind].append(time.perf_counter() - s)
        out.append(f"| {fmt}, {n:,} keys | {t1 - t0:.2f} s | {t2 - t1:.2f} s | {ms(times['type'])} | {ms(times['paste'])} | "
                   f"{ms(times['newline'])} |")
        print(out[-1], flush=True)
    return out


IN_PROCESS_HEAD = ("| file | index read | paired with the source | word typed p50 / p95 | entry pasted p50 / p95 | "
                   "line break p50 / p95 |\n|---|---|---|---|---|---|")


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--in-process":
        argv = argv[1:]
        print(IN_PROCESS_HEAD, flush=True)
        in_process(int(argv[0]) if argv else 100_000, int(argv[1]) if len(argv) > 1 else 30, argv[2:] or DEFAULT)
        return 0
    n = int(argv[0]) if argv else 100_000
    edits = int(argv[1]) if len(argv) > 1 else 40
    formats = argv[2:] or DEFAULT
    print(HEAD, flush=True)
    rows(n, edits, formats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
