"""Keeping the collector's full passes off a large document's heap.

A 1M-line document holds millions of long-lived objects that can hold no
garbage cycle (lines, rows, memo entries).  Python's full collection (the
oldest generation) walks every one of them; allocations anywhere in the
process — a request, a worker thread — trigger it every few seconds, and
each walk held the interpreter 0.5–2.8 s at 1M lines (measured with gc
callbacks while the document was scored), stopping the event loop with it.
At the end of each phase that builds such a heap (the open, the scoring
pass, the HTER pass, the paired test's draft model), :func:`settle` moves
what exists into the permanent generation (``gc.freeze``, O(1)); objects
frozen are still freed by reference counting.

While such a phase runs, :func:`quiet` also keeps the collector's
automatic passes off: the phase's own new per-line lists (a copy of a
million lines, a column of values) were walked by a full collection every
0.3–1 s, 50–190 ms each, that found nothing to collect (gc callbacks,
1M-line document being scored).  When the last such phase ends, one
collection of what is not frozen runs, the heap is frozen and the
collector is on again.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

#: documents with at least this many lines freeze their heap after each phase
FREEZE_LINES = 20000


def settle(lines: int) -> bool:
    """A phase that built long-lived objects of a ``lines``-line document
    ended: freeze the heap when the document is large (True when it did)."""
    if lines < FREEZE_LINES:
        return False
    gc.freeze()
    return True


_lock = threading.Lock()
_quiet = 0


@contextmanager
def quiet(lines: int) -> Iterator[None]:
    """Around a background phase of a ``lines``-line document (any thread,
    any task; phases may overlap): no automatic collection while the phase
    runs when the document is large; see the module doc."""
    global _quiet
    if lines < FREEZE_LINES:
        yield
        return
    with _lock:
        _quiet += 1
        if _quiet == 1:
            gc.disable()
    try:
        yield
    finally:
        with _lock:
            _quiet -= 1
            if _quiet == 0:
                gc.collect()
                gc.freeze()
                gc.enable()


def quieted() -> bool:
    """Is a phase keeping the collector off?"""
    return _quiet > 0
