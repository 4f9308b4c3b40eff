"""The drafts bleu-ls took itself, kept in the user's cache folder.

When no draft file is named for a hypothesis file, its text as bleu-ls first
saw it becomes the draft.  It is written to
``$XDG_CACHE_HOME/bleu-ls/drafts/`` (``~/.cache/bleu-ls/drafts/`` when the
variable is unset), one JSON file per hypothesis file, named by a hash of the
file's absolute path — never into the workspace.  When that folder cannot be
written, the draft is kept for this session only and :attr:`DraftStore.problem`
says so in one sentence.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

log = logging.getLogger(__name__)

FORMAT = 1


def cache_root() -> Path:
    """The folder drafts are kept in."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "bleu-ls" / "drafts"


def _key(path: Path) -> str:
    text = str(Path(path).absolute())
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]


@dataclass
class StoredDraft:
    """A draft: the file it belongs to, when it was taken, and its lines."""

    path: str
    taken: float
    lines: list[str]

    def share(self, current: Sequence[str]) -> None:
        """Hold the very string objects of ``current`` where a draft line
        equals the current line of the same number (a draft read from the
        cache is otherwise a second copy of every unchanged line's text)."""
        lines = self.lines
        k = min(len(lines), len(current))
        lines[:k] = map(_same_or, current[:k], lines[:k])


def _same_or(cur: str, draft: str) -> str:
    return cur if cur == draft else draft


class DraftStore:
    """Drafts by hypothesis path: in memory, and on disk when it can be written."""

    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = Path(root) if root is not None else cache_root()
        self.memory: dict[str, StoredDraft] = {}
        #: Why drafts are kept for this session only (None while the cache works).
        self.problem: Optional[str] = None

    def file_for(self, path: Path) -> Path:
        return self.root / f"{_key(path)}.json"

    def get(self, path: Path) -> Optional[StoredDraft]:
        """The stored draft of ``path``, or None when there is none (or it is unreadable)."""
        key = str(Path(path).absolute())
        if key in self.memory:
            return self.memory[key]
        file = self.file_for(path)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("ignoring the unreadable draft %s: %s", file, exc)
            return None
        ok = (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("path") == key
            and isinstance(data.get("lines"), list)
            and all(isinstance(x, str) for x in data["lines"])
        )
        if not ok:
            log.warning("ignoring the draft %s: not a bleu-ls draft of %s", file, key)
            return None
        draft = StoredDraft(key, float(data.get("taken") or 0.0), data["lines"])
        self.memory[key] = draft
        return draft

    def put(self, path: Path, lines: Sequence[str]) -> StoredDraft:
        """Make ``lines`` the draft of ``path`` (written to the cache when possible)."""
        key = str(Path(path).absolute())
        draft = StoredDraft(key, time.time(), list(lines))
        self.memory[key] = draft
        record = {"format": FORMAT, "path": key, "taken": draft.taken, "lines": draft.lines}
        file = self.file_for(path)
        tmp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            # ASCII JSON: lone surrogates (possible in editor text) survive as escapes.
            tmp.write_text(json.dumps(record, ensure_ascii=True), encoding="ascii")
            os.replace(tmp, file)
            self.problem = None
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            self.problem = (
                f"the draft cannot be saved in {self.root} ({reason}); "
                "it is kept for this session only"
            )
            log.warning("%s", self.problem)
            try:
                tmp.unlink()
            except OSError:
                pass
        return draft

    def forget(self, path: Path) -> None:
        """Drop the draft of ``path`` (the next text seen becomes the draft)."""
        self.memory.pop(str(Path(path).absolute()), None)
        try:
            self.file_for(path).unlink()
        except OSError:
            pass
