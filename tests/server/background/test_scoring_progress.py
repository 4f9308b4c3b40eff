"""The scorer's work-done progress: the work never waits for the editor's
answer to ``window/workDoneProgress/create``, and a progress it begins
always ends.  The answer is a future these tests resolve themselves, at
the moment they choose (no timing decides an outcome)."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Optional

import pytest
from pygls.exceptions import JsonRpcInternalError

from bleu_ls.server.background import scoring

LINES = 600  # stale lines of the fake model (over the PROGRESS_LINES set below)


class FakeProgress:
    """pygls's ``work_done_progress``: records what is sent, in order; the
    answer to ``create`` is ``self.answer``, resolved by the test."""

    def __init__(self, model: "FakeModel") -> None:
        self.model = model
        self.sent: list[tuple[str, str, Any]] = []
        self.answer: asyncio.Future = asyncio.get_running_loop().create_future()
        self.gave_up = False  # the server stopped waiting for the answer

    async def create_async(self, token: str) -> None:
        self.sent.append(("create", token, None))
        try:
            return await self.answer
        except asyncio.CancelledError:
            self.gave_up = True
            raise

    def begin(self, token: str, value: Any) -> None:
        self.sent.append(("begin", token, value))
        self.model.events.append("begin")
        self.begin_left = self.model.left

    def report(self, token: str, value: Any) -> None:
        self.sent.append(("report", token, value))

    def end(self, token: str, value: Any) -> None:
        self.sent.append(("end", token, value))
        self.model.events.append("end")

    def kinds(self) -> list[str]:
        return [k for k, _, _ in self.sent]


class FakeModel:
    """Stale lines scored 8 per ``refresh`` (and as a worker's job, as the
    scorer sends some); ``on_refresh(left)`` runs after each."""

    def __init__(self, lines: int, on_refresh: Optional[Callable[[int], None]] = None) -> None:
        self.stale = set(range(lines))
        self.on_refresh = on_refresh
        self.events: list[str] = []  # "scored", "begin", "end" in the order they happened

    @property
    def left(self) -> int:
        return len(self.stale)

    def stale_count(self) -> int:
        return len(self.stale)

    def _scored(self, lines: list[int]) -> int:
        had = bool(self.stale)
        self.stale.difference_update(lines)
        if had and not self.stale:
            self.events.append("scored")
        if self.on_refresh is not None:
            self.on_refresh(len(self.stale))
        return len(self.stale)

    def refresh(self, max_lines: int, light_only: bool) -> int:
        return self._scored(sorted(self.stale)[:8])

    def stale_lines(self, k: int) -> list[int]:
        return sorted(self.stale)[:k]

    def is_long(self, i: int) -> bool:
        return False

    def line_job(self, lines: list[int]) -> Any:
        return SimpleNamespace(lines=lines, run=lambda: lines)

    def install_lines(self, job: Any, result: list[int]) -> None:
        self._scored(result)


def _session(model: FakeModel) -> tuple[scoring.Scorer, Any, FakeProgress]:
    progress = FakeProgress(model)
    manager = SimpleNamespace(
        progress_supported=True,
        client=SimpleNamespace(work_done_progress=progress),
        pairs={},
        publisher=SimpleNamespace(schedule_refresh=lambda *a: None),
    )
    pair = SimpleNamespace(
        uri="file:///w/a.hyp", path=Path("/w/a.hyp"), model=model, bg_task=None,
        baseline=None, hints_pending=False,
    )
    pair.take_baseline = lambda: setattr(pair, "baseline", "taken")
    manager.pairs[pair.uri] = pair
    return scoring.Scorer(manager), pair, progress


@pytest.fixture(autouse=True)
def _small_backlog(monkeypatch):
    monkeypatch.setattr(scoring, "PROGRESS_LINES", 100)  # progress for the fake's few hundred lines
    # the scorer's slice clock: 1 ms per reading, so a slice scores a few
    # refreshes whatever the machine's speed (then the loop turns)
    ticks = iter(range(10**9))
    monkeypatch.setattr(scoring, "time", SimpleNamespace(perf_counter=lambda: next(ticks) / 1000))


async def _turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_an_answer_after_the_scoring_ended_still_begins_and_ends_the_progress():
    model = FakeModel(LINES)
    scorer, pair, progress = _session(model)
    await scorer.start(pair)  # the answer to create is not there yet
    # scored without the answer: the request is still awaited, nothing but create sent
    assert model.left == 0 and pair.baseline == "taken"
    assert not progress.answer.done() and not progress.gave_up
    assert progress.kinds() == ["create"]
    progress.answer.set_result(None)  # the editor's answer, read long after (a busy loop)
    await _turns()
    assert progress.kinds() == ["create", "begin", "end"]
    tokens = {t for _, t, _ in progress.sent}
    assert len(tokens) == 1 and tokens.pop().startswith("bleu-ls/score/")
    begin, end = progress.sent[1][2], progress.sent[2][2]
    assert begin.percentage == 100 and begin.title == "bleu-ls: scoring"
    assert end.kind == "end"
    assert model.events == ["scored", "begin", "end"]


async def test_an_answer_while_scoring_begins_at_the_current_percentage_and_ends_after():
    model = FakeModel(LINES)
    scorer, pair, progress = _session(model)

    def answer_midway(left: int) -> None:
        if left <= LINES // 2 and not progress.answer.done():
            progress.answer.set_result(None)

    model.on_refresh = answer_midway
    await scorer.start(pair)
    await _turns()
    kinds = progress.kinds()
    assert kinds[0] == "create" and kinds[1] == "begin" and kinds[-1] == "end"
    assert kinds.count("begin") == 1 and kinds.count("end") == 1
    assert set(kinds[2:-1]) <= {"report"}  # reports only between begin and end
    # begun while lines were still stale, ended once they were all scored
    assert model.events == ["begin", "scored", "end"]
    begin = progress.sent[1][2]
    assert begin.percentage == int(100 * (LINES - progress.begin_left) / LINES)
    assert 0 < begin.percentage < 100


async def test_an_editor_answering_with_an_error_gets_no_progress_and_no_traceback(caplog):
    model = FakeModel(LINES)
    scorer, pair, progress = _session(model)
    caplog.set_level(logging.DEBUG)
    task = scorer.start(pair)
    await _turns(1)
    progress.answer.set_exception(JsonRpcInternalError("no progress here"))
    await task
    await _turns()
    assert model.left == 0 and pair.baseline == "taken"
    assert progress.kinds() == ["create"]
    del task
    gc.collect()  # an exception nobody retrieved would be logged here
    await _turns()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text


async def test_a_small_backlog_or_an_editor_without_progress_asks_for_none():
    model = FakeModel(50)  # under PROGRESS_LINES
    scorer, pair, progress = _session(model)
    await scorer.start(pair)
    assert model.left == 0 and progress.kinds() == []
    model = FakeModel(LINES)
    scorer, pair, progress = _session(model)
    scorer.manager.progress_supported = False
    await scorer.start(pair)
    assert model.left == 0 and progress.kinds() == []


class HeavyModel(FakeModel):
    """``heavy`` lines are left by the light refresh (as TER of a long line is); the lines a
    worker's job scored are recorded."""

    def __init__(self, lines: int, heavy: set[int]) -> None:
        super().__init__(lines)
        self.heavy = heavy
        self.by_job: list[int] = []

    def refresh(self, max_lines: int, light_only: bool) -> int:
        return self._scored([i for i in sorted(self.stale) if i not in self.heavy][:8])

    def install_lines(self, job: Any, result: list[int]) -> None:
        self.by_job.extend(result)
        super().install_lines(job, result)


async def test_a_slice_that_ends_at_its_deadline_sends_no_light_line_to_a_worker():
    """A slice stopped by its deadline with light lines left goes on with them here: only the
    lines the light refresh leaves are sent to the worker thread."""
    heavy = {5, 300, 599}
    model = HeavyModel(LINES, heavy)
    scorer, pair, progress = _session(model)
    progress.answer.set_result(None)
    await scorer.start(pair)
    assert model.left == 0
    assert set(model.by_job) == heavy
