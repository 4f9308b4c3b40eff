"""The bleu-ls language server: state, scheduling and feature registration.

Everything that touches a pair model runs on the event loop thread, so no
locks are needed.  Long work (scoring a large file after it is opened or
after lines were inserted) runs as a background task in slices of about
20 ms separated by real pauses, so pygls' reader keeps handing over
messages and requests are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from pathlib import Path
from typing import Any, Optional

import numpy as np
from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..analysis import Analyzer
from ..pairing import CONFIG_NAME
from ..settings import Settings
from .document import LineDocument
from .features import commands, diagnostics, hints, hover, lens
from .features import pairing as pairing_feature
from .protocol import BleuProtocol
from .watching import FileWatcher
from .workspace import SECTION, Pair, assemble_settings, path_key

log = logging.getLogger(__name__)

#: Show work-done progress when at least this many lines wait to be scored.
PROGRESS_LINES = 5000
#: One background scoring slice (seconds), then a real pause.  Short: pygls
#: reads each stdio message in about six event-loop turns (executor round
#: trips), and every turn waits for a slice; with 20 ms slices a client
#: typing 100 edits/s while lines are inserted outran the server and the
#: backlog grew without bound (tests/hardening/test_load.py).
SLICE_SECONDS = 0.005
PAUSE_SECONDS = 0.002
#: At least this many stale lines go through the engine's batch pass.
BATCH_LINES = 5000


def install_rows(model, result: dict, snap_hyp: list, snap_refs: list, version: int) -> int:
    """Install batch-pass rows into ``model`` for the stale lines whose text
    still equals the snapshot's (all of them when nothing changed since).

    Keeps the model's invariant: the corpus totals are the sum of the fresh
    rows.  Returns how many lines were installed.
    """
    n = min(model.n_paired, len(snap_hyp), *(len(r) for r in snap_refs))
    fresh = model._fresh
    stale = np.flatnonzero(~fresh[:n])
    if model.version != version:
        hyp, refs = model.hyp, model.refs
        stale = np.array(
            [i for i in stale.tolist() if hyp[i] == snap_hyp[i] and all(r[i] == s[i] for r, s in zip(refs, snap_refs))],
            dtype=np.int64,
        )
    if not len(stale):
        return 0
    for key, (stats, scores) in result.items():
        if key not in model.metrics:
            continue
        rows = stats[stale]
        model._stats[key][stale] = rows
        model._scores[key][stale] = scores[stale]
        model._totals[key] += rows.sum(axis=0, dtype=np.int64)
    fresh[stale] = True
    return int(len(stale))


def uri_path(uri: str) -> Path:
    fs = to_fs_path(uri)
    return Path(fs) if fs else Path(uri)


class BleuLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "bleu-ls",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=BleuProtocol,
        )
        self.docs: dict[str, LineDocument] = {}
        self.doc_paths: dict[str, Path] = {}
        self.pairs: dict[str, Pair] = {}
        self.analyzers: dict[str, Analyzer] = {}
        self.manual_pairs: dict[Path, Any] = {}
        self.settings = Settings()
        self.settings_problems: list[str] = []
        self._shown_problems: tuple = ()
        self.init_options: Any = None
        self.client_settings: Any = None
        self.roots: list[Path] = []
        self.encoding = "utf-16"
        self.caps = types.ClientCapabilities()
        self.watcher = FileWatcher(self, self.on_file_changed)
        self.watcher.tick = self.on_tick
        self._refresh_task: Optional[asyncio.Task] = None

    # -- client capabilities ----------------------------------------------------
    @property
    def pull_diagnostics(self) -> bool:
        td = self.caps.text_document
        return bool(td and td.diagnostic is not None)

    def _ws_cap(self, name: str, attr: str = "refresh_support") -> bool:
        ws = self.caps.workspace
        sub = getattr(ws, name, None) if ws else None
        return bool(sub and getattr(sub, attr, False))

    @property
    def progress_supported(self) -> bool:
        w = self.caps.window
        return bool(w and w.work_done_progress)

    # -- paths ---------------------------------------------------------------
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
        return self.pairs.get(uri)

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

    async def fetch_client_settings(self) -> None:
        ws = self.caps.workspace
        if not (ws and ws.configuration):
            return
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
                ),
                timeout=5,
            )
            if result:
                self.client_settings = result[0]
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)

    def apply_settings_everywhere(self) -> None:
        """Settings changed: re-pair every open document and rescore what changed."""
        for uri in list(self.docs):
            pair = self.pairs.get(uri) or Pair(uri=uri, path=self.doc_paths[uri])
            self.analyzers.pop(uri, None)
            pairing_feature.build(self, pair)
            if pair.spec is not None or pair.hypothesis_like:
                self.pairs[uri] = pair
                self.after_change(pair, external=True)
            elif self.pairs.pop(uri, None) is not None:
                if not self.pull_diagnostics:
                    self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
                self.schedule_refresh()
        self.update_watch_list()

    # -- messages -------------------------------------------------------------
    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.info("%s", message)
        try:
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        except Exception:
            pass

    def report_server_error(self, error: Exception, source) -> None:
        # A message that cannot be read (broken JSON, wrong shape) is the
        # client's fault and means nothing to the user: log it instead of
        # pygls' "Error in server: <exception>" pop-up for each one.
        if source is JsonRpcException:
            log.warning("ignored a message that could not be read: %s", error)
            return
        super().report_server_error(error, source)

    # -- documents --------------------------------------------------------------
    def open_document(self, uri: str, text: str, version: Optional[int]) -> None:
        self.docs[uri] = LineDocument(text, version, self.encoding)
        path = uri_path(uri)
        self.doc_paths[uri] = path
        self._dependents_changed(path)
        pair = Pair(uri=uri, path=path)
        pairing_feature.build(self, pair)
        if pair.spec is not None or pair.hypothesis_like:
            self.pairs[uri] = pair
            self.after_change(pair, external=False)
        self.update_watch_list()

    def change_document(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = self.docs.get(uri)
        if doc is None:
            return
        path = self.doc_paths[uri]
        pair = self.pairs.get(uri)
        dependents = self._dependents(path)
        for change in params.content_changes:
            splice = doc.apply(change)
            if splice.start == splice.end and not splice.lines:
                continue
            if pair is not None and pair.model is not None:
                try:
                    pair.model.splice_hyp(splice.start, splice.end, splice.lines)
                except Exception:  # out of step (should not happen): resynchronise by diff
                    log.exception("splice failed; resynchronising %s", uri)
                    pair.model.set_hyp(doc.engine_lines())
            for dep, k in dependents:
                if dep.model is None:
                    continue
                if k is None:
                    dep.source_lines = doc.engine_lines()
                    dep.diag_cache = None
                elif k < dep.model.n_refs:
                    try:
                        dep.model.splice_ref(k, splice.start, splice.end, splice.lines)
                    except Exception:
                        log.exception("reference splice failed; resynchronising %s", uri)
                        dep.model.set_ref(k, doc.engine_lines())
        doc.version = params.text_document.version
        if pair is not None:
            self.after_change(pair, external=False)
        for dep in {id(d): d for d, _ in dependents}.values():
            if dep is not pair:
                self.after_change(dep, external=True)

    def close_document(self, uri: str) -> None:
        self.docs.pop(uri, None)
        path = self.doc_paths.pop(uri, None)
        pair = self.pairs.pop(uri, None)
        self.analyzers.pop(uri, None)
        if pair is not None:
            for task in (pair.bg_task, pair.push_task):
                if task is not None:
                    task.cancel()
            if not self.pull_diagnostics:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if path is not None:
            self._dependents_changed(path)
        self.update_watch_list()

    def _dependents(self, path: Path) -> list[tuple[Pair, Optional[int]]]:
        """Open pairs that read ``path``: (pair, reference index or None for the source)."""
        key = path_key(path)
        out = []
        for pair in self.pairs.values():
            spec = pair.spec
            if spec is None:
                continue
            for k, ref in enumerate(spec.references):
                if path_key(ref) == key:
                    out.append((pair, k))
            if spec.source is not None and path_key(spec.source) == key:
                out.append((pair, None))
        return out

    def _dependents_changed(self, path: Path) -> None:
        """``path`` was opened/closed/changed on disk: re-read it where it is used."""
        seen = set()
        for pair, _k in self._dependents(path):
            if id(pair) in seen:
                continue
            seen.add(id(pair))
            if pairing_feature.reload_file(self, pair, path):
                self.after_change(pair, external=True)

    # -- disk ------------------------------------------------------------------
    def update_watch_list(self) -> None:
        paths: set[Path] = set()
        for root in self.roots:
            paths.add(root / CONFIG_NAME)
        for pair in self.pairs.values():
            if pair.spec is not None:
                paths.update(pair.spec.references)
                if pair.spec.source is not None:
                    paths.add(pair.spec.source)
        self.watcher.set_paths(paths)

    def on_file_changed(self, path: Path) -> None:
        if path.name == CONFIG_NAME and any(path_key(r / CONFIG_NAME) == path for r in self.roots):
            self.reload_settings()
            self.apply_settings_everywhere()
            return
        if path in self.open_paths():
            return  # the open buffer is what counts
        self._dependents_changed(path)

    def on_tick(self) -> None:
        """Every poll interval: pair hypothesis files whose reference appeared."""
        for pair in list(self.pairs.values()):
            if pair.model is None and pair.spec is None:
                spec = pairing_feature.resolve_spec(self, pair)
                if spec is not None:
                    pairing_feature.build(self, pair)
                    self.after_change(pair, external=True)
                    self.update_watch_list()
            # a reference that was missing or unreadable is re-read when the
            # watcher (client or polling) reports it: see on_file_changed

    # -- after any change ----------------------------------------------------------
    def after_change(self, pair: Pair, external: bool) -> None:
        if pair.model is not None and pair.model.stale_count():
            self.start_scoring(pair)
        elif pair.model is not None and pair.baseline is None:
            self.take_baseline(pair)
        if not self.pull_diagnostics:
            self.schedule_push(pair)
        if external:
            self.schedule_refresh()

    def take_baseline(self, pair: Pair) -> None:
        model = pair.model
        if model is None or model.stale_count():
            return
        pair.baseline = {k: model.corpus(k).score for k in model.metrics}
        pair.baseline_lines = {k: np.array(model.values(k), copy=True) for k in model.metrics}

    def start_scoring(self, pair: Pair) -> asyncio.Task:
        if pair.bg_task is None or pair.bg_task.done():
            pair.bg_task = asyncio.ensure_future(self._score_in_background(pair))
        return pair.bg_task

    async def wait_scored(self, pair: Pair) -> None:
        """Until every paired line of the pair is scored (other requests go on)."""
        while pair.model is not None and pair.model.stale_count():
            task = self.start_scoring(pair)
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                me = asyncio.current_task()
                if me is not None and me.cancelling():
                    raise  # this request was cancelled, not the scoring
                if pair.uri not in self.pairs:
                    return

    async def _score_in_background(self, pair: Pair) -> None:
        model = pair.model
        if model is None:
            return
        total = model.stale_count()
        token = None
        if total >= PROGRESS_LINES and self.progress_supported:
            token = f"bleu-ls/score/{uuid.uuid4()}"
            try:
                await asyncio.wait_for(self.work_done_progress.create_async(token), timeout=2)
                self.work_done_progress.begin(
                    token,
                    types.WorkDoneProgressBegin(
                        title="bleu-ls: scoring",
                        message=f"{pair.path.name}: {total:,} lines",
                        percentage=0,
                        cancellable=False,
                    ),
                )
            except Exception:
                token = None
        try:
            while pair.model is model and model.stale_count() >= BATCH_LINES:
                before = model.stale_count()
                await self._batch_pass(pair, model)
                if model.stale_count() >= before:
                    break  # nothing installed (batch failed): go line by line
            await self._sliced_pass(pair, model, token, total)
        finally:
            if token is not None:
                self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="scored"))
        if pair.model is model and not model.stale_count():
            if pair.baseline is None:
                self.take_baseline(pair)
            if pair.hints_pending:
                pair.hints_pending = False
                self.schedule_refresh()

    async def _batch_pass(self, pair: Pair, model) -> None:
        """Score a snapshot with the engine's vectorised batch pass, off the
        event loop (worker processes), then install the rows of lines that
        did not change meanwhile."""
        from ..engine.batch import first_pass

        snap_hyp = list(model.hyp)
        snap_refs = [list(r) for r in model.refs]
        metrics = dict(model.metrics)
        version = model.version
        loop = asyncio.get_running_loop()

        def run():
            try:
                return first_pass(metrics, snap_hyp, snap_refs, workers=None, start_method="forkserver")
            except Exception:
                log.warning("batch scoring in worker processes failed; scoring in this process", exc_info=True)
                return first_pass(metrics, snap_hyp, snap_refs, workers=1)

        try:
            result = await loop.run_in_executor(self._batch_executor(), run)
        except Exception:
            log.exception("batch scoring failed; scoring line by line")
            return
        if pair.model is not model:
            return
        install_rows(model, result, snap_hyp, snap_refs, version)

    def _batch_executor(self):
        if getattr(self, "_batch_pool", None) is None:
            from concurrent.futures import ThreadPoolExecutor

            self._batch_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bleu-ls-batch")
        return self._batch_pool

    async def _sliced_pass(self, pair: Pair, model, token, total: int) -> None:
        last_report = time.perf_counter()
        while pair.model is model and pair.uri in self.pairs:
            left = model.stale_count()
            if not left:
                break
            deadline = time.perf_counter() + SLICE_SECONDS
            while left and time.perf_counter() < deadline:
                left = model.refresh(max_lines=64)
            now = time.perf_counter()
            if token is not None and now - last_report > 0.2:
                last_report = now
                total = max(total, left)
                pct = int(100 * (total - left) / total) if total else 100
                self.work_done_progress.report(
                    token, types.WorkDoneProgressReport(message=f"{left:,} lines left", percentage=pct)
                )
            await asyncio.sleep(PAUSE_SECONDS)

    # -- diagnostics push ---------------------------------------------------------
    def schedule_push(self, pair: Pair) -> None:
        if pair.push_task is not None and not pair.push_task.done():
            pair.push_dirty = True
            return
        pair.push_dirty = False
        pair.push_task = asyncio.ensure_future(self._push(pair))

    async def _push(self, pair: Pair) -> None:
        delay = max(0, pair.settings.diagnostics.debounce_ms) / 1000.0
        while True:
            pair.push_dirty = False
            await asyncio.sleep(delay)
            if pair.push_dirty:
                continue  # edits still arriving: wait for the newest version
            await self.wait_scored(pair)
            if pair.push_dirty:
                continue
            if pair.uri not in self.pairs:
                return
            diags, _rid = diagnostics.compute(self, pair)
            doc = self.docs.get(pair.uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=pair.uri, diagnostics=diags, version=doc.version if doc else None
                )
            )
            if not pair.push_dirty:
                return

    # -- refresh requests ------------------------------------------------------------
    def schedule_refresh(self) -> None:
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.ensure_future(self._refresh())

    async def _refresh(self) -> None:
        await asyncio.sleep(0.03)  # coalesce a burst of changes into one refresh
        try:
            if self._ws_cap("inlay_hint"):
                self.workspace_inlay_hint_refresh(None)
            if self._ws_cap("code_lens"):
                self.workspace_code_lens_refresh(None)
            if self.pull_diagnostics and self._ws_cap("diagnostics"):
                self.workspace_diagnostic_refresh(None)
        except Exception as exc:
            log.warning("refresh request failed: %s", exc)


def guarded(what: str):
    """Notification handlers: a failure is logged and told in plain words,
    never left as a traceback for the user (requests get an error reply)."""

    def wrap(fn):
        import functools

        @functools.wraps(fn)
        def run(ls, params):
            try:
                return fn(ls, params)
            except Exception as exc:
                log.exception("%s failed", what)
                ls.show(f"bleu-ls could not {what} ({type(exc).__name__}: {exc}); see the server log", types.MessageType.Error)
                return None

        return run

    return wrap


def create_server() -> BleuLanguageServer:
    server = BleuLanguageServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: BleuLanguageServer, params: types.InitializeParams) -> None:
        ls.caps = params.capabilities
        enc = ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities)
        ls.encoding = getattr(enc, "value", enc)
        roots = []
        for folder in params.workspace_folders or []:
            roots.append(uri_path(folder.uri))
        if not roots and params.root_uri:
            roots.append(uri_path(params.root_uri))
        elif not roots and params.root_path:
            roots.append(Path(params.root_path))
        ls.roots = roots
        ls.init_options = params.initialization_options
        ls.watcher.configure(params.capabilities)
        ls.watcher.paths = {path_key(r / CONFIG_NAME) for r in roots}
        ls.watcher.seen_all()
        ls.reload_settings()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: BleuLanguageServer, params: types.InitializedParams) -> None:
        await ls.fetch_client_settings()
        ls.reload_settings()
        if ls.pairs:
            ls.apply_settings_everywhere()
        ls.update_watch_list()
        ls.watcher.start_polling()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: BleuLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        ws = ls.caps.workspace
        if ws and ws.configuration:
            await ls.fetch_client_settings()
        elif params.settings is not None:
            ls.client_settings = params.settings
        ls.reload_settings()
        ls.apply_settings_everywhere()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded("update the workspace folders")
    def did_change_folders(ls: BleuLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {path_key(uri_path(f.uri)) for f in params.event.removed}
        roots = [r for r in ls.roots if path_key(r) not in removed]
        roots += [uri_path(f.uri) for f in params.event.added]
        ls.roots = roots
        ls.reload_settings()
        ls.apply_settings_everywhere()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded("process a file change")
    def did_change_watched_files(ls: BleuLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        for event in params.changes:
            ls.watcher.client_event(event.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded("open the document")
    def did_open(ls: BleuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        ls.open_document(td.uri, td.text, td.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("apply the edit")
    def did_change(ls: BleuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.change_document(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("close the document")
    def did_close(ls: BleuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.close_document(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: BleuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        return None

    hints.register(server)
    diagnostics.register(server)
    hover.register(server)
    lens.register(server)
    commands.register(server)
    return server
