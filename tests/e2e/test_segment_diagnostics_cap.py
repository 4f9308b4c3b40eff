"""The diagnostics cap (setting ``maxProblems``) of a segment document (PO here) through the real
server: with N > 0 and more findings than N, the reply is the uncapped client's first N − 1 in file
order and our note at line 1 counting them all (to three digits); ``maxProblems = 0`` sends every
finding, past the 1,000 the editor shows by default; a typed word among the findings not sent
answers *unchanged*.  The count is ``bleu-ls check``'s, an independent path."""

from __future__ import annotations

import io
import json

from lsprotocol import types

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session, eventually

#: 1,205 entries, each with a doubled word (one finding each)
N = 1205


def catalogue(n: int) -> str:
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n\n'
    entries = [f'msgid "Save file {i} now"\nmsgstr "Datei {i} jetzt jetzt speichern"\n' for i in range(n)]
    return head + "\n".join(entries)


def said(total: int) -> str:
    digits = str(total)
    return f"found at least {int(digits[:3] + '0' * (len(digits) - 3)):,} problems"


TOML = "[diagnostics.adequacy]\nenabled = false\n[diagnostics.wrong-language]\nenabled = false\n"


def checked(path) -> int:
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(path.parent / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return len([d for d in pair["diagnostics"] if d["code"] != "unpaired"])


def key(d: types.Diagnostic) -> tuple:
    return (d.range.start.line, d.range.start.character, d.code, d.message)


async def test_a_capped_segment_document(tmp_path):
    text = catalogue(N)
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    init = {"bleuLs": {"diagnostics": {"adequacy": {"enabled": False}, "wrongLanguage": {"enabled": False}}}}
    capped = await _session("vscode", tmp_path, init_options={"bleuLs": {**init["bleuLs"], "maxProblems": 20}})
    full = await _session("vscode", tmp_path, init_options={"bleuLs": {**init["bleuLs"], "maxProblems": 0}})
    try:
        path = capped.write("messages.po", text)
        total = checked(path)
        assert total >= N  # every entry has its doubled word

        async def settled(s, uri, n):
            got, rid, _ = await s.diagnostics(uri)
            return (got, rid) if got is not None and len(got) == n else None

        uris = [s.open("messages.po", text) for s in (capped, full)]
        everything, _ = await eventually(lambda: settled(full, uris[1], total), timeout=60)
        got, rid = await eventually(lambda: settled(capped, uris[0], 20), timeout=60)
        assert len(everything) == total > 1000  # maxProblems = 0: all of them
        *listed, note = got
        assert [key(d) for d in listed] == [key(d) for d in everything[:19]]
        assert (note.code, note.severity, note.range.start.line) == ("not-sent", types.DiagnosticSeverity.Information, 0)
        assert said(total) in note.message and "19 of them are listed" in note.message
        assert "bleu-ls check messages.po" in note.message

        # a doubled word typed far below the items sent: the count said holds, the reply too
        lines = text.split("\n")
        at = next(i for i, ln in enumerate(lines) if ln.startswith("msgstr") and " 1100 " in ln)
        col = lines[at].index("speichern")
        capped.change(uris[0], [{"range": ((at, col), (at, col)), "text": "speichern "}])
        again, rid2, unchanged = await capped.diagnostics(uris[0], previous=rid)
        assert unchanged and rid2 == rid, again
        # an entry among those sent mended: it leaves the reply, the next comes in
        first = next(i for i, ln in enumerate(lines) if ln.startswith("msgstr") and '"Datei 0 ' in ln)
        col = lines[first].index("jetzt jetzt") + len("jetzt ")
        capped.change(uris[0], [{"range": ((first, col), (first, col + len("jetzt "))), "text": ""}])
        after, rid3, unchanged = await capped.diagnostics(uris[0], previous=rid)
        assert not unchanged and rid3 != rid
        assert [key(d) for d in after[:-1]] == [key(d) for d in everything[1:20]]
    finally:
        await _close(capped)
        await _close(full)
