"""A segment file with no reference, in the real server: the editor lists
what ``bleu-ls check FILE`` lists for the same text (the format checks and the
rule table's checks against the file's own sources, adequacy included: its
values come from the worker process later), but ``unpaired``, which the
editor does not put on line 1 of every catalogue opened without a reference.
An edit changes them as ``check`` of the edited text says."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest
from lsprotocol import types

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"
REAL = sorted(p for p in FORMATS.glob("*/*.*") if p.suffix != ".md")


def checked(path: Path) -> set:
    """(0-based line, code) of ``check PATH`` (no reference beside it), less ``unpaired``."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--no-config"], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    assert pair["paired"] is False
    return {(d["line"] - 1, d["code"]) for d in pair["diagnostics"] if d["code"] != "unpaired"}


async def settled(s, uri: str, want: set, timeout: float = 120.0) -> set:
    """The pulled (or pushed) diagnostics once they equal ``want``, or the last ones."""
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.code) for d in diags or []}
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.3)


@pytest.mark.parametrize("kind", ["vscode", "push"])
async def test_every_real_file_alone_lists_what_check_lists(kind, tmp_path):
    s = await _session(kind, tmp_path)
    try:
        opened = []
        for k, src in enumerate(REAL):
            if kind == "push" and src.name != "allauth-de-2023-10-07.po":
                continue  # one file for the client that is pushed to
            name = f"f{k}{src.suffix}"
            text = src.read_text(encoding="utf-8-sig")  # (an editor shows the text without its BOM)
            path = s.write(name, text)
            opened.append((src.name, s.open(name, text), checked(path)))
        for label, uri, want in opened:
            got = await settled(s, uri, want)
            assert got == want, (label, sorted(want - got)[:8], sorted(got - want)[:8])
        assert any(want for _l, _u, want in opened)
    finally:
        await _close(s)


async def test_an_edit_in_a_lone_catalogue_changes_its_findings_as_check_says(tmp_path):
    """A translation typed back to its source (``untranslated``, and no
    ``target-same-as-source`` beside it) and a number changed in another one
    (``number-mismatch``): the editor's list after the pause equals ``check``
    of the edited text."""
    s = await _session("vscode", tmp_path)
    try:
        text = (FORMATS / "po" / "allauth-de-2023-10-07.po").read_text(encoding="utf-8")
        lines = text.split("\n")
        uri = s.open("django.po", text)
        path = s.write("django.po", text)
        await settled(s, uri, checked(path))
        # msgid "Invalid profile data" / msgstr "Ungültige Profildaten": the target typed as the source
        at = lines.index('msgstr "Ungültige Profildaten"')
        assert lines[at - 1] == 'msgid "Invalid profile data"'
        s.change(uri, [{"range": ((at, 8), (at, len(lines[at]) - 1)), "text": "Invalid profile data"}])
        lines[at] = 'msgstr "Invalid profile data"'
        path = s.write("django.po", "\n".join(lines))
        want = checked(path)
        assert (at, "untranslated") in want and (at, "target-same-as-source") not in want
        got = await settled(s, uri, want, timeout=60)
        assert got == want, (sorted(want - got), sorted(got - want))
        # the hover of the entry says it too
        hover = await s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=at, character=10)))
        text = hover.contents.value if hover is not None else ""
        assert "`untranslated`" in text and "target-same-as-source" not in text, text
    finally:
        await _close(s)
