"""The term scan of a whole document in worker processes, beside the other rules.

A one-off pass over a large document (``bleu-ls check``) looks for the glossary's terms on
every line: at 100,000 lines of a dense glossary that is seconds of work in one process,
while the other rules keep that process busy and the machine's other cores idle.
:func:`start` forks worker processes that scan the lines while the caller goes on;
:meth:`Scan.result` gives each line's findings (:meth:`.index.TermIndex.scan`), exactly
what the same scan gives in the caller's process.

The workers are forked: they share the index and the lines with the caller as it was when
they started (nothing is pickled on the way there; only the findings come back).  Where a
fork is not how processes start (not Linux) or the pool fails, :func:`start` gives None or
:meth:`Scan.result` raises, and the caller scans in its own process.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Optional, Sequence

log = logging.getLogger(__name__)

#: lines below which a document is scanned in the caller's process (a fork and the findings'
#: way back cost more than the scan saves)
MIN_LINES = 4000

#: the job the forked workers read: (index, hypothesis lines, source lines or None, skip,
#: the codes' severities)
_JOB: Optional[tuple] = None


def scan_line(index: Any, line: str, src: Optional[str], skip: Callable[[str], bool],
              severity: Optional[tuple] = None) -> tuple:
    """The findings of one line pair (with the codes' ``severity``, :meth:`.index.TermIndex.scan`):
    none for a line (or source line) that ``skip`` says is not read (over the length cap)."""
    if skip(line) or (src is not None and skip(src)):
        return ()
    return index.scan(src or None, line, severity)


def _scan(bounds: tuple[int, int]) -> list[tuple[int, tuple]]:
    """(line, findings) of the lines [lo, hi) that have any (run in a forked worker)."""
    assert _JOB is not None, "a worker forked without its job"
    index, hyp, source, skip, severity = _JOB
    lo, hi = bounds
    ns = len(source) if source is not None else 0
    out = []
    for i in range(lo, hi):
        found = scan_line(index, hyp[i], source[i] if source is not None and i < ns else None, skip, severity)
        if found:
            out.append((i, found))
    return out


class Scan:
    """A scan under way: the findings of every line with any, in line order."""

    def __init__(self, pool: ProcessPoolExecutor, parts: list[Future]) -> None:
        self._pool, self._parts = pool, parts

    def result(self) -> list[tuple[int, tuple]]:
        """(line, findings) for every line with any, in order (waits for the workers);
        raises what a worker or the pool raised."""
        try:
            return [x for part in self._parts for x in part.result()]
        finally:
            self.close()

    def close(self) -> None:
        global _JOB
        self._pool.shutdown(wait=True, cancel_futures=True)
        _JOB = None


def start(index: Any, hyp: Sequence[str], source: Optional[Sequence[str]], n: int,
          skip: Callable[[str], bool], processes: int, severity: Optional[tuple] = None) -> Optional[Scan]:
    """Scan lines [0, n) in ``processes`` forked workers; None when it is not worth it (few
    lines, one process) or processes are not forked here."""
    global _JOB
    if processes < 1 or n < MIN_LINES or not sys.platform.startswith("linux"):
        return None
    if _JOB is not None:  # (another scan is under way in this process)
        return None
    _JOB = (index, hyp, source, skip, severity)
    try:
        pool = ProcessPoolExecutor(processes, mp_context=mp.get_context("fork"))
        chunks = 4 * processes
        bounds = [round(n * k / chunks) for k in range(chunks + 1)]
        parts = [pool.submit(_scan, (a, b)) for a, b in zip(bounds, bounds[1:]) if a < b]
    except Exception:  # (no fork context, no process to start)
        log.debug("the term scan's worker processes did not start", exc_info=True)
        _JOB = None
        return None
    return Scan(pool, parts)

