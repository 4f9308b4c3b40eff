"""Background scoring of a pair's stale lines.

Long work (scoring a large file after it is opened or after lines were
inserted) runs as a background task: big backlogs through the engine's
vectorised batch pass in a worker (processes, off the event loop), the rest
in slices of a few milliseconds separated by real pauses, so pygls' reader
keeps handing over messages and requests are answered meanwhile.

Heavy lines (the model's ``is_heavy``: TER of a long line, a line over the
``maxLineBytes`` cap) are never counted on the event loop: they go to the
worker thread as a ``LineJob`` (a line over the cap to a worker process,
where even one long regular-expression call cannot hold this process's
lock), and their rows are installed when the lines did not change meanwhile.

A large backlog is shown as work-done progress (:class:`Progress`): asked of
the editor when the work starts, never waited for; begun when the editor's
answer is read, ended once the work is over, however late the answer.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, TypeVar

import numpy as np
from lsprotocol import types

from ...engine import LineJob, PairModel, PairSnapshot
from ...engine.batch import first_pass
from . import pools, heap
from . import memory
from .tasks import outlive

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)

#: A batch pass's rows are installed this many lines per event-loop turn.
INSTALL_LINES = 20_000
#: Show work-done progress when at least this many lines wait to be scored.
PROGRESS_LINES = 5000
#: One background scoring slice (seconds), then a real pause.  Short: pygls
#: reads each stdio message in about six event-loop turns (executor round
#: trips), and every turn waits for a slice; with 20 ms slices a client
#: typing 100 edits/s while lines are inserted outran the server and the
#: backlog grew without bound (tests/hardening/test_load.py).
SLICE_SECONDS = 0.005
PAUSE_SECONDS = 0.002
#: At least this many stale lines go through the engine's batch pass.
BATCH_LINES = 5000
#: Heavy lines counted by one job in the worker thread.
JOB_LINES = 32



#: One pass in worker processes at a time (the scorer's and the draft's run
#: in different threads): the helpers are stopped after a pass, never under
#: another one.
PROCESS_PASS = threading.Lock()

T = TypeVar("T")
#: a batch pass's rows: ``{key: (stats rows, scores)}`` (``engine.batch.first_pass``)
Rows = Mapping[str, tuple[np.ndarray, np.ndarray]]


def in_worker_processes(fn: Callable[[], T]) -> T:
    """Run ``fn`` (a pass in worker processes) alone, then let the helpers exit."""
    with PROCESS_PASS:
        try:
            return fn()
        finally:
            stop_helper_processes()


def stop_helper_processes() -> None:
    """Let the forkserver and the resource tracker that a pass in worker
    processes starts exit once it is over (about 27 MB of RSS between them
    while the document stays open); the next pass starts them again.  Both
    are private to multiprocessing: skipped when they are not there."""
    import multiprocessing.forkserver as forkserver
    import multiprocessing.resource_tracker as resource_tracker

    for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
        stop = getattr(helper, "_stop", None)
        if stop is None:
            continue
        try:
            stop()
        except Exception:  # pragma: no cover - best effort
            log.debug("could not stop %r", helper, exc_info=True)

#: worker processes counting one long line each (killed when the server stops)
_LIVE: set[BaseProcess] = set()


def _child(conn: Connection, fn: Callable[..., object], args: tuple[object, ...]) -> None:
    try:
        result = (True, fn(*args))
    except BaseException as exc:  # sent back and raised in the server
        result = (False, exc)
    conn.send(result)
    conn.close()


def run_in_process(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in one worker process (a line so long that even a regular
    expression over it would hold this process's interpreter lock too long).
    Call it from a worker thread; ``fn`` and ``args`` must pickle.  The process
    is killed when the server stops (:func:`stop_worker_processes`): counting a
    10 MB line takes tens of seconds, and an editor closing the server must not
    wait for it."""
    import multiprocessing as mp

    def call() -> T:
        ctx = mp.get_context("forkserver")
        receive, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
        proc.start()
        send.close()
        _LIVE.add(proc)
        try:
            ok, value = receive.recv()
        except EOFError:
            raise RuntimeError("the worker process counting a long line stopped") from None
        finally:
            _LIVE.discard(proc)
            receive.close()
            proc.join()
        if not ok:
            raise value
        return value

    return in_worker_processes(call)


def stop_worker_processes() -> None:
    """Kill the worker processes still counting long lines (the server stops)."""
    for proc in list(_LIVE):
        try:
            proc.kill()
        except Exception:  # pragma: no cover - already gone
            pass


