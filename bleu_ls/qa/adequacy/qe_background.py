"""Adequacy values from a worker process, for the language server.

:class:`BackgroundAdequacy` answers :meth:`~BackgroundAdequacy.line_values`
at once from its cache (per (source, line, *references) text) and hands
every line it has no value for to one worker process, which encodes them
with the sentence encoder of :mod:`.qe` and computes their chrF; when values
arrive it calls ``on_ready`` (from its reader thread), and the next analysis
finds them.  Lines without a value yet are not judged yet.

Why a process and not a thread: the encoder's tokenizer is pure Python and
its forward pass holds the GIL between numpy calls; measured with the event
loop running a 1 ms task in a loop while 1,058 lines were encoded, a worker
thread stretched the loop's turns to 53 ms at the 99th percentile (197 ms at
worst), a worker process left them as when idle (scripts/qe_loop_lag.py).

The worker is started on first need (``python -m bleu_ls.qa.adequacy.qe_background``,
lower CPU priority), reads one JSON request per line on stdin and writes one
JSON answer per line on stdout; it exits when its stdin closes, which this
side does after ``IDLE_SECONDS`` without work (it holds 45-80 MB, see
:mod:`.qe_encoder`, and its embeddings; the next line to encode starts it
again).  Edited lines
(small requests) jump the queue of a document's first pass (large requests,
sent in chunks); one request is in flight at a time.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from collections import OrderedDict
from typing import IO, Callable, Iterable, Optional, Sequence, TextIO

import numpy as np

from ...engine import common_splice
from ..text import has_letter
from .qe import LineValues, chrf_values, cosine, embed

log = logging.getLogger(__name__)

#: a request with at most this many lines is an edit (sent before the backlog)
EDIT_LINES = 32
#: lines per request of a first pass (similarities)
CHUNK = 128
#: lines per request of chrF alone (no encoding: cheap)
CHRF_CHUNK = 2048
#: embeddings of source lines the worker keeps, by text (2 KB each; the least
#: recently used go: a source line repeated for many lines stays); a line's
#: own embedding is kept for its request only
EMBEDDING_CACHE = 4096
#: lines whose chrF the worker computes at once
CHRF_BATCH = 256
#: the worker exits after this long with nothing to do (it holds 45-80 MB):
#: soon after a pass, so that a settled editor holds no encoder; the next
#: line to encode starts it again (the values stay cached here; loading the
#: encoder again takes ~0.7 s of CPU at lower priority, qe_encoder)
IDLE_SECONDS = 3.0
#: the worker's environment: one BLAS thread (no idle pool of them; the
#: encoding holds the count at one in every process, :func:`.blas.one_blas_thread`,
#: so this is not what makes its values those of ``check``), one C heap (its
#: one Python thread and the BLAS thread would otherwise keep a heap each), and blocks
#: from 64 KB up mapped on their own, so that the encoder's work arrays go
#: back to the system when freed (a heap keeps what it held at its highest)
WORKER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": "65536"}

#: a line's texts: (source, line, *references)
Key = tuple[str, ...]
#: a line's values: (similarity, None when not asked for; chrF, NaN without a reference)
Value = tuple[Optional[float], float]
#: keys with whether their similarity is wanted, as queued and sent
Items = list[tuple[Key, bool]]
#: a call of :meth:`BackgroundAdequacy.line_values`: (line count, sources,
#: references, lines; similarities, chrF, lines waiting, lines wanted)
_Call = tuple[int, Sequence[str], list[Sequence[str]], Sequence[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _stdin(proc: subprocess.Popen[bytes]) -> IO[bytes]:
    """The worker's stdin (it is started with a pipe for it)."""
    assert proc.stdin is not None
    return proc.stdin


def _stdout(proc: subprocess.Popen[bytes]) -> IO[bytes]:
    """The worker's stdout (it is started with a pipe for it)."""
    assert proc.stdout is not None
    return proc.stdout


