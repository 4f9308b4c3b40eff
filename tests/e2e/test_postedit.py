"""Post-editing through the real server: the draft kept across restarts,
live HTER after an edit, the paired test in the lens, TER hints, draft file
problems — numbers checked against sacrebleu."""

from __future__ import annotations

import asyncio
import re

import pytest
from lsprotocol import types
from sacrebleu.metrics import BLEU, TER
from sacrebleu.significance import PairedTest

from .conftest import _close, _session, eventually

DRAFT = [
    "the cat sat on the mat",
    "a dog barked at the postman",
    "It rains in the north today",
    "birds sing in the old trees",
    "we will meet again tomorrow morning",
    "the train leaves at noon",
]
REF = [
    "the cat sat on a mat",
    "the dog barked loudly at the postman",
    "it is raining in the north today",
    "birds are singing in the old trees",
    "we shall meet again tomorrow morning",
    "the train departs at noon",
]


def text(lines):
    return "\n".join(lines) + "\n"


def _write(tmp_path, draft=DRAFT):
    (tmp_path / "job.hyp").write_text(text(draft), encoding="utf-8")
    (tmp_path / "job.ref").write_text(text(REF), encoding="utf-8")


def _replace_line(s, uri, i, old, new):
    s.change(uri, [{"range": ((i, 0), (i, len(old))), "text": new}])


async def _effort(s, uri, want):
    async def get():
        rec = await s.corpus(uri)
        eff = rec and rec.get("effort")
        return eff if eff and not eff["pending"] and want(eff) else None

    return await eventually(get, timeout=10)


async def _hover(s, uri, line):
    h = await s.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0)
        )
    )
    return h.contents.value if h else ""


@pytest.mark.asyncio
async def test_the_draft_survives_a_restart_and_an_edit_changes_hter(tmp_path):
    _write(tmp_path)
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("job.hyp")
        eff = await _effort(s, uri, lambda e: e["lines"] == len(DRAFT))
        assert eff["score"] == 0.0 and eff["linesEdited"] == 0
    finally:
        await _close(s)
    # the file changed while no server ran: the kept draft is still the old text
    post = list(DRAFT)
    post[2] = "it is raining in the north today"
    (tmp_path / "job.hyp").write_text(text(post), encoding="utf-8")
    s = await _session("neovim", tmp_path)
    try:
        uri = s.open("job.hyp")
        ter = TER(case_sensitive=True)
        eff = await _effort(s, uri, lambda e: e["linesEdited"] == 1)
        assert eff["score"] == ter.corpus_score(DRAFT, [post]).score
        assert "HTER" in await _hover(s, uri, 2)
        # one edit: that line's HTER and the corpus HTER follow
        _replace_line(s, uri, 4, post[4], "We shall meet again tomorrow morning")
        post[4] = "We shall meet again tomorrow morning"
        eff = await _effort(s, uri, lambda e: e["linesEdited"] == 2)
        assert eff["score"] == ter.corpus_score(DRAFT, [post]).score
        assert eff["num_edits"] == ter.corpus_score(DRAFT, [post]).num_edits
        hover = await _hover(s, uri, 4)
        want = ter.sentence_score(DRAFT[4], [post[4]]).score
        assert f"HTER {want:.2f}" in hover
        assert "~~we will~~" in hover and "**We shall**" in hover
    finally:
        await _close(s)


