"""The effort of a whole segment document against its drafts (:mod:`.drafts`): the
corpus HTER and the paired test of the targets against the drafts, for the lens,
the status (``bleuLs/corpusScore``) and their tooltips — what line files show.

* **Corpus HTER** over the segments that have a draft and a non-empty target:
  sacrebleu's corpus ``TER(case_sensitive=True)`` with the drafts as hypotheses
  and the targets as references (edits summed, divided by the targets' summed
  words), from the per-segment records :func:`.drafts.effort` keeps by key (an
  edit recounts the edited segment only).  Counted in slices, the event loop
  free between them.
* **The paired test** (sacrebleu's paired bootstrap, 1,000 resamples, seed 12345
  or ``SACREBLEU_SEED``, and the current corpus score's 95% interval), per metric,
  of the rows as they are against the rows as drafted: a row's draft text is its
  targets joined as the row is, each target that has a draft replaced by it.
  Debounced after the last edit, run in a worker thread on a copy of the model
  (only the rows with an edited segment counted again); its result is shown
  while the model and the drafts are those it was run on, and the lens is
  refreshed when it lands.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from lsprotocol import types

from ...engine import PairModel
from ...engine.ter import UNITS
from ..background import pools
from ..postedit.paired import bootstrap_record
from ...formats.model import Segment
from ...formats.table import row
from ...config.settings import HintSettings
from .drafts import COUNTED, NO_PART, STALE, TOO_LONG, SegDrafts, draft_of, effort, hint_part, may_have_draft, spliced
from .state import SegmentPair, position_at

log = logging.getLogger(__name__)

#: counting the corpus HTER: one slice of the event loop's time, then a turn for others
SLICE_SECONDS = 0.005
#: the paired test waits this long after the last change (seconds), longer for many rows
DEBOUNCE_SECONDS = 0.4
DEBOUNCE_PER_ROW = 1 / 20000
DEBOUNCE_MAX = 5.0
KINDS = ("insertions", "deletions", "substitutions", "shifts")
#: at most this many hints in one answer of a file without a reference
HINT_LIMIT = 2000


@dataclass
class CorpusEffort:
    """What :mod:`.effort` keeps of one document's drafts between requests (``SegDrafts.corpus``)."""

    #: (serial, drafts version) the HTER record was counted at, and the record (None: no segment has both)
    hter_at: Optional[tuple[int, int]] = None
    hter: Optional[dict] = None
    #: (model, its version, drafts version) of ``tests`` (the model itself: a reference read
    #: again makes a new one, whose versions count from 0 again); the tests by metric key
    tests_at: Optional[tuple[PairModel, int, int]] = None
    tests: dict[str, Any] = field(default_factory=dict)
    #: the test under way and what it runs on
    task: Optional[asyncio.Task] = None
    task_at: Optional[tuple[PairModel, int, int]] = None
    #: asks the editor for the lens again when a test lands (set by the lens and corpusScore adapters)
    refresh: Optional[Callable[[], None]] = None


def _state(d: SegDrafts) -> CorpusEffort:
    if not isinstance(d.corpus, CorpusEffort):
        d.corpus = CorpusEffort()
    return d.corpus


def follow(sp: SegmentPair, refresh: Callable[[], None]) -> None:
    """``refresh`` is called when a paired test of ``sp`` lands (the lens shows it)."""
    d = sp.drafts
    if isinstance(d, SegDrafts):
        _state(d).refresh = refresh


# -- the corpus HTER ----------------------------------------------------------------------------
async def hter(sp: SegmentPair) -> Optional[dict]:
    """The document's HTER record (None: no segment has both a draft and a target)."""
    d = sp.drafts
    if not isinstance(d, SegDrafts) or d.forgotten:
        return None
    c = _state(d)
    while True:
        at = (sp.serial, d.version)
        if c.hter_at == at:
            return c.hter
        rec = await _count(sp, d, at)
        if rec is not _CHANGED and sp.drafts is d:
            c.hter_at, c.hter = at, rec
            return rec
        if sp.drafts is not d:
            return None


_CHANGED = object()


