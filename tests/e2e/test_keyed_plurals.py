"""Plural groups of a key-value file through the real server: a real Russian Android strings.xml whose
three ``<plurals>`` lack CLDR's ``many`` (its English source beside it) gets one ``plural-categories``
per group on the group's first item, as ``bleu-ls check`` says; an item typed in clears its group's, in
step with the edit."""

from __future__ import annotations

import asyncio
import io
import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

RES = Path(__file__).resolve().parents[1] / "data" / "formats" / "android" / "updater-2018" / "res"


def checked(path: Path) -> set:
    """(0-based line, code, message) of ``check PATH``'s ``plural-categories``."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--no-config"], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return {(d["line"] - 1, d["code"], d["message"]) for d in pair["diagnostics"] if d["code"] == "plural-categories"}


async def settled(s, uri: str, want: set, timeout: float = 120.0) -> set:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.code, d.message) for d in diags or [] if d.code == "plural-categories"}
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.3)


async def test_russian_plurals_without_many_in_the_editor(tmp_path):
    s = await _session("vscode", tmp_path)
    try:
        s.write("res/values/strings.xml", (RES / "values" / "strings.xml").read_text(encoding="utf-8"))
        text = (RES / "values-ru" / "strings.xml").read_text(encoding="utf-8")
        path = s.write("res/values-ru/strings.xml", text)
        groups = [p.get("name") for p in ET.fromstring(text.encode("utf-8")).iter("plurals")]
        lines = text.split("\n")
        firsts = []
        for name in groups:
            at = next(i for i, ln in enumerate(lines) if f'<plurals name="{name}"' in ln)
            firsts.append(next(i for i in range(at + 1, len(lines)) if "<item" in lines[i]))
        msg = "Plural forms for “ru”: missing many (CLDR)."
        want = {(ln, "plural-categories", msg) for ln in firsts}
        assert checked(path) == want and len(want) == 3
        uri = s.open("res/values-ru/strings.xml", text)
        assert await settled(s, uri, want) == want

        # the first group's many item typed in: its finding goes, the others stay
        other = next(i for i in range(firsts[0], len(lines)) if 'quantity="other"' in lines[i])
        indent = lines[other][: len(lines[other]) - len(lines[other].lstrip())]
        item = f'{indent}<item quantity="many"><xliff:g id="count">%d</xliff:g> секунд</item>\n'
        s.change(uri, [{"range": ((other, 0), (other, 0)), "text": item}])
        edited = "\n".join(lines[:other]) + "\n" + item + "\n".join(lines[other:])
        after = checked(s.write("res/values-ru/strings.xml", edited))
        assert after == {(ln + 1, "plural-categories", msg) for ln in firsts[1:]}
        assert await settled(s, uri, after) == after
    finally:
        await _close(s)
