"""Waiting on the manager's background tasks from a request."""

from __future__ import annotations

import asyncio


async def outlive(task: "asyncio.Future") -> bool:
    """Await a background task (scoring, opening, counting) from a request:
    a cancelled request leaves the task running (CancelledError goes on up);
    True when the task finished, False when the task itself was cancelled
    (an edit or a close superseded it: the caller looks again)."""
    try:
        await asyncio.shield(task)
        return True
    except asyncio.CancelledError:
        me = asyncio.current_task()
        # Task.cancelling is Python 3.11+: on 3.10 this line raises AttributeError
        if me is not None and me.cancelling():  # type: ignore[attr-defined]
            raise  # this request was cancelled, not the task
        return False
