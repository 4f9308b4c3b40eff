"""A fuzzy PO entry's hover in the real server shows what changed in its source since
it was translated (``#| msgid`` against the msgid), marked as the draft diff marks
words; an entry without ``#|`` lines shows nothing of the kind; and the ``fuzzy``
diagnostic says it in one line."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import polib
from lsprotocol import types

ALLAUTH = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-10-07.po"
HEAD = "**Source changed since it was translated:**"


async def _hover(s, uri: str, line: int) -> str:
    h = await s.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=3)))
    return h.contents.value if h is not None else ""


def _msgstr_line(lines: list[str], msgid_line: str) -> int:
    k = lines.index(msgid_line)
    while not lines[k].startswith("msgstr"):
        k += 1
    return k


async def test_the_hover_of_a_fuzzy_entry_shows_its_source_change(session):
    s = session
    text = ALLAUTH.read_text(encoding="utf-8")
    uri = s.open("django.po", text)
    lines = text.split("\n")
    entries = {e.msgid: e for e in polib.pofile(str(ALLAUTH))}
    assert entries["Incorrect password."].previous_msgid == "Current Password"
    at = _msgstr_line(lines, 'msgid "Incorrect password."')
    hover = await _hover(s, uri, at)
    assert f"{HEAD}\n- source: ~~Current Password~~ **Incorrect password.**" in hover, hover
    # a change inside a longer msgid: only the changed word is marked
    e = entries["An account already exists with this email address. Please sign in to that account first, then "
                "connect your %s account."]
    assert "e-mail" in e.previous_msgid and "fuzzy" in e.flags
    at = lines.index('"An account already exists with this email address. Please sign in to that "')
    while not lines[at].startswith("msgstr"):
        at += 1
    hover = await _hover(s, uri, at)
    assert "- source: An account already exists with this ~~e-mail~~ **email** address." in hover, hover
    # an entry that is not fuzzy: no such block
    plain = next(x for x in entries.values() if x.msgstr and "fuzzy" not in x.flags and x.previous_msgid is None
                 and "\n" not in x.msgid and len(x.msgid) < 60)
    at = _msgstr_line(lines, f'msgid "{plain.msgid}"')
    hover = await _hover(s, uri, at)
    assert hover and HEAD not in hover
    # the diagnostic says it too, on one line
    deadline = time.monotonic() + 60
    while True:
        diags, _, _ = await s.diagnostics(uri)
        fuzzy = [d.message for d in diags or [] if d.code == "fuzzy"]
        if fuzzy or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.3)
    assert "Fuzzy: the source changed: \u201cCurrent Password\u201d \u2192 \u201cIncorrect password.\u201d." in fuzzy
