"""The pair manager: the one owner of the server's pair state.

It holds the open documents, the pair of each hypothesis document (its
spec, settings, model, source lines), the manual pairs made by the
``bleuLs.pairWith`` command, the file watcher, the scorer (background
passes) and the publisher (pushed diagnostics, refresh requests).  Every
lifecycle hook is here: :meth:`open`, :meth:`change`, :meth:`close`,
:meth:`settings_changed`, :meth:`shutdown`.  Features read pairs through
:meth:`pair_for` and ask for work through the public methods; they never
reach the language server class.

Everything runs on the event loop thread, so no locks are needed.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types

from ...qa.analysis import Analyzer
from ...qa.adequacy.qe_background import BackgroundAdequacy
from ...qa.spelling import wordlist
from ...config.pairing import PairSpec
from ...config.workspace import CONFIG_NAME
from ...config.settings import Settings
from ...postedit import DraftStore
from . import binding, opening
from ..postedit import drafts
from ..postedit.compare import CompareTests, OtherSystem
from .state import Pair
from .answers import LineAnswers
from ..postedit.compare import attach as attach_other
from ..postedit.compare import detach as detach_other
from ..postedit.paired import PairedTests
from .config import assemble_settings
from ..documents.document import LineDocument
from ..documents.files import arg_path, forget_path_keys, path_key, uri_path
from ..views.publish import Publisher
from ..background.scoring import Scorer
from ..background.tasks import outlive
from ..roles import DocumentAnswers
from ..segdocs.docs import SegmentDocs
from .pacing import Pacing
from .watching import FileWatcher

log = logging.getLogger(__name__)


class PairManager:
    """Documents, pairs and their lifecycle; ``client`` is the language server
    (used only to send messages to the editor)."""

    def __init__(self, client) -> None:
        self.client = client
        self.docs: dict[str, LineDocument] = {}
        self.doc_paths: dict[str, Path] = {}
        self.pairs: dict[str, Pair] = {}
        self.manual_pairs: dict[Path, PairSpec] = {}
        self.analyzers: dict[str, Analyzer] = {}
        #: the hint requests sent with a diagnostics pull answered first (pairs/pacing.py)
        self.pacing = Pacing()
        self.settings = Settings()
        self.settings_problems: list[str] = []
        self._shown_problems: tuple = ()
        self.init_options: Any = None
        self.client_settings: Any = None
        self.roots: list[Path] = []
        self.encoding = "utf-16"
        self.caps = types.ClientCapabilities()
        self.watcher = FileWatcher(client, self.on_file_changed)
        self.watcher.tick = self.on_tick
        self.publisher = Publisher(self)
        self.scorer = Scorer(self)
        self.drafts = DraftStore()
        self.tests = PairedTests(self)
        self.compare_tests = CompareTests(self)
        #: the adequacy rule's values, from a worker process started on first need
        self.adequacy = BackgroundAdequacy(self._adequacy_ready)
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        #: documents of a segment format (subtitles…), scored per segment: segdocs/
        self.segment_docs = SegmentDocs(self)
        #: what the features ask of a line file (answers.py): see :meth:`answers`
        self.line_answers = LineAnswers(self)

    # -- client capabilities ----------------------------------------------------
    @property
    def pull_diagnostics(self) -> bool:
        td = self.caps.text_document
        return bool(td and td.diagnostic is not None)

    def workspace_cap(self, name: str, attr: str = "refresh_support") -> bool:
        ws = self.caps.workspace
        sub = getattr(ws, name, None) if ws else None
        return bool(sub and getattr(sub, attr, False))

    @property
    def progress_supported(self) -> bool:
        w = self.caps.window
        return bool(w and w.work_done_progress)

    # -- lookups ---------------------------------------------------------------
    def root_for(self, path: Path) -> Optional[Path]:
        best = None
        p = path.absolute()
        for root in self.roots:
            r = root.absolute()
            if (p == r or r in p.parents) and (best is None or len(str(r)) > len(str(best))):
                best = r
        return best if best is not None else (self.roots[0] if self.roots else None)

    def open_paths(self) -> dict[Path, LineDocument]:
        return {path_key(self.doc_paths[u]): d for u, d in self.docs.items()}

    def pair_for(self, uri: str) -> Optional[Pair]:
        """The pair of ``uri``, built (a large document still being opened
        is finished first)."""
        pair = self.pairs.get(uri)
        if pair is not None and pair.opening is not None:
            opening.finish(self, pair)
        return pair

    async def wait_opened(self, uri: str) -> None:
        """Until a large document being opened is built in the background
        (other requests go on; :meth:`pair_for` would build it at once)."""
        pair = self.pairs.get(uri)
        task = pair.open_task if pair is not None else None
        if task is None or task.done():
            return
        await outlive(task)

    def answers(self, uri: str) -> DocumentAnswers:
        """What the features ask of the document at ``uri``: a segment file's
        answers (segdocs/docs.py: ``SegmentAnswers``) or a line file's
        (answers.py: ``LineAnswers``, also for a URI that is no open document)."""
        segment_docs = self.segment_docs
        return segment_docs.answers if uri in segment_docs.docs else self.line_answers

    def peek(self, uri: str) -> Optional[Pair]:
        """The pair of ``uri`` as it is: maybe still being opened (``pair.preview``)."""
        return self.pairs.get(uri)

    def settle(self, path: Optional[Path] = None) -> None:
        """Finish opening the documents still being opened (those that read
        ``path``, or all): before a change that may touch what they read."""
        for pair in list(self.pairs.values()):
            if pair.opening is None:
                continue
            if path is None or path_key(path) in opening.reads(pair):
                opening.finish(self, pair)

    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.info("%s", message)
        try:
            self.client.window_show_message(types.ShowMessageParams(type=kind, message=message))
        except Exception:
            pass

    # -- settings ---------------------------------------------------------------
    def reload_settings(self) -> None:
        root = self.roots[0] if self.roots else None
        self.settings, self.settings_problems = assemble_settings(root, self.init_options, self.client_settings)
        self.watcher.interval = max(0.05, self.settings.watch_interval_ms / 1000.0)
        problems = tuple(self.settings_problems)
        if problems and problems != self._shown_problems:
            self.show(
                "bleu-ls settings: " + "; ".join(problems[:5]) + (" …" if len(problems) > 5 else ""),
                types.MessageType.Warning,
            )
        self._shown_problems = problems

    def settings_changed(self) -> None:
        """Settings changed: re-read them, re-pair every open document and
        rescore what changed."""
        forget_path_keys()
        self.reload_settings()
        self.settle()
        for uri in list(self.docs):
            pair = self.pairs.get(uri) or Pair(uri=uri, path=self.doc_paths[uri])
            self.analyzers.pop(uri, None)
            binding.build(self, pair)
            drafts.bind(self, pair)
            if pair.spec is not None or pair.hypothesis_like:
                self.pairs[uri] = pair
                self.after_change(pair, external=True)
            elif self.pairs.pop(uri, None) is not None:
                drafts.detach(pair)
                self.publisher.clear(uri)
                self.publisher.schedule_refresh()
        self.segment_docs.settings_changed()
        self.update_watch_list()

    # -- documents --------------------------------------------------------------
    def open(self, uri: str, text: str, version: Optional[int]) -> None:
        if self._loop is None:
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:  # not on an event loop (a test driving the manager)
                pass
        if self.segment_docs.claims(uri):
            self.segment_docs.open(uri, text, version)
            self.update_watch_list()
            return
        lazy = len(text) >= opening.LAZY_OPEN_CHARS
        self.docs[uri] = LineDocument(text, version, self.encoding, lazy=lazy)
        path = uri_path(uri)
        self.doc_paths[uri] = path
        self._dependents_changed(path)
        pair = Pair(uri=uri, path=path)
        if opening.begin(self, pair):
            self.pairs[uri] = pair  # built in the background (opening.py)
            self.update_watch_list()
            return
        binding.build(self, pair)
        drafts.bind(self, pair)
        if pair.spec is not None or pair.hypothesis_like:
            self.pairs[uri] = pair
            self.after_change(pair, external=False)
        self.update_watch_list()

    def change(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in self.segment_docs.docs:
            self.segment_docs.change(params)
            return
        doc = self.docs.get(uri)
        if doc is None:
            return
        pair = self.pairs.get(uri)
        self.settle(self.doc_paths[uri])
        dependents = self._dependents(self.doc_paths[uri])
        # a large document still being opened: the edits wait for the model (opening.py)
        queued = pair is not None and pair.opening is not None and not dependents and opening.can_queue(pair)
        if pair is not None and pair.opening is not None and not queued:
            opening.finish(self, pair)
        for change in params.content_changes:
            if queued:
                assert pair is not None  # (queued only for an open pair)
                opening.keep_opened(pair, doc)
            splice = doc.apply(change)
            if splice.start == splice.end and not splice.lines:
                continue
            if queued:
                assert pair is not None
                opening.queue(pair, splice)
            elif pair is not None:
                binding.splice_own(pair, doc, splice)
            if pair is not None:
                pair.token_lines.splice(splice.start, splice.end, len(splice.lines))
            for dep, k in dependents:
                binding.splice_dependent(dep, k, doc, splice)
        doc.version = params.text_document.version
        if pair is not None and not queued:
            self.publisher.typed(pair)
            self.after_change(pair, external=False)
        for dep in {id(d): d for d, _ in dependents}.values():
            if dep is not pair:
                self.after_change(dep, external=True)

    def close(self, uri: str) -> None:
        self.segment_docs.close(uri)
        self.docs.pop(uri, None)
        path = self.doc_paths.pop(uri, None)
        pair = self.pairs.pop(uri, None)
        self.analyzers.pop(uri, None)
        self.pacing.forget(uri)
        if pair is not None:
            opening.cancel(pair)
            for task in (pair.bg_task, pair.push_task, pair.paired_task):
                if task is not None:
                    task.cancel()
            drafts.detach(pair)
            detach_other(pair)
            self.publisher.clear(uri)
        if path is not None:
            self._dependents_changed(path)
        self.update_watch_list()

    def shutdown(self) -> None:
        """The editor asked the server to shut down: stop polling, background
        scoring and the worker pool."""
        self.watcher.stop()
        for pair in self.pairs.values():
            opening.cancel(pair)
            for task in (pair.bg_task, pair.push_task, pair.paired_task, pair.effort_task):
                if task is not None:
                    task.cancel()
        self.scorer.shutdown()
        self.adequacy.close()
        self.tests.shutdown()
        self.compare_tests.shutdown()

    def compare_with(self, pair: Pair, other: Optional[str]) -> Optional[OtherSystem]:
        """Compare ``pair`` with another system's file (None: stop comparing)."""
        self.settle()
        detach_other(pair)
        result = attach_other(self, pair, arg_path(other)) if other else None
        pair.diag_cache = None
        self.after_change(pair, external=True)
        return result

    def pair_with(self, uri: str, refs: list[str], source: Optional[str] = None) -> tuple[PairSpec, Optional[Pair]]:
        """Pair ``uri`` with reference file(s) by hand (``bleuLs.pairWith``)."""
        forget_path_keys()
        self.settle()
        hyp = uri_path(uri)
        src = arg_path(source) if source else None
        spec = PairSpec(hyp, [arg_path(r) for r in refs], src, {}, "command")
        self.manual_pairs[path_key(hyp)] = spec
        pair = self.pairs.get(uri)
        if pair is None and uri in self.docs:
            pair = self.pairs[uri] = Pair(uri=uri, path=self.doc_paths[uri])
        if pair is not None:
            binding.build(self, pair, keep_model=False)
            self.after_change(pair, external=True)
            self.update_watch_list()
        return spec, pair

    # -- files a pair reads --------------------------------------------------------
    def _dependents(self, path: Path) -> list[tuple[Pair, Optional[int]]]:
        """Open pairs that read ``path``: (pair, reference index or None for the source)."""
        key = path_key(path)
        out: list[tuple[Pair, Optional[int]]] = []
        for pair in self.pairs.values():
            spec = pair.spec
            if spec is None:
                if pair.alone_source is not None and path_key(pair.alone_source) == key:
                    out.append((pair, None))  # the source of a file alone
                continue
            for k, ref in enumerate(spec.references):
                if path_key(ref) == key:
                    out.append((pair, k))
            if spec.source is not None and path_key(spec.source) == key:
                out.append((pair, None))
        return out

    def _dependents_changed(self, path: Path) -> None:
        """``path`` was opened/closed/changed on disk: re-read it where it is used."""
        forget_path_keys()  # (a link may point elsewhere now)
        self.settle(path)
        seen = set()
        for pair in list(self.pairs.values()):
            if drafts.uses_path(pair, path):
                pair.draft = None  # re-read: a changed draft file is a new draft
                drafts.bind(self, pair)
                self.after_change(pair, external=True)
        for pair, _k in self._dependents(path):
            if id(pair) in seen:
                continue
            seen.add(id(pair))
            if binding.reload_file(self, pair, path):
                self.after_change(pair, external=True)

    def update_watch_list(self) -> None:
        paths: set[Path] = {root / CONFIG_NAME for root in self.roots}
        for pair in self.pairs.values():
            if pair.spec is not None:
                paths.update(pair.spec.references)
                if pair.spec.source is not None:
                    paths.add(pair.spec.source)
            if pair.alone_source is not None:
                paths.add(pair.alone_source)
            if pair.draft_path is not None:
                paths.add(pair.draft_path)
        paths.update(self.segment_docs.watched())
        paths.update(self._glossaries())
        paths.update(root / wordlist.RELATIVE for root in self.roots)  # the spelling check's word lists
        self.watcher.set_paths(paths)

    def _glossaries(self) -> list[Path]:
        """The glossary files of the settings (watched: a saved glossary updates every open file's findings)."""
        return [Path(f) for f in self.settings.terms.files if f]

    def on_file_changed(self, path: Path) -> None:
        if path.name == CONFIG_NAME and any(path_key(r / CONFIG_NAME) == path for r in self.roots):
            self.settings_changed()
            return
        if any(path_key(g) == path_key(path) for g in self._glossaries()):
            self.settings_changed()  # every open document's terms checked again (the glossary is read again)
            return
        if path.name == wordlist.FILE_NAME and path.parent.name == wordlist.FOLDER:
            self.settings_changed()  # a word added to the spelling check's word list: every line checked again
            return
        if path in self.open_paths():
            return  # the open buffer is what counts
        self.segment_docs.file_changed(path)
        self._dependents_changed(path)

    def on_tick(self) -> None:
        """Every poll interval: pair hypothesis files whose reference appeared.
        (A reference that was missing or unreadable is re-read when the
        watcher reports it: see :meth:`on_file_changed`.)"""
        for pair in list(self.pairs.values()):
            if pair.model is None and pair.spec is None and binding.resolve_spec(self, pair) is not None:
                binding.build(self, pair)
                self.after_change(pair, external=True)
                self.update_watch_list()

    # -- adequacy values arriving from the worker process --------------------------
    def _adequacy_ready(self, done: bool) -> None:
        """From the worker's reader thread: an edit's values arrived, or the
        backlog is done: re-analyse the pairs that use them, on the event loop."""
        loop = self._loop
        if done and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._adequacy_arrived)

    def _adequacy_arrived(self) -> None:
        for pair in self.pairs.values():
            if (pair.model is not None or pair.alone is not None) and pair.source_lines is not None \
                    and pair.settings.diagnostics.adequacy.enabled:
                if pair.diag_cache is not None:  # read again (the resultId stays when none moved)
                    pair.diag_cache.key = None
                if not self.pull_diagnostics:
                    self.publisher.schedule_push(pair)
                self.publisher.pulled.follow(pair)  # (pulling editors: a refresh if they changed)
        self.publisher.schedule_refresh(("code_lens",))
        self.segment_docs.adequacy_arrived()

    # -- after any change ----------------------------------------------------------
    def after_change(self, pair: Pair, external: bool) -> None:
        self.start_effort(pair)
        if pair.model is not None:
            self.tests.schedule(pair)
            self.compare_tests.schedule(pair)
        if pair.model is not None and pair.model.stale_count():
            self.scorer.start(pair)
        elif pair.model is not None and pair.baseline is None:
            pair.take_baseline()
        if not self.pull_diagnostics:
            self.publisher.schedule_push(pair)
        if external:
            self.publisher.schedule_refresh()

    def start_effort(self, pair: Pair) -> None:
        """Count the HTER rows not counted yet, in the background."""
        drafts.start_effort(self, pair)

    async def wait_effort(self, pair: Pair) -> None:
        """Until every HTER row of the pair is counted (other requests go on)."""
        await drafts.wait_effort(self, pair)

    def set_draft(self, pair: Pair) -> str:
        self.settle()
        message = drafts.set_to_current(self, pair)
        self.after_change(pair, external=True)
        return message

    def forget_draft(self, pair: Pair) -> str:
        self.settle()
        message = drafts.forget(self, pair)
        self.after_change(pair, external=True)
        return message

    async def wait_scored(self, pair: Pair) -> None:
        """Until every paired line of the pair is scored (other requests go on)."""
        await self.scorer.wait(pair)

    async def wait_analysed(self, pair: Pair) -> None:
        """Until the pair is scored and a large analysis (the first pass over
        a big file) has run off the event loop: reading its findings then
        costs the changed lines only."""
        await self.scorer.wait(pair)
        await self.publisher.settle(pair)

    def score_rest_later(self, pair: Pair) -> None:
        """Lines were left out of an answer: score them in the background and
        ask the editor for inlay hints again when done."""
        pair.hints_pending = True
        self.scorer.start(pair)

    def findings(self, pair: Pair) -> list:
        """The pair's findings (the analysis behind its diagnostics)."""
        return self.publisher.findings(pair)

    def line_findings(self, pair: Pair, i: int) -> Optional[list]:
        """The findings the diagnostics of line ``i`` say (the hover lists
        them); None while they are not known and working them out is a large
        analysis (the first pass over a large file, running or due): that
        pass then runs in the background, never on the event loop for a
        request (publish.py: analysis_large, analyse_soon)."""
        publisher = self.publisher
        if publisher.analysis_large(pair) and publisher.analyse_soon(pair):
            return None
        return publisher.update(pair).findings_at(i)

    def diagnostics(self, pair: Pair) -> tuple[list[types.Diagnostic], Optional[str]]:
        """The pair's diagnostics and their result id (cached)."""
        return self.publisher.compute(pair)
