"""What an editor that pulls diagnostics holds, and telling it when that is
out of date.

The server remembers, per document, the ``resultId`` it last answered a
diagnostics pull with, and which pulls it is still answering.  After an
edit (and after the ranks catch up, or adequacy values arrive) it waits
:data:`FOLLOW_DELAY` for the edits to stop, lets the analysis finish, and
sends one ``workspace/diagnostic/refresh`` only when the document's
diagnostics now differ from what the editor was last given, and no pull of
that document is being answered (that one answers the newest state).

Why: VS Code's client (vscode-languageclient 9) pulls after every change by
default and cancels the pull in flight when the next key comes; a cancelled
pull makes it forget the result id, so the next one gets the whole report
(1,000 items, ~300 KB) to convert on the extension host, which then
forwards keystrokes and asks for hints late.  The extension turns those
pulls off (``diagnosticPullOptions.onChange: false``, editors/vscode) and
this refresh drives its pulls instead, each with its ``previousResultId``,
only when something changed.  An editor that pulls after each change itself
(Neovim) has the newest ``resultId`` by the time the check runs, so it is
sent no refresh.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager, PairRole as Pair

#: Quiet time after the last change before the diagnostics are compared
#: (a burst of keys makes one check, after it).
FOLLOW_DELAY = 0.15


class PullFollower:
    """The result ids a pulling editor holds (see the module doc)."""

    def __init__(self, manager: "PairManager", publisher: Any) -> None:
        self.manager = manager
        self.publisher = publisher
        #: uri -> the result id last answered (full or unchanged)
        self.answered: dict[str, str] = {}
        #: uri -> pulls being answered now
        self.open: dict[str, int] = {}
        self._tasks: dict[str, asyncio.Task] = {}
        #: uris changed again while their check waited
        self._again: set[str] = set()
        #: refreshes sent, by uri (a count for tests and logs)
        self.refreshes: dict[str, int] = {}

    # -- the pulls ---------------------------------------------------------------
    def begin(self, uri: str) -> None:
        """A pull of ``uri`` arrived."""
        self.open[uri] = self.open.get(uri, 0) + 1

    def end(self, uri: str, rid: Optional[str]) -> None:
        """The pull of ``uri`` was answered with ``rid`` (None: not answered,
        e.g. cancelled: the editor may hold nothing known now, and pulls
        again by itself)."""
        left = self.open.get(uri, 1) - 1
        if left > 0:
            self.open[uri] = left
        else:
            self.open.pop(uri, None)
        if rid is None:
            self.answered.pop(uri, None)
        else:
            self.answered[uri] = rid

    def forget(self, uri: str) -> None:
        """The document was closed."""
        self.answered.pop(uri, None)
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()

    # -- after a change ------------------------------------------------------------
    def follow(self, pair: "Pair") -> None:
        """The pair's findings may have changed: check (soon, once) whether
        the editor's copy is out of date, and if so ask it to pull."""
        manager = self.manager
        if not manager.pull_diagnostics or not manager.workspace_cap("diagnostics"):
            return
        uri = pair.uri
        task = self._tasks.get(uri)
        if task is not None and not task.done():
            self._again.add(uri)
            return
        try:
            self._tasks[uri] = asyncio.ensure_future(self._check(pair))
        except RuntimeError:  # no event loop (a test driving the manager)
            pass

    async def _check(self, pair: "Pair") -> None:
        manager, uri = self.manager, pair.uri
        while True:
            self._again.discard(uri)
            await asyncio.sleep(FOLLOW_DELAY)
            if uri in self._again:
                continue  # still changing: wait for the newest
            await manager.wait_analysed(pair)
            if uri not in self._again:
                break
        if manager.pairs.get(uri) is not pair:
            return
        held = self.answered.get(uri)
        if held is None or self.open.get(uri):
            # never pulled (the editor pulls when it shows the document), or
            # a pull is being answered: it reads the state after this change
            return
        if self.publisher.update(pair).rid != held:
            self.refreshes[uri] = self.refreshes.get(uri, 0) + 1
            self.publisher.schedule_refresh(("diagnostics",))
