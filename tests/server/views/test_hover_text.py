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


def test_the_first_hover_of_a_large_file_leaves_its_first_analysis_to_a_worker(tmp_path: Path, monkeypatch):
    """Over THREAD_LINES lines the file's first analysis is large: a hover sent
    right after the open must not run it on the event loop (every other
    request would wait for it).  The first pass is held at a gate in its
    worker thread: meanwhile the hover answers with the line's scores and says
    the findings are being checked, a hint request and the code lens are
    answered, and no analysis runs on the loop.  Once the pass is let go, the
    hover lists the line's finding and the lens counts the flagged lines."""
    import json
    import threading

    from bleu_ls.qa.analysis import Analyzer
    from bleu_ls.server.features.lens import code_lens
    from bleu_ls.server.views.publish import THREAD_LINES
    from bleu_ls.server.views.render import CHECKING

    n = THREAD_LINES + 500
    hyp = [f"the cat number {i} sat on the mat" for i in range(n)]
    hyp[3] = ""  # an empty line where the reference has words: a finding
    ref = [f"the cat number {i} sat on a mat" for i in range(n)]
    (tmp_path / "big.hyp").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    gate, entered = threading.Event(), threading.Event()
    on_loop: list[int] = []  # the analyses run on the event loop while the gate is shut
    real = Analyzer.analyse_lines

    def gated(self, model, *args, **kwargs):
        if threading.get_ident() == loop_thread:
            if not gate.is_set():
                on_loop.append(len(model.hyp))
        else:
            entered.set()
            gate.wait(60)
        return real(self, model, *args, **kwargs)

    monkeypatch.setattr(Analyzer, "analyse_lines", gated)
    loop_thread = threading.get_ident()

    async def run():
        manager = PairManager(FakeClient())
        # an editor that pulls diagnostics: nothing but the requests here asks for the analysis
        manager.caps = types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(diagnostic=types.DiagnosticClientCapabilities()))
        manager.roots = [tmp_path]
        manager.reload_settings()
        lens_params = types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        try:
            manager.open(uri, "\n".join(hyp) + "\n", 1)
            first = _hover(manager, uri, 3)
            assert on_loop == []
            assert first is not None and CHECKING in first.contents.value
            assert "**Reference:** " in first.contents.value  # what is known is said
            # the hover started the pass: it is in its worker thread now, held at the gate
            assert await asyncio.get_running_loop().run_in_executor(None, entered.wait, 60)
            hints = await asyncio.wait_for(manager.answers(uri).hints(_hint_params(uri, 0, 60)), 30)
            got = json.loads(hints.json)  # (a line file's hints: sent as ready JSON text)
            assert set(range(60)) <= {h["position"]["line"] for h in got}  # every line asked for scored
            assert all("BLEU" in str(h["label"]) for h in got)
            [lens] = await asyncio.wait_for(code_lens(manager, lens_params), 30)
            assert lens.command is not None and "BLEU" in lens.command.title
            assert "flagged" not in lens.command.title  # (not counted yet)
            again = _hover(manager, uri, 3)
            assert again is not None and CHECKING in again.contents.value
            assert on_loop == []
        finally:
            gate.set()
        pair = manager.pair_for(uri)
        await manager.wait_analysed(pair)
        found = manager.line_findings(pair, 3)
        assert found and all(f.line == 3 for f in found)
        text = _hover(manager, uri, 3).contents.value
        assert CHECKING not in text
        for f in found:
            assert f"- {f.message}" in text
        [lens] = await code_lens(manager, lens_params)
        assert "flagged line" in lens.command.title
        manager.shutdown()

    asyncio.run(run())


def _hint_params(uri: str, start: int, end: int) -> types.InlayHintParams:
    return types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                 range=types.Range(start=types.Position(line=start, character=0),
                                                   end=types.Position(line=end, character=0)))
