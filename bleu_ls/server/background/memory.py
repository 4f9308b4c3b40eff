"""The server's C heap: one arena for every thread, and freed memory given
back to the system after a large background step.

The first analysis of a large document and the batch scoring pass run in
worker threads.  glibc serves each thread from its own heap ("arena") and
keeps what a thread freed there for later instead of returning it: at 100k
lines the first analysis left ~240 MB of freed memory in the process
(scripts/memory_profile.py --trim shows it).  ``release()`` asks glibc to
return it (``malloc_trim``); elsewhere (another C library) it does nothing.
Call it from a worker thread: it walks the heaps (milliseconds).

``one_heap()`` (called once at start, before any thread) makes every thread
allocate from the main heap: the per-thread heaps held ~45 MB of pages that
their few live objects pinned at 100k lines (211 instead of 255 MB in
scripts/memory_profile.py; the threads run Python under one lock anyway).
It also keeps glibc's threshold for mapping a large block apart at 128 KiB
(glibc raises it after large frees): the server at 100k lines, 216 -> 203 MB.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Any, Optional

from ...engine.tokenizers import forget_words

log = logging.getLogger(__name__)

_libc: Any = None  # None: not looked up yet; False: not glibc
#: glibc's mallopt parameter for the number of heaps ("arenas")
M_ARENA_MAX = -8
#: glibc's mallopt parameter for the size from which a block is mapped apart
M_MMAP_THRESHOLD = -3
#: glibc's initial mapping threshold, kept fixed
MMAP_THRESHOLD = 128 * 1024


def _glibc() -> Optional[Any]:
    global _libc
    if _libc is None:
        _libc = False
        try:
            # the process's own symbols (the C library among them): no library
            # search, which would run ``ldconfig`` in a subprocess
            libc = ctypes.CDLL(None)
            libc.malloc_trim.argtypes, libc.malloc_trim.restype = [ctypes.c_size_t], ctypes.c_int
            libc.mallopt.argtypes, libc.mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
            _libc = libc
        except (OSError, AttributeError):  # not glibc
            log.debug("malloc_trim / mallopt not available", exc_info=True)
    return _libc or None


def one_heap() -> bool:
    """Every thread allocates from the main heap from now on, and a block of
    128 KiB or more is always mapped apart (and unmapped when freed);
    True when set."""
    libc = _glibc()
    if libc is None:
        return False
    # glibc raises the mapping threshold after each large free (up to 32 MiB):
    # then the large arrays of a pass land in the heap and pin its pages
    return bool(libc.mallopt(M_ARENA_MAX, 1)) and bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def release() -> bool:
    """A large step ended: drop the word caches it filled (engine
    ``forget_words``: ~8 MB at 100k lines; an edit re-tokenizes only its
    own words) and return the C heap's free memory to the system; True
    when the heap was trimmed."""
    forget_words()
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
