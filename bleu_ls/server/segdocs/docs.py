"""The owner of the open segment documents (:class:`SegmentDocs`, which the
pair manager holds as ``segment_docs``): opening, edits, the reference read
again when it changes on disk or the settings do, diagnostics pushed to a
client that does not pull them.  The answers are made in
:mod:`.answers`, :mod:`.checks` and :mod:`.actions`; the rows in :mod:`.rows`.
What the features ask of a segment document goes through
:class:`SegmentAnswers` (``SegmentDocs.answers``: the segment files' side of
:class:`~bleu_ls.server.roles.DocumentAnswers`).

Edits: an edit inside a segment's text re-scores that segment's row only; an
edit that changes structure (a cue added or removed, a timing typed) pairs
again and splices the rows that differ.  A large PO, XLIFF or TMX file opens in
two steps (:mod:`.opening`): the hints of its first segments at once, the whole
read in a thread.  While an edit leaves the file
malformed (a half-typed tag or timing line), the rows and hints of the last
well-formed reading stay (their positions moved through the edits) and the
problem is one diagnostic at its place; the next well-formed text is paired
again."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

import numpy as np
from lsprotocol import types

from ...formats.table import row
from ...qa.terms.load import Terms, document_terms
from ..views.terms_render import completion_items
from ..documents.files import path_key, uri_path
from ..roles import ManagerRole
from ..wire.protocol import Encoded, full_report, unchanged_report
from . import actions, answers, drafts, effort, opening, rules
from .checks import after_edit, configure, diagnostics_json
from .draft_tokens import tokens_data
from .rows import pair, read_reference, read_source, repair
from .state import SegmentPair, hint_offsets, loop_running, offset_at, position_at, segment_format

if TYPE_CHECKING:
    from ..roles import Report

log = logging.getLogger(__name__)

PUSH_DELAY = 0.05
#: a pulling editor is asked to pull again this long after the last edit (as for line files)
PULL_DELAY = 0.15


def _full_and_cut(*args: Any) -> SegmentPair:
    """:func:`opening.full_pair`, its text cut into pieces (live_text.py) there, in the thread: not at the first key press."""
    full = opening.full_pair(*args)
    cut = getattr(getattr(full.index, "buf", None), "cut", None)
    if cut is not None:
        cut()
    return full


class SegmentDocs:
    """The open segment-format documents of the pair manager (:mod:`~bleu_ls.server.pairs.manager` owns one)."""

    def __init__(self, manager: ManagerRole) -> None:
        self.manager = manager
        self.docs: dict[str, SegmentPair] = {}
        #: what the features ask of a segment document (the manager hands it for a URI of ``docs``)
        self.answers = SegmentAnswers(self)

    # -- lifecycle ------------------------------------------------------------------
    def claims(self, uri: str) -> bool:
        if uri in self.docs:
            return True
        try:
            return segment_format(uri_path(uri)) is not None
        except Exception:
            return False

    def open(self, uri: str, text: str, version: Optional[int]) -> None:
        path = uri_path(uri)
        fmt = segment_format(path)
        assert fmt is not None
        others = list(self.docs.values())
        sp = None
        if opening.two_step(fmt, text) and loop_running():  # a large file: its first segments now (opening.py)
            sp = opening.open_prefix(uri, path, fmt, text, version, self.manager, others)
        if sp is None:
            sp = opening.full_pair(uri, path, fmt, text, version, self.manager, others)
            self._bind(sp)
        else:
            sp.loading = asyncio.ensure_future(self._finish(sp))
        self.docs[uri] = sp
        self._changed(sp)

    async def _finish(self, sp: SegmentPair) -> None:
        """The whole of a large file read and paired in a thread, put in place, the editor asked to refresh."""
        # the first hint request (it follows the open) answered before the thread takes its share of the interpreter
        await asyncio.sleep(opening.START_DELAY)
        while True:
            gen, text = sp.load_gen, sp.index.text
            others = opening.snapshots(self.docs.values(), sp)
            try:
                full = await asyncio.to_thread(_full_and_cut, sp.uri, sp.path, sp.index.format, text, sp.version,
                                               self.manager, others)
            except Exception:  # a bug of a reader: the first segments stay
                log.exception("reading %s failed", sp.uri)
                sp.loading = None
                return
            if self.docs.get(sp.uri) is not sp:
                return
            if gen == sp.load_gen:  # no edit meanwhile
                break
        opening.install(sp, full)
        sp.loading = None
        self._bind(sp)
        self._changed(sp)
        self._refresh()

    def _bind(self, sp: SegmentPair) -> None:
        """The document's drafts and the rule table's checks (over its lines alone, or its rows with the reference)."""
        drafts.bind(sp, getattr(self.manager, "drafts", None), self.manager.settings, self.manager.root_for(sp.path))
        rules.bind(sp, self.manager.settings, getattr(self.manager, "adequacy", None))

    def close(self, uri: str) -> None:
        sp = self.docs.pop(uri, None)
        if sp is None:
            return
        if sp.loading is not None:
            sp.loading.cancel()
        if sp.rules is not None and sp.rules.rerank is not None:
            sp.rules.rerank.cancel()
        if sp.push_task is not None:
            sp.push_task.cancel()
        if not self.manager.pull_diagnostics:
            self.manager.client.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def change(self, params: types.DidChangeTextDocumentParams) -> None:
        sp = self.docs.get(params.text_document.uri)
        if sp is None:
            return
        for ch in params.content_changes:
            rng = getattr(ch, "range", None)
            if sp.loading is not None:  # the whole being read: the edit goes to the text, read again after
                start, end = (0, len(sp.index.buf)) if rng is None else (
                    offset_at(sp, rng.start.line, rng.start.character, self.manager.encoding),
                    offset_at(sp, rng.end.line, rng.end.character, self.manager.encoding))
                opening.edit_prefix(sp, start, max(start, end), ch.text, self.manager.settings)
                sp.load_gen += 1
                continue
            if rng is None:
                start, end = 0, len(sp.index.buf)
            else:
                start = offset_at(sp, rng.start.line, rng.start.character, self.manager.encoding)
                end = max(start, offset_at(sp, rng.end.line, rng.end.character, self.manager.encoding))
            self._apply(sp, start, end, ch.text)
        sp.version = params.text_document.version
        self._changed(sp)

    def watched(self) -> set[Path]:
        """The reference (and source-language) files of the open segment documents (watched for changes on disk)."""
        return {p for sp in self.docs.values() for p in (sp.ref_path, sp.source_path) if p is not None}

    def file_changed(self, path: Path) -> None:
        """A file changed on disk: the documents it is the reference of read it again."""
        for sp in self.docs.values():
            if sp.source_path is not None and path_key(sp.source_path) == path_key(path) and sp.loading is None:
                read_source(sp, self.manager, self.docs.values())  # every segment read again with its source
                configure(sp, self.manager.settings)
                sp.model, sp.frozen = None, None
                pair(sp, self.manager.settings)
                self._bind(sp)
                self._changed(sp)
                self._refresh()
            if sp.ref_path is not None and path_key(sp.ref_path) == path_key(path):
                if sp.loading is not None:  # read with the whole
                    sp.load_gen += 1
                    continue
                sp.model, sp.frozen = None, None
                read_reference(sp, self.manager, self.docs.values())
                pair(sp, self.manager.settings)
                rules.bind(sp, self.manager.settings, getattr(self.manager, "adequacy", None))  # (its rows read again)
                self._changed(sp)
                self._refresh()

    def _refresh(self) -> None:
        """Ask the editor for the hints, diagnostics and lens again (when it can be asked)."""
        manager = self.manager
        try:
            manager.publisher.schedule_refresh()
        except Exception:  # no event loop (a test driving the manager)
            pass

    def settings_changed(self) -> None:
        """Settings changed: pair every open segment document again."""
        for sp in self.docs.values():
            if sp.loading is not None:  # read with the whole
                sp.load_gen += 1
                continue
            sp.model, sp.frozen = None, None
            configure(sp, self.manager.settings)
            read_reference(sp, self.manager, self.docs.values())
            read_source(sp, self.manager, self.docs.values())
            pair(sp, self.manager.settings)
            self._bind(sp)
            self._changed(sp)

    # -- edits -------------------------------------------------------------------------
    def _apply(self, sp: SegmentPair, start: int, end: int, new: str) -> None:
        index = sp.index
        # the hint places before the edit, moved through it: kept if it leaves the text malformed.
        # Made only then: the index says afterwards where they were (live_offsets.py), no row's place
        # is read at each key press.
        frozen = sp.frozen
        lazy = frozen is None and hasattr(index, "hints_snapshot") and (not row(index.format).quoted_target or hasattr(index, "quoted"))
        if lazy:
            snap, anchors = index.hints_snapshot(), sp.row_anchor
        elif frozen is None:
            eager = hint_offsets(sp)
        change = index.edit(start, end, new)

        def moved(before: np.ndarray) -> np.ndarray:
            inside = (before > start) & (before < end)
            before[inside] = start + len(new)
            before[before >= end] += change.delta
            return before

        if frozen is not None:
            sp.frozen = moved(frozen)
            before = lambda: sp.frozen  # noqa: E731
        elif lazy:
            before = lambda: moved(index.hints_before(snap, anchors))  # noqa: E731
        else:
            before = lambda: moved(eager)  # noqa: E731
        after_edit(sp, change)
        if sp.rules is not None:
            rules.after_edit(sp, change, time.monotonic())
            self._rerank_later(sp)
        _forget_places(sp, start, new)
        if change.kind == "none":
            if change.problems_changed:
                self._maybe_freeze(sp, before)
            return
        if change.kind == "text":
            drafts.touched(sp, change.start)
            if sp.frozen is None and change.text_changed and sp.model is not None:
                r = int(sp.row_of[change.start])
                if r >= 0:
                    h = range(int(sp.row_hs[r]), int(sp.row_he[r]))
                    text = " ".join(t for t in (index.segment(i).target for i in h) if t)
                    sp.model.splice_hyp(r, r + 1, [text])
            if change.problems_changed:
                self._maybe_freeze(sp, before)
            return
        # structure: the drafts of new keys, then the rows (unless malformed)
        drafts.spliced(sp, change.start, change.end, change.count)  # new keys: their drafts as first seen
        if not self._maybe_freeze(sp, before):
            repair(sp, self.manager.settings, change.start, change.end, change.count)

    def _maybe_freeze(self, sp: SegmentPair, before: Callable[[], np.ndarray]) -> bool:
        """Keep the last good rows (hints at ``before()``) while the text has more
        problems than when they were made; True while frozen, and when the rows
        were just made again (nothing left to pair)."""
        n = len(sp.index.problems)
        if n > sp.good_problems:
            if sp.frozen is None:
                sp.frozen = before()
            return True
        sp.good_problems = n
        if sp.frozen is not None:  # well-formed again: every cue paired again
            sp.frozen = None
            pair(sp, self.manager.settings)
            return True
        return False

    # -- answers (segdocs/answers.py, checks.py, actions.py) -----------------------------
    def hints(self, params: types.InlayHintParams) -> list[types.InlayHint]:
        sp = self.docs.get(params.text_document.uri)
        if sp is None:
            return []
        return answers.hints(sp, params, self.manager.settings.hints, self.manager.encoding)

    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        sp = self.docs.get(params.text_document.uri)
        if sp is None:
            return None
        return answers.hover(sp, params, self.manager.settings.hints, self.terms(sp))

    def completion(self, params: types.CompletionParams) -> Optional[types.CompletionList]:
        sp = self.docs.get(params.text_document.uri)
        if sp is None or not self.manager.settings.terms.files:
            return None
        i = sp.index.at_line(params.position.line)
        if i is None:
            return None
        items = completion_items(self.terms(sp), sp.index.segment(i).source)
        return types.CompletionList(is_incomplete=False, items=items) if items else None

    def terms(self, sp: SegmentPair) -> Terms:
        """The glossaries' term index for the document's languages (qa/terms/load.py)."""
        source_language, target_language = rules.declared(sp)
        return document_terms(self.manager.settings, {"source_language": source_language,
                                                      "target_language": target_language})

    async def lens(self, uri: str) -> list[types.CodeLens]:
        sp = self.docs.get(uri)
        if sp is not None and sp.loading is not None:  # the corpus is the whole file's
            await asyncio.shield(sp.loading)
        return await answers.lens(sp) if sp is not None else []

    async def corpus(self, uri: str) -> Optional[dict[str, Any]]:
        sp = self.docs.get(uri)
        if sp is not None and sp.loading is not None:
            await asyncio.shield(sp.loading)
        return await answers.corpus(sp) if sp is not None else None

    def diagnostics(self, uri: str) -> list[str]:
        """The document's diagnostics as JSON texts (made once per version)."""
        sp = self.docs.get(uri)
        if sp is None:
            return []
        if sp.diagnostics is not None and sp.diagnostics[0] == sp.serial:
            return sp.diagnostics[1]
        found = rules.findings(sp, time.monotonic(), lambda: self._rules_moved(sp))
        untranslated = sp.rules.untranslated if sp.rules is not None else frozenset()
        out = diagnostics_json(sp, self.manager.encoding, found, untranslated, self.manager.settings.max_problems)
        if sp.diagnostics is None or sp.diagnostics[1] != out or not sp.diag_rid:
            sp.diag_rid = f"seg-{sp.serial}"
        sp.diagnostics = (sp.serial, out)
        return out

    def tokens(self, uri: str, start_line: int = 0, end_line: Optional[int] = None) -> list[int]:
        """Semantic tokens: the words of the targets changed since their drafts (draft_tokens.py)."""
        sp = self.docs.get(uri)
        if sp is None or not self.manager.settings.highlights.changed:
            return []
        return tokens_data(sp, self.manager.encoding, start_line, end_line)

    def result_id(self, uri: str) -> str:
        sp = self.docs.get(uri)
        if sp is None:
            return "none"
        self.diagnostics(uri)  # made once per version; the id moves only when they differ
        return sp.diag_rid

    def code_actions(self, uri: str, rng: types.Range, only: Optional[Sequence[Any]] = None) -> list[types.CodeAction]:
        sp = self.docs.get(uri)
        return actions.code_actions(sp, uri, rng, self.manager.encoding, only) if sp is not None else []

    def next_review(self, uri: str, line: int, character: int, direction: str = "next") -> Optional[dict[str, Any]]:
        sp = self.docs.get(uri)
        return actions.next_review(sp, line, character, direction, self.manager.encoding) if sp is not None else None

    def position(self, sp: SegmentPair, offset: int) -> types.Position:
        return position_at(sp, offset, self.manager.encoding)

    # -- the rule table's findings arriving later --------------------------------------
    def _rules_moved(self, sp: SegmentPair) -> None:
        """A pass (a worker thread's, the ranks after a pause, adequacy values) may have
        changed the rule findings: the diagnostics are made again, and a pulling editor asked."""
        if self.docs.get(sp.uri) is not sp:
            return
        self._changed(sp)
        if self.manager.pull_diagnostics:
            try:
                self.manager.publisher.schedule_refresh(("diagnostics",))
            except Exception:  # no event loop (a test driving the documents)
                pass

    def _rerank_later(self, sp: SegmentPair) -> None:
        """After an edit: once typing pauses, the ranked rules catch up (see rules.RERANK_IDLE)."""
        r = sp.rules
        if r is None or not loop_running() or (r.rerank is not None and not r.rerank.done()):
            return

        async def wait() -> None:
            while True:
                left = r.typed_at + rules.RERANK_IDLE - time.monotonic()
                if left <= 0:
                    break
                await asyncio.sleep(left + 0.005)
            if r.analyzer.held and sp.rules is r:
                r.stale = True
                self._rules_moved(sp)

        r.rerank = asyncio.ensure_future(wait())

    def adequacy_arrived(self) -> None:
        """Adequacy values came from the worker process: the documents that rank them look again."""
        for sp in list(self.docs.values()):
            r = sp.rules
            if r is None or r.source is None or sp.loading is not None:
                continue
            if r.task is not None and not r.task.done():
                continue  # its end looks again
            r.stale = True
            if rules.analyse(sp, time.monotonic()):
                self._rules_moved(sp)

    def _changed(self, sp: SegmentPair) -> None:
        """The document changed: once it is quiet, its diagnostics pushed (an editor that is
        pushed to), or the editor asked to pull again when they are no longer those it last
        pulled (VS Code does not pull after an edit: editors/vscode/src/pullOptions.ts)."""
        sp.serial += 1
        manager = self.manager
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            if not manager.pull_diagnostics:
                self._push_now(sp)
            return
        if sp.push_task is None or sp.push_task.done():
            sp.push_task = asyncio.ensure_future(self._push_later(sp))

    async def _push_later(self, sp: SegmentPair) -> None:
        serial = -1
        pull = self.manager.pull_diagnostics
        while serial != sp.serial:
            serial = sp.serial
            await asyncio.sleep(PULL_DELAY if pull else PUSH_DELAY)
        if sp.uri not in self.docs:
            return
        if not pull:
            self._push_now(sp)
        elif sp.pulled_rid is not None:  # (never pulled yet: its first pull is on its way)
            self.diagnostics(sp.uri)  # (the result id follows the findings)
            if sp.diag_rid != sp.pulled_rid:
                self.manager.publisher.schedule_refresh(("diagnostics",))

    def _push_now(self, sp: SegmentPair) -> None:
        self.manager.publisher._publish_encoded(sp.uri, ",".join(self.diagnostics(sp.uri)), sp.version)


