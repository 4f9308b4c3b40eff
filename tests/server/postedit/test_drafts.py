"""The draft in the pair manager (no client): where it comes from, HTER
against it after edits, the paired test against it, bad draft files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from sacrebleu.metrics import BLEU, TER
from sacrebleu.significance import PairedTest

from bleu_ls.server.pairs.manager import PairManager
from bleu_ls.server.views.render import corpus_record, hover_text, lens_title

from ..pairs.test_manager import FakeClient

DRAFT = ["the cat sat on the mat", "a dog barked", "It rains today", "birds sing in the trees"]
REF = ["the cat sat on a mat", "the dog barked loudly", "it is raining today", "birds are singing in trees"]


def _manager(tmp_path: Path) -> PairManager:
    manager = PairManager(FakeClient())
    manager.roots = [tmp_path]
    manager.reload_settings()
    return manager


def _edit(manager: PairManager, uri: str, version: int, line: int, old_len: int, text: str, end_line=None) -> None:
    end = types.Position(line=line if end_line is None else end_line, character=old_len)
    manager.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line, character=0), end=end), text=text
                )
            ],
        )
    )



def test_first_seen_text_is_the_draft_and_an_edit_changes_hter(tmp_path):
    (tmp_path / "a.hyp").write_text("\n".join(DRAFT) + "\n", encoding="utf-8")
    (tmp_path / "a.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    uri = (tmp_path / "a.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(DRAFT) + "\n", 1)
        pair = manager.pair_for(uri)
        assert pair.draft is not None and pair.draft_origin == "cache"
        await manager.wait_effort(pair)
        assert pair.effort.corpus()["score"] == 0.0
        _edit(manager, uri, 2, 2, len(DRAFT[2]), "it is raining today")
        post = [DRAFT[0], DRAFT[1], "it is raining today", DRAFT[3]]
        ter = TER(case_sensitive=True)
        assert pair.effort.line(2)["score"] == ter.sentence_score(DRAFT[2], [post[2]]).score
        await manager.wait_effort(pair)
        corpus = pair.effort.corpus()
        assert corpus["score"] == ter.corpus_score(DRAFT, [post]).score
        assert corpus["linesEdited"] == 1
        assert "HTER" in lens_title(pair) and "1 line edited" in lens_title(pair)
        hover = hover_text(pair, 2)
        assert "~~It rains~~" in hover and "**it is raining**" in hover
        # a line inserted after the draft has no draft partner
        _edit(manager, uri, 3, 4, 0, "a new line\n")
        assert "no draft line" in hover_text(pair, 4)
        manager.shutdown()

    asyncio.run(run())


def test_the_paired_test_equals_sacrebleu(tmp_path):
    (tmp_path / "a.hyp").write_text("\n".join(DRAFT) + "\n", encoding="utf-8")
    (tmp_path / "a.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    uri = (tmp_path / "a.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(DRAFT) + "\n", 1)
        pair = manager.pair_for(uri)
        _edit(manager, uri, 2, 1, len(DRAFT[1]), "the dog barked loudly")
        post = [DRAFT[0], "the dog barked loudly", DRAFT[2], DRAFT[3]]
        for _ in range(200):
            await asyncio.sleep(0.05)
            if pair.paired.get("bleu", {}).get("paired") and pair.paired_task.done():
                break
        rec = corpus_record(pair)["metrics"]["bleu"]["paired"]
        _, res = PairedTest([("d", DRAFT), ("p", post)], {"m": BLEU()}, [REF], test_type="bs", n_samples=1000)()
        base, system = next(v for k, v in res.items() if k != "System")
        assert (rec["baseline"]["score"], rec["baseline"]["mean"], rec["baseline"]["ci"]) == (
            base.score, base.mean, base.ci)
        assert (rec["system"]["score"], rec["system"]["mean"], rec["system"]["ci"], rec["system"]["p_value"]) == (
            system.score, system.mean, system.ci, system.p_value)
        assert f"vs draft, p = {system.p_value:.4f}" in lens_title(pair)
        manager.shutdown()

    asyncio.run(run())


@pytest.mark.parametrize(
    "content,word",
    [(None, "missing"), (b"a\x00b\n", "binary"), (b"caf\xe9\n", "not UTF-8")],
)
def test_a_bad_draft_file_says_so_in_a_word(tmp_path, content, word):
    (tmp_path / "b.hyp").write_text("one two\n", encoding="utf-8")
    (tmp_path / "b.ref").write_text("one three\n", encoding="utf-8")
    (tmp_path / "bleu-ls.toml").write_text(
        '[[pairs]]\nhypothesis = "*.hyp"\nreferences = ["{stem}.ref"]\ndraft = "{stem}.mt0"\n', encoding="utf-8"
    )
    if content is not None:
        (tmp_path / "b.mt0").write_bytes(content)
    uri = (tmp_path / "b.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "one two\n", 1)
        pair = manager.pair_for(uri)
        assert pair.draft is None and pair.model is not None
        await manager.wait_scored(pair)
        assert f"draft: {word}" in lens_title(pair)
        assert word in hover_text(pair, 0)
        manager.shutdown()

    asyncio.run(run())


def test_draft_file_by_convention_without_a_reference(tmp_path):
    (tmp_path / "c.hyp").write_text("Das ist gut\n", encoding="utf-8")
    (tmp_path / "c.draft").write_text("das ist schlecht\n", encoding="utf-8")
    uri = (tmp_path / "c.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "Das ist gut\n", 1)
        pair = manager.pair_for(uri)
        assert pair.model is None and pair.draft_origin == "file"
        await manager.wait_effort(pair)
        rec = corpus_record(pair)
        ter = TER(case_sensitive=True)
        assert rec["effort"]["score"] == ter.corpus_score(["das ist schlecht"], [["Das ist gut"]]).score
        assert rec["effort"]["linesEdited"] == 1
        assert lens_title(pair).startswith("HTER")
        manager.shutdown()

    asyncio.run(run())


def test_an_unwritable_cache_keeps_the_draft_for_the_session(tmp_path, monkeypatch):
    (tmp_path / "d.hyp").write_text("one two\n", encoding="utf-8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    uri = (tmp_path / "d.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "one two\n", 1)
        pair = manager.pair_for(uri)
        assert pair.draft is not None and pair.draft.draft == ["one two"]
        _edit(manager, uri, 2, 0, 7, "one three")
        await manager.wait_effort(pair)
        assert pair.effort.corpus()["linesEdited"] == 1
        assert "for this session only" in hover_text(pair, 0)
        assert corpus_record(pair)["draft"]["problem"] == "draft kept for this session only"
        manager.shutdown()

    asyncio.run(run())


def test_a_draft_file_of_another_line_count_is_aligned(tmp_path):
    post = ["title", "first line", "an added line", "second line"]
    (tmp_path / "e.hyp").write_text("\n".join(post) + "\n", encoding="utf-8")
    (tmp_path / "e.draft").write_text("title\nfirst line\nsecond line\n", encoding="utf-8")
    uri = (tmp_path / "e.hyp").as_uri()

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(post) + "\n", 1)
        pair = manager.pair_for(uri)
        assert [pair.draft.draft_line(i) for i in range(4)] == ["title", "first line", None, "second line"]
        assert "no draft line" in hover_text(pair, 2)
        assert "Unchanged" in hover_text(pair, 3)
        await manager.wait_effort(pair)
        rec = corpus_record(pair)["effort"]
        ter = TER(case_sensitive=True)
        assert rec["score"] == ter.corpus_score(["title", "first line", "", "second line"], [post]).score
        assert (rec["linesEdited"], rec["linesNew"]) == (1, 1)
        manager.shutdown()

    asyncio.run(run())


def test_a_draft_differing_on_many_lines_is_counted_in_worker_processes(tmp_path, monkeypatch):
    """Many lines to count: the TER batch in worker processes counts them
    (while an edit lands meanwhile, whose line is counted afresh); every row
    and the corpus equal sacrebleu's TER(case_sensitive=True), the draft line
    as hypothesis and the current line as reference."""
    import random

    from bleu_ls.server.postedit import drafts, effort as effort_mod

    monkeypatch.setattr(effort_mod, "BATCH_LINES", 50)
    monkeypatch.setattr(drafts, "BATCH_LINES", 50)
    rnd = random.Random(4)
    words = "the cat sat on a mat dog barked It rains today birds sing in trees".split()
    draft = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(1, 14))) for _ in range(120)]
    post = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(0, 14))) if i % 3 else d for i, d in enumerate(draft)]
    (tmp_path / "m.hyp").write_text("\n".join(post) + "\n", encoding="utf-8")
    (tmp_path / "m.draft").write_text("\n".join(draft) + "\n", encoding="utf-8")
    uri = (tmp_path / "m.hyp").as_uri()
    calls = []
    real_batch = drafts._batch

    async def counting_batch(pair, effort):
        calls.append(effort.stale_count())
        await real_batch(pair, effort)

    monkeypatch.setattr(drafts, "_batch", counting_batch)

    async def run():
        from bleu_ls.engine.ter_batch import ter_alignments

        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(post) + "\n", 1)
        pair = manager.pair_for(uri)
        # a batch counted elsewhere while line 5 is edited: its row is not taken
        job = pair.effort.batch_job()
        results = ter_alignments(pair.effort.metric, job[1], [job[2]], workers=2, start_method="forkserver")
        _edit(manager, uri, 2, 5, len(post[5]), "a brand new line")
        post[5] = "a brand new line"
        assert pair.effort.install(job, results) == len(job[0]) - 1
        assert not pair.effort.fresh[5]
        _edit(manager, uri, 3, 7, len(post[7]), "")  # more rows to count: the batch path again
        post[7] = ""
        pair.effort.fresh[:] = False  # as if none were counted
        pair.effort.totals[:] = 0
        await manager.wait_effort(pair)
        assert calls and calls[0] >= 50
        ter = TER(case_sensitive=True)
        for i in range(len(post)):
            got = pair.effort.line(i)
            want = ter.sentence_score(draft[i], [post[i]])
            assert (got["score"], got["num_edits"]) == (want.score, want.num_edits), i
        assert pair.effort.corpus()["score"] == ter.corpus_score(draft, [post]).score
        manager.shutdown()

    asyncio.run(run())


def test_a_line_expensive_to_align_is_aligned_off_the_event_loop(tmp_path, monkeypatch):
    """A long, heavily edited line: its HTER row is counted in a worker thread
    (installed afterwards, not computed in the slices) and equals sacrebleu's."""
    import threading


    (tmp_path / "h.hyp").write_text("\n".join(DRAFT) + "\n", encoding="utf-8")
    (tmp_path / "h.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    uri = (tmp_path / "h.hyp").as_uri()
    long_line = " ".join(f"w{(i * 7) % 23}" for i in range(60))
    where = []

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(DRAFT) + "\n", 1)
        pair = manager.pair_for(uri)
        await manager.wait_effort(pair)
        metric = pair.effort.metric
        best = metric.alignments

        def spy(h, rs):
            where.append(threading.current_thread() is threading.main_thread())
            return best(h, rs)

        monkeypatch.setattr(metric, "alignments", spy)
        _edit(manager, uri, 2, 1, len(DRAFT[1]), long_line)
        await manager.wait_effort(pair)
        assert where and not any(where)  # aligned in a worker thread only
        post = [DRAFT[0], long_line, *DRAFT[2:]]
        ter = TER(case_sensitive=True)
        assert pair.effort.line(1)["score"] == ter.sentence_score(DRAFT[1], [long_line]).score
        assert pair.effort.corpus()["score"] == ter.corpus_score(DRAFT, [post]).score
        manager.shutdown()

    asyncio.run(run())


