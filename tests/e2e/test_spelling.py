"""The spelling check in the real server: switched on in bleu-ls.toml, a line file and a PO
catalogue opened, the unknown word flagged at its columns, "Add … to the dictionary" offered as a
code action whose command writes the word into ``.bleu-ls/words.txt`` (the only write; nothing
is written before the user picks it), and the finding gone at once."""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import time

import pytest
from lsprotocol import types

from .conftest import _close, _session

pytestmark = pytest.mark.skipif(importlib.util.find_spec("spellchecker") is None,
                                reason="pyspellchecker (the spelling extra) is not installed")

#: the codes whose findings through the real server are this module's (the check is off by default)
CODES_HERE = ("spelling",)
TOML = '[diagnostics.spelling]\nenabled = true\nlanguage = "en"\n\n[diagnostics.adequacy]\nenabled = false\n'


async def spelled(s, uri: str, want: set, timeout: float = 60.0) -> tuple[set, list]:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        diags = list(diags or [])
        got = {(d.range.start.line, d.range.start.character, d.range.end.character, d.code)
               for d in diags if d.code == "spelling"}
        if got == want or time.monotonic() > deadline:
            return got, diags
        await asyncio.sleep(0.2)


def _command(a) -> tuple:
    """(title, command, arguments) of a code action carrying a command (the client may read a
    CodeAction with a command as a Command whose ``command`` is the JSON object)."""
    c = a.command
    if isinstance(c, str) and c.startswith("{"):  # (read as a Command: its command the object's text)
        c = ast.literal_eval(c)
    if isinstance(c, dict):
        return c["title"], c["command"], c.get("arguments") or []
    if isinstance(c, types.Command):
        return c.title, c.command, c.arguments or []
    return a.title, c, a.arguments or []


async def actions_at(s, uri: str, d: types.Diagnostic) -> list:
    """The "Add to dictionary" actions offered on ``d``: (title, command, arguments)."""
    got = await s.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
        context=types.CodeActionContext(diagnostics=[d])))
    return [c for c in map(_command, got or []) if c[1] == "bleuLs.addToDictionary"]


async def test_add_to_dictionary_writes_the_word_list_and_the_finding_goes(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    (tmp_path / "ui.src").write_text("Öffnen Sie den Ordner.\nStarten Sie kubelet neu.\n", encoding="utf-8")
    (tmp_path / "ui.ref").write_text("Open the folder.\nRestart kubelet.\n", encoding="utf-8")
    words = tmp_path / ".bleu-ls" / "words.txt"
    s = await _session("vscode", tmp_path)
    try:
        hyp = "Open the foldr.\nRestart kubelet and the frobnicator.\n"
        s.write("ui.hyp", hyp)
        uri = s.open("ui.hyp", hyp)
        # "kubelet" is a word of the source line: not flagged
        want = {(0, 9, 14, "spelling"), (1, 24, 35, "spelling")}
        got, diags = await spelled(s, uri, want)
        assert got == want
        d = next(d for d in diags if d.code == "spelling" and d.range.start.line == 1)
        assert d.message == "“frobnicator” is not in the en dictionary (nor in your word list)."
        [(title, command, arguments)] = await actions_at(s, uri, d)
        assert title == "Add “frobnicator” to the dictionary" and arguments == [uri, "frobnicator"]
        assert not words.exists()  # offered, not written
        said = await s.command(command, *arguments)
        assert said["message"] == "Added “frobnicator” to .bleu-ls/words.txt."
        assert words.read_text(encoding="utf-8") == "frobnicator\n"
        got, _ = await spelled(s, uri, {(0, 9, 14, "spelling")})
        assert got == {(0, 9, 14, "spelling")}
        # the word list edited on disk by the user: read again
        words.write_text("frobnicator\nfoldr\n", encoding="utf-8")
        s.notify_disk(words)
        got, _ = await spelled(s, uri, set())
        assert got == set()
    finally:
        await _close(s)


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: en\\n"

msgid "Ordner öffnen"
msgstr "Open the foldr"

msgid "Datei speichern"
msgstr "Save the file"
"""


async def test_a_catalogue_gets_the_action_too(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text('[diagnostics.spelling]\nenabled = true\n', encoding="utf-8")
    words = tmp_path / ".bleu-ls" / "words.txt"
    s = await _session("vscode", tmp_path)
    try:
        s.write("app.po", PO)
        uri = s.open("app.po", PO)
        k = PO.split("\n").index('msgstr "Open the foldr"')
        got, diags = await spelled(s, uri, {(k, 17, 22, "spelling")})
        assert got == {(k, 17, 22, "spelling")}
        [d] = [d for d in diags if d.code == "spelling"]
        [(title, command, arguments)] = await actions_at(s, uri, d)
        assert title == "Add “foldr” to the dictionary"
        said = await s.command(command, *arguments)
        assert said["message"] == "Added “foldr” to .bleu-ls/words.txt."
        assert words.read_text(encoding="utf-8") == "foldr\n"
        got, _ = await spelled(s, uri, set())
        assert got == set()
    finally:
        await _close(s)
