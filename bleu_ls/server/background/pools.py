"""Worker threads for background passes, at a lower CPU priority than the
event loop that answers the editor.

A large document keeps several passes busy at once: the first analysis
(pure Python, one core), the paired bootstrap (numpy, which lets go of the
interpreter and takes the other core), the HTER and scoring passes (worker
processes).  On a 2-core machine the event loop then waited 4–23 ms for a
core each time it woke up (measured with a watchdog thread in the server,
300k-line pair), and a 60-line hint request that costs 2 ms took 7–35 ms.
Linux gives each thread its own nice value: these threads (and the worker
processes they start, which inherit it) run at :data:`NICE` above the
server's, so a waking event loop takes a core at once while they still get
every cycle nobody else wants.  Where the priority cannot be changed the
threads run as they are.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: how much nicer than the server its background threads are (0–19)
NICE = 10
#: threads of the shared pool (an analysis, a draft pass and a long line may overlap)
SHARED_THREADS = 4


def lower_priority() -> bool:
    """Make the calling thread :data:`NICE` nicer than the process (once;
    True when its priority is now lower than the main thread's)."""
    setp = getattr(os, "setpriority", None)
    native = getattr(threading, "get_native_id", None)
    if setp is None or native is None:
        return False
    try:
        base = os.getpriority(os.PRIO_PROCESS, os.getpid())
        tid = native()
        if os.getpriority(os.PRIO_PROCESS, tid) < base + NICE:
            setp(os.PRIO_PROCESS, tid, min(19, base + NICE))
        return os.getpriority(os.PRIO_PROCESS, tid) > base
    except OSError:  # pragma: no cover - a platform without per-thread priorities
        log.debug("could not lower a worker thread's priority", exc_info=True)
        return False


def executor(name: str, threads: int = 1) -> ThreadPoolExecutor:
    """A pool whose threads run at the background priority."""
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name, initializer=lower_priority)


_shared: Optional[ThreadPoolExecutor] = None
_lock = threading.Lock()


def shared() -> ThreadPoolExecutor:
    """The pool for background steps that have no pool of their own."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = executor("bleu-ls-background", SHARED_THREADS)
        return _shared


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a background thread (as ``asyncio.to_thread``, at the
    background priority)."""
    return await asyncio.get_running_loop().run_in_executor(shared(), fn, *args)
