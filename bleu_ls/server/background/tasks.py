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
        cancelling = getattr(me, "cancelling", None)  # Python 3.11+
        if cancelling is not None:
            if cancelling():
                raise  # this request was cancelled, not the task
            return False
        if not task.cancelled():  # 3.10: the task goes on, so the request was cancelled
            raise
        return False
