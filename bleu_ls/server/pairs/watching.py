"""Noticing reference / source / ``bleu-ls.toml`` changes on disk.

Two ways, chosen per client:

* the client watches: when it allows dynamic registration of
  ``workspace/didChangeWatchedFiles``, the server registers one watcher per
  file it depends on (a relative pattern on the file's folder when the
  client supports those, else ``**/NAME``) and reacts to the notifications;
* the server watches: otherwise (Neovim on Linux never offers it) it polls
  the files' size and modification time every ``watchIntervalMs``
  (default 500 ms), so a change is picked up well within a second.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from pathlib import Path
from typing import Callable, Iterable, Optional, Union

from lsprotocol import types

from ..documents.files import forget_path_keys, path_key

log = logging.getLogger(__name__)


def _stamp(path: Path) -> Optional[tuple[int, int]]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


class FileWatcher:
    """Tracks a set of files and calls ``on_change(path)`` when one changes."""

    def __init__(self, server, on_change: Callable[[Path], None]) -> None:
        self.server = server
        self.on_change = on_change
        self.paths: set[Path] = set()
        self.stamps: dict[Path, Optional[tuple[int, int]]] = {}
        self.interval = 0.5
        self.use_client = False
        self.relative_patterns = False
        self._registration_id: Optional[str] = None
        self._registered: frozenset = frozenset()
        self._poll_task: Optional[asyncio.Task] = None
        self.tick: Optional[Callable[[], None]] = None

    def configure(self, capabilities: types.ClientCapabilities) -> None:
        ws = capabilities.workspace
        dcw = ws.did_change_watched_files if ws else None
        self.use_client = bool(dcw and dcw.dynamic_registration)
        self.relative_patterns = bool(dcw and dcw.relative_pattern_support)

    # -- the set of files ----------------------------------------------------
    def set_paths(self, paths: Iterable[Path]) -> None:
        new = {path_key(Path(p)) for p in paths}
        for p in new - self.paths:
            self.stamps[p] = _stamp(p)
        for p in self.paths - new:
            self.stamps.pop(p, None)
        self.paths = new
        if self.use_client:
            self._register()

    def seen_all(self) -> None:
        for p in self.paths:
            self.stamps[p] = _stamp(p)

    def seen(self, path: Path) -> None:
        """Remember the current state of ``path`` (after it was read)."""
        p = path_key(path)
        if p in self.paths:
            self.stamps[p] = _stamp(p)

    # -- client-side watching ----------------------------------------------------
    def _watchers(self) -> list[types.FileSystemWatcher]:
        out = []
        for p in sorted(self.paths):
            if self.relative_patterns:
                pattern: Union[str, types.RelativePattern] = types.RelativePattern(
                    base_uri=p.parent.as_uri(), pattern=p.name
                )
            else:
                pattern = "**/" + p.name
            out.append(types.FileSystemWatcher(glob_pattern=pattern))
        return out

    def _register(self) -> None:
        wanted = frozenset(self.paths)
        if wanted == self._registered:
            return
        self._registered = wanted
        asyncio.ensure_future(self._reregister())

    async def _reregister(self) -> None:
        ls = self.server
        try:
            if self._registration_id:
                old, self._registration_id = self._registration_id, None
                await ls.client_unregister_capability_async(
                    types.UnregistrationParams(
                        unregisterations=[
                            types.Unregistration(id=old, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
                        ]
                    )
                )
            watchers = self._watchers()
            if not watchers:
                return
            rid = str(uuid.uuid4())
            await ls.client_register_capability_async(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id=rid,
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=watchers
                            ),
                        )
                    ]
                )
            )
            self._registration_id = rid
        except Exception as exc:  # the client refused: watch ourselves
            log.warning("file watcher registration failed (%s); polling instead", exc)
            self.use_client = False
            self.start_polling()

    def client_event(self, uri: str) -> None:
        """A ``workspace/didChangeWatchedFiles`` event for ``uri``."""
        from pygls.uris import to_fs_path

        fs = to_fs_path(uri)
        if not fs:
            return
        forget_path_keys()  # a file changed on disk: a link may point elsewhere now
        p = path_key(Path(fs))
        if p in self.paths or p.name == "bleu-ls.toml":
            self.stamps[p] = _stamp(p)
            self.on_change(p)

    # -- polling -------------------------------------------------------------
    def start_polling(self) -> None:
        if self._poll_task is None or self._poll_task.done():
            self._poll_task = asyncio.ensure_future(self._poll())

    @property
    def polling(self) -> bool:
        return self._poll_task is not None and not self._poll_task.done()

    def stop(self) -> None:
        if self._poll_task is not None:
            self._poll_task.cancel()

    def poll_once(self) -> list[Path]:
        changed = []
        if not self.use_client:
            for p in list(self.paths):
                st = _stamp(p)
                if st != self.stamps.get(p):
                    self.stamps[p] = st
                    changed.append(p)
        return changed

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                for p in self.poll_once():
                    self.on_change(p)
                if self.tick is not None:
                    self.tick()
            except Exception:
                log.exception("watching files failed")
