"""Terminology in the real server: a glossary set in bleu-ls.toml, a real catalogue (and a
line file with its source) opened, a forbidden term typed, the diagnostic on the term's
characters as ``check`` of the edited text says, the hover listing the glossary entries, the
quick fix writing the preferred term (applied here: the finding goes, nothing else changes),
completion offering the target terms, the glossary saved on disk and "Add to Glossary"."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from pathlib import Path

from lsprotocol import types

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session, apply_edits as apply

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-11-03.po"
TERM_CODES = {"term-missing", "term-forbidden", "do-not-translate"}
#: the codes whose findings through the real server are this module's (a glossary is needed)
CODES_HERE = tuple(sorted(TERM_CODES))
GLOSSARY = "en,de,status,note\npassword,Passwort,,the product's word\npassword,Kennwort,forbidden,\nGitHub,,do-not-translate,\n"


def checked(path: Path, root: Path) -> set:
    """(0-based line, column, code) of the term findings of ``check PATH`` with the workspace's settings."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return {(d["line"] - 1, d["column"] - 1, d["code"]) for d in pair["diagnostics"] if d["code"] in TERM_CODES}


async def terms_seen(s, uri: str, want: set, timeout: float = 60.0) -> tuple[set, list]:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        diags = list(diags or [])
        got = {(d.range.start.line, d.range.start.character, d.code) for d in diags if d.code in TERM_CODES}
        if got == want or time.monotonic() > deadline:
            return got, diags
        await asyncio.sleep(0.2)



def _workspace(root: Path) -> None:
    (root / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    (root / "bleu-ls.toml").write_text('[terms]\nfiles = ["glossary.csv"]\n', encoding="utf-8")


async def test_a_forbidden_term_typed_in_a_catalogue_is_flagged_explained_and_fixed(tmp_path):
    _workspace(tmp_path)
    s = await _session("vscode", tmp_path)
    try:
        text = PO.read_text(encoding="utf-8")
        lines = text.split("\n")
        k = lines.index('msgstr "Passwort"')  # msgid "Password"
        uri = s.open("django.po", text)
        path = s.write("django.po", text)
        before = checked(path, tmp_path)
        assert not any(c == "term-forbidden" for _l, _c, c in before)
        await terms_seen(s, uri, before)
        # the translator types the forbidden word
        s.change(uri, [{"range": ((k, 8), (k, 16)), "text": "Kennwort"}])
        edited = text.replace('msgstr "Passwort"\n', 'msgstr "Kennwort"\n', 1)
        path = s.write("django.po", edited)
        want = checked(path, tmp_path)
        assert (k, 8, "term-forbidden") in want  # on the word itself
        got, diags = await terms_seen(s, uri, want)
        assert got == want
        [d] = [d for d in diags if d.code == "term-forbidden"]
        assert (d.range.start.line, d.range.start.character, d.range.end.character) == (k, 8, 16)
        assert "Passwort" in d.message
        # the hover lists the entry, its statuses and its note
        hover = await s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=k, character=10)))
        value = hover.contents.value
        assert "**Glossary:**" in value and "**Passwort** (preferred)" in value and "~~Kennwort~~ (forbidden)" in value
        assert "the product's word" in value
        # the quick fix puts the preferred term in place, at the document's version
        actions = await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=k, character=9), end=types.Position(line=k, character=9)),
            context=types.CodeActionContext(diagnostics=[d])))
        fixes = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.edit is not None
                 and a.title.startswith("Replace with")]
        assert [a.title for a in fixes] == ["Replace with “Passwort” (glossary)"]
        [change] = fixes[0].edit.document_changes
        assert change.text_document.version == s.versions[uri]
        fixed = apply(edited, change.edits)
        assert fixed == text  # the term put back, nothing else changed
        s.change(uri, [{"range": ((e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character)),
                        "text": e.new_text} for e in change.edits])
        got, _ = await terms_seen(s, uri, before)
        assert got == before
        # completion in the segment offers its target terms
        done = await s.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=k, character=9)))
        labels = [i.label for i in (done.items if isinstance(done, types.CompletionList) else done or [])]
        assert labels == ["Passwort"]
    finally:
        await _close(s)


async def test_a_line_file_with_its_source_and_a_saved_glossary(tmp_path):
    """A line file (with its reference and source): the forbidden term flagged and fixed as a line's columns; the glossary
    saved on disk with a new entry: the open file's findings follow; "Add to Glossary"
    appends a row in the file's column order (the csv module reads it back)."""
    _workspace(tmp_path)
    (tmp_path / "ui.src").write_text("Enter your password.\nLog in with GitHub\nOpen the folder\n", encoding="utf-8")
    (tmp_path / "ui.ref").write_text("Geben Sie Ihr Passwort ein.\nMit GitHub anmelden\nÖffnen Sie den Ordner\n", encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        hyp = "Geben Sie Ihr Kennwort ein.\nMit Github anmelden\nÖffnen Sie das Verzeichnis\n"
        s.write("ui.hyp", hyp)
        uri = s.open("ui.hyp", hyp)
        want = {(0, 14, "term-forbidden"), (1, 4, "do-not-translate")}
        got, diags = await terms_seen(s, uri, want)
        assert got == want
        d = next(d for d in diags if d.code == "do-not-translate")
        actions = await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
            context=types.CodeActionContext(diagnostics=[d])))
        fix = next(a for a in actions or [] if isinstance(a, types.CodeAction) and a.edit is not None)
        assert fix.title == "Replace with “GitHub” (glossary)"
        assert apply(hyp, fix.edit.changes[uri]) == hyp.replace("Github", "GitHub")
        # a new entry saved in the glossary: "folder" → "Ordner" (the line has "Verzeichnis")
        g = tmp_path / "glossary.csv"
        g.write_text(GLOSSARY + "folder,Ordner,,\n", encoding="utf-8")
        s.notify_disk(g)
        got, _ = await terms_seen(s, uri, want | {(2, 0, "term-missing")})
        assert (2, 0, "term-missing") in got
        # Add to Glossary: a row appended, nothing else of the file touched
        said = await s.command("bleuLs.addToGlossary", "directory", "Verzeichnis")
        assert said["message"] == "Added “directory” → “Verzeichnis” to glossary.csv."
        rows = list(csv.reader(io.StringIO(g.read_text(encoding="utf-8"))))
        assert rows[-1] == ["directory", "Verzeichnis", "", ""] and len(rows) == 6
        assert g.read_text(encoding="utf-8").startswith(GLOSSARY + "folder,Ordner,,\n")
    finally:
        await _close(s)
