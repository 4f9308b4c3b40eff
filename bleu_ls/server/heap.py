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
"""

from __future__ import annotations

import gc

#: documents with at least this many lines freeze their heap after each phase
FREEZE_LINES = 20000


def settle(lines: int) -> bool:
    """A phase that built long-lived objects of a ``lines``-line document
    ended: freeze the heap when the document is large (True when it did)."""
    if lines < FREEZE_LINES:
        return False
    gc.freeze()
    return True
