"""The bleu-ls language server: wiring.

The :class:`~bleu_ls.server.pairs.manager.PairManager` owns every piece of pair
state and its lifecycle; this module turns LSP notifications into the
manager's hooks and registers the features (:mod:`.features`), each of
which is given the manager.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..engine import build_metrics
from ..config.workspace import CONFIG_NAME
from .pairs.config import SECTION
from .documents.document import LineDocument
from .features import actions, commands, completion, diagnostics, hints, hover, lens, tokens
from .documents.files import path_key, uri_path
from .pairs.manager import PairManager
from .wire.protocol import BleuProtocol

log = logging.getLogger(__name__)

#: How long to wait for the client's ``workspace/configuration`` answer.
CONFIGURATION_TIMEOUT = 5


class BleuLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "bleu-ls",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=BleuProtocol,
        )
        self.manager = PairManager(self)

    @property
    def docs(self) -> dict[str, LineDocument]:
        """The open documents by URI (the manager's)."""
        return self.manager.docs

    def report_server_error(self, error: Exception, source) -> None:
        # A message that cannot be read (broken JSON, wrong shape) is the
        # client's fault and means nothing to the user: log it instead of
        # pygls' "Error in server: <exception>" pop-up for each one.
        if source is JsonRpcException:
            log.warning("ignored a message that could not be read: %s", error)
            return
        super().report_server_error(error, source)

    async def fetch_client_settings(self) -> None:
        """Ask the client for the ``bleuLs`` section, when it answers such requests."""
        ws = self.manager.caps.workspace
        if not (ws and ws.configuration):
            return
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
                ),
                timeout=CONFIGURATION_TIMEOUT,
            )
            if result:
                self.manager.client_settings = result[0]
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)


def guarded(what: str):
    """Notification handlers: a failure is logged and told in plain words,
    never left as a traceback for the user (requests get an error reply)."""

    def wrap(fn):
        @functools.wraps(fn)
        def run(ls, params):
            try:
                return fn(ls, params)
            except Exception as exc:
                log.exception("%s failed", what)
                ls.manager.show(
                    f"bleu-ls could not {what} ({type(exc).__name__}: {exc}); see the server log",
                    types.MessageType.Error,
                )
                return None

        return run

    return wrap


def _workspace_roots(params: types.InitializeParams) -> list[Path]:
    roots = [uri_path(folder.uri) for folder in params.workspace_folders or []]
    if not roots and params.root_uri:
        roots.append(uri_path(params.root_uri))
    elif not roots and params.root_path:
        roots.append(Path(params.root_path))
    return roots


def _warm_up(manager: PairManager) -> None:
    """Build the configured metrics once, so that their tokenizers are
    imported before the first document is opened rather than on its way to
    the first hints (~0.1 s for sacrebleu's tokenizers)."""
    try:
        build_metrics(manager.settings)
    except Exception:  # bad settings are reported when a pair is built
        pass


def _register_lifecycle(server: BleuLanguageServer, manager: PairManager) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: BleuLanguageServer, params: types.InitializeParams) -> None:
        manager.caps = params.capabilities
        enc = ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities)
        manager.encoding = getattr(enc, "value", enc)
        manager.roots = _workspace_roots(params)
        manager.init_options = params.initialization_options
        manager.watcher.configure(params.capabilities)
        manager.watcher.paths = {path_key(r / CONFIG_NAME) for r in manager.roots}
        manager.watcher.seen_all()
        manager.reload_settings()
        _warm_up(manager)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: BleuLanguageServer, params: types.InitializedParams) -> None:
        before = manager.settings
        await ls.fetch_client_settings()
        manager.reload_settings()
        # A document opened while the client was asked for its settings is
        # paired again only when they differ (re-pairing 100k lines costs
        # ~0.1 s, on the way to the first hints).
        if manager.pairs and manager.settings != before:
            manager.settings_changed()
        manager.update_watch_list()
        manager.watcher.start_polling()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: BleuLanguageServer, params) -> None:
        manager.shutdown()
        _cancel_pending_requests(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: BleuLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        before = manager.settings
        ws = manager.caps.workspace
        if ws and ws.configuration:
            await ls.fetch_client_settings()
        elif params.settings is not None:
            manager.client_settings = params.settings
        manager.reload_settings()
        # Editors send this notification at start-up and whenever any of the
        # user's settings change (Neovim right after the first document is
        # opened): re-pairing an open 100k-line document costs ~0.3 s of the
        # event loop, so only settings that differ re-pair.
        if manager.settings != before:
            manager.settings_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded("update the workspace folders")
    def did_change_folders(ls: BleuLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {path_key(uri_path(f.uri)) for f in params.event.removed}
        roots = [r for r in manager.roots if path_key(r) not in removed]
        manager.roots = roots + [uri_path(f.uri) for f in params.event.added]
        manager.settings_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded("process a file change")
    def did_change_watched_files(ls: BleuLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        for event in params.changes:
            manager.watcher.client_event(event.uri)


def _register_documents(server: BleuLanguageServer, manager: PairManager) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded("open the document")
    def did_open(ls: BleuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        manager.open(td.uri, td.text, td.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("apply the edit")
    def did_change(ls: BleuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        manager.change(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("close the document")
    def did_close(ls: BleuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        manager.close(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: BleuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        return None


def create_server() -> BleuLanguageServer:
    server = BleuLanguageServer()
    manager = server.manager
    _register_lifecycle(server, manager)
    _register_documents(server, manager)
    for feature in (hints, diagnostics, hover, lens, commands, tokens, actions, completion):
        feature.register(server, manager)
    return server


def _cancel_pending_requests(ls: BleuLanguageServer) -> None:
    """Cancel the requests still being handled, before pygls does.

    pygls's own shutdown cancels them while iterating over its table of
    pending requests; a handler running in a plain ``Future`` (a generator or
    thread handler) takes itself out of that table from inside ``cancel``, and
    the iteration fails ("dictionary changed size during iteration"): the
    editor's ``shutdown`` got an internal error instead of its answer and never
    sent ``exit``.  Here the table is copied first; pygls then finds them done.
    """
    protocol = ls.protocol
    pending = getattr(protocol, "_request_futures", None)
    if not pending:
        return
    current = getattr(protocol, "msg_id", None)
    for msg_id, future in list(pending.items()):
        if msg_id != current and not future.done():
            future.cancel()