class BackgroundAdequacy:
    """Per-line adequacy values (similarity to the source, chrF) computed in a
    worker process; see the module doc."""

    def __init__(self, on_ready: Optional[Callable[[bool], None]] = None, cache_limit: int = 400000) -> None:
        #: called from the reader thread after each answer, with True when
        #: nothing is left to compute (or the answer was an edit's)
        self.on_ready = on_ready or (lambda _done: None)
        self.error: Optional[str] = None
        self._values: dict[Key, Value] = {}
        self._limit = cache_limit
        self._wanted: dict[Key, bool] = {}  # keys queued or in flight: whether with a similarity
        #: (priority: -1 stop, 0 an edit, 1 a first pass; order; keys, None: stop)
        self._queue: queue.PriorityQueue[tuple[int, int, Optional[Items]]] = queue.PriorityQueue()
        self._seq = itertools.count()
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._lock = threading.Lock()
        #: held while a key is asked for or its answer stored (``_wanted`` and ``_values`` together)
        self._book = threading.Lock()
        self._in_flight = threading.Semaphore(1)
        #: (sources, references, lines, values, ...) of the previous call, by
        #: kind (True: with similarities, False: chrF alone)
        self._last: dict[bool, _Call] = {}
        #: the request in flight (set before it is sent): its keys, and its priority
        self._pending: Items = []
        self._pending_prio = 0
        self.requests = 0
        self.idle_seconds = IDLE_SECONDS
        #: times the worker was let go for want of work
        self.stops = 0

    # -- the analyser's side (event loop) ----------------------------------------
    def line_values(
        self, sources: Sequence[str], lines: Sequence[str], refs: Sequence[Sequence[str]], want: Optional[np.ndarray] = None
    ) -> LineValues:
        """Similarity (where ``want``, a boolean mask, says; None: every line)
        and chrF (every line), NaN where not known yet (asked for).

        When the source, references and ``want`` are those of the previous
        call of the same kind (chrF alone, or with similarities) and the line
        count is the same, only the lines that changed since then, the lines
        whose ``want`` changed and the lines still waiting are looked up again."""
        n = min(len(sources), len(lines))
        sources, lines = sources[:n], lines[:n]
        refs = [r[:n] for r in refs]
        wanted = np.ones(n, dtype=bool) if want is None else np.asarray(want[:n], dtype=bool)
        mode = bool(wanted.any())
        last = self._last.get(mode)
        if last is not None and last[0] == n and last[1] == sources and last[2] == refs:
            start, end_old, _new = common_splice(last[3], lines)
            sims, chrf = last[4].copy(), last[5].copy()
            again = last[6] | (last[7] != wanted)
            again[start:end_old] = True
            look: Sequence[int] = np.flatnonzero(again).tolist()
        else:
            sims, chrf = np.full(n, np.nan), np.full(n, np.nan)
            look = range(n)
        get = self._values.get
        asked = self._wanted
        # the lines still waiting, as a mask (a set of 100k ints took 7 MB)
        holes = np.zeros(n, dtype=bool)
        new: dict[Key, bool] = {}
        for i in look:
            key = (sources[i], lines[i], *[r[i] for r in refs])
            v = get(key)
            w = bool(wanted[i])
            if v is not None and (not w or v[0] is not None):
                sims[i] = v[0] if w else np.nan
                chrf[i] = v[1]
                continue
            sims[i] = chrf[i] = np.nan
            if self.error is None:  # (lines without letters too: they have a chrF)
                holes[i] = True
                if not asked.get(key, False) and (w or key not in asked):
                    new[key] = w
        self._submit(new)
        self._last[mode] = (n, sources, refs, lines, sims, chrf, holes, wanted)
        return LineValues(sims, chrf, int(holes.sum()))

    def _submit(self, keys: dict[Key, bool]) -> None:
        """Queue ``keys`` (key: whether its similarity is wanted too).

        A key found missing may have been answered since it was looked up
        (the reader thread stores a value and crosses the key off in one
        step, under ``_book``): such a key is not asked for again, for it
        would stay wanted with no answer to come, and the worker would never
        again report that it is done."""
        if not keys:
            return
        with self._book:
            keys = {k: w for k, w in keys.items() if not self._known(k, w)}
            if not keys:
                return
            self._wanted.update(keys)
        if len(keys) <= EDIT_LINES:
            self._queue.put((0, next(self._seq), list(keys.items())))
            self._ensure_started()
            return
        items = list(keys.items())
        for sim in (False, True):  # chrF alone is cheap: larger chunks, first
            part = [it for it in items if it[1] == sim]
            size = CHUNK if sim else CHRF_CHUNK
            for i in range(0, len(part), size):
                self._queue.put((1, next(self._seq), part[i : i + size]))
        self._ensure_started()

    def _known(self, key: Key, sim: bool) -> bool:
        v = self._values.get(key)
        return v is not None and (not sim or v[0] is not None)

    @property
    def busy(self) -> bool:
        return bool(self._wanted)

    # -- the worker process --------------------------------------------------------
    def _ensure_started(self) -> None:
        with self._lock:
            if self._proc is not None or self.error is not None:
                return
            try:
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "bleu_ls.qa.adequacy.qe_background"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env={**os.environ, **WORKER_ENV},
                )
            except OSError as exc:
                self._fail(f"the adequacy check is off: its worker process did not start ({exc})")
                return
            threading.Thread(target=self._send_loop, name="bleu-ls-qe-send", daemon=True).start()
            threading.Thread(target=self._read_loop, name="bleu-ls-qe-read", daemon=True).start()

    def _send_loop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        stdin = _stdin(proc)
        while proc.poll() is None:
            try:
                prio, _seq, keys = self._queue.get(timeout=self.idle_seconds)
            except queue.Empty:
                if self._stop_if_idle(proc):
                    return
                continue
            if keys is None:
                return
            keys, done = self._take(keys)
            if not keys:
                if done:
                    self._notify(True)
                continue
            self._in_flight.acquire()
            self._pending_prio = prio
            self._pending = keys
            request = {"items": [k for k, _ in keys], "want": [w for _, w in keys]}
            try:
                stdin.write((json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8"))
                stdin.flush()
                self.requests += 1
            except (OSError, ValueError):
                return

    def _stop_if_idle(self, proc: subprocess.Popen[bytes]) -> bool:
        """Nothing queued and nothing in flight: let the worker go."""
        if not self._in_flight.acquire(blocking=False):
            return False
        try:
            with self._lock:
                if not self._queue.empty() or self._proc is not proc:
                    return False
                self._proc = None
            try:
                _stdin(proc).close()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
            self.stops += 1
            return True
        finally:
            self._in_flight.release()

    def _read_loop(self) -> None:
        proc = self._proc
        assert proc is not None
        for raw in _stdout(proc):
            try:
                answer = json.loads(raw)
            except ValueError:
                continue
            if "error" in answer:
                self._fail(answer["error"])
                return
            if "ready" in answer:
                continue
            done = self._answered(self._pending, answer["sims"], answer["chrf"], self._pending_prio == 0)
            self._in_flight.release()
            self._notify(done)
        if self.error is None and self._proc is proc:
            self._fail("the adequacy check is off: its worker process stopped")

    def _take(self, keys: Items) -> tuple[Items, bool]:
        """The queued ``keys`` still to send; and whether, with none to send,
        some were crossed off and nothing is left wanted (answered in another
        request meanwhile: the analyser is told it is done)."""
        with self._book:
            send = [(k, w) for k, w in keys if not self._known(k, w)]
            crossed = False
            for k, _w in keys:
                w = self._wanted.get(k)
                if w is not None and self._known(k, w):
                    del self._wanted[k]
                    crossed = True
            return send, not send and crossed and not self._wanted

    def _answered(self, keys: Items, sims: list[Optional[float]], chrf: list[Optional[float]], edit: bool) -> bool:
        """Store the worker's answer to ``keys`` ((key, similarity wanted)
        pairs) and cross them off; whether to tell the analyser (an edit's
        values, or nothing left to compute)."""
        with self._book:
            if len(self._values) + len(keys) > self._limit:
                self._values.clear()
            for (k, w), s, c in zip(keys, sims, chrf):
                sim = (np.nan if s is None else s) if w else self._values.get(k, (None,))[0]
                self._values[k] = (sim, np.nan if c is None else c)
                if self._wanted.get(k) == w:
                    del self._wanted[k]
            return edit or not self._wanted

    def _fail(self, message: str) -> None:
        log.warning("%s", message)
        self.error = message
        self._wanted.clear()
        self._notify(True)

    def _notify(self, done: bool) -> None:
        try:
            self.on_ready(done)
        except Exception:  # pragma: no cover - the callback's own problem
            log.exception("adequacy callback failed")

    def close(self) -> None:
        """Stop the worker (it also stops by itself when this process ends)."""
        proc, self._proc = self._proc, None
        self._queue.put((-1, -1, None))
        if proc is None:
            return
        try:
            _stdin(proc).close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- the worker process's side ---------------------------------------------------
def serve(stdin: Iterable[str], stdout: TextIO) -> None:
    """Answer requests ``{"items": [[source, line, *refs], ...]}`` with
    ``{"sims": [...], "chrf": [...]}`` (null where a text has no letters /
    there is no reference) until stdin closes."""
    from .qe_encoder import load_encoder

    try:
        model = load_encoder(1)  # small: compact tokenizer, table rows from a file (qe_encoder)
    except ImportError:
        stdout.write(json.dumps({"error": "the adequacy check is off: its sentence encoder is not installed (pip install 'bleu-ls[qe]'; diagnostics.adequacy.enabled = false silences this)"}) + "\n")
        stdout.flush()
        return
    except Exception as exc:
        stdout.write(json.dumps({"error": f"the adequacy check is off: the sentence encoder did not load ({exc})"}) + "\n")
        stdout.flush()
        return
    stdout.write('{"ready": true}\n')
    stdout.flush()
    cache: OrderedDict[str, np.ndarray] = OrderedDict()  # source lines' embeddings (LRU)
    for raw in stdin:
        request = json.loads(raw)
        items = request["items"]
        want = request.get("want") or [True] * len(items)
        sources = {it[0] for it, w in zip(items, want) if w}
        texts = {t for it, w in zip(items, want) if w for t in it[:2] if t not in cache and has_letter(t)}
        local: dict[str, np.ndarray] = {}  # the other lines' embeddings: this request's only
        if texts:
            order = list(texts)
            for t, e in zip(order, embed(model, order)):
                if t in sources:
                    cache[t] = e.copy()  # (a row of its own: a view would keep the whole batch)
                else:
                    local[t] = e
        sims: list[Optional[float]] = []
        for (src, hyp, *_refs), w in zip(items, want):
            if not w:
                sims.append(None)
                continue
            a, b = cache.get(src), cache.get(hyp)
            if b is None:
                b = local.get(hyp)
            for t in (src, hyp):
                if t in cache:
                    cache.move_to_end(t)
            sims.append(None if a is None or b is None else cosine(a, b))
        del local
        scores: list[Optional[float]] = [None] * len(items)
        by_refs: dict[int, list[int]] = {}
        for i, it in enumerate(items):
            if len(it) > 2:
                by_refs.setdefault(len(it) - 2, []).append(i)
        for nref, rows in by_refs.items():
            for c in range(0, len(rows), CHRF_BATCH):  # (the batch statistics' arrays stay small)
                part = rows[c : c + CHRF_BATCH]
                got = chrf_values([items[i][1] for i in part], [[items[i][2 + j] for i in part] for j in range(nref)])
                for i, v in zip(part, got.tolist()):
                    scores[i] = v
        while len(cache) > EMBEDDING_CACHE:
            cache.popitem(last=False)
        stdout.write(json.dumps({"sims": sims, "chrf": scores}) + "\n")
        stdout.flush()


def main() -> None:
    try:
        os.nice(5)  # the editor's server process comes first
    except (AttributeError, OSError):
        pass
    import io

    serve(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))


if __name__ == "__main__":
    main()
