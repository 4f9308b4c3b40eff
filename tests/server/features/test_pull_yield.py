"""A diagnostics pull lets the inlay-hint request sent with it be answered first, waits for
nothing when none came, and waits for one to come only when the editor sent one with the
previous pulls (server/pairs/pacing.py).  The order is made here, not slept for: the hint
request is a task started beside the pull, finishing when the test says."""

from __future__ import annotations

import asyncio

from bleu_ls.server.pairs import pacing
from bleu_ls.server.pairs.pacing import Pacing

URI = "file:///w/a.hyp"


def _now() -> float:
    return asyncio.get_running_loop().time()


async def test_a_pull_with_no_hint_request_beside_it_does_not_wait(monkeypatch):
    slept: list[float] = []
    real = asyncio.sleep

    async def sleep(t, *a):
        slept.append(t)
        await real(0)

    p = Pacing()
    monkeypatch.setattr(pacing.asyncio, "sleep", sleep)
    await p.before_pull(URI)
    assert slept == [0] * pacing.TURNS  # only the turns that dispatch what was read with it
    slept.clear()
    p.hint_started("file:///w/b.hyp", _now())  # another document's hint request: not waited for
    await p.before_pull(URI)
    assert slept == [0] * pacing.TURNS


async def test_the_hint_request_read_with_the_pull_is_answered_first():
    p = Pacing()
    done = asyncio.Event()
    order: list[str] = []

    async def hint():  # as features/hints.py
        p.hint_started(URI, _now())
        await done.wait()
        order.append("hint")
        p.hint_ended(URI)

    async def pull():
        await p.before_pull(URI)
        order.append("pull")

    a = asyncio.ensure_future(pull())  # the pull is dispatched first…
    b = asyncio.ensure_future(hint())  # …and the hint request read with it just after
    for _ in range(pacing.TURNS + 2):
        await asyncio.sleep(0)
    assert order == [] and p.in_flight == {URI: 1}  # the pull waits for the hint
    done.set()
    await asyncio.wait_for(asyncio.gather(a, b), timeout=5)
    assert order == ["hint", "pull"] and p.in_flight == {} and p.paired == {URI: True}


async def test_an_editor_that_sends_a_hint_with_each_pull_has_its_late_hint_waited_for():
    p = Pacing()
    p.paired[URI] = True  # learned from the previous pulls
    order: list[str] = []
    release = asyncio.Event()

    async def pull():
        await p.before_pull(URI)
        order.append("pull")

    a = asyncio.ensure_future(pull())
    for _ in range(pacing.TURNS + 4):  # the hint request comes after the pull's turns
        await asyncio.sleep(0)
    assert order == []  # still waiting for it
    p.hint_started(URI, _now())
    await asyncio.sleep(0)
    order.append("hint")
    p.hint_ended(URI)
    release.set()
    await asyncio.wait_for(a, timeout=5)
    assert order == ["hint", "pull"]


async def test_a_hint_that_does_not_come_holds_the_pull_once_at_most_the_window(monkeypatch):
    monkeypatch.setattr(pacing, "WINDOW", 0.02)
    p = Pacing()
    p.paired[URI] = True
    t = _now()
    await asyncio.wait_for(p.before_pull(URI), timeout=5)
    assert _now() - t >= 0.02 and p.paired[URI] is False  # not waited for again until one comes
    slept: list[float] = []
    real = asyncio.sleep

    async def sleep(d, *a):
        slept.append(d)
        await real(0)

    monkeypatch.setattr(pacing.asyncio, "sleep", sleep)
    await p.before_pull(URI)
    assert slept == [0] * pacing.TURNS


async def test_a_slow_hint_request_holds_the_pull_at_most_the_window(monkeypatch):
    monkeypatch.setattr(pacing, "WINDOW", 0.02)
    p = Pacing()
    p.hint_started(URI, _now())  # never answered
    t = _now()
    await asyncio.wait_for(p.before_pull(URI), timeout=5)
    assert _now() - t >= 0.02 and p.in_flight == {URI: 1}
