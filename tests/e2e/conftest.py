"""End-to-end fixtures: the real server over stdio, driven by pytest-lsp
with VS Code-like and Neovim-like client capabilities."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

REPO = Path(__file__).resolve().parents[2]


def vscode_capabilities() -> types.ClientCapabilities:
    """VS Code 1.65's capabilities plus what later releases added (inlay
    hints, pull diagnostics, position encodings, relative patterns)."""
    caps = client_capabilities("visual-studio-code")
    caps.general = caps.general or types.GeneralClientCapabilities()
    caps.general.position_encodings = [types.PositionEncodingKind.Utf16]
    td = caps.text_document
    td.inlay_hint = types.InlayHintClientCapabilities(
        dynamic_registration=True,
        resolve_support=types.ClientInlayHintResolveOptions(properties=["tooltip", "textEdits", "label.tooltip"]),
    )
    td.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=True, related_document_support=False)
    ws = caps.workspace
    ws.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    ws.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    ws.code_lens = types.CodeLensWorkspaceClientCapabilities(refresh_support=True)
    ws.did_change_watched_files = types.DidChangeWatchedFilesClientCapabilities(
        dynamic_registration=True, relative_pattern_support=True
    )
    ws.configuration = True
    return caps


def neovim_capabilities() -> types.ClientCapabilities:
    """Neovim 0.11: utf-8 first, no dynamic file watching."""
    caps = client_capabilities("neovim@v0.11")
    assert caps.general.position_encodings[0] == "utf-8"
    assert not caps.workspace.did_change_watched_files.dynamic_registration
    return caps


def push_capabilities() -> types.ClientCapabilities:
    """A client without pull diagnostics (and without refresh support)."""
    caps = vscode_capabilities()
    caps.text_document.diagnostic = None
    caps.workspace.diagnostics = None
    return caps


def emacs_capabilities() -> types.ClientCapabilities:
    """Emacs 29's Eglot: utf-32 first, push diagnostics only (no pull)."""
    caps = client_capabilities("emacs@v29.1")
    assert caps.general.position_encodings[0] == "utf-32"
    assert caps.text_document.diagnostic is None
    return caps


CLIENTS = {
    "vscode": vscode_capabilities,
    "neovim": neovim_capabilities,
    "push": push_capabilities,
    "emacs": emacs_capabilities,
}
ENCODING = {"neovim": "utf-8", "emacs": "utf-32"}  # the first one each client offers; others utf-16
PUSH_ONLY = {"push", "emacs"}


class Recorder:
    def __init__(self) -> None:
        self.registrations: list[types.Registration] = []
        self.inlay_refresh = 0
        self.lens_refresh = 0
        self.tokens_refresh = 0


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    rec = Recorder()
    client.rec = rec  # type: ignore[attr-defined]
    client.pushed_versions = {}  # type: ignore[attr-defined]

    def _publish(ls, params: types.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.pushed_versions[params.uri] = params.version

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    register_lsp_features(client, features)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(ls, params: types.RegistrationParams):
        rec.registrations.extend(params.registrations)
        return None

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def _unregister(ls, params):
        return None

    @client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def _inlay_refresh(ls, params):
        rec.inlay_refresh += 1
        return None

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def _lens_refresh(ls, params):
        rec.lens_refresh += 1
        return None

    @client.feature(types.WORKSPACE_SEMANTIC_TOKENS_REFRESH)
    def _tokens_refresh(ls, params):
        rec.tokens_refresh += 1
        return None

    return client


def server_command() -> list[str]:
    return [sys.executable, "-m", "bleu_ls", "serve", "--stdio"]


CONFIG = ClientServerConfig(server_command=server_command(), client_factory=make_client)


class Session:
    """A started, initialized client plus helpers."""

    def __init__(self, client: LanguageClient, kind: str, root: Path) -> None:
        self.client = client
        self.kind = kind
        self.root = root
        self.encoding = ENCODING.get(kind, "utf-16")
        self.versions: dict[str, int] = {}

    @property
    def rec(self) -> Recorder:
        return self.client.rec  # type: ignore[attr-defined]

    @property
    def pull(self) -> bool:
        return self.kind not in PUSH_ONLY

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def write(self, name: str, text: str) -> Path:
        p = self.root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
        return p

    def notify_disk(self, path: Path) -> None:
        """What a client with dynamic file watching does after a disk change."""
        if self.kind != "neovim":
            self.client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams(
                    changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
                )
            )

    def open(self, name: str, text: Optional[str] = None) -> str:
        uri = self.uri(name)
        if text is None:
            text = (self.root / name).read_text(encoding="utf-8")
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=text)
            )
        )
        return uri

    def change(self, uri: str, changes: list[dict]) -> None:
        """Send raw didChange content changes (dicts), bypassing any client model."""
        self.versions[uri] += 1
        evs = []
        for ch in changes:
            if "range" in ch:
                (l1, c1), (l2, c2) = ch["range"]
                evs.append(
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line=l1, character=c1), end=types.Position(line=l2, character=c2)
                        ),
                        text=ch["text"],
                    )
                )
            else:
                evs.append(types.TextDocumentContentChangeWholeDocument(text=ch["text"]))
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=evs,
            )
        )

    async def hints(self, uri: str, start: int = 0, end: int = 10**6) -> list[types.InlayHint]:
        res = await self.client.text_document_inlay_hint_async(
            types.InlayHintParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)),
            )
        )
        return list(res or [])

    async def diagnostics(self, uri: str, previous: Optional[str] = None, wait_push: float = 3.0):
        """(diagnostics, result id / None, unchanged flag)."""
        if self.pull:
            rep = await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
                )
            )
            if isinstance(rep, types.RelatedUnchangedDocumentDiagnosticReport) or getattr(rep, "kind", "") == "unchanged":
                return None, rep.result_id, True
            return list(rep.items), rep.result_id, False
        # push: wait until the server publishes for the newest version
        version = self.versions.get(uri)
        deadline = time.monotonic() + wait_push
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            got = self.client.diagnostics.get(uri)
            if got is not None and self._pushed_version.get(uri) == version:
                return list(got), None, False
        return list(self.client.diagnostics.get(uri) or []), None, False

    _pushed_version: dict = {}

    async def corpus(self, uri: str) -> Any:
        res = await self.client.protocol.send_request_async("bleuLs/corpusScore", {"textDocument": {"uri": uri}})
        return plain(res)

    async def command(self, name: str, *args: Any) -> Any:
        res = await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(args))
        )
        return plain(res)


