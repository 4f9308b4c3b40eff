"""The state code actions of segment files (XLIFF "Mark as translated/final",
PO "Remove fuzzy") and "next segment that needs review", through the real server.
The action's edit applied to the buffer must give exactly the expected file, which
the reader (and polib, for PO) reads with the new state."""

from __future__ import annotations

import polib
import pytest
from lsprotocol import types

from bleu_ls.formats.read import parse

from .conftest import eventually

XLF1 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file original="app" source-language="en" target-language="fr" datatype="plaintext">
  <body>
   <trans-unit id="u1"><source>Cat 🐈</source><target state="translated">Chat 🐈</target></trans-unit>
   <trans-unit id="u2"><source>Dog 🐕</source><target state="needs-review-translation">Chien</target></trans-unit>
   <trans-unit id="u3"><source>Rain</source><target>Pluie</target></trans-unit>
   <trans-unit id="u4"><source>Sun</source><target state="translated" state-qualifier="mt-suggestion">Soleil</target></trans-unit>
   <trans-unit id="u5"><source>Moon</source><target state-qualifier="mt-suggestion">Lune</target></trans-unit>
   <trans-unit id="u6"><source>Star</source><target state="new">Étoile</target></trans-unit>
  </body>
 </file>
</xliff>
"""

XLF2 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f">
  <unit id="a"><segment id="1" state="initial"><source>Cat 🐈</source><target>Chat</target></segment></unit>
  <unit id="b"><segment id="1"><source>Dog</source><target>Chien</target></segment></unit>
  <unit id="c"><segment id="1" state="translated" subState="acme:mt"><source>Sun</source><target>Soleil</target></segment></unit>
  <unit id="d"><segment id="1" subState="acme:mt"><source>Moon</source><target>Lune</target></segment></unit>
 </file>
</xliff>
"""

PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: fr\\n"

#: app.py:1
#, fuzzy
#| msgid "Cat"
msgid "Cats 🐈"
msgstr "Chats 🐈"

#, c-format, fuzzy, no-wrap
#| msgid "%d dog"
#| msgid_plural "%d dogs"
msgid "%d dog 🐕"
msgid_plural "%d dogs 🐕"
msgstr[0] "%d chien"
msgstr[1] "%d chiens"

#, python-format
msgid "Rain"
msgstr "Pluie"

msgid "Sun"
msgstr "Soleil"

