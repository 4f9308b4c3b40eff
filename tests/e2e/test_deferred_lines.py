"""Expensive lines through the real server: a TER-expensive edit and a line
over the ``maxLineBytes`` cap are scored in the background (never inside the
edit or a request); the hint shows the score once known and it equals
sacrebleu's; other requests are answered meanwhile."""

from __future__ import annotations

import asyncio
import random

import pytest
from sacrebleu.metrics import BLEU, TER

from .conftest import _close, _session, eventually
from .test_postedit import DRAFT, REF, _hover, _replace_line, _write, text


def _long_line(seed: int, words: int) -> str:
    rnd = random.Random(seed)
    vocab = "the cat sat on a mat dog barked at postman train leaves noon birds sing old trees".split()
    return " ".join(rnd.choice(vocab) for _ in range(words))


async def _label(s, uri, line, want):
    async def get():
        hints = await s.hints(uri)
        got = [h.label for h in hints if h.position.line == line]
        return got[0] if got and got[0] == want else None

    return await eventually(get, timeout=20)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["vscode", "neovim"])
async def test_a_ter_expensive_edit_shows_sacrebleus_ter_once_scored(tmp_path, kind):
    _write(tmp_path)
    init = {"bleuLs": {"ter": {"enabled": True}, "bleu": {"enabled": False}}}
    s = await _session(kind, tmp_path, init_options=init)
    try:
        uri = s.open("job.hyp")
        await eventually(lambda: s.hints(uri), timeout=10)
        new = _long_line(1, 70)  # far over the cheap TER length: scored in the background
        _replace_line(s, uri, 1, DRAFT[1], new)
        want = f"TER {TER().sentence_score(new, [REF[1]]).score:.1f}"
        assert await _label(s, uri, 1, want) == want
        # a cheap edit right after: scored inside the edit, same numbers as sacrebleu
        _replace_line(s, uri, 0, DRAFT[0], "the cat sat on a mat")
        assert await _label(s, uri, 0, "TER 0.0") == "TER 0.0"
        post = ["the cat sat on a mat", new, *DRAFT[2:]]
        rec = await s.corpus(uri)
        assert rec["metrics"]["ter"]["corpus"]["score"] == TER().corpus_score(post, [REF]).score
    finally:
        await _close(s)


@pytest.mark.asyncio
async def test_a_line_over_the_cap_is_scored_in_the_background(tmp_path):
    long_hyp, long_ref = _long_line(2, 3000), _long_line(3, 3000)  # ~14 KB each, cap 2 KB
    hyp = [DRAFT[0], long_hyp, *DRAFT[2:]]
    ref = [REF[0], long_ref, *REF[2:]]
    (tmp_path / "job.hyp").write_text(text(hyp), encoding="utf-8")
    (tmp_path / "job.ref").write_text(text(ref), encoding="utf-8")
    init = {"bleuLs": {"maxLineBytes": 2000, "chrf": {"enabled": True}}}
    s = await _session("vscode", tmp_path, init_options=init)
    try:
        uri = s.open("job.hyp")
        assert "line-length cap" in await _hover(s, uri, 1)
        bleu, chrf = BLEU(effective_order=True), None
        from sacrebleu.metrics import CHRF

        chrf = CHRF()
        for text_now in (long_hyp, long_hyp + " and the train leaves"):
            if text_now != long_hyp:  # an edit of the long line: again in the background
                s.change(uri, [{"range": ((1, len(long_hyp)), (1, len(long_hyp))), "text": " and the train leaves"}])
                hover = await _hover(s, uri, 1)
                assert "line-length cap" in hover and "scored in the background" in hover
            # other lines answer meanwhile
            assert "Line 3" in await _hover(s, uri, 2)
            b = bleu.sentence_score(text_now, [long_ref]).score
            c = chrf.sentence_score(text_now, [long_ref]).score
            want = f"BLEU {b:.1f} · chrF {c:.1f}"
            assert await _label(s, uri, 1, want) == want
        post = [hyp[0], long_hyp + " and the train leaves", *hyp[2:]]
        rec = await s.corpus(uri)
        assert rec["corpus"]["score"] == BLEU().corpus_score(post, [ref]).score
        assert rec["metrics"]["chrf"]["corpus"]["score"] == chrf.corpus_score(post, [ref]).score
    finally:
        await _close(s)


@pytest.mark.asyncio
async def test_a_line_over_the_cap_gets_the_findings_of_bleu_ls_check(tmp_path):
    """The text checks do not read a line over ``maxLineBytes`` (server and
    ``bleu-ls check`` alike): the pulled diagnostics equal check's on the
    same files, at open and after edits of the long line; the long line's
    loop is not reported while the short line's loop is."""
    import json
    import subprocess
    import sys
    import time

    from .conftest import eventually

    loop = " ".join(["the cat sat"] * 400)  # ~4.8 KB, cap 2 KB
    hyp = [DRAFT[0], loop, "sehr sehr sehr sehr sehr gut", *DRAFT[2:]]
    ref = [REF[0], _long_line(4, 900), "sehr gut", *REF[2:]]
    (tmp_path / "bleu-ls.toml").write_text("maxLineBytes = 2000\n[diagnostics.adequacy]\nenabled = false\n",
                                           encoding="utf-8")
    (tmp_path / "job.ref").write_text(text(ref), encoding="utf-8")
    s = await _session("vscode", tmp_path)

    def checked(lines):
        (tmp_path / "check").mkdir(exist_ok=True)
        (tmp_path / "check" / "bleu-ls.toml").write_text((tmp_path / "bleu-ls.toml").read_text(), encoding="utf-8")
        for name, body in (("job.hyp", lines), ("job.ref", ref)):
            (tmp_path / "check" / name).write_text(text(body), encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "bleu_ls", "check", str(tmp_path / "check" / "job.hyp"),
                               "--format", "json"], capture_output=True, text=True)
        assert proc.returncode in (0, 1), proc.stderr
        [pair] = json.loads(proc.stdout)["pairs"]
        return sorted((d["line"] - 1, d["code"], d["message"]) for d in pair["diagnostics"])

    async def settled(uri, want):
        deadline = time.monotonic() + 60
        while True:
            diags, _, _ = await s.diagnostics(uri)
            got = sorted((d.range.start.line, d.code, d.message) for d in diags)
            if got == want or time.monotonic() > deadline:
                return got
            await asyncio.sleep(0.3)

    try:
        uri = s.open("job.hyp", text(hyp))
        await eventually(lambda: s.hints(uri), timeout=10)
        want = checked(hyp)
        codes = {(line, code) for line, code, _ in want}
        assert (2, "repetition") in codes and (1, "repetition") not in codes
        assert await settled(uri, want) == want
        for added in (" the cat sat the cat sat", " and the dog"):
            end = len(hyp[1])
            s.change(uri, [{"range": ((1, end), (1, end)), "text": added}])
            hyp[1] += added
            want = checked(hyp)
            assert await settled(uri, want) == want
    finally:
        await _close(s)