async def start_session(client: LanguageClient, kind: str, root: Path, init_options: Any = None) -> Session:
    caps = CLIENTS[kind]()
    sess = Session(client, kind, root)
    sess._pushed_version = client.pushed_versions  # type: ignore[attr-defined]
    await client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=init_options,
        )
    )
    return sess


async def _session(kind: str, root: Path, init_options: Any = None):
    client = await CONFIG.start()
    try:
        sess = await start_session(client, kind, root, init_options)
    except BaseException:
        await client.stop()
        raise
    return sess


async def _close(sess: Session) -> None:
    """shutdown + exit; a server still running after them is killed, so a slow
    shutdown on a loaded machine fails the test instead of hanging the run
    (the client's ``stop`` waits for the process without a limit)."""
    client = sess.client
    try:
        await asyncio.wait_for(client.shutdown_session(), timeout=30)
    finally:
        proc = getattr(client, "_server", None)
        if proc is not None and proc.returncode is None:
            try:
                await asyncio.wait_for(proc.wait(), timeout=10)
            except asyncio.TimeoutError:
                proc.kill()
        await client.stop()


def _workspace_files(request, root: Path) -> None:
    """``@pytest.mark.workspace_toml(TEXT)``: the workspace's bleu-ls.toml, written before
    the server starts (a file written after start-up is read when the editor or the
    server's poll reports it: a test that needs it at once must not race that)."""
    marker = request.node.get_closest_marker("workspace_toml")
    if marker is not None:
        (root / "bleu-ls.toml").write_text(marker.args[0], encoding="utf-8")


@pytest_asyncio.fixture(params=["vscode", "neovim"])
async def session(request, tmp_path):
    _workspace_files(request, tmp_path)
    sess = await _session(request.param, tmp_path)
    yield sess
    await _close(sess)


@pytest_asyncio.fixture(params=["vscode", "neovim", "push"])
async def any_session(request, tmp_path):
    _workspace_files(request, tmp_path)
    sess = await _session(request.param, tmp_path)
    yield sess
    await _close(sess)


@pytest_asyncio.fixture
async def push_session(tmp_path):
    sess = await _session("push", tmp_path)
    yield sess
    await _close(sess)


def plain(x: Any) -> Any:
    """Results of custom requests as plain dicts/lists (the client may give named tuples)."""
    if hasattr(x, "_asdict"):
        return {k: plain(v) for k, v in x._asdict().items()}
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def units(s: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    return len(s.encode("utf-16-le")) // 2


async def eventually(fn, timeout: float = 1.0, interval: float = 0.05):
    """Await ``fn()`` until it returns a truthy value or the time is up; returns the last value."""
    deadline = time.monotonic() + timeout
    value = None
    while True:
        value = await fn()
        if value or time.monotonic() >= deadline:
            return value
        await asyncio.sleep(interval)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """``edits`` (each within one line) applied to ``text``, the last first, as an editor
    applies a code action's edits (UTF-16 columns; the texts of these tests are in the BMP)."""
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a, b = e.range.start, e.range.end
        assert a.line == b.line
        line = lines[a.line]
        lines[a.line] = line[: a.character] + e.new_text + line[b.character :]
    return "\n".join(lines)
