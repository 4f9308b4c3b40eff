"""Giving freed memory back to the system after a large background step.

The first analysis of a large document and the batch scoring pass run in
worker threads.  glibc serves each thread from its own heap ("arena") and
keeps what a thread freed there for later instead of returning it: at 100k
lines the first analysis left ~240 MB of freed memory in the process
(scripts/memory_profile.py --trim shows it).  ``release()`` asks glibc to
return it (``malloc_trim``); elsewhere (another C library) it does nothing.
Call it from a worker thread: it walks the heaps (milliseconds).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any, Optional

log = logging.getLogger(__name__)

_trim: Any = None  # None: not looked up yet; False: not available


def _lookup() -> Optional[Any]:
    global _trim
    if _trim is None:
        _trim = False
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            fn = libc.malloc_trim
            fn.argtypes, fn.restype = [ctypes.c_size_t], ctypes.c_int
            _trim = fn
        except (OSError, AttributeError):  # not glibc
            log.debug("malloc_trim not available", exc_info=True)
    return _trim or None


def release() -> bool:
    """Return the C heap's free memory to the system; True when done."""
    fn = _lookup()
    if fn is None:
        return False
    fn(0)
    return True