def test_an_edits_hter_is_counted_after_the_edit_path_and_equals_sacrebleu(tmp_path, monkeypatch):
    """The edited line's HTER row is not counted by the edit nor in the loop
    turns right after it (where the editor's hint request waits): the fill
    waits for a quiet moment; asked for meanwhile, the corpus counts it on
    demand; left alone, the fill counts it.  Both equal sacrebleu's."""
    from bleu_ls.server.postedit import effort as effort_mod

    (tmp_path / "q.hyp").write_text("\n".join(DRAFT) + "\n", encoding="utf-8")
    (tmp_path / "q.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    uri = (tmp_path / "q.hyp").as_uri()
    ter = TER(case_sensitive=True)

    async def run():
        manager = _manager(tmp_path)
        manager.open(uri, "\n".join(DRAFT) + "\n", 1)
        pair = manager.pair_for(uri)
        await manager.wait_effort(pair)
        # 1. deferred: still stale after the edit and a few loop turns; the corpus counts it when asked
        monkeypatch.setattr(effort_mod, "EDIT_QUIET", 3600.0)
        _edit(manager, uri, 2, 2, len(DRAFT[2]), "it is raining today")
        post = [DRAFT[0], DRAFT[1], "it is raining today", DRAFT[3]]
        for _ in range(6):
            await asyncio.sleep(0)
        effort = pair.effort
        assert not effort.fresh[2] and not pair.effort_task.done()
        corpus = effort.corpus()
        assert corpus["pending"] == 0 and corpus["score"] == ter.corpus_score(DRAFT, [post]).score
        pair.effort_task.cancel()
        # 2. left alone: the fill counts the edited line once the document is quiet
        monkeypatch.setattr(effort_mod, "EDIT_QUIET", 0.01)
        _edit(manager, uri, 3, 1, len(DRAFT[1]), "the dog barked loudly")
        post[1] = "the dog barked loudly"
        assert not effort.fresh[1]
        await asyncio.wait_for(manager.wait_effort(pair), timeout=60)
        assert effort.fresh[1]
        row = effort.rows[1].tolist()
        want = ter.sentence_score(DRAFT[1], [post[1]])
        assert row[0] == want.num_edits and row[1] == want.ref_length * effort_mod.UNITS
        assert effort.corpus()["score"] == ter.corpus_score(DRAFT, [post]).score
        manager.shutdown()

    asyncio.run(run())
