"""A 100k-line pair through the real server: visible hints first, requests
answered while the rest is scored, an edit costs the edited line.

Run with ``-s`` to see the timings (pytest -m slow tests/e2e/test_large.py -s).
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import sacrebleu
from lsprotocol import types

from .conftest import _close, _session

W = (
    "the of and to in a is that for it as was with be by on not he this are or his from at which but "
    "have an they you were her she there been one all we their has would when if so no will more"
).split()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["vscode", "neovim"])
async def test_100k_lines(kind, tmp_path):
    n = 100_000
    rnd = random.Random(5)
    ref = [" ".join(rnd.choices(W, k=rnd.randint(8, 30))) + " ." for _ in range(n)]
    hyp = []
    for r in ref:
        toks = r.split()
        for _ in range(3):
            toks[rnd.randrange(len(toks))] = rnd.choice(W)
        hyp.append(" ".join(toks))
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    s = await _session(kind, tmp_path)
    try:
        t0 = time.monotonic()
        uri = s.open("big.hyp", "\n".join(hyp) + "\n")
        hs = await s.hints(uri, 50_000, 50_060)
        t_hints = time.monotonic() - t0
        # a whole-buffer request (as Neovim sends) does not wait for every line
        t3 = time.monotonic()
        refresh0 = s.rec.inlay_refresh
        whole = await s.hints(uri, 0, n)
        t_whole = time.monotonic() - t3
        assert 0 < len(whole) < n and t_whole < 5
        corpus_task = asyncio.ensure_future(s.corpus(uri))
        await asyncio.sleep(0.2)
        t1 = time.monotonic()
        hover = await s.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=70_000, character=0)
            )
        )
        t_hover = time.monotonic() - t1
        hover_while_scoring = not corpus_task.done()
        c = await corpus_task
        t_corpus = time.monotonic() - t0
        for _ in range(50):  # then the client is told to ask again
            if s.rec.inlay_refresh > refresh0:
                break
            await asyncio.sleep(0.1)
        assert s.rec.inlay_refresh > refresh0
        assert len(await s.hints(uri, 0, n)) == n
        # one keystroke on a scored document
        t2 = time.monotonic()
        s.change(uri, [{"range": ((60_000, 0), (60_000, 0)), "text": "the "}])
        hs2 = await s.hints(uri, 60_000, 60_000)
        t_edit = time.monotonic() - t2
        c2 = await s.corpus(uri)
        t_edit_corpus = time.monotonic() - t2
        print(
            f"\n[{kind}] 100k lines: first hints {t_hints:.2f}s, hover during scoring {t_hover * 1000:.0f} ms "
            f"(while scoring: {hover_while_scoring}), corpus ready {t_corpus:.2f}s, "
            f"whole-buffer hints {t_whole:.2f}s ({len(whole)} lines), edit->hint {t_edit * 1000:.0f} ms, edit->corpus {t_edit_corpus * 1000:.0f} ms"
        )
        assert len(hs) == 61
        assert hover is not None
        assert t_hints < t_corpus / 2
        assert c["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
        hyp[60_000] = "the " + hyp[60_000]
        assert c2["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
        assert len(hs2) == 1 and t_edit < 1.0
    finally:
        await _close(s)


def _lazy_pair(n: int, seed: int) -> tuple[list[str], list[str]]:
    rnd = random.Random(seed)
    ref = [" ".join(rnd.choices(W, k=rnd.randint(10, 24))) + " ." for _ in range(n)]
    hyp = []
    for r in ref:
        toks = r.split()
        toks[rnd.randrange(len(toks))] = rnd.choice(W)
        hyp.append(" ".join(toks))
    return hyp, ref


def _bleu_of(label: str) -> float:
    return float(label.split("BLEU ")[1].split()[0])


@pytest.mark.parametrize("kind", ["vscode", "neovim"])
async def test_large_document_opened_lazily(kind, tmp_path):
    """A document over 1 MiB is opened lazily (its first hints come from the
    lines asked for, the rest is read in the background): every answer —
    the first hints, far lines, the corpus, after an edit — is sacrebleu's."""
    n = 16_000
    hyp, ref = _lazy_pair(n, 7)
    text = "\n".join(hyp) + "\n"
    assert len(text) > 1 << 20
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    s = await _session(kind, tmp_path)
    try:
        uri = s.open("big.hyp", text)

        def actions_on(first: int, last: int):
            return s.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=first, character=0), end=types.Position(line=last, character=0)),
                context=types.CodeActionContext(diagnostics=[])))

        # actions asked with no diagnostics in the context (VS Code, on a line
        # it shows none for) while the file is still to be scored: answered
        # at once with nothing, not after the whole analysis
        early = asyncio.ensure_future(actions_on(0, n - 1))
        first = await s.hints(uri, 0, 60)  # sent at once: before the background read ends
        far = await s.hints(uri, 12_000, 12_030)
        for hs in (first, far):
            assert hs
            for h in hs:
                i = h.position.line
                assert _bleu_of(h.label) == round(sacrebleu.sentence_bleu(hyp[i], [ref[i]]).score, 1)
                assert h.position.character == len(hyp[i])
        assert len(first) == 61 and len(far) == 31
        c = await s.corpus(uri)
        assert c["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
        s.change(uri, [{"range": ((5, 0), (5, 0)), "text": "the "}])
        hyp[5] = "the " + hyp[5]
        (h5,) = await s.hints(uri, 5, 5)
        assert _bleu_of(h5.label) == round(sacrebleu.sentence_bleu(hyp[5], [ref[5]]).score, 1)
        assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
        assert await early is None
        # once analysed, the same request gives the actions of the findings
        diags, _, _ = await s.diagnostics(uri)
        assert diags and await actions_on(0, n - 1)
    finally:
        await _close(s)


async def test_large_document_with_a_reference_broken_late(tmp_path):
    """A reference that stops being UTF-8 near its end: the first lines are
    answered meanwhile, then the user is told in the same words as for a
    small file (an error diagnostic on line 1 naming the file and the byte)."""
    n = 16_000
    hyp, ref = _lazy_pair(n, 8)
    data = ("\n".join(ref[: n - 10]) + "\n").encode("utf-8") + b"caf\xe9 au lait\n" + ("\n".join(ref[n - 9 :]) + "\n").encode("utf-8")
    (tmp_path / "big.ref").write_bytes(data)
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("big.hyp", "\n".join(hyp) + "\n")
        first = await s.hints(uri, 0, 10)
        assert all(
            _bleu_of(h.label) == round(sacrebleu.sentence_bleu(hyp[h.position.line], [ref[h.position.line]]).score, 1)
            for h in first
        )
        diags, _rid, _ = await s.diagnostics(uri)
        errors = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
        assert errors and errors[0].range.start.line == 0
        message = errors[0].message
        offset = data.index(b"\xe9")
        assert "big.ref" in message and "not UTF-8" in message and f"byte offset {offset}" in message
        assert f"line {n - 9}" in message
        assert await s.hints(uri, 0, 10) == []  # no pair model: no scores
    finally:
        await _close(s)


async def test_edits_right_after_opening_a_large_document_with_a_long_line(tmp_path):
    """The long-line scenario, shortened: a large document with one line over
    maxLineBytes, edited (on that line and on another) as soon as its first
    hints are in — while it is still being opened.  The hints of the edited
    text, the corpus once everything is counted, and the draft (the text as
    opened: both edited lines count as edited) are what they must be."""
    n = 16_000
    hyp, ref = _lazy_pair(n, 9)
    rnd = random.Random(9)
    long_words = [rnd.choice(W) for _ in range(40_000)]
    hyp[100] = " ".join(long_words)
    ref[100] = " ".join(reversed(long_words))
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    s = await _session("vscode", tmp_path, {"maxLineBytes": 50_000})
    try:
        uri = s.open("big.hyp", "\n".join(hyp) + "\n")
        first = await s.hints(uri, 0, 60)
        assert len(first) == 61
        s.change(uri, [{"range": ((100, 0), (100, 0)), "text": "the "}])
        s.change(uri, [{"range": ((5, 0), (5, 0)), "text": "was "}])
        hyp[100] = "the " + hyp[100]
        hyp[5] = "was " + hyp[5]
        hs = await s.hints(uri, 0, 60)
        assert {h.position.line: _bleu_of(h.label) for h in hs} == {
            i: round(sacrebleu.sentence_bleu(hyp[i], [ref[i]]).score, 1) for i in range(61)
        }
        c = await s.corpus(uri)
        assert c["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
        assert c["draft"]["origin"] == "cache" and c["effort"]["linesEdited"] == 2
        (h100,) = await s.hints(uri, 100, 100)
        assert _bleu_of(h100.label) == round(sacrebleu.sentence_bleu(hyp[100], [ref[100]]).score, 1)
    finally:
        await _close(s)
