"""Waiting on a background task from a request: a cancelled task says False,
a cancelled request goes on up and leaves the task running; on Python 3.10
(no ``Task.cancelling``) the two are told apart by the task's own state."""

from __future__ import annotations

import asyncio

import pytest

from bleu_ls.server.background import tasks
from bleu_ls.server.background.tasks import outlive


class _Plain:
    """A current task as Python 3.10 has it: no ``cancelling``."""


@pytest.fixture(params=["3.11+", "3.10"])
def version(request, monkeypatch):
    if request.param == "3.10":
        monkeypatch.setattr(tasks.asyncio, "current_task", lambda: _Plain())
    return request.param


async def test_a_cancelled_task_is_false(version):
    gate = asyncio.Event()
    work = asyncio.ensure_future(gate.wait())
    waiter = asyncio.ensure_future(outlive(work))
    await asyncio.sleep(0)
    work.cancel()
    assert await waiter is False


async def test_a_cancelled_request_goes_on_up_and_the_task_runs_on(version):
    gate = asyncio.Event()
    work = asyncio.ensure_future(gate.wait())
    waiter = asyncio.ensure_future(outlive(work))
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert not work.done()
    gate.set()
    assert await work is True
