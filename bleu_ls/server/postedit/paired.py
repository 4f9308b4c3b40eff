"""Is the change real: the draft against the current text, per metric.

With a reference and a draft, a debounced job (a new edit supersedes it)
computes, off the event loop in one worker thread:

* the draft's statistics against the references, from a second
  :class:`~bleu_ls.engine.PairModel` kept beside the pair (first a batch
  pass, then only the lines whose draft partner or reference changed); the
  draft line of a current line is its partner (empty for a new line);
* sacrebleu's paired bootstrap test of the current text against the draft
  (``significance.paired_bs``, 1,000 resamples, seed 12345 or
  ``SACREBLEU_SEED``) and the current corpus score's 95% interval
  (``significance.confidence``).

Results land in ``pair.paired`` (by metric key) and the code lens is
refreshed.  Memory is O(lines): the engine's significance module never
materialises the resamples.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Mapping, Optional, TypeGuard

import numpy as np

from ...engine import Metric, PairModel, PairSnapshot
from ...engine.significance import confidence, paired_bs
from ..background import pools, heap, memory
from ..background.scoring import in_worker_processes, run_in_process

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)

#: after seeding the draft model from the current rows, at least this many
#: lines left to count go through the batch pass in worker processes
BATCH_LINES = 5000
#: wait this long after the last edit before testing (seconds), longer for
#: large files (a test of 100k lines takes seconds of a worker thread that
#: shares the interpreter with the event loop)
DEBOUNCE_SECONDS = 0.4
DEBOUNCE_PER_LINE = 1 / 20000
DEBOUNCE_MAX = 5.0
RESAMPLES = 1000
#: lines copied per event-loop turn when a job starts
COPY_LINES = 50_000

#: the draft's lines and each current line's partner in them (-1: none)
Partners = tuple[list[str], np.ndarray]
#: the current text: its lines and their scores by metric key
CurText = tuple[list[str], dict[str, np.ndarray]]


def _same_metrics(model: Optional[PairModel], metrics: Mapping[str, Metric]) -> TypeGuard[PairModel]:
    return (
        model is not None
        and model.metrics.keys() == metrics.keys()
        and all(model.metrics[k] is m for k, m in metrics.items())
    )


def _count_long_lines(model: PairModel) -> None:
    """Count the stale lines over the model's length cap each in a worker
    process (counted in this thread, a 10 MB line would hold the interpreter
    lock for whole seconds and starve the event loop)."""
    if model.long_line_bytes is None:
        return
    for i in model.stale_lines():
        if model.is_long(i):
            job = model.line_job([i])
            model.install_lines(job, run_in_process(job.run))


def _new_draft_model(
    metrics: dict[str, Metric],
    aligned: list[str],
    refs: list[list[str]],
    hyp: list[str],
    current: dict[str, np.ndarray],
    scores: dict[str, np.ndarray],
    cap: Optional[int],
) -> PairModel:
    """The draft's model, its rows taken from the current text's where the
    draft line and the current line are the same (most lines of a post-edit)."""
    model = PairModel(metrics, aligned, refs, lazy=True, long_line_bytes=cap)
    model.install({k: (current[k], scores[k]) for k in metrics}, PairSnapshot(hyp, refs, metrics, -1))
    if model.stale_count() >= BATCH_LINES:
        try:  # worker processes, as the scorer's batch pass
            in_worker_processes(lambda: model.full_pass(workers=None, start_method="forkserver"))
        except Exception:
            log.warning("the draft's batch pass in worker processes failed; scoring here", exc_info=True)
    _count_long_lines(model)
    model.refresh()
    return model


def _run(
    draft_model: Optional[PairModel],
    metrics: dict[str, Metric],
    partners: Optional[Partners],
    refs: list[list[str]],
    current: dict[str, np.ndarray],
    cur_text: CurText,
    cap: Optional[int] = None,
) -> tuple[Optional[PairModel], dict[str, Any]]:
    """In the worker thread: bring the draft model up to date, then test.
    ``partners`` is (draft lines, partner index per current line), None
    when no line differs from the draft (nothing to compare; the draft
    model is handed back as it came);
    ``cur_text`` the current (lines, scores) for seeding a new draft model;
    ``cap`` the pair's line-length cap (longer lines: worker processes)."""
    out: dict[str, Any] = {}
    compared: Optional[PairModel] = None  # the draft model when there is a draft to compare
    if partners is not None:
        draft, partner = partners
        aligned = [draft[p] if p >= 0 else "" for p in partner.tolist()]
        if _same_metrics(draft_model, metrics) and draft_model.n_refs == len(refs):
            draft_model.long_line_bytes = cap
            draft_model.set_hyp(aligned)
            draft_model.set_refs(refs)
            _count_long_lines(draft_model)
        else:
            draft_model = _new_draft_model(metrics, aligned, refs, cur_text[0], current, cur_text[1], cap)
        compared = draft_model
    for key, metric in metrics.items():
        stats = current[key]
        base_stats = None
        if compared is not None:
            base_stats = compared.stats_array(key)
            n = min(len(base_stats), len(stats))
            base_stats, stats = np.array(base_stats[:n]), stats[:n]
        out[key] = bootstrap_record(metric, stats, base_stats)
    return draft_model, out


