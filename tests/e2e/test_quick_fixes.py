"""Quick fixes that edit the open document, through the real server, on a real PO catalogue, a
real XLIFF file and a line file with its source and reference.  For each fix: a defect typed,
the server's diagnostics equal to ``bleu-ls check`` of the edited text, the fix asked for at the
finding and applied here, sent back as didChange; then ``check`` of the fixed text has exactly
that finding less, the server says the same, and the text changed only in the fixed span (here:
it is the text before the defect, or the one expected).  ``source.fixAll``: one edit for several
defects, checked the same way."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path
from typing import Optional

from lsprotocol import types

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session, apply_edits as apply

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
PO = DATA / "po" / "allauth-de-2023-11-03.po"
XLF = DATA / "xliff" / "files.de-DE.codes.xlf"
#: end punctuation is off by default: switched on here
TOML = "[diagnostics.end_punctuation]\nenabled = true\n"


def checked(path: Path, root: Path) -> set:
    """(0-based line, column, code) of every finding of ``check PATH`` with the workspace's settings."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    found = set()
    for pair in json.loads(out.getvalue())["pairs"]:
        # (``unpaired``: the command's word that the file has no reference; the editor's is its hint)
        found |= {(d["line"] - 1, d["column"] - 1, d["code"]) for d in pair["diagnostics"] if d["code"] != "unpaired"}
    return found


async def seen(s, uri: str, want: set, timeout: float = 30.0) -> tuple[set, list]:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        diags = list(diags or [])
        got = {(d.range.start.line, d.range.start.character, d.code) for d in diags}
        if got == want or time.monotonic() > deadline:
            return got, diags
        await asyncio.sleep(0.2)



def edits_of(s, uri: str, action: types.CodeAction) -> list[types.TextEdit]:
    """The action's edits of the open document (a versioned edit at its version, or a change of the URI)."""
    edit = action.edit
    assert edit is not None
    if edit.document_changes:
        [change] = edit.document_changes
        assert change.text_document.uri == uri and change.text_document.version == s.versions[uri]
        return list(change.edits)
    return list((edit.changes or {})[uri])


async def actions(s, uri: str, rng: types.Range, diags: list, only: Optional[list] = None) -> list[types.CodeAction]:
    got = await s.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=diags, only=only)))
    return [a for a in got or [] if isinstance(a, types.CodeAction)]


class Buffer:
    """One open document, its text on disk beside it for ``check``."""

    def __init__(self, s, root: Path, name: str, text: str) -> None:
        self.s, self.root, self.name, self.text = s, root, name, text
        self.path = s.write(name, text)
        self.uri = s.open(name, text)

    async def replace(self, text: str) -> set:
        """The whole text replaced (as typed): ``check`` of it, and the server agreeing."""
        self.s.change(self.uri, [{"text": text}])
        return await self._agree(text)

    async def _agree(self, text: str) -> set:
        self.text = text
        self.path = self.s.write(self.name, text)
        want = checked(self.path, self.root)
        got, self.diags = await seen(self.s, self.uri, want)
        assert got == want
        return want

    async def fix(self, code: str, line: int, title: str) -> tuple[str, set, set]:
        """The fix titled ``title`` of the ``code`` finding on ``line``, applied and sent: (the
        fixed text, the findings before, after)."""
        before = {x for x in await self._agree(self.text)}
        [d] = [d for d in self.diags if d.code == code and d.range.start.line == line]
        offered = await actions(self.s, self.uri, d.range, [d])
        titles = [a.title for a in offered if a.edit is not None]
        chosen = [a for a in offered if a.title == title and a.edit is not None]
        assert chosen, titles
        edits = edits_of(self.s, self.uri, chosen[0])
        fixed = apply(self.text, edits)
        self.s.change(self.uri, [{"range": ((e.range.start.line, e.range.start.character),
                                            (e.range.end.line, e.range.end.character)), "text": e.new_text}
                                 for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                                                 reverse=True)])
        after = await self._agree(fixed)
        return fixed, before, after

    async def fix_all(self) -> tuple[str, list[str]]:
        await self._agree(self.text)
        n = self.text.count("\n")
        whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=n + 1, character=0))
        offered = await actions(self.s, self.uri, whole, [], only=[types.CodeActionKind.SourceFixAll])
        assert [a.kind for a in offered] == [types.CodeActionKind.SourceFixAll]
        edits = edits_of(self.s, self.uri, offered[0])
        fixed = apply(self.text, edits)
        self.s.change(self.uri, [{"range": ((e.range.start.line, e.range.start.character),
                                            (e.range.end.line, e.range.end.character)), "text": e.new_text}
                                 for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                                                 reverse=True)])
        await self._agree(fixed)
        return fixed, [offered[0].title]


