"""Localization JSON through the real server: a real i18next file opened with its source-language
file beside it (locales/en beside locales/de): the server's diagnostics are ``bleu-ls check``'s,
after edits too (a key removed, a placeholder typed, a half-typed string); with a reference (a
[[pairs]] rule naming the file at an earlier commit) each scored value gets its hint, at the end of
its value, and its score is sacrebleu's."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import sacrebleu

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "json"
EN = DATA / "excalidraw" / "locales" / "en.json"
DE = DATA / "excalidraw" / "locales" / "de-DE.json"
DE_OLD = DATA / "excalidraw-2026-07-07" / "locales" / "de-DE.json"


def checked(path: Path, root: Path) -> set:
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    found = set()
    for pair in json.loads(out.getvalue())["pairs"]:
        found |= {(d["line"] - 1, d["column"] - 1, d["code"]) for d in pair["diagnostics"] if d["code"] != "unpaired"}
    return found


async def seen(s, uri: str, want: set, timeout: float = 120.0) -> set:
    """The server's diagnostics once they equal ``want`` (or at the deadline).  The adequacy
    values come from the encoder's worker after the other checks: on a loaded machine well
    after 30 s of the first open, hence the long deadline (met at once when all is well)."""
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.range.start.character, d.code) for d in diags or []}
        if got == want or time.monotonic() > deadline:
            return got
        import asyncio

        await asyncio.sleep(0.2)


async def test_diagnostics_are_checks_with_the_source_beside_it(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text("", encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        s.write("locales/en/app.json", EN.read_text(encoding="utf-8"))
        text = DE.read_text(encoding="utf-8")
        path = s.write("locales/de/app.json", text)
        uri = s.open("locales/de/app.json", text)
        want = checked(path, tmp_path)
        assert {c for *_, c in want} >= {"target-empty", "untranslated"}
        assert await seen(s, uri, want) == want

        # a key removed, a placeholder the source does not have: the server says what check says
        lines = text.split("\n")
        k = next(i for i, ln in enumerate(lines) if ln.strip().startswith('"moveCanvas"'))
        p = next(i for i, ln in enumerate(lines) if '"{{shortcut}}' in ln or "{{" in ln)
        edited = lines[:k] + lines[k + 1:]
        p2 = p if p < k else p - 1
        edited[p2] = edited[p2].replace("{{", "{{extra}} {{", 1)
        new = "\n".join(edited)
        s.change(uri, [{"text": new}])
        path = s.write("locales/de/app.json", new)
        want2 = checked(path, tmp_path)
        assert any(c == "key-missing" for *_, c in want2) and any(c == "placeholders-extra" for *_, c in want2)
        assert await seen(s, uri, want2) == want2

        # a half-typed string: one error at its place, the findings above it stay
        cut = new.index('"moveCanvas"') if '"moveCanvas"' in new else len(new) // 2
        half = new[:cut] + '"typed": "Hal\n' + new[cut:]
        s.change(uri, [{"text": half}])
        deadline = time.monotonic() + 30
        while True:
            diags, _, _ = await s.diagnostics(uri)
            malformed = [d for d in diags or [] if d.code == "malformed"]
            if malformed or time.monotonic() > deadline:
                break
        assert len(malformed) == 1
        assert malformed[0].range.start.line == half[:half.index('"typed"')].count("\n")
        assert any(d.code == "target-empty" for d in diags)
    finally:
        await _close(s)


async def test_hints_against_a_reference_are_sacrebleu_by_key(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(
        '[[pairs]]\nhypothesis = "locales/de/*.json"\nreferences = ["old/{1}.json"]\n', encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        s.write("locales/en/app.json", EN.read_text(encoding="utf-8"))
        s.write("old/app.json", DE_OLD.read_text(encoding="utf-8"))
        text = DE.read_text(encoding="utf-8")
        s.write("locales/de/app.json", text)
        uri = s.open("locales/de/app.json", text)
        deadline = time.monotonic() + 30
        while True:
            hints = await s.hints(uri)
            if hints or time.monotonic() > deadline:
                break
        new, old = json.loads(text), json.loads(DE_OLD.read_text(encoding="utf-8"))
        flat = lambda d, p="": {f"{p}{k}": v for k, v in d.items() if isinstance(v, str)} | {  # noqa: E731
            kk: vv for k, v in d.items() if isinstance(v, dict) for kk, vv in flat(v, f"{p}{k}.").items()}
        h, r = flat(new), flat(old)
        scored = [k for k, v in h.items() if k in r and v and r[k]]
        assert len(hints) == len(scored) > 400
        lines = text.split("\n")
        for hint in hints:  # each after its value's closing quote
            line = lines[hint.position.line]
            assert line[hint.position.character - 1] == '"', line
        # the first hint's BLEU is sacrebleu's on that key's values
        first = scored[0]
        label = hints[0].label if isinstance(hints[0].label, str) else "".join(p.value for p in hints[0].label)
        want = sacrebleu.sentence_bleu(h[first], [r[first]]).score
        assert f"{want:.1f}" in label or f"{round(want)}" in label, (label, want)
    finally:
        await _close(s)


async def _hover(s, uri: str, line: int, character: int) -> str:
    from lsprotocol import types

    h = await s.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    return h.contents.value if h is not None else ""


async def test_the_hover_says_why_a_value_has_no_source(tmp_path):
    """The editor's workspace is the German folder only (Eglot outside a project: the file's
    folder): the source-language file beside it is outside the workspace, which the server does
    not read; the hover says so, as it says why a file is not scored. With no English file at
    all, it says none was found. Inside a workspace that holds both, the source shows."""
    (tmp_path / "locales" / "en").mkdir(parents=True)
    de_dir = tmp_path / "locales" / "de"
    de_dir.mkdir()
    (tmp_path / "locales" / "en" / "app.json").write_text(EN.read_text(encoding="utf-8"), encoding="utf-8")
    text = DE.read_text(encoding="utf-8")
    (de_dir / "app.json").write_text(text, encoding="utf-8")
    k = text.split("\n").index(next(ln for ln in text.split("\n") if ln.strip().startswith('"moveCanvas"')))
    col = text.split("\n")[k].index(": ") + 3
    s = await _session("vscode", de_dir)
    try:
        uri = s.open("app.json", text)
        got = await _hover(s, uri, k, col)
        assert "_No source: the source-language file " in got and "is outside the workspace" in got, got
        assert "**Source:**" not in got
    finally:
        await _close(s)
    (tmp_path / "locales" / "en" / "app.json").unlink()
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("locales/de/app.json", text)
        got = await _hover(s, uri, k, col)
        assert "_No source: no source-language file found for this file" in got, got
    finally:
        await _close(s)
    (tmp_path / "locales" / "en" / "app.json").write_text(EN.read_text(encoding="utf-8"), encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("locales/de/app.json", text)
        got = await _hover(s, uri, k, col)
        english = [v["moveCanvas"] for v in json.loads(EN.read_text(encoding="utf-8")).values()
                   if isinstance(v, dict) and "moveCanvas" in v]
        assert len(english) == 1 and f"**Source:** {english[0]}" in got and "No source" not in got, got
    finally:
        await _close(s)
