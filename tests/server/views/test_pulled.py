"""The refresh after a change (views/pulled.py): sent once a burst of changes
is over, only when the diagnostics differ from what the editor last pulled,
never while a pull of the document is being answered, never for a document
the editor has not pulled."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bleu_ls.server.views import pulled
from bleu_ls.server.views.pulled import PullFollower

URI = "file:///a.hyp"


class Publisher:
    def __init__(self) -> None:
        self.rid = "r1"
        self.refreshes: list = []
        self.updates = 0

    def update(self, pair):
        self.updates += 1
        return SimpleNamespace(rid=self.rid)

    def schedule_refresh(self, kinds):
        self.refreshes.append(kinds)


def _setup(pull: bool = True, refresh: bool = True):
    pair = SimpleNamespace(uri=URI)
    manager = SimpleNamespace(
        pairs={URI: pair},
        pull_diagnostics=pull,
        workspace_cap=lambda name: refresh,
    )

    async def wait_analysed(_pair):
        await asyncio.sleep(0)

    manager.wait_analysed = wait_analysed
    pub = Publisher()
    return pair, pub, PullFollower(manager, pub)


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(pulled, "FOLLOW_DELAY", 0.02)


async def _settled(f: PullFollower) -> None:
    """Until the follower's checks are over (whatever the machine's load: no fixed sleep)."""
    while any(not t.done() for t in f._tasks.values()):
        await asyncio.sleep(0.005)


def test_only_when_the_diagnostics_differ_from_the_last_pull():
    async def run():
        pair, pub, f = _setup()
        f.begin(URI)
        f.end(URI, "r1")
        for _ in range(5):  # a burst of keys: one check, after it
            f.follow(pair)
            await asyncio.sleep(0)
        await _settled(f)
        assert pub.refreshes == [] and pub.updates == 1  # nothing changed
        pub.rid = "r2"
        f.follow(pair)
        await _settled(f)
        assert pub.refreshes == [("diagnostics",)]
        f.begin(URI)
        f.end(URI, "r2")  # the editor pulled
        f.follow(pair)
        await _settled(f)
        assert len(pub.refreshes) == 1

    asyncio.run(run())


def test_not_while_a_pull_is_answered_nor_before_the_first_nor_after_a_cancelled_one():
    async def run():
        pair, pub, f = _setup()
        pub.rid = "r2"
        f.follow(pair)  # never pulled: the editor pulls when it shows the document
        await _settled(f)
        assert pub.refreshes == []
        f.begin(URI)
        f.follow(pair)  # a pull is being answered: it answers the newest state
        await _settled(f)
        assert pub.refreshes == []
        f.end(URI, None)  # cancelled: the editor pulls again by itself
        f.follow(pair)
        await _settled(f)
        assert pub.refreshes == []
        f.begin(URI)
        f.end(URI, "r1")
        f.follow(pair)
        await _settled(f)
        assert pub.refreshes == [("diagnostics",)]

    asyncio.run(run())


@pytest.mark.parametrize("pull,refresh", [(False, True), (True, False)])
def test_not_for_push_clients_or_clients_without_refresh(pull, refresh):
    async def run():
        pair, pub, f = _setup(pull, refresh)
        f.begin(URI)
        f.end(URI, "r0")
        f.follow(pair)
        await _settled(f)
        assert pub.refreshes == [] and pub.updates == 0

    asyncio.run(run())


def test_a_closed_document_is_forgotten():
    async def run():
        pair, pub, f = _setup()
        f.begin(URI)
        f.end(URI, "r0")
        f.follow(pair)
        f.forget(URI)
        await _settled(f)
        assert pub.refreshes == [] and URI not in f.answered

    asyncio.run(run())