def one_less(before: set, after: set, code: str, line: int) -> None:
    """``after`` is ``before`` with the one ``code`` finding of ``line`` left out."""
    gone = before - after
    assert len(gone) == 1 and next(iter(gone))[::2] == (line, code), (gone, after - before)
    assert after < before


async def test_fixes_in_a_po_catalogue(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        text = PO.read_text(encoding="utf-8")
        lines = text.split("\n")
        k = lines.index('msgstr "Konto existiert bereits"')  # msgid "Account Already Exists"
        p = lines.index('msgstr "Du kannst nicht mehr als %d E-Mail-Adressen hinzufügen."')
        buf = Buffer(s, tmp_path, "django.po", text)
        original = await buf._agree(text)

        cases = [
            ('"Konto existiert bereits "', k, "whitespace-trailing", "End with the source's white space"),
            ('" Konto existiert bereits"', k, "whitespace-leading", "Start with the source's white space"),
            ('"Konto  existiert   bereits"', k, "double-space", "Remove the double spaces"),
            ('"Konto existiert existiert bereits"', k, "doubled-word", "Remove the doubled “existiert”"),
        ]
        for typed, line, code, title in cases:
            edited = text.replace('msgstr "Konto existiert bereits"', "msgstr " + typed, 1)
            assert (line, code) in {(x[0], x[2]) for x in await buf.replace(edited)}
            fixed, before, after = await buf.fix(code, line, title)
            assert fixed == text  # only the typed defect undone
            one_less(before, after, code, line)
            assert after == original

        # end punctuation set as in the source
        edited = text.replace("E-Mail-Adressen hinzufügen.\"", "E-Mail-Adressen hinzufügen\"", 1)
        await buf.replace(edited)
        fixed, before, after = await buf.fix("end-punctuation", p, "End with “.” as the source does")
        assert fixed == text
        one_less(before, after, "end-punctuation", p)

        # a lost placeholder: neither of its neighbours in the source is in the target: at the end
        edited = text.replace("mehr als %d E-Mail", "mehr als E-Mail", 1)
        await buf.replace(edited)
        fixed, before, after = await buf.fix("placeholders-missing", p, "Insert %d as in the source")
        assert fixed == edited.replace("hinzufügen.\"", "hinzufügen %d.\"", 1)
        one_less(before, after, "placeholders-missing", p)

        # several defects: one source.fixAll edit undoes them all
        edited = (text.replace('msgstr "Konto existiert bereits"', 'msgstr "Konto  existiert bereits "', 1)
                  .replace("E-Mail-Adressen hinzufügen.\"", "E-Mail-Adressen hinzufügen\"", 1))
        assert {(x[0], x[2]) for x in await buf.replace(edited)} >= {
            (k, "double-space"), (k, "whitespace-trailing"), (p, "end-punctuation")}
        # (the catalogue has one fixable finding of its own: msgid "Menu:", msgstr "Menü")
        menu = lines.index('msgstr "Menü"')
        assert (menu, 8, "end-punctuation") in original
        fixed, titles = await buf.fix_all()
        assert titles == ["Fix all bleu-ls findings that have a fix (4)"]
        assert fixed == text.replace('msgstr "Menü"\n', 'msgstr "Menü:"\n', 1)
        assert await buf._agree(fixed) == original - {(menu, 8, "end-punctuation")}
    finally:
        await _close(s)


async def test_fixes_in_an_xliff_file(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        text = XLF.read_text(encoding="utf-8")
        lines = text.split("\n")
        at = {t: next(i for i, x in enumerate(lines) if t in x) for t in (
            ">{0} frei von {1}<", ">Öffnen mit<", ">Eingabefeld darf nicht leer sein!<", ">Das Benutzen dieses Namens",
            '? " <it id="1" pos="open">&lt; &gt;</it> |</target>')}
        buf = Buffer(s, tmp_path, "files.xlf", text)
        original = await buf._agree(text)
        cases = [
            (">{0} frei von {1}<", ">{0} frei von<", "markup-mismatch", "Insert {1} as in the source"),
            (">Öffnen mit<", ">Öffnen mit <", "whitespace-trailing", "End with the source's white space"),
            (">Öffnen mit<", ">Öffnen  mit<", "double-space", "Remove the double spaces"),
            (">Eingabefeld darf nicht leer sein!<", ">Eingabefeld darf nicht leer sein<", "end-punctuation",
             "End with “!” as the source does"),
            (">Das Benutzen dieses Namens", ">Das Benutzen dieses dieses Namens", "doubled-word",
             "Remove the doubled “dieses”"),
            # a lost inline code: the source's element put back after the quote it follows in the source
            ('? " <it id="1" pos="open">&lt; &gt;</it> |</target>', '? " |</target>', "codes-missing",
             "Insert the source's inline code 1"),
        ]
        for was, typed, code, title in cases:
            edited = text.replace(was, typed, 1)
            assert (at[was], code) in {(x[0], x[2]) for x in await buf.replace(edited)}
            fixed, before, after = await buf.fix(code, at[was], title)
            assert fixed == text
            one_less(before, after, code, at[was])
            assert after == original
        edited = text.replace(">Öffnen mit<", ">Öffnen mit <", 1).replace(
            ">Das Benutzen dieses Namens", ">Das Benutzen dieses dieses Namens", 1)
        await buf.replace(edited)
        fixed, titles = await buf.fix_all()
        assert titles == ["Fix all bleu-ls findings that have a fix (2)"]
        assert fixed == text
    finally:
        await _close(s)


async def test_fixes_in_a_line_file(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    (tmp_path / "ui.src").write_text(
        "Wait 15 minutes.\nClick the {name} button.\nOpen the folder now\nSave the file.\nClose the window\n", encoding="utf-8")
    (tmp_path / "ui.ref").write_text(
        "Warten Sie 15 Minuten.\nKlicken Sie auf {name}.\nÖffnen Sie jetzt den Ordner\nSpeichern Sie die Datei.\n"
        "Fenster schließen\n",
        encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        hyp = ("Warten Sie 12 Minuten.\nKlicken Sie auf die Schaltfläche.\nÖffnen Sie jetzt jetzt den Ordner\n"
               "Datei speichern\nFenster schließen schließen\n")
        buf = Buffer(s, tmp_path, "ui.hyp", hyp)
        found = {(x[0], x[2]) for x in await buf._agree(hyp)}
        assert {(0, "number-mismatch"), (1, "markup-mismatch"), (2, "doubled-word"), (3, "end-punctuation"),
                (4, "doubled-word")} <= found
        # the single fix is offered beside the one for the file
        d = next(d for d in buf.diags if d.code == "doubled-word" and d.range.start.line == 2)
        offered = [a.title for a in await actions(s, buf.uri, d.range, [d]) if a.edit is not None]
        assert offered == ["Remove the doubled “jetzt”", "Fix all doubled-word in this file (2)"]
        fixed, before, after = await buf.fix("number-mismatch", 0, "Replace 12 with 15 (the source's number)")
        assert fixed == hyp.replace("12", "15")
        one_less(before, after, "number-mismatch", 0)
        fixed, before, after = await buf.fix("markup-mismatch", 1, "Insert {name} as in the source")
        assert fixed.split("\n")[1] == "Klicken Sie auf die Schaltfläche {name}."
        one_less(before, after, "markup-mismatch", 1)
        # two doubled words in the file: "Fix all doubled-word in this file" removes both
        fixed, before, after = await buf.fix("doubled-word", 2, "Fix all doubled-word in this file (2)")
        assert fixed.split("\n")[2:5] == ["Öffnen Sie jetzt den Ordner", "Datei speichern", "Fenster schließen"]
        assert {(x[0], x[2]) for x in before - after} == {(2, "doubled-word"), (4, "doubled-word")}
        assert after < before
        # the rest by one source.fixAll: the end punctuation
        fixed, titles = await buf.fix_all()
        assert titles == ["Fix all bleu-ls findings that have a fix (1)"]
        assert fixed.split("\n")[3] == "Datei speichern."
    finally:
        await _close(s)