class SegmentAnswers:
    """The answers of the segment documents, for a URI of ``docs.docs``
    (:class:`~bleu_ls.server.roles.DocumentAnswers`): the hints, hover, lens
    and corpus of :mod:`.answers`, the diagnostics of :mod:`.checks` (made once
    per version, their result id moving only when they differ), the changed
    words of :mod:`.draft_tokens`, the state actions and the next segment to
    review of :mod:`.actions`, the drafts of :mod:`.drafts`."""

    def __init__(self, docs: SegmentDocs) -> None:
        self.docs = docs

    async def hints(self, params: types.InlayHintParams) -> Union[list[types.InlayHint], Encoded]:
        return self.docs.hints(params)

    def resolve_hint(self, hint: types.InlayHint) -> types.InlayHint:
        return hint  # sent with their tooltips (none to resolve)

    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        return self.docs.hover(params)

    def completion(self, params: types.CompletionParams) -> Optional[types.CompletionList]:
        return self.docs.completion(params)

    async def lens(self, uri: str) -> list[types.CodeLens]:
        lenses = await self.docs.lens(uri)
        self._follow(uri)  # (after it: a large file's drafts are bound once the whole is read)
        return lenses

    async def corpus(self, uri: str) -> Optional[dict[str, Any]]:
        record = await self.docs.corpus(uri)
        self._follow(uri)
        return record

    def _follow(self, uri: str) -> None:
        """The paired test against the drafts refreshes the lens when it lands."""
        sp = self.docs.docs.get(uri)
        if sp is not None:  # (closed meanwhile: nothing to follow)
            manager = self.docs.manager
            effort.follow(sp, lambda: manager.publisher.schedule_refresh(("code_lens",)))

    async def diagnostics(self, params: types.DocumentDiagnosticParams) -> tuple["Report", Optional[str]]:
        uri = params.text_document.uri
        rid = self.docs.result_id(uri)
        sp = self.docs.docs.get(uri)
        if sp is not None:
            sp.pulled_rid = rid
        if params.previous_result_id == rid:
            return unchanged_report(rid), None
        return full_report(rid, self.docs.diagnostics(uri)), None

    async def tokens_full(self, uri: str) -> Encoded:
        return Encoded(json.dumps({"data": self.docs.tokens(uri)}))

    async def tokens_delta(self, uri: str, previous: str) -> Union[Encoded, types.SemanticTokensDelta]:
        return await self.tokens_full(uri)  # always a full answer

    async def tokens_range(self, uri: str, start: int, end: int) -> types.SemanticTokens:
        return types.SemanticTokens(data=self.docs.tokens(uri, start, end))

    async def code_actions(self, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        return self.docs.code_actions(params.text_document.uri, params.range, params.context.only) or None

    async def next_review(self, uri: str, line: int, character: int, direction: str) -> Optional[dict[str, Any]]:
        return self.docs.next_review(uri, line, character, direction)

    async def set_draft(self, uri: str) -> str:
        """Each non-empty target the draft of its segment, by key (drafts.py)."""
        return await self._draft(uri, drafts.set_to_current)

    async def forget_draft(self, uri: str) -> str:
        return await self._draft(uri, drafts.forget)

    async def _draft(self, uri: str, change: Callable[[SegmentPair], str]) -> str:
        """setDraft / forgetDraft, then the editor asked again."""
        sp = self.docs.docs[uri]
        if sp.loading is not None:  # a large file being read: its whole first
            await asyncio.shield(sp.loading)
        message = change(sp)  # (a ValueError: the sentence the command says)
        self.docs.manager.publisher.schedule_refresh()
        return message


def _forget_places(sp: SegmentPair, start: int, new: str) -> None:
    """The kept diagnostic JSON of the findings of the segments on the lines an edit wrote
    (``checks.diagnostics_json`` keeps a finding's JSON while its segment's first line stays put):
    an edit outside a target's text may still move its columns (``msgstr  "…"``, a PO string's
    second line), so they are placed again."""
    index = sp.index
    if not hasattr(index, "at_line"):
        return
    first = index.position(start)[0]
    found = sp.rules.found if sp.rules is not None else {}
    for line in range(first, first + new.count("\n") + 1):
        i = index.at_line(line)
        if i is None:
            continue
        for f in (*(sp.qa[i] if sp.qa is not None and i < len(sp.qa) else ()), *found.get(i, ())):
            f.cache = None
