"""Opening a large document without making the editor wait.

The first thing an editor asks after opening a file is the inlay hints of the
lines on screen.  For a large document (:data:`LAZY_OPEN_CHARS`) with its
references on disk, :func:`begin` only pairs it (the rule, the settings) and
opens the references for reading; a :class:`Preview` answers hints for any
range from the lines asked for: the document's text is not split yet and the
references are read from the start only as far as those lines.  Everything
else — splitting the document, reading the references and the source in full,
right-stripping the lines, building the pair model, the draft — runs as a
generator of short steps (:func:`_complete`), driven in the background with
pauses between slices so requests get through, and ending in the ordinary
:func:`binding.build`.  The manager drives it to its end at once
(:func:`finish`) before anything else touches the pair: a request other
than inlay hints, a settings or file change.

An edit does not wait for the open: it is applied to the document at once
(the preview answers from the edited lines) and its splice is kept
(:func:`queue`); the model and the draft are built from the text as opened
(:func:`keep_opened`: the draft is that text, not the edited one) and the
kept splices are replayed into them when the open ends, exactly as
:meth:`~bleu_ls.server.pairs.manager.PairManager.change` would have spliced them.

The numbers are the model's: a preview line is scored by the same metric
code on the same (right-stripped) lines, and the preview is dropped once the
model is there.  A reference that cannot be read is reported exactly as by
:func:`binding.build` (it is the same code), only once the full read is done.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Generator, NamedTuple, Optional, Union

from ...engine import InputError, Metric, Score
from ...engine.lazytext import LazyLines, read_lines_sliced, run
from . import binding
from ..postedit import drafts
from ..background import heap
from ..documents.document import HEAD_LINES, Splice
from ..documents.files import check_regular, path_key

if TYPE_CHECKING:
    from ..documents.document import LineDocument
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)

#: Documents of at least this many characters (~8,000 lines) open lazily.
LAZY_OPEN_CHARS = 1 << 20
#: The background steps start this long after the open (the editor's first
#: requests come in meanwhile), then run in slices separated by pauses.
START_DELAY = 0.05
SLICE_SECONDS = 0.005
PAUSE_SECONDS = 0.002
#: A request for lines the preview cannot answer yet builds the model at
#: once below this size (characters; ~0.3 s at 100k lines); above it, the
#: lines at hand are answered and the editor is asked again once built.
BUILD_NOW_CHARS = 32 << 20
#: Lines right-stripped per step.
STRIP_STEP = 20_000
#: At most this many edits wait for the open; the next one finishes it first.
QUEUE_LIMIT = 1000


class _Row(NamedTuple):
    """A preview line scored: its right-stripped text and statistics by metric key."""

    hyp: str
    stats: dict[str, list[int]]


class Preview:
    """Line scores of a pair whose model is not built yet: the lines asked
    for, from the document's text and the references' first lines, or from
    the lists the background steps have read so far."""

    def __init__(
        self,
        metrics: dict[str, Metric],
        doc: "LineDocument",
        refs: list[LazyLines],
        paths: list[Path],
        cap: Optional[int] = None,
    ) -> None:
        self.metrics = metrics
        self.doc = doc
        self.refs = refs
        self.paths = paths  # the references' path keys, in order
        self.chars = doc.size
        #: lines over this many bytes are not scored here (the model counts
        #: them off the event loop once built)
        self.cap = cap
        self.long_left_out = False
        #: filled by the background steps: path key -> lines (or the error)
        self.files: dict[Path, Union[list[str], InputError]] = {}
        self._rows: dict[int, _Row] = {}
        #: the scored lines as opened (taken by the first edit, or once split)
        self.opened: Optional[list[str]] = None
        #: the edits made since, in order (replayed into the model at the end)
        self.queued: list[Splice] = []

    def edited(self, splice: Splice) -> None:
        """The document changed: forget the rows of the lines it touched."""
        self.queued.append(splice)
        shift = len(splice.lines) != splice.end - splice.start
        a, b = splice.start, splice.end
        self._rows = {i: r for i, r in self._rows.items() if i < a or (not shift and i >= b)}

    def _over_cap(self, text: str) -> bool:
        cap = self.cap
        if cap is None or len(text) * 4 <= cap:
            return False
        return len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap

    def close(self) -> None:
        for r in self.refs:
            r.close()

    def wait_is_short(self) -> bool:
        """Is building the model now short enough to do it for a request
        (rather than answer the lines at hand and refresh later)?  Not while
        edits wait for the open: the user is typing, and a request must not
        hold the next keystroke for the rest of the open."""
        return self.chars < BUILD_NOW_CHARS and not self.queued

    def _hyp_line(self, i: int) -> Optional[str]:
        doc = self.doc
        if not doc.ready(i) or not doc.has_line(i):
            return None
        return doc.line(i)

    def _ref_line(self, k: int, i: int) -> Optional[str]:
        lines = self.files.get(self.paths[k])
        if isinstance(lines, list):
            return lines[i] if 0 <= i < len(lines) else None
        return self.refs[k].line(i) if i < HEAD_LINES else None

    def known(self, i: int) -> bool:
        """Can line ``i`` be answered now (paired or not)?"""
        if not self.doc.ready(i):
            return False
        return all(isinstance(self.files.get(p), list) or (p not in self.files and i < HEAD_LINES) for p in self.paths)

    def hyp(self, i: int) -> Optional[str]:
        """Hypothesis line ``i`` right-stripped (None: not a paired line, or
        not known yet: see :meth:`known`)."""
        row = self._row(i)
        return None if row is None else row.hyp

    def _row(self, i: int) -> Optional[_Row]:
        if i in self._rows:
            return self._rows[i]
        hyp = self._hyp_line(i)
        if hyp is None:
            return None
        known = [self._ref_line(k, i) for k in range(len(self.refs))]
        refs = [x for x in known if x is not None]
        if len(refs) < len(known):
            return None  # not kept: a line not known yet may be known later
        if self._over_cap(hyp) or any(self._over_cap(x) for x in refs):
            self.long_left_out = True  # counted off the event loop once built
            return None
        hyp = hyp.rstrip()
        refs = [x.rstrip() for x in refs]
        row = _Row(hyp, {key: [int(v) for v in metric.line_stats(hyp, refs)] for key, metric in self.metrics.items()})
        self._rows[i] = row
        return row

    def line_score(self, key: str, i: int) -> Optional[Score]:
        row = self._row(i)
        if row is None or key not in self.metrics:
            return None
        return self.metrics[key].sentence_score(row.stats[key])

    def line_value(self, key: str, i: int) -> Optional[float]:
        s = self.line_score(key, i)
        v = None if s is None else s.score
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def begin(manager: "PairManager", pair: "Pair") -> bool:
    """Pair a large document lazily (True), or leave it to :func:`binding.build` (False)."""
    doc = manager.docs.get(pair.uri)
    if doc is None or doc.size < LAZY_OPEN_CHARS:
        return False
    spec = binding.resolve_spec(manager, pair)
    if spec is None or not spec.references:
        return False
    open_paths = manager.open_paths()
    files = [*spec.references, *([spec.source] if spec.source is not None else [])]
    if any(path_key(p) in open_paths for p in files):
        return False  # an open buffer is read as it is (no disk file to preview)
    settings, metrics, _problems = binding.effective_settings(manager, spec)
    root = manager.root_for(pair.path)
    pair.spec, pair.settings = spec, settings
    if not all(binding.allowed(p, root, pair, "file") for p in spec.references):
        pair.problems = []
        return False
    refs: list[LazyLines] = []
    try:
        for ref in spec.references:
            check_regular(ref)
            refs.append(LazyLines(str(ref)))
    except (InputError, OSError):
        for r in refs:
            r.close()
        return False  # said by the ordinary build, at once
    pair.hypothesis_like = True
    cap = settings.max_line_bytes or None
    pair.preview = Preview(metrics, doc, refs, [path_key(p) for p in spec.references], cap)
    pair.opening = _complete(manager, pair)
    pair.open_task = asyncio.ensure_future(_drive(manager, pair, pair.opening))
    return True


def reads(pair: "Pair") -> set[Path]:
    """The path keys of the files a pair being opened reads."""
    spec = pair.spec
    if spec is None:
        return set()
    files = [*spec.references, *([spec.source] if spec.source is not None else [])]
    return {path_key(p) for p in files}


def can_queue(pair: "Pair") -> bool:
    """May an edit of a pair being opened wait for the open (see :func:`queue`)?"""
    preview: Optional[Preview] = pair.preview
    return pair.opening is not None and preview is not None and len(preview.queued) < QUEUE_LIMIT


def keep_opened(pair: "Pair", doc: "LineDocument") -> None:
    """Before the first edit of a pair being opened: keep its lines as
    opened (what the model and the draft are built from)."""
    preview: Optional[Preview] = pair.preview
    if preview is not None and preview.opened is None:
        preview.opened = doc.engine_lines()


def queue(pair: "Pair", splice: Splice) -> None:
    """The document of a pair being opened was edited (after
    :func:`keep_opened`): replayed into the model and the draft at the end."""
    pair.preview.edited(splice)


def _catch_up(manager: "PairManager", pair: "Pair", preview: Preview) -> None:
    """Replay the edits made while opening into the model and the draft."""
    doc = manager.docs[pair.uri]
    model_ok = True
    for splice in preview.queued:
        if model_ok:
            model_ok = binding.splice_own(pair, doc, splice, resync=False)
            if not model_ok and pair.model is not None:  # (False only with a model)
                pair.model.set_hyp(doc.engine_lines())
        else:
            drafts.splice(pair, splice.start, splice.end, splice.lines)
    preview.queued = []


def finish(manager: "PairManager", pair: "Pair") -> None:
    """Build the pair now (the remaining steps at once)."""
    gen = pair.opening
    if gen is None:
        return
    try:
        run(gen)
    except Exception:
        _fallback(manager, pair)


def _fallback(manager: "PairManager", pair: "Pair") -> None:
    log.exception("opening %s lazily failed; reading it at once", pair.uri)
    preview = pair.preview
    opened = preview.opened if preview is not None else None
    _done(pair)
    binding.build(manager, pair)
    if opened is None:
        drafts.bind(manager, pair)
    else:  # the draft is the text as opened; the edits made since are spliced in
        run(drafts.bind_steps(manager, pair, opened))
        for splice in preview.queued:
            drafts.splice(pair, splice.start, splice.end, splice.lines)
    manager.after_change(pair, external=False)


def cancel(pair: "Pair") -> None:
    """The document was closed (or the server stops) before it was built."""
    if pair.open_task is not None:
        pair.open_task.cancel()
    if pair.opening is not None:
        pair.opening.close()
    _done(pair)


def _done(pair: "Pair") -> None:
    if pair.preview is not None:
        pair.preview.close()
    pair.preview = None
    pair.opening = None
    pair.open_task = None


async def _drive(manager: "PairManager", pair: "Pair", gen: Generator[None, None, None]) -> None:
    # (a document opened here is large: at least LAZY_OPEN_CHARS)
    with heap.quiet(heap.FREEZE_LINES):
        await _drive_steps(manager, pair, gen)


async def _drive_steps(manager: "PairManager", pair: "Pair", gen: Generator[None, None, None]) -> None:
    await asyncio.sleep(START_DELAY)
    while pair.opening is gen:
        deadline = time.perf_counter() + SLICE_SECONDS
        try:
            while pair.opening is gen and time.perf_counter() < deadline:
                next(gen)
        except StopIteration:
            return
        except Exception:
            if pair.opening is gen:
                _fallback(manager, pair)
            return
        await asyncio.sleep(PAUSE_SECONDS)


def _strip(lines: list[str]) -> Generator[None, None, list[str]]:
    out: list[str] = []
    for a in range(0, len(lines), STRIP_STEP):
        out.extend([x.rstrip() for x in lines[a : a + STRIP_STEP]])
        yield
    return out


def _complete(manager: "PairManager", pair: "Pair") -> Generator[None, None, None]:
    doc: LineDocument = manager.docs[pair.uri]
    spec = pair.spec
    preview: Optional[Preview] = pair.preview
    assert spec is not None and preview is not None, "set by begin() before the steps are made"
    yield from doc.split_sliced()
    keep_opened(pair, doc)  # unless an edit came first and kept them
    opened = preview.opened
    assert opened is not None
    prepared = binding.Prepared(lines=opened)
    preview.files = prepared.files  # read lines answer the preview at once
    for path in [*spec.references, *([spec.source] if spec.source is not None else [])]:
        key = path_key(path)
        if key in prepared.files:
            continue
        try:
            check_regular(path)
            prepared.files[key] = yield from read_lines_sliced(str(path))
        except InputError as exc:
            prepared.files[key] = exc
    for ref in spec.references:
        key = path_key(ref)
        lines = prepared.files[key]
        if isinstance(lines, list) and key not in prepared.norm:
            prepared.norm[key] = yield from _strip(lines)
    prepared.hyp = yield from _strip(opened)
    preview.close()  # the references are read in full: the preview reads those lines
    binding.build(manager, pair, prepared=prepared)
    yield
    yield from drafts.bind_steps(manager, pair, opened)
    _catch_up(manager, pair, preview)
    _done(pair)
    heap.settle(doc.line_count)
    manager.after_change(pair, external=False)
    if pair.hints_pending:  # some lines were left out of an answer meanwhile
        pair.hints_pending = False
        manager.publisher.schedule_refresh()
    if preview.long_left_out:  # asked again once the scorer has counted them
        pair.hints_pending = True
