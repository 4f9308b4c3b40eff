"""The draft of an open hypothesis document: which one, and keeping it in step.

The draft is found in this order:

1. a file named by the ``draft`` pattern of the first matching ``[[pairs]]``
   rule (bleu-ls.toml or the editor's settings), or, when that pattern is
   ``git:REV``, the file itself as committed at revision REV (read from git,
   read-only: :mod:`bleu_ls.postedit.revision`);
2. ``NAME.draft`` beside ``NAME.hyp`` / ``NAME.mt`` (when it exists);
3. otherwise the text as bleu-ls first saw it, kept in the user's cache
   folder (:class:`~bleu_ls.postedit.DraftStore`), never in the workspace.

A draft file that cannot be read leaves the document without a draft and
says why in one word (hover, lens, ``bleuLs/corpusScore``).  A file with a
draft and no reference is a post-edit in progress: it keeps its pair entry
(no score model) and shows the effort numbers only.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Generator, Optional

from ...engine import InputError
from ...engine.text import decode_utf8, split_file_lines
from ...engine.lazytext import run
from ...engine.ter import TerMetric
from ...config.pairing import draft_revision, find_draft, path_allowed
from ...postedit import DraftTrack
from ...postedit.revision import RevisionError, read_at
from .effort import BATCH_LINES, PAUSE_SECONDS, EffortRows
from ..documents.files import path_key, read_lines_from
from ..background import pools, heap
from ..background.tasks import outlive

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)


def hter_metric(pair: "Pair") -> TerMetric:
    """HTER is case-sensitive (a changed capital is an edit); the TER
    tokenization options of the settings apply."""
    t = pair.settings.ter
    return TerMetric(normalized=t.normalized, no_punct=t.no_punct, asian_support=t.asian_support, case_sensitive=True)


def _problem_word(exc: Exception, path: Path) -> str:
    """missing / binary / not UTF-8 / unreadable, from the reason (not the file's name)."""
    text = str(exc)
    for name in (str(path), path.name):
        if text.startswith(name):
            text = text[len(name) :]
            break
    text = text.lower()
    if "no such file" in text or "not found" in text or "does not exist" in text:
        return "missing"
    if "binary" in text:
        return "binary"
    if "utf-8" in text or "decode" in text:
        return "not UTF-8"
    return "unreadable"


def _draft_lines(manager: "PairManager", pair: "Pair", lines: list[str]) -> Generator[None, None, Optional[list[str]]]:
    """The draft's lines by the documented order (None: no draft, with the
    reason in ``pair.draft_problem``), yielding between slices of reading
    or writing the kept draft."""
    root = manager.root_for(pair.path)
    try:
        rev = draft_revision(pair.path, manager.settings, root)
        path = find_draft(pair.path, manager.settings, root) if rev is None else None
    except Exception as exc:  # a broken rule must not take the document down
        pair.draft_problem = f"draft: {exc}"
        return None
    if rev is not None:
        pair.draft_path, pair.draft_origin, pair.draft_revision = None, "git", None
        try:
            got = read_at(pair.path, rev)
            pair.draft_revision = got.label
            return split_file_lines(decode_utf8(got.data, f"{pair.path.name} at {got.label}"))
        except (RevisionError, InputError) as exc:
            pair.draft_problem = f"draft git:{rev}: {exc}"
            pair.draft_detail = str(exc)
            return None
    pair.draft_path = path
    if path is not None:
        pair.draft_origin = "file"
        if not path_allowed(path, root, manager.settings):
            pair.draft_problem = f"draft {path.name}: outside the workspace"
            return None
        try:
            return read_lines_from(path, manager.open_paths())
        except InputError as exc:
            pair.draft_problem = f"draft {path.name}: {_problem_word(exc, path)}"
            pair.draft_detail = str(exc)
            return None
    pair.draft_origin = "cache"
    stored = yield from manager.drafts.load_steps(pair.path)
    if stored is None:
        stored = yield from manager.drafts.put_steps(pair.path, lines)
    else:
        yield from stored.share_steps(lines)  # unchanged lines: one string, not a copy read from the cache
    if manager.drafts.problem:
        pair.draft_problem = "draft kept for this session only"
        pair.draft_detail = manager.drafts.problem
    return list(stored.lines)


def bind(manager: "PairManager", pair: "Pair") -> None:
    """Find the draft of ``pair`` and (re)build its track and effort rows.
    An unchanged draft keeps its line partners and rows."""
    run(bind_steps(manager, pair))


def bind_steps(
    manager: "PairManager", pair: "Pair", lines: Optional[list[str]] = None
) -> Generator[None, None, None]:
    """:func:`bind` yielding between slices (reading a large kept draft), for
    the document's ``lines`` (default: its current lines; the opening steps
    give the text as opened and splice the edits made meanwhile in after)."""
    doc = manager.docs.get(pair.uri)
    if doc is None or not pair.hypothesis_like or pair.draft_forgotten:
        detach(pair)
        return
    if lines is None:
        lines = doc.engine_lines()
    pair.draft_problem = pair.draft_detail = None
    draft = yield from _draft_lines(manager, pair, lines)
    if draft is None:
        detach(pair)
        return
    metric = hter_metric(pair)
    old = pair.draft
    if old is not None and old.draft == draft and pair.effort is not None and _same_ter(pair.effort.metric, metric):
        return
    track = yield from DraftTrack.steps(draft, lines)
    yield
    pair.draft = track
    pair.effort = EffortRows(metric, pair.draft, lines)
    pair.paired = {}


def _same_ter(a: TerMetric, b: TerMetric) -> bool:
    return (a.normalized, a.no_punct, a.asian_support, a.case_sensitive) == (
        b.normalized,
        b.no_punct,
        b.asian_support,
        b.case_sensitive,
    )


def detach(pair: "Pair") -> None:
    pair.draft = None
    pair.effort = None
    pair.draft_model = None
    pair.paired = {}
    if pair.effort_task is not None:
        pair.effort_task.cancel()
        pair.effort_task = None


def splice(pair: "Pair", start: int, end: int, lines: list[str]) -> None:
    """Current lines [start, end) became ``lines``: partners and HTER rows follow."""
    if pair.draft is None or pair.effort is None:
        return
    try:
        pair.draft.splice(start, end, lines)
        pair.effort.splice(start, end, lines)
    except Exception:  # out of step (should not happen): start the rows again
        log.exception("draft splice failed; re-aligning %s", pair.uri)
        current = list(pair.effort.lines)
        current[start:end] = lines
        pair.draft = DraftTrack(pair.draft.draft, current)
        pair.effort = EffortRows(pair.effort.metric, pair.draft, current)


def set_to_current(manager: "PairManager", pair: "Pair") -> str:
    """``bleuLs.setDraft``: the current text becomes the draft (kept in the cache)."""
    doc = manager.docs.get(pair.uri)
    if doc is None:
        raise ValueError(f"{pair.uri} is not open")
    if pair.draft_origin == "git":
        raise ValueError(f"the draft of this file is its commit at {pair.draft_revision or 'a revision'} "
                         "(a [[pairs]] rule's draft = \"git:REV\"); change the rule to change it")
    if pair.draft_origin == "file" and pair.draft_path is not None:
        raise ValueError(
            f"the draft of this file is {pair.draft_path.name} (named by a rule or beside it); "
            "edit or remove that file to change it"
        )
    lines = doc.engine_lines()
    manager.drafts.put(pair.path, lines)
    pair.draft_forgotten = False
    pair.draft = None
    bind(manager, pair)
    return f"draft set to the current text ({len(lines):,} lines)"


def forget(manager: "PairManager", pair: "Pair") -> str:
    """``bleuLs.forgetDraft``: drop the kept draft; the document has none
    until it is opened again (then its text becomes the draft)."""
    manager.drafts.forget(pair.path)
    pair.draft_forgotten = True
    detach(pair)
    return "draft forgotten"


# -- counting the HTER rows in the background ------------------------------------------
def start_effort(manager: "PairManager", pair: "Pair") -> None:
    effort = pair.effort
    if effort is None or not effort.stale_count():
        return
    if pair.effort_task is None or pair.effort_task.done():
        pair.effort_task = asyncio.ensure_future(_fill(manager, pair, effort))


async def _fill(manager: "PairManager", pair: "Pair", effort: EffortRows) -> None:
    big = effort.stale_count() > 1
    if effort.stale_count() >= BATCH_LINES:
        await _batch(pair, effort)
    # an edit's lines wait for a quiet moment unless the hints show HTER
    await effort.fill(lambda: pair.effort is effort, quiet=not pair.settings.hints.hter)
    if big and pair.effort is effort and not effort.stale_count():
        manager.publisher.schedule_refresh()  # the lens said "counting"


async def _batch(pair: "Pair", effort: EffortRows) -> None:
    """Count the stale HTER rows with the engine's TER batch in worker
    processes (off the event loop, every core), then install the rows of the
    lines whose draft and text did not change meanwhile."""
    with heap.quiet(effort.stale_count()):
        await _batch_rows(pair, effort)


async def _batch_rows(pair: "Pair", effort: EffortRows) -> None:
    from ...engine.ter_batch import ter_alignment_rows
    from .effort import job_from, result_rows
    from ..background.scoring import in_worker_processes

    job = await pools.run(job_from, effort.batch_snapshot())  # a loop over every stale line
    if not job[0] or pair.effort is not effort:
        return
    metric = effort.metric

    def count_all():
        results = in_worker_processes(
            lambda: ter_alignment_rows(metric, job[1], [job[2]], workers=None, start_method="forkserver")
        )
        return result_rows(results)

    try:
        rows = await pools.run(count_all)
    except Exception:
        log.warning("HTER batch in worker processes failed; counting in slices", exc_info=True)
        return
    for _taken in effort.install_steps(job, rows):  # a slice, then a pause
        if pair.effort is not effort:
            return
        await asyncio.sleep(PAUSE_SECONDS)
    heap.settle(len(effort.lines))


async def wait_effort(manager: "PairManager", pair: "Pair") -> None:
    while pair.effort is not None and pair.effort.stale_count():
        start_effort(manager, pair)
        task = pair.effort_task
        if task is None:
            return
        if not await outlive(task) and pair.uri not in manager.pairs:
            return


def uses_path(pair: "Pair", path: Path) -> bool:
    return pair.draft_path is not None and path_key(pair.draft_path) == path_key(path)
