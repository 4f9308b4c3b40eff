"""``length-limit`` through the real server: a real Business Central XLIFF file opened, a target typed
past its unit's ``maxwidth``, the diagnostic on that target
saying the length and the limit, as ``bleu-ls check`` of the edited text says; shortened, it goes.
And ``maxRatio`` on a line file with its source: off by default, on from bleu-ls.toml."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

XLF = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff" / "nab-al-tools.sv-SE.maxwidth.xlf"
#: the unit of the real file with maxwidth="23" (size-unit="char") and its target
UNIT = 'id="Table 596208023 - Property 2879900210" maxwidth="23"'
TARGET = "Table"


def checked(path: Path, root: Path, code: str = "length-limit") -> set:
    """(0-based line, column, message) of the ``code`` findings of ``check PATH`` with the workspace's settings."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml"), "--fail-on", "never"],
                    out=out, err=err)
    assert rc == 0, err.getvalue()
    return {(d["line"] - 1, d["column"] - 1, d["message"]) for p in json.loads(out.getvalue())["pairs"]
            for d in p["diagnostics"] if d["code"] == code}


async def seen(s, uri: str, want: set, timeout: float = 30.0) -> set:
    """The server's ``length-limit`` diagnostics once they are ``want`` (or the timeout's)."""
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.range.start.character, d.message) for d in diags or [] if d.code == "length-limit"}
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.2)


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


async def test_typing_past_a_maxwidth_flags_the_target_and_shortening_clears_it(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text("", encoding="utf-8")
    text = XLF.read_text(encoding="utf-8")
    at = text.index(f"<target>{TARGET}</target>", text.index(UNIT)) + len("<target>")
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("app.sv-SE.xlf", text)
        s.write("app.sv-SE.xlf", text)
        assert checked(tmp_path / "app.sv-SE.xlf", tmp_path) == set()  # the file keeps within its limits
        assert await seen(s, uri, set()) == set()
        # 5 characters; typed at its end: 5 + 19 = 24 > 23
        end = at + len(TARGET)
        line, col = line_col(text, end)
        s.change(uri, [{"range": ((line, col), (line, col)), "text": "übersicht der Daten"}])
        typed = text[:end] + "übersicht der Daten" + text[end:]
        s.write("app.sv-SE.xlf", typed)
        want = checked(tmp_path / "app.sv-SE.xlf", tmp_path)
        tl, tc = line_col(typed, at)
        assert want == {(tl, tc, "The target is 24 characters, the limit is 23 (maxwidth).")}
        assert await seen(s, uri, want) == want
        # shortened to 23: at the limit is within it
        s.change(uri, [{"range": ((line, col + 18), (line, col + 19)), "text": ""}])
        short = text[:end] + "übersicht der Date" + text[end:]
        s.write("app.sv-SE.xlf", short)
        assert checked(tmp_path / "app.sv-SE.xlf", tmp_path) == set()
        assert await seen(s, uri, set()) == set()
    finally:
        await _close(s)


async def test_max_ratio_on_a_line_file_with_its_source(tmp_path):
    src = "Save\nOpen the file\nCancel\n"
    hyp = "Speichern\nDie Datei öffnen\nAbbrechen des aktuellen Vorgangs\n"
    (tmp_path / "ui.src").write_text(src, encoding="utf-8")
    (tmp_path / "ui.ref").write_text("Speichern\nDatei öffnen\nAbbrechen\n", encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("ui.hyp", hyp)
        diags, _, _ = await s.diagnostics(uri)
        assert not [d for d in diags or [] if d.code == "length-limit"]  # off by default
    finally:
        await _close(s)
    (tmp_path / "bleu-ls.toml").write_text("[diagnostics.length-limit]\nmaxRatio = 1.5\n", encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("ui.hyp", hyp)
        # "Cancel" (6, counted as 10) → 32 characters > 15; "Speichern" (9) fits 15, the second 16 ≤ 1.5 × 13
        want = {(2, 0, "The target is 32 characters, the limit is 15 (maxRatio 1.5 × the source's 6 (counted as 10)).")}
        assert await seen(s, uri, want) == want
        s.change(uri, [{"range": ((2, 0), (2, 32)), "text": "Abbrechen"}])
        assert await seen(s, uri, set()) == set()
    finally:
        await _close(s)
