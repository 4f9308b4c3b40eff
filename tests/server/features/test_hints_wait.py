"""An edited line too expensive to count inside the edit (TER over its cheap
length) is counted in the worker thread; an inlay-hint request for it waits
for that count (the event loop free) instead of leaving the line out and
asking the editor to come back."""

from __future__ import annotations

import asyncio
import random

from lsprotocol import types
from sacrebleu.metrics import TER

from bleu_ls.server.pairs import hints  # HEAVY_WAIT is read there
from bleu_ls.server.features.hints import inlay_hints, wait_for_heavy_lines

from ..pairs.test_opening import _manager

REF = ["the cat sat on the mat", "a dog barked at the postman", "birds sing in old trees"]


def _params(uri: str, start: int, end: int) -> types.InlayHintParams:
    return types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)),
    )


def test_a_request_waits_for_an_edited_heavy_line(tmp_path, monkeypatch):
    monkeypatch.setattr(hints, "HEAVY_WAIT", 120.0)  # the count always ends first: no timing in the test
    (tmp_path / "job.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    hyp = ["the cat sat on a mat", "a dog", "birds sing"]
    uri = (tmp_path / "job.hyp").as_uri()
    rnd = random.Random(5)
    vocab = "the cat sat on a mat dog barked at postman train leaves noon birds sing old trees".split()
    new = " ".join(rnd.choice(vocab) for _ in range(90))

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch, lazy=False)
        manager.init_options = {"bleuLs": {"ter": {"enabled": True}, "bleu": {"enabled": False}}}
        manager.reload_settings()
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.pair_for(uri)
        await manager.wait_scored(pair)
        rng = types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=len(hyp[1])))
        manager.change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)],
            )
        )
        model = pair.model
        assert model.is_heavy(1) and not model.scored_mask(1, 2)[0]  # left to the worker thread
        assert await wait_for_heavy_lines(manager, _params(uri, 0, 3))
        labels = {h.position.line: h.label for h in inlay_hints(manager, _params(uri, 0, 3))}
        assert labels[1] == f"TER {TER().sentence_score(new, [REF[1]]).score:.1f}"
        manager.shutdown()

    asyncio.run(run())
