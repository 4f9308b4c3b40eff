"""Background passes run below the event loop's CPU priority."""

import asyncio
import os
import subprocess
import sys
import threading

import pytest

from bleu_ls.server.background import pools as background, scoring

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _child_nice() -> int:
    out = subprocess.run([sys.executable, "-c", "import os; print(os.getpriority(os.PRIO_PROCESS, 0))"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_a_background_step_runs_nicer_than_the_loop_and_its_processes_inherit_it():
    base = _nice()
    if base + background.NICE > 19:
        pytest.skip("this process is already as nice as it gets")

    async def main():
        return await background.run(lambda: (_nice(), threading.get_native_id(), _child_nice()))

    inside, tid, child = asyncio.run(main())
    assert tid != threading.get_native_id()
    assert inside == base + background.NICE
    assert child == base + background.NICE  # a worker process started there
    assert _nice() == base  # the calling thread kept its priority


def test_a_dedicated_pool_and_its_worker_processes_run_nicer():
    base = _nice()
    if base + background.NICE > 19:
        pytest.skip("this process is already as nice as it gets")
    # a forkserver left by an earlier test (started from this, un-niced,
    # thread) would fork the worker: the server stops it after every pass
    # (scoring.in_worker_processes), so each pass starts its own from the
    # background thread
    scoring.stop_helper_processes()
    pool = background.executor("bleu-ls-test")
    try:
        inside = pool.submit(_nice).result(60)
        # a pass in worker processes (forkserver) started from that thread
        in_process = pool.submit(scoring.run_in_process, os.getpriority, os.PRIO_PROCESS, 0).result(120)
    finally:
        pool.shutdown()
    assert inside == base + background.NICE
    assert in_process == base + background.NICE
    assert _nice() == base