#, fuzzy
msgid "Moon"
msgstr "Lune"
'''


def offset(text: str, pos: types.Position, encoding: str) -> int:
    lines = text.split("\n")
    start = sum(len(x) + 1 for x in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for k, ch in enumerate(line):
        if units >= pos.character:
            return start + k
        units += len(ch.encode("utf-8")) if encoding == "utf-8" else len(ch.encode("utf-16-le")) // 2
    return start + len(line)


def apply(text: str, action: types.CodeAction, uri: str, encoding: str) -> str:
    changes = action.edit.document_changes
    assert len(changes) == 1 and changes[0].text_document.uri == uri and changes[0].text_document.version == 1
    spans = [(offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text) for e in changes[0].edits]
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


def position_of(text: str, needle: str, encoding: str, after: bool = True) -> types.Position:
    k = text.index(needle) + (len(needle) if after else 0)
    line = text.count("\n", 0, k)
    col_text = text[text.rfind("\n", 0, k) + 1 : k]
    units = len(col_text.encode("utf-8")) if encoding == "utf-8" else len(col_text.encode("utf-16-le")) // 2
    return types.Position(line=line, character=units)


async def actions_at(s, uri: str, pos: types.Position) -> dict[str, types.CodeAction]:
    async def ask():
        return await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=pos, end=pos),
            context=types.CodeActionContext(diagnostics=[])))
    got = await eventually(ask, timeout=5)
    return {a.title: a for a in got or []}


def seg(fmt: str, text: str, key: str):
    return next(x for x in parse(fmt, b"", "buffer", text=text).segments if x.key == key)


@pytest.mark.parametrize("title, value", [("Mark as translated", "translated"), ("Mark as final", "final")])
async def test_xliff1_mark_sets_the_target_state(session, title, value):
    s = session
    uri = s.open("app.fr.xlf", XLF1)
    acts = await actions_at(s, uri, position_of(XLF1, "<target state=\"needs-review-translation\">Chi", s.encoding))
    assert set(acts) == {"Mark as translated", "Mark as final"}
    new = apply(XLF1, acts[title], uri, s.encoding)
    assert new == XLF1.replace('state="needs-review-translation"', f'state="{value}"')
    assert seg("xliff1", new, "app/u2").state == value
    # a target without a state gets one; one already translated is offered "final" only
    acts = await actions_at(s, uri, position_of(XLF1, "<target>Plu", s.encoding))
    new = apply(XLF1, acts[title], uri, s.encoding)
    assert new == XLF1.replace("<target>Pluie", f'<target state="{value}">Pluie')
    assert seg("xliff1", new, "app/u3").state == value
    acts = await actions_at(s, uri, position_of(XLF1, ">Chat 🐈", s.encoding))
    assert set(acts) == {"Mark as final"}


async def test_xliff2_mark_sets_the_segment_state(session):
    s = session
    uri = s.open("app.fr.xlf", XLF2)
    acts = await actions_at(s, uri, position_of(XLF2, "<target>Cha", s.encoding))
    new = apply(XLF2, acts["Mark as final"], uri, s.encoding)
    assert new == XLF2.replace('state="initial"', 'state="final"')
    assert seg("xliff1", new, "f/a").state == "final"
    acts = await actions_at(s, uri, position_of(XLF2, "<target>Chien", s.encoding))
    new = apply(XLF2, acts["Mark as translated"], uri, s.encoding)
    assert new == XLF2.replace('<segment id="1"><source>Dog', '<segment id="1" state="translated"><source>Dog')
    assert seg("xliff1", new, "f/b").state == "translated"


@pytest.mark.parametrize("where, before, after, msgid", [
    ('msgstr "Chats', '#, fuzzy\n#| msgid "Cat"\nmsgid "Cats', 'msgid "Cats', "Cats 🐈"),
    ('msgstr[1] "%d', '#, c-format, fuzzy, no-wrap\n#| msgid "%d dog"\n#| msgid_plural "%d dogs"\n',
     '#, c-format, no-wrap\n', "%d dog 🐕"),
    ('msgstr "Lun', '#, fuzzy\nmsgid "Moon"', 'msgid "Moon"', "Moon"),
])
async def test_po_remove_fuzzy(session, tmp_path, where, before, after, msgid):
    s = session
    uri = s.open("app.fr.po", PO)
    acts = await actions_at(s, uri, position_of(PO, where, s.encoding))
    assert set(acts) == {"Remove fuzzy"}
    new = apply(PO, acts["Remove fuzzy"], uri, s.encoding)
    assert PO.count(before) == 1 and new == PO.replace(before, after)
    path = tmp_path / "out.po"
    path.write_text(new, encoding="utf-8")
    entries = {e.msgid: e for e in polib.pofile(str(path))}
    assert len(entries) == 5
    assert {m for m, e in entries.items() if "fuzzy" in e.flags} == {"Cats 🐈", "%d dog 🐕", "Moon"} - {msgid}
    assert entries[msgid].previous_msgid is None and entries[msgid].msgstr + entries[msgid].msgstr_plural.get(0, "")
    assert [x.state for x in parse("po", b"", "buffer", text=new).segments if x.extra["msgid"] == msgid] in (
        ["translated"], ["translated", "translated"])


async def test_no_state_action_on_an_entry_that_is_not_fuzzy(session):
    s = session
    uri = s.open("app.fr.po", PO)
    assert await actions_at(s, uri, position_of(PO, 'msgstr "Plu', s.encoding)) == {}


async def walk(s, uri: str, text: str, direction: str, start: types.Position, n: int) -> list[str]:
    out = []
    pos = {"line": start.line, "character": start.character}
    for _ in range(n):
        got = await s.command("bleuLs.nextFlagged", uri, pos, direction)
        out.append(got["key"])
        pos = {"line": got["line"], "character": got["character"]}
        # the position is the target's start
        k = offset(text, types.Position(**pos), s.encoding)
        assert text[:k].endswith(">") or text[:k].endswith('"')
    return out


async def test_next_segment_that_needs_review(session):
    s = session
    uri = s.open("app.fr.xlf", XLF1)
    await actions_at(s, uri, types.Position(line=0, character=0))  # opened
    zero = types.Position(line=0, character=0)
    assert await walk(s, uri, XLF1, "next", zero, 4) == ["app/u2", "app/u5", "app/u6", "app/u2"]
    assert await walk(s, uri, XLF1, "previous", zero, 4) == ["app/u6", "app/u5", "app/u2", "app/u6"]
    uri2 = s.open("b.fr.xlf", XLF2)
    assert await walk(s, uri2, XLF2, "next", zero, 3) == ["f/a", "f/d", "f/a"]
    uri3 = s.open("c.fr.po", PO)
    keys = await walk(s, uri3, PO, "next", zero, 5)
    assert keys == ["Cats 🐈", "%d dog 🐕[0]", "%d dog 🐕[1]", "Moon", "Cats 🐈"]


SRT = """1
00:00:01,000 --> 00:00:03,000
Short line

2
00:00:04,000 --> 00:00:06,000
This line is far too long for a subtitle line to be read comfortably at all

3
00:00:07,000 --> 00:00:09,000
Fine
"""


async def test_next_in_a_subtitle_file_walks_the_cues_with_findings(session):
    s = session
    uri = s.open("film.srt", SRT)
    diags, _rid, _same = await s.diagnostics(uri)
    assert {d.range.start.line for d in diags or []} == {6}  # cue 2 (too long a line, read too fast): its findings only
    got = await s.command("bleuLs.nextFlagged", uri, {"line": 0, "character": 0}, "next")
    assert (got["line"], got["character"], got["key"]) == (6, 0, "2")
    got = await s.command("bleuLs.nextFlagged", uri, {"line": 6, "character": 0}, "next")
    assert got["key"] == "2"  # the only one: wrapped
    assert await s.command("bleuLs.nextFlagged", uri, {"line": 0, "character": 0}, "previous") == got
    clean = s.open("clean.srt", SRT.replace(" for a subtitle line to be read comfortably at all", ""))
    assert await s.command("bleuLs.nextFlagged", clean, {"line": 0, "character": 0}, "next") is None


async def test_a_range_over_several_targets_is_one_action_for_all(session):
    s = session
    uri = s.open("app.fr.xlf", XLF1)
    rng = types.Range(start=position_of(XLF1, ">Chat", s.encoding), end=position_of(XLF1, ">Pluie", s.encoding))

    async def ask():
        return await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=rng, context=types.CodeActionContext(diagnostics=[])))
    acts = {a.title: a for a in await eventually(ask, timeout=5) or []}
    # u1 is translated already: "final" covers u1–u3, "translated" u2 and u3
    assert set(acts) == {"Mark as translated (2 segments)", "Mark as final (3 segments)"}
    new = apply(XLF1, acts["Mark as final (3 segments)"], uri, s.encoding)
    assert new == XLF1.replace('<target state="translated">Chat', '<target state="final">Chat').replace(
        'state="needs-review-translation"', 'state="final"').replace("<target>Pluie", '<target state="final">Pluie')
