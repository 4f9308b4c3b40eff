"""Pulled diagnostics follow an edit without a pull per key: the VS Code
extension does not pull after each change (editors/vscode/src/pullOptions.ts),
so the server asks for a pull (``workspace/diagnostic/refresh``) once the
edit changed the document's diagnostics, and never when it did not; an
editor that pulls after each change itself (Neovim) already holds the newest
and is asked for nothing (server/views/pulled.py)."""

from __future__ import annotations

import asyncio

import pytest

from bleu_ls.server.views import publish, pulled

from .conftest import _close, _session, eventually

REF = [f"the {w} sat on the mat near the old house number {i}" for i, w in
       enumerate("cat dog bird cow fox owl bee ant elk yak".split() * 2)]
HYP = [r if i % 3 else "completely different words here today" for i, r in enumerate(REF)]
#: a line that matches its reference (no finding before or after the no-op burst)
CLEAN = 1
#: after every edit: the follow's quiet time, the ranks' catch-up and the refresh's own delay
SETTLED = pulled.FOLLOW_DELAY + publish.RERANK_IDLE + publish.REFRESH_DELAY + 0.8


async def _open(tmp_path, kind: str):
    (tmp_path / "a.hyp").write_text("\n".join(HYP) + "\n", encoding="utf-8")
    (tmp_path / "a.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    sess = await _session(kind, tmp_path, {"bleuLs": {"diagnostics": {"adequacy": {"enabled": False}}}})
    uri = sess.open("a.hyp")
    items, rid, _ = await sess.diagnostics(uri)
    assert rid and not any(d.range.start.line == CLEAN for d in items)
    await asyncio.sleep(SETTLED)  # (the first pass's own refreshes)
    sess.client.diagnostic_refresh_count = 0
    return sess, uri, items, rid


def _burst_and_back(sess, uri: str) -> None:
    """Keys typed at the end of the clean line and deleted again: the text
    ends as it began."""
    end = len(REF[CLEAN])
    for k, ch in enumerate(" und"):
        sess.change(uri, [{"range": ((CLEAN, end + k), (CLEAN, end + k)), "text": ch}])
    for k in range(4, 0, -1):
        sess.change(uri, [{"range": ((CLEAN, end + k - 1), (CLEAN, end + k)), "text": ""}])


@pytest.mark.asyncio
async def test_a_client_that_does_not_pull_on_change_is_asked_once_the_diagnostics_changed(tmp_path) -> None:
    sess, uri, items, rid = await _open(tmp_path, "vscode")
    try:
        client = sess.client
        # keys that leave the diagnostics as they were: no refresh, not even after the ranks catch up
        _burst_and_back(sess, uri)
        await asyncio.sleep(SETTLED)
        assert client.diagnostic_refresh_count == 0
        _none, same, unchanged = await sess.diagnostics(uri, previous=rid)
        assert unchanged and same == rid

        # the clean line emptied: its own finding is new, the editor is asked to pull
        sess.change(uri, [{"range": ((CLEAN, 0), (CLEAN, len(REF[CLEAN]))), "text": ""}])
        assert await eventually(lambda: asyncio.sleep(0, client.diagnostic_refresh_count >= 1), timeout=5.0)
        got, new_rid, unchanged = await sess.diagnostics(uri, previous=rid)
        assert not unchanged and new_rid != rid
        assert any(d.range.start.line == CLEAN and d.code == "empty-hypothesis" for d in got)
        # once pulled, and with nothing changed since, no further refresh
        # (the ranks' catch-up may move other lines: then one more, then quiet)
        await asyncio.sleep(SETTLED)
        n = client.diagnostic_refresh_count
        _x, last, _u = await sess.diagnostics(uri, previous=new_rid)
        await asyncio.sleep(SETTLED)
        assert client.diagnostic_refresh_count == n
        # what the editor holds is what a pull from scratch gives
        fresh, fresh_rid, _u = await sess.diagnostics(uri)
        assert fresh_rid == last
    finally:
        await _close(sess)


@pytest.mark.asyncio
async def test_a_client_that_pulls_after_each_change_is_sent_no_refresh(tmp_path) -> None:
    sess, uri, items, rid = await _open(tmp_path, "neovim")
    try:
        client = sess.client
        sess.change(uri, [{"range": ((CLEAN, 0), (CLEAN, len(REF[CLEAN]))), "text": ""}])
        got, new_rid, unchanged = await sess.diagnostics(uri, previous=rid)  # as Neovim does after a change
        assert not unchanged and any(d.range.start.line == CLEAN and d.code == "empty-hypothesis" for d in got)
        await asyncio.sleep(pulled.FOLLOW_DELAY + 0.8)
        assert client.diagnostic_refresh_count == 0
    finally:
        await _close(sess)


PO = """msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Password"
msgstr "Passwort"

msgid "Remember Me"
msgstr "Angemeldet bleiben"
"""


@pytest.mark.asyncio
async def test_a_segment_file_alone_is_refreshed_once_an_edit_changed_its_diagnostics(tmp_path) -> None:
    """The same for a catalogue opened alone (server/segdocs/docs.py: ``_push_later``): keys
    that leave its findings as they were ask for nothing; a double space typed into a
    target (``double-space``, a format check) asks VS Code to pull, and the pull has it."""
    sess = await _session("vscode", tmp_path, {"bleuLs": {"diagnostics": {"adequacy": {"enabled": False}}}})
    try:
        uri = sess.open("django.po", PO)
        items, rid, _ = await sess.diagnostics(uri)
        assert not any(d.code == "double-space" for d in items)
        await asyncio.sleep(SETTLED)
        client = sess.client
        client.diagnostic_refresh_count = 0
        line = PO.split("\n").index('msgstr "Passwort"')
        # typed and deleted again: no refresh
        sess.change(uri, [{"range": ((line, 16), (line, 16)), "text": "x"}])
        sess.change(uri, [{"range": ((line, 16), (line, 17)), "text": ""}])
        await asyncio.sleep(SETTLED)
        assert client.diagnostic_refresh_count == 0
        # a double space in the target: the editor is asked to pull, and gets it
        sess.change(uri, [{"range": ((line, 12), (line, 12)), "text": "  "}])
        assert await eventually(lambda: asyncio.sleep(0, client.diagnostic_refresh_count >= 1), timeout=5.0)
        got, new_rid, unchanged = await sess.diagnostics(uri, previous=rid)
        assert not unchanged and new_rid != rid
        assert any(d.code == "double-space" and d.range.start.line == line for d in got)
        n = client.diagnostic_refresh_count
        await asyncio.sleep(SETTLED)
        assert client.diagnostic_refresh_count == n  # pulled: nothing more asked
    finally:
        await _close(sess)
