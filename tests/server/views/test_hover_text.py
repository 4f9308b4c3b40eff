"""The hover text of a hypothesis line (views/render.hover_text, asked through features/hover.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from bleu_ls.server.features.hover import hover
from bleu_ls.server.pairs.manager import PairManager

from ..pairs.test_manager import FakeClient


def _hover(manager: PairManager, uri: str, line: int):
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0)
    )
    return hover(manager, params)


def test_a_line_past_the_references_says_its_finding_with_an_unedited_draft(tmp_path: Path):
    """Line 3 has no reference line: the hover says its finding.  The draft
    (the text as first seen) has nothing to say of an unedited line; that
    must leave the finding alone (it once made the hover fail)."""
    hyp = ["the cat sat on the mat", "a dog barked", "one line more"]
    (tmp_path / "a.hyp").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "a.ref").write_text("the cat sat on a mat\nthe dog barked loudly\n", encoding="utf-8")
    uri = (tmp_path / "a.hyp").as_uri()

    async def run():
        manager = PairManager(FakeClient())
        manager.roots = [tmp_path]
        manager.reload_settings()
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.pair_for(uri)
        await manager.wait_effort(pair)
        await manager.wait_scored(pair)
        assert pair.draft is not None and pair.model.n_paired == 2
        assert [f.code for f in manager.line_findings(pair, 2)] == ["line-count-mismatch"]
        got = _hover(manager, uri, 2)
        text = got.contents.value
        assert text.startswith("**Line 3**\n\n- ")
        assert "line 3 has no reference line" in text and "None" not in text
        # a paired line still has its scores
        assert "BLEU" in _hover(manager, uri, 0).contents.value
        manager.shutdown()

    asyncio.run(run())
