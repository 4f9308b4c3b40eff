"""The pair manager's lifecycle without a client: open, edit, close, settings, shutdown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sacrebleu
from lsprotocol import types

from bleu_ls.server.pairs.manager import PairManager
from bleu_ls.server.views.render import corpus_record, label_for


class FakeClient:
    """Records what the manager would send to the editor."""

    def __init__(self) -> None:
        self.published: list[types.PublishDiagnosticsParams] = []
        self.shown: list[str] = []

    def text_document_publish_diagnostics(self, params) -> None:
        self.published.append(params)

    def window_show_message(self, params) -> None:
        self.shown.append(params.message)


HYP = ["the cat sat on the mat", "a dog barked", ""]
REF = ["the cat sat on a mat", "the dog barked loudly", "nothing here"]


def _workspace(tmp_path: Path) -> str:
    (tmp_path / "news.hyp").write_text("\n".join(HYP) + "\n", encoding="utf-8")
    (tmp_path / "news.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    return (tmp_path / "news.hyp").as_uri()


def _manager(tmp_path: Path) -> tuple[PairManager, FakeClient]:
    client = FakeClient()
    manager = PairManager(client)
    manager.roots = [tmp_path]
    manager.reload_settings()
    return manager, client


def test_open_scores_against_the_reference_and_close_forgets(tmp_path):
    uri = _workspace(tmp_path)

    async def run():
        manager, client = _manager(tmp_path)
        manager.open(uri, "\n".join(HYP) + "\n", 1)
        pair = manager.pair_for(uri)
        assert pair is not None and pair.model is not None
        await manager.wait_scored(pair)
        record = corpus_record(pair)
        assert record["corpus"]["score"] == sacrebleu.corpus_bleu(HYP, [REF]).score
        label = label_for(pair.model, 0, pair.settings.hints)
        assert label == f"BLEU {sacrebleu.sentence_bleu(HYP[0], [REF[0]]).score:.1f}"
        diags, _ = manager.diagnostics(pair)
        assert {str(d.code) for d in diags} >= {"empty-hypothesis"}
        manager.close(uri)
        assert manager.pair_for(uri) is None and uri not in manager.docs
        assert client.published[-1].uri == uri and client.published[-1].diagnostics == []
        manager.shutdown()

    asyncio.run(run())


def test_an_edit_rescores_the_line(tmp_path):
    uri = _workspace(tmp_path)

    async def run():
        manager, _client = _manager(tmp_path)
        manager.open(uri, "\n".join(HYP) + "\n", 1)
        pair = manager.pair_for(uri)
        edit = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=12)),
            text="the dog barked loudly",
        )
        manager.change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2), content_changes=[edit]
            )
        )
        await manager.wait_scored(pair)
        new_hyp = [HYP[0], "the dog barked loudly", HYP[2]]
        assert pair.model.corpus("bleu").score == sacrebleu.corpus_bleu(new_hyp, [REF]).score
        assert pair.model.line_value("bleu", 1) == sacrebleu.sentence_bleu(new_hyp[1], [REF[1]]).score
        manager.shutdown()

    asyncio.run(run())


def test_shutdown_stops_polling_and_background_work(tmp_path):
    uri = _workspace(tmp_path)

    async def run():
        manager, _client = _manager(tmp_path)
        manager.watcher.start_polling()
        manager.open(uri, "\n".join(HYP) + "\n", 1)
        assert manager.watcher.polling
        manager.shutdown()
        await asyncio.sleep(0)
        assert not manager.watcher.polling
        assert not manager.scorer.pool_running
        pair = manager.pair_for(uri)
        assert pair.push_task is None or pair.push_task.done()

    asyncio.run(run())


def test_settings_change_unpairs_a_file_no_longer_hypothesis_like(tmp_path):
    uri = _workspace(tmp_path)

    async def run():
        manager, client = _manager(tmp_path)
        manager.open(uri, "\n".join(HYP) + "\n", 1)
        assert manager.pair_for(uri) is not None
        manager.client_settings = {"conventions": False}
        manager.settings_changed()
        assert manager.pair_for(uri) is None
        assert client.published[-1].diagnostics == []
        manager.shutdown()

    asyncio.run(run())
