"""How a diagnostics pull lets the inlay-hint request sent with it be answered first.

Neovim (and VS Code when it pulls on a change) sends an inlay-hint request together with the
diagnostics pull after each edit.  The hints of the edited lines are what the translator looks
at, and they cost little; the pull's analysis costs more.  So a pull of a document first lets a
few event-loop turns pass (the requests read with it are dispatched), then

- waits while an inlay-hint request of the same document is being answered;
- when this editor has sent a hint request right after each pull of the document (learned from
  the last pulls), waits for it to come;

each at most :data:`WINDOW` after the pull came, and no longer than needed: a pull with no hint
request beside it waits for nothing (a fixed sleep here cost every pull its length).
"""

from __future__ import annotations

import asyncio

#: The longest a pull waits for the hint request of its document (seconds from its start).
WINDOW = 0.004
#: Event-loop turns a pull lets pass before it looks (the requests read with it dispatched).
TURNS = 16
#: How often a waiting pull looks again.
POLL_SECONDS = 0.0005


class Pacing:
    """The hint requests being answered, and whether an editor sends one with each pull, by URI."""

    def __init__(self) -> None:
        #: uri -> inlay-hint requests being answered now
        self.in_flight: dict[str, int] = {}
        #: uri -> when the last inlay-hint request / the last pull came (event-loop time)
        self.hint_at: dict[str, float] = {}
        self.pull_at: dict[str, float] = {}
        #: uri -> the last hint request came within WINDOW after a pull
        self.paired: dict[str, bool] = {}

    def hint_started(self, uri: str, now: float) -> None:
        self.in_flight[uri] = self.in_flight.get(uri, 0) + 1
        self.hint_at[uri] = now
        pulled = self.pull_at.get(uri)
        if pulled is not None and 0 <= now - pulled <= WINDOW:
            self.paired[uri] = True

    def hint_ended(self, uri: str) -> None:
        left = self.in_flight.get(uri, 1) - 1
        if left > 0:
            self.in_flight[uri] = left
        else:
            self.in_flight.pop(uri, None)

    def forget(self, uri: str) -> None:
        for d in (self.in_flight, self.hint_at, self.pull_at, self.paired):
            d.pop(uri, None)

    async def before_pull(self, uri: str) -> None:
        """Let the hint request that came with a pull of ``uri`` be answered first (see the module)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        self.pull_at[uri] = start
        for _ in range(TURNS):
            await asyncio.sleep(0)
        deadline = start + WINDOW
        came = lambda: self.hint_at.get(uri, -1.0) >= start  # noqa: E731
        if self.paired.get(uri) and not self.in_flight.get(uri) and not came():
            while not came() and loop.time() < deadline:  # this editor sends one with each pull
                await asyncio.sleep(POLL_SECONDS)
            if not came():
                self.paired[uri] = False  # not this time: do not wait for it again until one comes
        while self.in_flight.get(uri) and loop.time() < deadline:
            await asyncio.sleep(POLL_SECONDS)
