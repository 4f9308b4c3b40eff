"""Ignore and accept through the real server: code actions on a diagnostic,
the command they run, the file it writes, the diagnostics after it."""

from __future__ import annotations

import ast
import json

from lsprotocol import types

from bleu_ls.qa.ignore import RELATIVE, line_hash

import pytest

from .conftest import eventually, units
from .test_server import crafted, text


@pytest.fixture(autouse=True)
def _low_score_on(tmp_path):
    """These tests ignore ``low-score`` findings: the code is off by default
    (the hint shows the score), so the workspace turns it on."""
    (tmp_path / "bleu-ls.toml").write_text("[diagnostics.low_score]\nenabled = true\n", encoding="utf-8")


def as_action(x):
    """lsprotocol's client-side converter reads any code action that has a
    ``command`` as a bare Command (its ``command`` the repr of the dict):
    undo that, so the test sees what the server sent."""
    if isinstance(x, types.CodeAction):
        return x
    sent = ast.literal_eval(x.command)
    return types.CodeAction(
        title=x.title,
        kind=types.CodeActionKind.QuickFix if getattr(x, "kind", None) is None else x.kind,
        command=types.Command(title=sent["title"], command=sent["command"], arguments=sent["arguments"]),
    )


async def actions(s, uri, diags):
    res = await s.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diags[0].range,
            context=types.CodeActionContext(diagnostics=diags),
        )
    )
    return [as_action(x) for x in res or []]


async def run(s, uri, action):
    """Execute an action's command; the diagnostics once the server has sent them again."""
    if not s.pull:
        s.client.diagnostics.pop(uri, None)
    await s.command(action.command.command, *action.command.arguments)
    diags, _, _ = await s.diagnostics(uri)
    return diags


def on(diags, line):
    return sorted(d.code for d in diags if d.range.start.line == line)


def stored(s):
    return json.loads((s.root / RELATIVE).read_text(encoding="utf-8"))


async def test_code_actions_ignore_and_turn_off(any_session):
    s = any_session
    hyp, ref, _src = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    assert on(diags, 5) == ["low-score", "repetition"]
    acts = await actions(s, uri, [d for d in diags if d.range.start.line == 5])
    titles = [a.title for a in acts]
    assert sorted(titles) == sorted(
        [
            "Ignore low-score on this line",
            "Ignore repetition on this line",
            "Ignore this line",
            "Mark line as reviewed",
            "Turn low-score off for the workspace",
            "Turn repetition off for the workspace",
        ]
    )
    assert not (s.root / RELATIVE).exists()  # nothing written until an action runs
    by_title = {a.title: a for a in acts}

    diags = await run(s, uri, by_title["Ignore repetition on this line"])
    assert on(diags, 5) == ["low-score"]
    assert stored(s)["files"]["d.hyp"]["codes"] == {line_hash(hyp[5]): ["repetition"]}
    c = await s.corpus(uri)
    assert (c["ignored"], c["reviewed"]) == (1, 0)

    line3 = [d for d in diags if d.range.start.line == 3]
    assert len(line3) == 2
    acts = await actions(s, uri, line3)
    diags = await run(s, uri, next(a for a in acts if a.title == "Ignore this line"))
    assert on(diags, 3) == []
    assert stored(s)["files"]["d.hyp"]["lines"] == [line_hash(hyp[3])]
    assert (await s.corpus(uri))["ignored"] == 3

    acts = await actions(s, uri, [d for d in diags if d.range.start.line == 1])
    diags = await run(s, uri, next(a for a in acts if a.title == "Turn low-score off for the workspace"))
    assert "low-score" not in {d.code for d in diags}
    assert "empty-hypothesis" in on(diags, 2)
    assert stored(s)["off"] == ["low-score"]


async def test_entries_follow_the_line_text(session):
    s = session
    hyp, ref, _src = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    acts = await actions(s, uri, [d for d in diags if d.range.start.line == 5])
    await run(s, uri, next(a for a in acts if a.title == "Ignore repetition on this line"))
    acts = await actions(s, uri, [d for d in diags if d.range.start.line == 1])
    diags = await run(s, uri, next(a for a in acts if a.title == "Mark line as reviewed"))
    assert on(diags, 1) == []
    assert (await s.corpus(uri))["reviewed"] == 1
    assert stored(s)["files"]["d.hyp"]["reviewed"] == [line_hash(hyp[1])]
    # the same texts on other lines: the entries apply there too (keyed by text, not line number)
    s.change(uri, [{"range": ((0, 0), (0, units(hyp[0], s.encoding))), "text": hyp[1]}])
    s.change(uri, [{"range": ((7, 0), (7, units(hyp[7], s.encoding))), "text": hyp[5]}])
    diags, _, _ = await s.diagnostics(uri)
    assert on(diags, 0) == [] and on(diags, 7) == ["low-score"]
    assert (await s.corpus(uri))["reviewed"] == 2
    # the reviewed line is edited: its flag is back
    edited = hyp[1].replace("papa", "quebec")
    s.change(uri, [{"range": ((1, 0), (1, units(hyp[1], s.encoding))), "text": edited}])

    async def back():
        got, _, _ = await s.diagnostics(uri)
        return on(got, 1) == ["low-score"]

    assert await eventually(back, timeout=3)


async def test_bad_ignore_file_is_one_sentence_and_never_rewritten(session):
    s = session
    hyp, ref, _src = crafted()
    s.write("d.ref", text(ref))
    nonsense = '{"off": ["low-score", "no-such-check"]}\n'
    s.write(RELATIVE, nonsense)
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    problems = [d for d in diags if d.code == "settings"]
    assert len(problems) == 1 and problems[0].range.start.line == 0
    assert "ignore.json" in problems[0].message and "no-such-check" in problems[0].message
    assert "low-score" in on(diags, 1)  # nothing is ignored
    acts = await actions(s, uri, [d for d in diags if d.range.start.line == 5])
    action = next(a for a in acts if a.title == "Ignore this line")
    try:
        await s.command(action.command.command, *action.command.arguments)
    except Exception as exc:  # the command answers with an error
        assert "ignore.json" in str(exc)
    else:
        raise AssertionError("the command wrote over a file it could not read")
    assert (s.root / RELATIVE).read_text(encoding="utf-8") == nonsense


async def test_actions_without_context_and_bad_arguments(session):
    s = session
    hyp, ref, _src = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    # a client that sends no diagnostics in the context: the server's own on those lines
    res = await s.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=5, character=0), end=types.Position(line=5, character=0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    titles = sorted(as_action(x).title for x in res or [])
    assert "Ignore repetition on this line" in titles and len(titles) == 6
    for args, words in (
        ([uri, "forever", 5], "unknown kind"),
        ([uri, "code", 5, "no-such-code"], "unknown diagnostic code"),
        ([uri, "line", "five"], "must be a number"),
        ([s.uri("nope.hyp"), "line", 5], "not an open hypothesis file"),
        ([uri, "line", 999], "not a line of the document"),
    ):
        try:
            await s.command("bleuLs.ignore", *args)
        except Exception as exc:
            assert words in str(exc), str(exc)
        else:
            raise AssertionError(f"bleuLs.ignore{args} was accepted")
    assert not (s.root / RELATIVE).exists()
