"""The BLAS held at one thread while the adequacy encoder runs.

A matrix product's rounding depends on how many threads share it, and the processes that
encode (``bleu-ls check``, the server's worker) start their BLAS with different counts: every
encoding holds it at one (:func:`one_blas_thread`), so that both find the same similarities to
the last bit.  Its own module: the encoder (``qe_encoder``) and the embedding (``qe``) both hold it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any, Iterator

log = logging.getLogger(__name__)


#: the process's BLAS libraries (a ``threadpoolctl.ThreadpoolController``
#: found once; False: it cannot be had), whether that was said, and the lock
#: of their thread count
_BLAS: dict[str, Any] = {}
_BLAS_LOCK = threading.RLock()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[bool]:
    """Every BLAS library of the process at one thread for the ``with`` block;
    yields whether each was found there (read back), else says once that it
    is not (``threadpoolctl`` missing, or a library that keeps its count).

    A matrix product's rounding depends on how many threads share it (OpenBLAS
    0.3.31 on a 2-core AMD EPYC gave a row other bits at 2 threads than at 1,
    for a batch of one text as for a full one), and the processes that encode
    start with different counts: ``bleu-ls check`` the BLAS's default (a
    thread per core, or what ``OPENBLAS_NUM_THREADS`` says in the user's
    shell), the server's worker one (:data:`.qe_background.WORKER_ENV`).  So
    every text is encoded at one thread, whatever the process or its
    environment set, and the count is put back after.  The lock keeps two
    threads of a process from putting it back under each other."""
    with _BLAS_LOCK:
        ctl: Any = _BLAS.get("ctl")
        if ctl is None:
            try:
                from threadpoolctl import ThreadpoolController

                ctl = ThreadpoolController().select(user_api="blas")
            except Exception as exc:  # (a dependency: missing only from a broken install)
                log.debug("no threadpoolctl: %s", exc)
                ctl = False
            _BLAS["ctl"] = ctl
        if ctl is False:
            _say_blas_not_held("threadpoolctl is missing")
            yield False
            return
        with ctl.limit(limits=1):
            counts = [c.num_threads for c in ctl.lib_controllers]
            held = all(n == 1 for n in counts)
            if not held:
                _say_blas_not_held(f"thread counts {counts}")
            yield held


def _say_blas_not_held(why: str) -> None:
    if not _BLAS.get("said"):
        _BLAS["said"] = True
        log.warning("adequacy: the BLAS could not be held at one thread (%s): similarities may differ in "
                    "their last bits between `bleu-ls check` and the editor", why)