async def _count(sp: SegmentPair, d: SegDrafts, at: tuple[int, int]) -> Any:
    """The parts of the segments to count again (:data:`.drafts.STALE`: those an edit touched,
    every one on opening), then their sums; :data:`_CHANGED` when an edit came between two slices."""
    if not len(d.part) == len(d.differs) == len(sp.index):  # out of step (should not happen): every segment again
        spliced(sp, 0, len(d.differs), len(sp.index))
    stale = np.flatnonzero(d.part == STALE).tolist()
    if stale:
        segs = sp.index.unshifted()
        deadline = time.perf_counter() + SLICE_SECONDS
        for i in stale:
            _put(sp, d, i, segs[i])
            if time.perf_counter() > deadline:
                await asyncio.sleep(0)
                if (sp.serial, d.version) != at or sp.drafts is not d:
                    return _CHANGED
                deadline = time.perf_counter() + SLICE_SECONDS
    counted = d.part == COUNTED
    both, too_long = int(np.count_nonzero(counted)), int(np.count_nonzero(d.part == TOO_LONG))
    if not both and not too_long:
        return None
    t = d.part_rows[counted].sum(axis=0).tolist()
    score = d.metric.corpus_score([t[0], t[1] * UNITS, both])
    return {
        "metric": "HTER",
        "score": score.score if both else None,
        "num_edits": t[0],
        "ref_length": score.extra["ref_length"],
        **dict(zip(KINDS, t[2:6])),
        "pending": 0,
        "segments": both,
        "segmentsEdited": t[6],
        "segmentsTooLongToAlign": too_long,
        "signature": "HTER " + d.metric.signature(1),
    }


def _put(sp: SegmentPair, d: SegDrafts, i: int, seg: Segment) -> None:
    """Segment ``i``'s part: none, too long to align, or its HTER row."""
    if not seg.target or not may_have_draft(sp, seg):
        d.part[i] = NO_PART
        return
    draft = draft_of(sp, seg)
    if draft is None:
        d.part[i] = NO_PART
        return
    rec = effort(sp, seg)
    if rec is None:
        d.part[i] = TOO_LONG
        return
    d.part_rows[i] = (rec["num_edits"], int(rec["ref_length"]), *(rec[k] for k in KINDS), draft != seg.target)
    d.part[i] = COUNTED


# -- the paired test ------------------------------------------------------------------------------
def tests(sp: SegmentPair) -> dict[str, Any]:
    """The tests by metric key, when they were run on the model and drafts as they are now
    (else {}, and a test is started: it shows on a later request); none while no segment
    has a draft (a file without MT drafts costs no bootstrap after its edits)."""
    d, model = sp.drafts, sp.model
    if not isinstance(d, SegDrafts) or d.forgotten or model is None or sp.frozen is not None:
        return {}
    if not np.any(d.part >= TOO_LONG):  # no segment has a draft (or none counted yet): nothing to test
        return {}
    c = _state(d)
    at = (model, model.version, d.version)
    if c.tests_at == at:
        return c.tests
    if c.task is None or c.task.done() or c.task_at != at:
        if c.task is not None and not c.task.done():
            c.task.cancel()
        try:
            c.task = asyncio.ensure_future(_job(sp, d, model, at))
            c.task_at = at
        except RuntimeError:  # no event loop (a test driving the documents)
            pass
    return {}


def _draft_rows(sp: SegmentPair, d: SegDrafts) -> list[tuple[int, str]]:
    """(row, its text as drafted) of each row with a segment whose target differs from its draft."""
    rows: set[int] = set()
    row_of = sp.row_of
    for i in np.flatnonzero(d.differs).tolist():
        if i < len(row_of) and row_of[i] >= 0:
            rows.add(int(row_of[i]))
    out = []
    for r in sorted(rows):
        texts = []
        for i in range(int(sp.row_hs[r]), int(sp.row_he[r])):
            seg = sp.index.segment(i)
            draft = draft_of(sp, seg) if seg.target else None
            texts.append(seg.target if draft is None else draft)
        out.append((r, " ".join(t for t in texts if t)))
    return out


async def _job(sp: SegmentPair, d: SegDrafts, model: PairModel, at: tuple[PairModel, int, int]) -> None:
    await asyncio.sleep(min(DEBOUNCE_MAX, max(DEBOUNCE_SECONDS, model.n_hyp * DEBOUNCE_PER_ROW)))
    left = model.stale_count()
    while left:  # the rows counted here, in slices (as the lens does)
        now = model.refresh(max_lines=500)
        if now >= left:
            break  # rows left for a worker: the copy counts them in the thread
        left = now
        await asyncio.sleep(0)
    if sp.model is not model or sp.drafts is not d or (model, model.version, d.version) != at or sp.frozen is not None:
        return
    rows = _draft_rows(sp, d)
    copy = model.copy()
    try:
        result = await pools.run(_run, copy, rows)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("the paired test against the drafts failed")
        return
    if sp.model is not model or sp.drafts is not d or (model, model.version, d.version) != at:
        return
    c = _state(d)
    c.tests_at, c.tests = at, result
    if c.refresh is not None:
        c.refresh()