@pytest.mark.asyncio
async def test_the_lens_shows_the_paired_test_of_sacrebleu(tmp_path):
    _write(tmp_path)
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("job.hyp")
        await _effort(s, uri, lambda e: e["lines"] == len(DRAFT))
        post = list(DRAFT)
        for i in (1, 2, 5):
            _replace_line(s, uri, i, DRAFT[i], REF[i])
            post[i] = REF[i]
        bleu_now = BLEU().corpus_score(post, [REF]).score

        async def paired():
            rec = await s.corpus(uri)
            p = rec and rec["metrics"]["bleu"].get("paired")
            return rec if p and p["system"]["score"] == bleu_now else None

        rec = await eventually(paired, timeout=20)
        assert rec, "no paired test on the current text"
        _, res = PairedTest([("d", DRAFT), ("p", post)], {"m": BLEU()}, [REF], test_type="bs", n_samples=1000)()
        base, system = next(v for k, v in res.items() if k != "System")
        got = rec["metrics"]["bleu"]["paired"]
        assert (got["baseline"]["score"], got["baseline"]["mean"], got["baseline"]["ci"]) == (
            base.score, base.mean, base.ci)
        assert (got["system"]["score"], got["system"]["mean"], got["system"]["ci"], got["system"]["p_value"]) == (
            system.score, system.mean, system.ci, system.p_value)
        conf = BLEU().corpus_score(post, [REF], n_bootstrap=1000)
        assert (rec["metrics"]["bleu"]["confidence"]["mean"], rec["metrics"]["bleu"]["confidence"]["ci"]) == (
            conf._mean, conf._ci)
        lenses = await s.client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        title = lenses[0].command.title
        delta = system.score - base.score
        assert f"BLEU {system.score:.2f} (Δ {delta:+.2f} vs draft, p = {system.p_value:.4f})" in title
        assert re.search(r"HTER [0-9.]+ · 3 lines edited", title)
    finally:
        await _close(s)


@pytest.mark.asyncio
async def test_ter_hints_equal_sacrebleu_sentence_scores(tmp_path):
    _write(tmp_path)
    init = {"bleuLs": {"ter": {"enabled": True}, "bleu": {"enabled": False}, "hints": {"hter": True}}}
    s = await _session("neovim", tmp_path, init_options=init)
    try:
        uri = s.open("job.hyp")
        hints = await eventually(lambda: s.hints(uri), timeout=10)
        ter = TER()
        assert len(hints) == len(DRAFT)
        for h in hints:
            i = h.position.line
            assert h.label == f"TER {ter.sentence_score(DRAFT[i], [REF[i]]).score:.1f} · HTER 0.0"
        rec = await s.corpus(uri)
        assert rec["metrics"]["ter"]["corpus"]["score"] == ter.corpus_score(DRAFT, [REF]).score
    finally:
        await _close(s)


@pytest.mark.asyncio
@pytest.mark.parametrize("content,word", [(None, "missing"), (b"\x00\x01binary\n", "binary"), (b"caf\xe9\n", "not UTF-8")])
async def test_draft_file_problems_say_one_word(tmp_path, content, word):
    _write(tmp_path)
    (tmp_path / "bleu-ls.toml").write_text(
        '[[pairs]]\nhypothesis = "*.hyp"\nreferences = ["{stem}.ref"]\ndraft = "{stem}.mt0"\n', encoding="utf-8"
    )
    if content is not None:
        (tmp_path / "job.mt0").write_bytes(content)
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("job.hyp")
        rec = await eventually(lambda: s.corpus(uri), timeout=10)
        assert rec["effort"] is None and word in rec["draft"]["problem"]
        assert rec["corpus"]["score"] == BLEU().corpus_score(DRAFT, [REF]).score  # scoring goes on
        lenses = await s.client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert f"draft: {word}" in lenses[0].command.title
        assert word in await _hover(s, uri, 0)
    finally:
        await _close(s)


@pytest.mark.asyncio
async def test_set_and_forget_draft_commands(tmp_path):
    _write(tmp_path)
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("job.hyp")
        await _effort(s, uri, lambda e: True)
        _replace_line(s, uri, 0, DRAFT[0], REF[0])
        await _effort(s, uri, lambda e: e["linesEdited"] == 1)
        msg = await s.command("bleuLs.setDraft", uri)
        assert "draft set" in msg
        eff = await _effort(s, uri, lambda e: e["linesEdited"] == 0)
        assert eff["score"] == 0.0
        await s.command("bleuLs.forgetDraft", uri)
        rec = await s.corpus(uri)
        assert rec["effort"] is None
        await asyncio.sleep(0)
    finally:
        await _close(s)
