"""Inlay hints are rendered once per statistics row (features/hints.py keeps
label and tooltip by the line's rows) and sent as ready JSON text: after
random edits every label is still sacrebleu's score of the line as it is
now, every tooltip the breakdown of it, and the JSON text is what pygls'
converter makes of the same hints as objects."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import sacrebleu
from lsprotocol import converters, types
from sacrebleu.metrics import TER

from bleu_ls.server.features.hints import inlay_hints, inlay_hints_encoded

from ..pairs.test_opening import FakeClient, _pair_text
from bleu_ls.server.pairs.manager import PairManager

EXTRA = ["the", "a", "Köln", "😀", "日本", "nicht", "mat"]


def _params(uri: str, start: int, end: int) -> types.InlayHintParams:
    return types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)),
    )


def _manager(tmp_path, resolve: bool) -> PairManager:
    manager = PairManager(FakeClient())
    manager.roots = [tmp_path]
    hint_caps = types.InlayHintClientCapabilities(
        resolve_support=types.ClientInlayHintResolveOptions(properties=["tooltip"]) if resolve else None
    )
    manager.caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(inlay_hint=hint_caps))
    manager.init_options = {"bleuLs": {"ter": {"enabled": True}, "hints": {"hter": True}}}
    manager.reload_settings()
    return manager


@pytest.mark.parametrize("resolve", [False, True])
def test_hints_after_random_edits_equal_sacrebleu_and_their_json_the_converters(tmp_path, resolve):
    hyp, ref = _pair_text(40, seed=3)
    hyp = [h.rstrip() for h in hyp]
    draft = list(hyp)
    (tmp_path / "r.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "r.hyp").as_uri()
    conv = converters.get_converter()
    ter, hter = TER(), TER(case_sensitive=True)
    rnd = random.Random(7)

    async def run():
        manager = _manager(tmp_path, resolve)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.pair_for(uri)
        await manager.wait_scored(pair)
        for version in range(2, 32):
            params = _params(uri, 0, 40)
            got = inlay_hints(manager, params)
            assert len(got) == len([h for h in hyp if h.strip()])
            for h in got:
                i = h.position.line
                bleu = sacrebleu.sentence_bleu(hyp[i], [ref[i]]).score
                want = (f"BLEU {bleu:.1f} · TER {ter.sentence_score(hyp[i], [ref[i]]).score:.1f}"
                        f" · HTER {hter.sentence_score(draft[i], [hyp[i]]).score:.1f}")
                assert h.label == want, (i, hyp[i])
                if resolve:
                    assert h.tooltip is None and h.data["line"] == i
                else:
                    assert h.tooltip.value.startswith(f"**BLEU {bleu:.2f}**")
            assert json.loads(inlay_hints_encoded(manager, params).json) == conv.unstructure(got)
            # edit a line: a word in or out, or a line copied from another (same rows, other line)
            i = rnd.randrange(40)
            words = hyp[i].split()
            r = rnd.random()
            if r < 0.3:
                new = hyp[rnd.randrange(40)]
            elif r < 0.6 and len(words) > 1:
                words.pop(rnd.randrange(len(words)))
                new = " ".join(words)
            else:
                words.insert(rnd.randrange(len(words) + 1), rnd.choice(EXTRA))
                new = " ".join(words)
            old_len = len(hyp[i].encode("utf-16-le")) // 2
            manager.change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=i, character=0),
                                          end=types.Position(line=i, character=old_len)),
                        text=new)],
                )
            )
            hyp[i] = new
            await asyncio.sleep(0)
        manager.shutdown()

    asyncio.run(run())


def test_a_heavy_line_still_counting_adds_no_hter_part_to_its_hint() -> None:
    """While a long line's HTER is counted in the background its hint has no HTER part
    (the hover says it is being counted); the hint never carries the hover's sentence."""
    from types import SimpleNamespace

    from bleu_ls.server.views.effort_render import hter_label

    class Effort:
        lines = ["a long line"]
        fresh = [False]

        def heavy(self, i: int) -> bool:
            return True

        def line(self, i: int):
            return {"score": 12.5}

    pair = SimpleNamespace(effort=Effort())
    assert hter_label(pair, 0, "HTER {hter:.1f}", "HTER {hter:.1f}") is None
    Effort.fresh = [True]
    assert hter_label(pair, 0, "HTER {hter:.1f}", "HTER {hter:.1f}") == "HTER 12.5"
