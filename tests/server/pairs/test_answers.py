"""The seam between the features and the kinds of document: the manager hands
a segment file's answers for a segment file, a line file's for a line file
(and for a URI that is no open document); both kinds answer every question of
:class:`~bleu_ls.server.roles.DocumentAnswers`, and what the seam answers is
what each kind answers itself."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest
from lsprotocol import types

from bleu_ls.server.pairs.answers import LineAnswers
from bleu_ls.server.pairs.hints import inlay_hints_encoded
from bleu_ls.server.pairs.manager import PairManager
from bleu_ls.server.roles import DocumentAnswers
from bleu_ls.server.segdocs.docs import SegmentAnswers
from bleu_ls.server.wire.protocol import Encoded

HYP = ["the cat sat on the mat", "a dog barked", "birds sing"]
REF = ["the cat sat on a mat", "the dog barked loudly", "birds sing in trees"]
PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Open the file"
msgstr "Ouvrir le fichier maintenant"

msgid "Close"
msgstr "Fermer"
'''
PO_REF = PO.replace("Ouvrir le fichier maintenant", "Ouvrir le fichier")


class FakeClient:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def _workspace(tmp_path: Path, monkeypatch) -> tuple[PairManager, str, str]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "news.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    (tmp_path / "app.ref.po").write_text(PO_REF, encoding="utf-8")
    manager = PairManager(FakeClient())
    manager.roots = [tmp_path]
    manager.reload_settings()
    line_uri, po_uri = (tmp_path / "news.hyp").as_uri(), (tmp_path / "app.hyp.po").as_uri()
    manager.open(line_uri, "\n".join(HYP) + "\n", 1)
    manager.open(po_uri, PO, 1)
    return manager, line_uri, po_uri


def _hint_params(uri: str) -> types.InlayHintParams:
    zero, end = types.Position(line=0, character=0), types.Position(line=40, character=0)
    return types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=zero, end=end))


def test_the_manager_hands_each_kind_its_answers(tmp_path, monkeypatch) -> None:
    async def run() -> None:
        manager, line_uri, po_uri = _workspace(tmp_path, monkeypatch)
        assert isinstance(manager.answers(po_uri), SegmentAnswers)
        assert isinstance(manager.answers(line_uri), LineAnswers)
        assert manager.answers(po_uri) is manager.segment_docs.answers  # one per manager: nothing made per request
        assert manager.answers(line_uri) is manager.answers(line_uri)
        assert isinstance(manager.answers((tmp_path / "other.hyp").as_uri()), LineAnswers)  # not open: "nothing"
        assert isinstance(manager.answers((tmp_path / "other.po").as_uri()), LineAnswers)
        manager.close(po_uri)
        assert isinstance(manager.answers(po_uri), LineAnswers)  # closed: no longer a segment document
        manager.shutdown()

    asyncio.run(run())


def test_the_seam_answers_what_each_kind_answers(tmp_path, monkeypatch) -> None:
    async def run() -> None:
        manager, line_uri, po_uri = _workspace(tmp_path, monkeypatch)
        await manager.wait_scored(manager.pair_for(line_uri))
        segment = await manager.answers(po_uri).hints(_hint_params(po_uri))
        assert segment == manager.segment_docs.hints(_hint_params(po_uri)) and len(segment) == 2
        line = await manager.answers(line_uri).hints(_hint_params(line_uri))
        assert isinstance(line, Encoded) and line.json == inlay_hints_encoded(manager, _hint_params(line_uri)).json
        assert line.json.count('"label"') == 3
        assert await manager.answers((tmp_path / "other.hyp").as_uri()).hints(_hint_params("x")) == []
        with pytest.raises(ValueError, match="not an open, paired hypothesis file"):
            await manager.answers((tmp_path / "other.hyp").as_uri()).next_review("file:///nowhere.hyp", 0, 0, "next")
        manager.shutdown()

    asyncio.run(run())


@pytest.mark.parametrize("kind", [LineAnswers, SegmentAnswers])
def test_each_kind_answers_every_question(kind) -> None:
    """Every method of the protocol, with its parameters and its async-ness
    (mypy checks the types where the manager returns them)."""
    asked = {name: fn for name, fn in vars(DocumentAnswers).items() if inspect.isfunction(fn) and not name.startswith("_")}
    assert {"hints", "hover", "lens", "corpus", "diagnostics", "tokens_full", "tokens_delta", "tokens_range",
            "code_actions", "next_review", "set_draft", "forget_draft", "resolve_hint"} <= set(asked)
    for name, fn in asked.items():
        answer = getattr(kind, name, None)
        assert answer is not None, f"{kind.__name__} does not answer {name}"
        assert list(inspect.signature(answer).parameters) == list(inspect.signature(fn).parameters), name
        assert inspect.iscoroutinefunction(answer) == inspect.iscoroutinefunction(fn), name