def _in_process(job: LineJob) -> dict[str, list[tuple[list[int], float]]]:
    """``job.run()`` in a worker process (one line over the length cap)."""
    return run_in_process(job.run)


class Scorer:
    """One background task per pair; one worker thread for batch passes."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        self._pool: Optional[ThreadPoolExecutor] = None

    def start(self, pair: "Pair") -> asyncio.Task:
        if pair.bg_task is None or pair.bg_task.done():
            pair.bg_task = asyncio.ensure_future(self._run(pair))
        return pair.bg_task

    async def wait(self, pair: "Pair") -> None:
        """Until every paired line of the pair is scored (other requests go on)."""
        while pair.model is not None and pair.model.stale_count():
            task = self.start(pair)
            if not await outlive(task) and pair.uri not in self.manager.pairs:
                return

    @property
    def pool_running(self) -> bool:
        return self._pool is not None

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        stop_worker_processes()

    async def _run(self, pair: "Pair") -> None:
        model = pair.model
        if model is None:
            return
        total = model.stale_count()
        with heap.quiet(total):
            await self._score(pair, model, total)

    async def _score(self, pair: "Pair", model: PairModel, total: int) -> None:
        progress = self._progress(pair, total)  # asked of the editor; the work starts at once
        try:
            while pair.model is model and model.stale_count() >= BATCH_LINES:
                before = model.stale_count()
                await self._batch_pass(pair, model)
                if model.stale_count() >= before:
                    break  # nothing installed (batch failed): go line by line
            await self._sliced_pass(pair, model, progress, total)
        finally:
            if progress is not None:
                progress.finish("scored")
        if pair.model is model and not model.stale_count():
            if pair.baseline is None:
                pair.take_baseline()
            if pair.hints_pending:
                pair.hints_pending = False
                self.manager.publisher.schedule_refresh()

    def _progress(self, pair: "Pair", total: int) -> Optional["Progress"]:
        """The work-done progress of scoring ``total`` lines (None: too few
        lines, or an editor that shows none); never waited for."""
        if total < PROGRESS_LINES or not self.manager.progress_supported:
            return None
        return Progress.ask(
            self.manager.client.work_done_progress,
            f"bleu-ls/score/{uuid.uuid4()}",
            title="bleu-ls: scoring",
            message=f"{pair.path.name}: {total:,} lines",
        )

    async def _batch_pass(self, pair: "Pair", model: PairModel) -> None:
        """Score a snapshot with the engine's vectorised batch pass, off the
        event loop (worker processes), then install the rows of lines that
        did not change meanwhile."""
        snap = model.snapshot()
        loop = asyncio.get_running_loop()

        def run() -> Rows:
            try:
                return in_worker_processes(
                    # (snap is deleted below only after this call is awaited)
                    lambda: first_pass(
                        snap.metrics, snap.hyp, snap.refs, workers=None, start_method="forkserver"  # noqa: F821
                    )
                )
            except Exception:
                log.warning("batch scoring in worker processes failed; scoring in this process", exc_info=True)
                return first_pass(snap.metrics, snap.hyp, snap.refs, workers=1)  # noqa: F821

        try:
            result = await loop.run_in_executor(self._executor(), run)
        except Exception:
            log.exception("batch scoring failed; scoring line by line")
            return
        await self._install(pair, model, result, snap)
        if pair.model is model:
            heap.settle(model.n_hyp)
        del result, snap
        # the pass's freed buffers (worker thread's heap) go back to the system, off the loop
        await loop.run_in_executor(self._executor(), memory.release)

    @staticmethod
    async def _install(pair: "Pair", model: PairModel, result: Rows, snap: PairSnapshot) -> None:
        """Install a batch pass's rows in slices of ``INSTALL_LINES`` with a
        turn of the event loop between them (lines edited meanwhile are
        skipped, as by ``install``)."""
        for start in range(0, len(snap.hyp), INSTALL_LINES):
            if pair.model is not model:
                return
            model.install_range(result, snap, start, start + INSTALL_LINES)
            await asyncio.sleep(PAUSE_SECONDS)

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = pools.executor("bleu-ls-batch")
        return self._pool

    async def _heavy_job(self, pair: "Pair", model: PairModel, lines: list[int]) -> None:
        """Count heavy ``lines`` off the event loop; install what still applies."""
        long = [i for i in lines if model.is_long(i)]
        job = model.line_job(long[:1] if long else lines[:JOB_LINES])
        run = (lambda: _in_process(job)) if long else job.run
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._executor(), run)
        except Exception:
            log.exception("scoring lines %s off the event loop failed; scoring them here", job.lines[:5])
            result = job.run()
        if pair.model is model:
            model.install_lines(job, result)

    async def _sliced_pass(self, pair: "Pair", model: PairModel, progress: Optional["Progress"], total: int) -> None:
        last_report = time.perf_counter()
        while pair.model is model and pair.uri in self.manager.pairs:
            left = model.stale_count()
            if not left:
                break
            deadline = time.perf_counter() + SLICE_SECONDS
            before = left
            heavy_only = False
            while left and time.perf_counter() < deadline:
                left = model.refresh(max_lines=64, light_only=True)
                if left == before:
                    heavy_only = True  # only heavy lines are left
                    break
                before = left
            total = max(total, left)
            if progress is not None:  # before each wait: a begin sent meanwhile shows where scoring is
                progress.note(*_where(left, total))
            if left and heavy_only:  # (a slice ended by its deadline goes on here with the light lines)
                await self._heavy_job(pair, model, model.stale_lines(JOB_LINES * 4))
                left = model.stale_count()
            if progress is not None:
                total = max(total, left)
                now = time.perf_counter()
                if now - last_report > 0.2:
                    last_report = now
                    progress.report(*_where(left, total))
                else:
                    progress.note(*_where(left, total))
            await asyncio.sleep(PAUSE_SECONDS)


def _where(left: int, total: int) -> tuple[str, int]:
    """A progress message and percentage: ``left`` of ``total`` lines to score."""
    return f"{left:,} lines left", int(100 * (total - left) / total) if total else 100


class Progress:
    """A work-done progress that never holds up the work it shows.

    :meth:`ask` sends ``window/workDoneProgress/create`` and returns at once;
    the editor's answer is handled whenever the event loop reads it (a busy
    loop — a large open, a first hover — can take seconds, longer than any
    wait the work could afford).  The answer sends ``begin`` with the latest
    message and percentage (:meth:`note`, :meth:`report`); reports follow
    only once begun; :meth:`finish` sends ``end`` when begun.  An answer that
    comes after the work finished sends ``begin`` and ``end`` together, so
    a created token is always closed (the protocol leaves a created token
    open until its ``end``; a finished progress shown for an instant is
    what an editor shows of any short task).  An editor that answers with an error (or a server
    that stops before the answer) gets nothing more.

    ``work_done_progress`` is pygls's (``create_async``, ``begin``,
    ``report``, ``end``).
    """

    def __init__(self, work_done_progress: Any, token: str, title: str, message: str) -> None:
        self._progress = work_done_progress
        self.token = token
        self.title = title
        self.message = message
        self.percentage = 0
        #: "asked" (no answer yet), "begun", "ended" or "refused" (an error answer)
        self.state = "asked"
        self._finished: Optional[str] = None  # the end message, once the work is over

    @classmethod
    def ask(cls, work_done_progress: Any, token: str, title: str, message: str) -> "Progress":
        """Ask the editor to create the progress; returns without waiting."""
        self = cls(work_done_progress, token, title, message)
        answer = asyncio.ensure_future(work_done_progress.create_async(token))
        answer.add_done_callback(self._answered)
        return self

    def _answered(self, answer: "asyncio.Future[Any]") -> None:
        if answer.cancelled():
            self.state = "refused"
            return
        exc = answer.exception()  # (retrieved: no "exception never retrieved" at exit)
        if exc is not None:
            log.debug("the editor refused the work-done progress %s: %r", self.token, exc)
            self.state = "refused"
            return
        self.state = "begun"
        try:  # (a callback of the loop: nothing above it to catch what the pipe raises)
            self._progress.begin(
                self.token,
                types.WorkDoneProgressBegin(
                    title=self.title, message=self.message, percentage=self.percentage, cancellable=False
                ),
            )
            if self._finished is not None:
                self._end()
        except Exception:
            log.debug("could not send the work-done progress %s", self.token, exc_info=True)

    def note(self, message: str, percentage: int) -> None:
        """Where the work is (sent by the next :meth:`report`, or in ``begin``)."""
        self.message, self.percentage = message, percentage

    def report(self, message: str, percentage: int) -> None:
        """Note where the work is and show it, if begun."""
        self.note(message, percentage)
        if self.state == "begun":
            self._progress.report(self.token, types.WorkDoneProgressReport(message=message, percentage=percentage))

    def finish(self, message: str) -> None:
        """The work is over: ``end`` now if begun, else when the answer comes."""
        if self._finished is not None:
            return
        self._finished = message
        self.message, self.percentage = message, 100
        if self.state == "begun":
            self._end()

    def _end(self) -> None:
        self.state = "ended"
        self._progress.end(self.token, types.WorkDoneProgressEnd(message=self._finished))