def _run(current: PairModel, rows: list[tuple[int, str]]) -> dict[str, Any]:
    """In a worker thread: per metric, the current corpus score's interval and (when a row
    differs from its draft) the paired bootstrap test of the current rows against the drafted."""
    drafted = current.copy()
    for r, text in rows:
        drafted.splice_hyp(r, r + 1, [text])
    out: dict[str, Any] = {}
    for key, metric in current.metrics.items():
        stats = np.array(current.stats_array(key))
        out[key] = bootstrap_record(metric, stats, np.array(drafted.stats_array(key)) if rows and len(stats) else None)
    return out


# -- what the lens and corpusScore show -------------------------------------------------------------
def paired_note(sp: SegmentPair, key: str) -> str:
    """`` (Δ +0.84 vs draft, p = 0.0310)`` after a metric's corpus score, once the paired test ran
    on the text as it is (nothing while no target differs from its draft)."""
    paired = tests(sp).get(key, {}).get("paired")
    if not paired:
        return ""
    return f" (Δ {paired['delta']:+.2f} vs draft, p = {paired['system']['p_value']:.4f})"


async def lens_part(sp: SegmentPair) -> Optional[str]:
    """``HTER 18.4 · 12 segments edited`` once a target differs from its draft (without a
    reference: whenever a segment has a draft)."""
    d = sp.drafts
    if isinstance(d, SegDrafts) and d.revision is not None and d.problem:  # the rule's revision could not be read
        return d.problem
    rec = await hter(sp)
    if rec is None or rec["score"] is None or (not rec["segmentsEdited"] and sp.model is not None):
        return None
    n = rec["segmentsEdited"]
    return f"HTER {rec['score']:.1f} · {n:,} {'segment' if n == 1 else 'segments'} edited"


async def record(sp: SegmentPair) -> dict[str, Any]:
    """The ``effort``, ``draft`` and ``tests`` entries of ``bleuLs/corpusScore``."""
    d = sp.drafts
    rec = await hter(sp)
    draft: dict[str, Any] = {
        "origin": ("git" if d.revision is not None else "segments") if isinstance(d, SegDrafts) and not d.forgotten else None,
        "revision": d.revision if isinstance(d, SegDrafts) else None,
        "set": bool(isinstance(d, SegDrafts) and d.pinned),
        "forgotten": bool(isinstance(d, SegDrafts) and d.forgotten),
        "problem": d.problem if isinstance(d, SegDrafts) else None,
    }
    return {"effort": rec, "draft": draft, "tests": tests(sp)}


async def alone(sp: SegmentPair) -> Optional[dict[str, Any]]:
    """``bleuLs/corpusScore`` of a document without a reference: its effort against the drafts
    (None: no segment has both a draft and a target)."""
    rec = await record(sp)
    if rec["effort"] is None:
        return None
    n = len(sp.index)
    return {"segments": n, "rows": 0, "unpairedHypothesis": n, "unpairedReference": 0,
            "problems": len(sp.index.problems), **rec}


def hints_alone(sp: SegmentPair, params: types.InlayHintParams, hs: HintSettings, encoding: str) -> list[types.InlayHint]:
    """A file without a reference: ``HTER 22.2`` where a row's hint would be (the end of the
    target, after a PO string's closing quote) for each target in the range that differs from
    its draft (with ``hints.hter`` on, every target that has one)."""
    d, index = sp.drafts, sp.index
    n = len(index)
    if not isinstance(d, SegDrafts) or d.forgotten or not hs.enabled or sp.frozen is not None or not n:
        return []
    if not len(d.part) == len(d.differs) == n:  # out of step (should not happen): every segment again
        spliced(sp, 0, len(d.differs), n)
    lo = index.line_start(max(0, min(params.range.start.line, index.line_count - 1)))
    end_line = params.range.end.line
    hi = (len(index.buf) if hasattr(index, "buf") else len(index.text)) if end_line >= index.line_count else index.line_end(end_line)
    every = np.arange(n)
    ends = index.target_ends(every)
    quoted = row(index.format).quoted_target
    if quoted and hasattr(index, "quoted"):  # after the closing quote (as state.hint_offsets)
        ends = ends + index.quoted(every)
    elif quoted:
        text = index.buf if hasattr(index, "buf") else index.text
        ends = ends + np.fromiter((text.startswith('"', e) for e in ends.tolist()), np.int64, n)
    a, b = int(np.searchsorted(ends, lo, "left")), int(np.searchsorted(ends, hi, "right"))
    which = np.arange(a, b) if hs.hter else a + np.flatnonzero(d.differs[a:b])
    out = []
    for i in which[:HINT_LIMIT].tolist():
        part = hint_part(sp, index.segment(i), hs)
        if part:
            out.append(types.InlayHint(position=position_at(sp, int(ends[i]), encoding), label=part, padding_left=True))
    return out
