"""doubled-word in the real server: a PO catalogue open alone lists the word written
twice where ``bleu-ls check`` does (the second word, with the space before it), not
the double its language allows, and an edit taking the word out clears it."""

from __future__ import annotations

import asyncio
import io
import json
import time

from bleu_ls.cli.check import main as check_main

PO = r'''msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Children who drop out of school"
msgstr "Kinder, die die Schule abbrechen"

msgid "This is our idea"
msgstr "Dies ist ist unsere Vorstellung"
'''


def checked(path) -> list:
    out, err = io.StringIO(), io.StringIO()
    assert check_main([str(path), "--format", "json", "--no-config"], out=out, err=err) in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return [(d["line"] - 1, d["column"] - 1, d["endColumn"] - 1) for d in pair["diagnostics"] if d["code"] == "doubled-word"]


async def doubled(s, uri: str, want: list, timeout: float = 60.0) -> list:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = sorted((d.range.start.line, d.range.start.character, d.range.end.character)
                     for d in diags or [] if d.code == "doubled-word")
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.3)


async def test_the_server_lists_a_doubled_word_as_check_does_and_an_edit_clears_it(session):
    s = session
    path = s.write("de.po", PO)
    uri = s.open("de.po", PO)
    lines = PO.split("\n")
    k = lines.index('msgstr "Dies ist ist unsere Vorstellung"')
    col = lines[k].index("ist ist") + len("ist")
    want = [(k, col, col + len(" ist"))]
    assert checked(path) == want  # check and the server: the same place
    assert await doubled(s, uri, want) == want
    diags, _, _ = await s.diagnostics(uri)
    [d] = [d for d in diags or [] if d.code == "doubled-word"]
    assert d.message == "\u201cist ist\u201d: the same word twice in a row."
    assert d.severity is not None and d.severity.value == 3  # information
    # the fix a translator makes: the second word and the space before it taken out
    s.change(uri, [{"range": ((k, col), (k, col + len(" ist"))), "text": ""}])
    assert await doubled(s, uri, []) == []
