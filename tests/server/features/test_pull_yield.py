"""A diagnostics pull lets the inlay-hint request that came with it be answered first, and
waits for nothing when none did (features/diagnostics.py: let_hints_through).  The order is
made here, not slept for: the hint request is a task started beside the pull, finishing when
the test says."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bleu_ls.server.features import diagnostics

URI = "file:///w/a.hyp"


async def test_a_pull_with_no_hint_request_beside_it_does_not_wait(monkeypatch):
    slept: list[float] = []
    real = asyncio.sleep

    async def sleep(t, *a):
        slept.append(t)
        await real(0)

    monkeypatch.setattr(diagnostics.asyncio, "sleep", sleep)
    await diagnostics.let_hints_through(SimpleNamespace(hints_in_flight={}), URI)
    assert slept == [0] * diagnostics.TURNS  # only the turns that dispatch what was read with it
    # a hint request of another document is not waited for either
    slept.clear()
    await diagnostics.let_hints_through(SimpleNamespace(hints_in_flight={"file:///w/b.hyp": 1}), URI)
    assert slept == [0] * diagnostics.TURNS


async def test_the_hint_request_read_with_the_pull_is_answered_first():
    manager = SimpleNamespace(hints_in_flight={})
    done = asyncio.Event()
    order: list[str] = []

    async def hint():  # as features/hints.py: counted while it is answered
        manager.hints_in_flight[URI] = 1
        await done.wait()
        order.append("hint")
        del manager.hints_in_flight[URI]

    async def pull():
        await diagnostics.let_hints_through(manager, URI)
        order.append("pull")

    p = asyncio.ensure_future(pull())  # the pull is dispatched first…
    h = asyncio.ensure_future(hint())  # …and the hint request read with it just after
    for _ in range(diagnostics.TURNS + 2):
        await asyncio.sleep(0)
    assert order == [] and manager.hints_in_flight == {URI: 1}  # the pull waits for the hint
    done.set()
    await asyncio.wait_for(asyncio.gather(p, h), timeout=5)
    assert order == ["hint", "pull"]


async def test_a_slow_hint_request_holds_the_pull_at_most_the_limit(monkeypatch):
    monkeypatch.setattr(diagnostics, "YIELD_SECONDS", 0.02)
    manager = SimpleNamespace(hints_in_flight={URI: 1})  # never answered
    loop = asyncio.get_running_loop()
    t = loop.time()
    await asyncio.wait_for(diagnostics.let_hints_through(manager, URI), timeout=5)
    assert loop.time() - t >= 0.02
