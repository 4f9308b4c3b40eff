"""Opening a large document lazily (opening.py): inlay hints answered from the
lines asked for before the model is built equal sacrebleu; the model built in
the background (or at once, when something else needs it) is the same as an
eager open's; a bad reference is reported in the same words, only later."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import sacrebleu
from lsprotocol import types

from bleu_ls.server.pairs import opening
from bleu_ls.server.features.hints import inlay_hints
from bleu_ls.server.pairs.manager import PairManager
from bleu_ls.server.views.render import corpus_record

WORDS = "the a cat dog sat on mat of and to in is was it é 日本 , . !".split()


class FakeClient:
    def __init__(self) -> None:
        self.refreshes = 0
        self.shown: list[str] = []

    def text_document_publish_diagnostics(self, params) -> None:
        pass

    def window_show_message(self, params) -> None:
        self.shown.append(params.message)

    def workspace_inlay_hint_refresh(self, params) -> None:
        self.refreshes += 1


def _pair_text(n: int, seed: int = 1) -> tuple[list[str], list[str]]:
    rnd = random.Random(seed)
    ref = [" ".join(rnd.choices(WORDS, k=rnd.randint(3, 14))) for _ in range(n)]
    hyp = []
    for r in ref:
        toks = r.split()
        toks[rnd.randrange(len(toks))] = rnd.choice(WORDS)
        hyp.append(" ".join(toks) + rnd.choice(["", " ", "\t"]))  # trailing blanks are right-stripped
    return hyp, ref


def _manager(tmp_path: Path, monkeypatch, *, lazy: bool = True) -> tuple[PairManager, FakeClient]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(opening, "LAZY_OPEN_CHARS", 2_000 if lazy else 10**12)
    monkeypatch.setattr(opening, "START_DELAY", 30.0)  # the background steps wait: the preview answers
    client = FakeClient()
    manager = PairManager(client)
    manager.roots = [tmp_path]
    caps = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True))
    )
    manager.caps = caps
    manager.reload_settings()
    return manager, client


def _hints(manager: PairManager, uri: str, start: int, end: int) -> dict[int, str]:
    params = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)),
    )
    return {h.position.line: h.label for h in inlay_hints(manager, params)}


def _expected(hyp: list[str], ref: list[str], start: int, end: int) -> dict[int, str]:
    out = {}
    for i in range(start, min(end + 1, len(hyp), len(ref))):
        if hyp[i].strip():
            out[i] = f"BLEU {sacrebleu.sentence_bleu(hyp[i].rstrip(), [ref[i].rstrip()]).score:.1f}"
    return out


@pytest.mark.parametrize("brk", ["\n", "\r\n"])
def test_hints_before_the_model_equal_sacrebleu(tmp_path, monkeypatch, brk):
    hyp, ref = _pair_text(3_000)
    (tmp_path / "big.ref").write_bytes((brk.join(ref) + brk).encode("utf-8"))
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, client = _manager(tmp_path, monkeypatch)
        manager.open(uri, brk.join(hyp) + brk, 1)
        pair = manager.peek(uri)
        assert pair.preview is not None and pair.model is None  # nothing read in full yet
        assert _hints(manager, uri, 0, 60) == _expected(hyp, ref, 0, 60)
        assert _hints(manager, uri, 2_990, 3_100) == _expected(hyp, ref, 2_990, 3_100)
        assert pair.model is None
        # any other request builds the model: the same numbers, and the corpus of sacrebleu
        built = manager.pair_for(uri)
        assert built.model is not None and built.preview is None
        assert _hints(manager, uri, 0, 60) == _expected(hyp, ref, 0, 60)
        await manager.wait_scored(built)
        stripped = [h.rstrip() for h in hyp]
        assert corpus_record(built)["corpus"]["score"] == sacrebleu.corpus_bleu(stripped, [ref]).score
        manager.shutdown()

    asyncio.run(run())


def test_the_background_steps_build_the_same_model(tmp_path, monkeypatch):
    hyp, ref = _pair_text(4_000, seed=2)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch)
        monkeypatch.setattr(opening, "START_DELAY", 0.0)
        monkeypatch.setattr(opening, "STRIP_STEP", 500)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.peek(uri)
        task = pair.open_task
        assert task is not None
        await task
        assert pair.opening is None and pair.preview is None and pair.model is not None
        assert pair.model.hyp == [h.rstrip() for h in hyp] and pair.model.refs == [ref]
        assert _hints(manager, uri, 100, 160) == _expected(hyp, ref, 100, 160)
        await manager.wait_scored(pair)
        assert corpus_record(pair)["corpus"]["score"] == sacrebleu.corpus_bleu([h.rstrip() for h in hyp], [ref]).score
        manager.shutdown()

    asyncio.run(run())


def test_far_lines_while_opening_come_with_a_refresh(tmp_path, monkeypatch):
    """Above the build-now size, lines the preview cannot reach yet are left
    out and the editor is asked again once the model is built."""
    hyp, ref = _pair_text(6_000, seed=3)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, client = _manager(tmp_path, monkeypatch)
        monkeypatch.setattr(opening, "BUILD_NOW_CHARS", 0)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.peek(uri)
        assert _hints(manager, uri, 5_500, 5_560) == {}
        assert pair.model is None and pair.hints_pending
        opening.finish(manager, pair)
        await asyncio.sleep(0.5)  # the refresh request goes out after a short delay
        assert client.refreshes >= 1
        assert _hints(manager, uri, 5_500, 5_560) == _expected(hyp, ref, 5_500, 5_560)
        manager.shutdown()

    asyncio.run(run())


def test_a_request_after_an_edit_while_opening_builds_with_the_edit(tmp_path, monkeypatch):
    """The edit waits for the open (test_opening_edits.py); a request that
    needs the model builds it at once, the edit in it."""
    hyp, ref = _pair_text(3_000, seed=4)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        _hints(manager, uri, 0, 60)
        rng = types.Range(start=types.Position(line=7, character=0), end=types.Position(line=7, character=0))
        manager.change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text="the cat\n")],
            )
        )
        hyp.insert(7, "the cat")
        assert manager.peek(uri).opening is not None  # not built for the edit
        pair = manager.pair_for(uri)
        assert pair.opening is None and pair.model is not None
        assert _hints(manager, uri, 0, 20) == _expected(hyp, ref, 0, 20)
        await manager.wait_scored(pair)
        n = min(len(hyp), len(ref))
        stripped = [h.rstrip() for h in hyp[:n]]
        assert corpus_record(pair)["corpus"]["score"] == sacrebleu.corpus_bleu(stripped, [ref[:n]]).score
        manager.shutdown()

    asyncio.run(run())


@pytest.mark.parametrize(
    "late",
    [b"broken \xff\xfe line", b"nul \x00 line"],
    ids=["not-utf8", "binary"],
)
def test_a_bad_reference_is_said_in_the_same_words(tmp_path, monkeypatch, late):
    hyp, ref = _pair_text(3_000, seed=5)
    data = ("\n".join(ref[:2_500]) + "\n").encode("utf-8") + late + ("\n" + "\n".join(ref[2_501:]) + "\n").encode("utf-8")
    (tmp_path / "big.ref").write_bytes(data)
    uri = (tmp_path / "big.hyp").as_uri()
    text = "\n".join(hyp) + "\n"

    async def problems(lazy: bool) -> list[str]:
        manager, _client = _manager(tmp_path, monkeypatch, lazy=lazy)
        manager.open(uri, text, 1)
        if lazy:
            # the first lines are fine: they are answered before the file is read in full
            assert _hints(manager, uri, 0, 30) == _expected(hyp, ref, 0, 30)
        pair = manager.pair_for(uri)
        assert pair.model is None
        manager.shutdown()
        return list(pair.problems)

    async def run():
        eager = await problems(False)
        assert eager and "big.ref" in eager[0]
        assert await problems(True) == eager

    asyncio.run(run())


def _hover_while_reading(tmp_path, monkeypatch, n: int, seed: int, line: int, check) -> None:
    """Open an ``n``-line pair lazily (never built for a request), hover on
    ``line`` and hand (manager, uri, hyp, ref, hover params) to ``check``."""
    hyp, ref = _pair_text(n, seed=seed)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch)
        monkeypatch.setattr(opening, "BUILD_NOW_CHARS", 0)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0))
        try:
            check(manager, uri, hyp, ref, params)
        finally:
            manager.shutdown()

    asyncio.run(run())


def test_hover_on_a_huge_document_being_read_shows_the_scores(tmp_path, monkeypatch):
    from bleu_ls.server.features.hover import hover

    def check(manager, uri, hyp, ref, params):
        h = hover(manager, params)
        assert manager.peek(uri).model is None  # answered without building the model
        expected = sacrebleu.sentence_bleu(hyp[12].rstrip(), [ref[12]])
        assert f"BLEU {expected.score:.2f}" in h.contents.value
        assert "still reading" in h.contents.value

    _hover_while_reading(tmp_path, monkeypatch, 3_000, 6, 12, check)


def test_hover_on_a_far_line_of_a_huge_document_being_read_waits_for_nothing(tmp_path, monkeypatch):
    """A line the preview cannot reach yet: the hover says so, and nothing is
    built for it (no request waits on the rest of the open)."""
    from bleu_ls.server.features.hover import NOT_READ, hover

    def check(manager, uri, hyp, ref, params):
        h = hover(manager, params)
        pair = manager.peek(uri)
        assert pair.model is None and pair.opening is not None  # not built for the hover
        assert h.contents.value == NOT_READ
        opening.finish(manager, pair)
        h = hover(manager, params)
        expected = sacrebleu.sentence_bleu(hyp[5_800].rstrip(), [ref[5_800]])
        assert f"{expected.score:.2f}" in h.contents.value and "still reading" not in h.contents.value.lower()

    _hover_while_reading(tmp_path, monkeypatch, 6_000, 7, 5_800, check)


def test_a_ranges_semantic_tokens_wait_for_the_open_and_the_hints_go_first(tmp_path, monkeypatch):
    """VS Code asks for the visible range's semantic tokens together with the
    first hints of a file it opens: the tokens wait for the background build
    (building the model at once held those hints behind it, 0.3-0.6 s at
    100k lines), the hints are answered from the preview meanwhile, and the
    tokens are then the built pair's."""
    from bleu_ls.server.features.tokens import Tokens

    hyp, ref = _pair_text(4_000, seed=5)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch)
        monkeypatch.setattr(opening, "START_DELAY", 0.05)
        manager.init_options = {"bleuLs": {"highlights": {"unmatched": True}}}  # tokens on every line
        manager.reload_settings()
        tokens = Tokens(manager)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.peek(uri)
        params = types.SemanticTokensRangeParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=57, character=0)),
        )
        asked = asyncio.ensure_future(tokens.range(params))
        await asyncio.sleep(0)
        assert not asked.done() and pair.opening is not None and pair.model is None
        assert _hints(manager, uri, 0, 85) == _expected(hyp, ref, 0, 85)
        assert pair.model is None  # (the hints did not build it either)
        got = await asked
        assert pair.opening is None and pair.model is not None
        assert got.data and got.data == tokens.data(uri, 0, 57)
        manager.shutdown()

    asyncio.run(run())