def bootstrap_record(metric: Metric, stats: np.ndarray, draft_stats: Optional[np.ndarray]) -> dict[str, Any]:
    """The corpus score's bootstrap interval over the statistics rows ``stats`` and, with the
    draft's rows (``draft_stats``, the same rows with the drafts put back), the paired bootstrap
    test of the text against its draft — as ``bleuLs/corpusScore`` sends them."""
    est = confidence(metric, stats, RESAMPLES)
    rec: dict[str, Any] = {"confidence": {"score": est.score, "mean": est.mean, "ci": est.ci}}
    if draft_stats is not None:
        base, (system,) = paired_bs(metric, draft_stats, [stats], RESAMPLES)
        rec["paired"] = {
            "test": "paired bootstrap",
            "resamples": RESAMPLES,
            "baseline": {k: v for k, v in asdict(base).items() if k != "p_value"},
            "system": asdict(system),
            "delta": system.score - base.score,
        }
    return rec


async def _copy(model: PairModel) -> Optional[tuple[CurText, list[list[str]], dict[str, np.ndarray]]]:
    """What a job reads of the current text — (lines, scores), references,
    statistics rows — copied ``COPY_LINES`` lines per event-loop turn; None
    when the model changed between two slices (the copy would mix versions)."""
    version, n = model.version, model.n_paired
    keys = list(model.metrics)
    scores_src = {k: model.values(k) for k in keys}
    stats_src = {k: model.stats_array(k) for k in keys}
    hyp: list[str] = []
    refs: list[list[str]] = [[] for _ in model.refs]
    scores = {k: np.empty_like(v) for k, v in scores_src.items()}
    stats = {k: np.empty_like(v) for k, v in stats_src.items()}
    for start in range(0, max(n, *(len(r) for r in model.refs)), COPY_LINES):
        end = start + COPY_LINES
        hyp.extend(model.hyp[start : min(end, n)])
        for mine, r in zip(refs, model.refs):
            mine.extend(r[start:end])
        for k in keys:
            scores[k][start:end] = scores_src[k][start:end]
            stats[k][start:end] = stats_src[k][start:end]
        if n > COPY_LINES:
            await asyncio.sleep(0)
            if model.version != version:
                return None
    return (hyp, scores), refs, stats


class PairedTests:
    """One worker thread for the tests of every pair (so a pair's draft model
    is only ever touched by one job at a time)."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        self._pool: Optional[ThreadPoolExecutor] = None

    def schedule(self, pair: "Pair") -> None:
        """After an edit: (re)start the debounced test of ``pair``."""
        if pair.model is None:
            return
        if pair.paired_task is not None and not pair.paired_task.done():
            pair.paired_task.cancel()
        pair.paired_gen += 1
        pair.paired_task = asyncio.ensure_future(self._job(pair, pair.paired_gen))

    async def _job(self, pair: "Pair", gen: int) -> None:
        lines = pair.model.n_hyp if pair.model is not None else 0
        await asyncio.sleep(min(DEBOUNCE_MAX, max(DEBOUNCE_SECONDS, lines * DEBOUNCE_PER_LINE)))
        await self.manager.wait_scored(pair)
        model = pair.model
        if model is None or gen != pair.paired_gen or not model.n_paired:
            return
        track = pair.draft
        # the draft's lines never change in place; the partners are copied
        partners = (track.draft, track.partner.copy()) if track is not None and track.edited_count() > 0 else None
        with_draft = partners is not None
        version = model.version
        copied = await _copy(model)
        if copied is None or gen != pair.paired_gen or pair.model is not model:
            return  # edited while copying: that edit's job tests it
        cur_text, refs, current = copied
        metrics = dict(model.metrics)
        cap = model.long_line_bytes
        if self._pool is None:
            self._pool = pools.executor("bleu-ls-paired")
        loop = asyncio.get_running_loop()
        draft_model = pair.draft_model
        try:
            draft_model, result = await asyncio.shield(
                loop.run_in_executor(self._pool, _run, draft_model, metrics, partners, refs, current, cur_text, cap)
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the paired test failed")
            return
        # what the bootstrap and the copy freed goes back to the system
        await loop.run_in_executor(self._pool, memory.release)
        if with_draft and draft_model is not None:  # (_run hands back a model with a draft)
            pair.draft_model = draft_model
            heap.settle(draft_model.n_hyp)
        if gen != pair.paired_gen or pair.model is not model or model.version != version:
            return
        pair.paired = result
        pair.paired_version = version
        self.manager.publisher.schedule_refresh(("code_lens",))  # the tests show in the lens only

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
