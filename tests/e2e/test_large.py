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
