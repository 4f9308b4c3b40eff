"""Refresh requests: a burst of changes makes one request of each kind, and
a kind whose request is still unanswered is not sent again until the answer
comes (then once more, for what changed meanwhile)."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from types import SimpleNamespace

from bleu_ls.server.views import publish
from bleu_ls.server.views.publish import Publisher


class Client:
    def __init__(self) -> None:
        self.sent: list = []

    def _send(self, kind):
        fut: Future = Future()
        self.sent.append((kind, fut))
        return fut

    def workspace_inlay_hint_refresh(self, _p):
        return self._send("inlay_hint")

    def workspace_diagnostic_refresh(self, _p):
        return self._send("diagnostics")

    # no code lens / semantic tokens methods: those kinds are skipped, not the rest


def _manager(client):
    caps = {"inlay_hint", "diagnostics", "code_lens"}
    return SimpleNamespace(client=client, pull_diagnostics=True, workspace_cap=lambda name: name in caps)


def test_one_outstanding_request_per_kind(monkeypatch):
    monkeypatch.setattr(publish, "REFRESH_DELAY", 0.0)

    async def run():
        client = Client()
        pub = Publisher(_manager(client))
        for _ in range(5):  # a burst
            pub.schedule_refresh()
        await asyncio.sleep(0.02)
        assert sorted(k for k, _f in client.sent) == ["diagnostics", "inlay_hint"]
        pub.schedule_refresh(("diagnostics",))
        pub.schedule_refresh(("diagnostics",))
        await asyncio.sleep(0.02)
        assert len(client.sent) == 2  # the first diagnostics refresh is unanswered
        fut = next(f for k, f in client.sent if k == "diagnostics")
        fut.set_result(None)  # the editor answers: the one wanted since goes out
        await asyncio.sleep(0.02)
        assert [k for k, _f in client.sent[2:]] == ["diagnostics"]
        await asyncio.sleep(0.02)
        assert len(client.sent) == 3

    asyncio.run(run())
