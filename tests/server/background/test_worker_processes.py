"""A long line counted in a worker process does not outlive the server."""

import threading
import time

import pytest

from bleu_ls.server.background import scoring


def test_run_in_process_returns_the_result_and_raises_the_error():
    assert scoring.run_in_process(divmod, 17, 5) == (3, 2)
    with pytest.raises(ZeroDivisionError):
        scoring.run_in_process(divmod, 1, 0)


def test_stopping_the_worker_processes_ends_a_count_in_progress():
    outcome: list = []

    def count():
        try:
            outcome.append(scoring.run_in_process(time.sleep, 120))
        except Exception as exc:  # the killed worker's call raises
            outcome.append(exc)

    thread = threading.Thread(target=count, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not scoring._LIVE and time.monotonic() < deadline:
        time.sleep(0.05)
    assert scoring._LIVE, "the worker process never started"
    scoring.stop_worker_processes()
    thread.join(60)  # the count itself would take 120 s
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], RuntimeError), outcome
    assert not scoring._LIVE
