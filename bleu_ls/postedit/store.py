"""The drafts bleu-ls took itself, kept in the user's cache folder.

When no draft file is named for a hypothesis file, its text as bleu-ls first
saw it becomes the draft.  It is written to
``$XDG_CACHE_HOME/bleu-ls/drafts/`` (``~/.cache/bleu-ls/drafts/`` when the
variable is unset), one file per hypothesis file, named by a hash of the
file's absolute path — never into the workspace.  When that folder cannot be
written, the draft is kept for this session only and :attr:`DraftStore.problem`
says so in one sentence.

The file (``HASH.draft``) is one line of JSON (format, path, time taken, line
count) followed by the draft's lines as UTF-8 text, one per line (lone
surrogates kept as ``surrogatepass`` bytes), so a million-line draft is read
and written in short slices (:meth:`DraftStore.load_steps`,
:meth:`DraftStore.put_steps`).  Drafts of the first format (``HASH.json``,
one JSON object) are still read, also in slices; a line holding a line break
(never one of an editor's lines) keeps the draft in that format.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Final, Generator, Optional, Sequence, Union

from ..engine.lazytext import read_all_sliced, run

log = logging.getLogger(__name__)

FORMAT = 2
#: the first format: one JSON object {"format": 1, "path", "taken", "lines"}
FORMAT_JSON = 1
#: bytes read, decoded or written between two yields
CHUNK = 1 << 20
#: lines compared per step by :meth:`StoredDraft.share_steps`
SHARE_STEP = 50_000
#: lines of a first-format draft decoded between two yields
JSON_LINES = 20_000

Steps = Generator[None, None, Optional["StoredDraft"]]


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
        run(self.share_steps(current))

    def share_steps(self, current: Sequence[str]) -> Generator[None, None, None]:
        """:meth:`share` yielding after each ``SHARE_STEP`` lines (a million
        lines compared in one go held the event loop ~0.25 s)."""
        lines = self.lines
        k = min(len(lines), len(current))
        for a in range(0, k, SHARE_STEP):
            b = min(k, a + SHARE_STEP)
            lines[a:b] = map(_same_or, current[a:b], lines[a:b])
            yield


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
        return self.root / f"{_key(path)}.draft"

    def json_file_for(self, path: Path) -> Path:
        """Where a draft of the first format is kept."""
        return self.root / f"{_key(path)}.json"

    # -- reading ------------------------------------------------------------------
    def get(self, path: Path) -> Optional[StoredDraft]:
        """The stored draft of ``path``, or None when there is none (or it is unreadable)."""
        return run(self.load_steps(path))

    def load_steps(self, path: Path) -> Steps:
        """:meth:`get` as a generator yielding between slices (``yield from``)."""
        key = str(Path(path).absolute())
        if key in self.memory:
            return self.memory[key]
        draft = yield from self._load(self.file_for(path), key, _parse_text)
        first_format = draft is _MISSING
        if first_format:
            draft = yield from self._load(self.json_file_for(path), key, _parse_json)
        if draft is _MISSING or draft is None:
            return None
        if key in self.memory:  # put meanwhile (the newer one wins)
            return self.memory[key]
        self.memory[key] = draft
        if first_format and _plain(draft.lines):  # read faster next time
            try:
                yield from self._save(path, draft)
            except OSError as exc:
                log.info("the draft %s stays in the first format: %s", self.json_file_for(path), exc)
        return draft

    def _load(
        self, file: Path, key: str, parse: Callable[[bytearray, str], Steps]
    ) -> Generator[None, None, Union[StoredDraft, None, _Absent]]:
        """The draft in ``file`` read by ``parse``; None when it cannot be
        read or is not a draft of ``key``, :data:`_MISSING` when there is no such file."""
        try:
            data = yield from _read_sliced(file)
        except FileNotFoundError:
            return _MISSING
        except OSError as exc:
            log.warning("ignoring the unreadable draft %s: %s", file, exc)
            return None
        try:
            draft = yield from parse(data, key)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            log.warning("ignoring the draft %s: not a bleu-ls draft of %s (%s)", file, key, exc)
            return None
        return draft

    # -- writing ------------------------------------------------------------------
    def put(self, path: Path, lines: Sequence[str]) -> StoredDraft:
        """Make ``lines`` the draft of ``path`` (written to the cache when possible)."""
        return run(self.put_steps(path, lines))

    def put_steps(self, path: Path, lines: Sequence[str]) -> Generator[None, None, StoredDraft]:
        """:meth:`put` yielding between slices of the writing; the draft is
        kept in memory (and :meth:`get` gives it) from the first step."""
        key = str(Path(path).absolute())
        draft = StoredDraft(key, time.time(), list(lines))
        self.memory[key] = draft
        try:
            yield from self._save(path, draft)
            self.problem = None
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            self.problem = (
                f"the draft cannot be saved in {self.root} ({reason}); "
                "it is kept for this session only"
            )
            log.warning("%s", self.problem)
        return draft

    def _save(self, path: Path, draft: StoredDraft) -> Generator[None, None, None]:
        """Write ``draft`` (replacing the file of either format); raises OSError."""
        file = self.file_for(path)
        old = self.json_file_for(path)
        tmp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                yield from _write(fh, draft)
            if self.memory.get(draft.path) is not draft:  # put again or forgotten meanwhile
                _unlink(tmp)
                return
            if _plain(draft.lines):
                os.replace(tmp, file)
                _unlink(old)
            else:
                os.replace(tmp, old)
                _unlink(file)
        except OSError:
            _unlink(tmp)
            raise

    def forget(self, path: Path) -> None:
        """Drop the draft of ``path`` (the next text seen becomes the draft)."""
        self.memory.pop(str(Path(path).absolute()), None)
        _unlink(self.file_for(path))
        _unlink(self.json_file_for(path))


class _Absent(enum.Enum):
    """No draft file of that format (the other format's may be there)."""

    MISSING = "missing"


_MISSING: Final = _Absent.MISSING


def _unlink(file: Path) -> None:
    try:
        file.unlink()
    except OSError:
        pass


def _plain(lines: Sequence[str]) -> bool:
    """Can the lines be written one per line (no line holds a line break)?"""
    return not any("\n" in x or "\r" in x for x in lines)


def _write(fh: IO[bytes], draft: StoredDraft) -> Generator[None, None, None]:
    lines = draft.lines
    if not _plain(lines):  # the first format: JSON keeps any string
        # ASCII JSON: lone surrogates (possible in editor text) survive as escapes.
        record = {"format": FORMAT_JSON, "path": draft.path, "taken": draft.taken, "lines": lines}
        fh.write(json.dumps(record, ensure_ascii=True).encode("ascii"))
        return
    head = {"format": FORMAT, "path": draft.path, "taken": draft.taken, "lines": len(lines)}
    fh.write(json.dumps(head, ensure_ascii=True).encode("ascii") + b"\n")
    a, step = 0, 8192
    while a < len(lines):
        block = lines[a : a + step]
        fh.write("".join(x + "\n" for x in block).encode("utf-8", "surrogatepass"))
        a += step
        yield


def _read_sliced(file: Path) -> Generator[None, None, bytearray]:
    with open(file, "rb") as fh:
        return (yield from read_all_sliced(fh, 8 * CHUNK))


def _parse_text(data: Union[bytes, bytearray], key: str) -> Steps:
    """A draft file of the current format (header line, then the lines)."""
    nl = data.index(b"\n")
    head = json.loads(data[:nl].decode("ascii"))
    if not (isinstance(head, dict) and head.get("format") == FORMAT and head.get("path") == key):
        raise ValueError("not a draft of this file")
    count = head["lines"]
    if not isinstance(count, int) or count < 0:
        raise ValueError("no line count")
    lines: list[str] = []
    pos, end = nl + 1, len(data)
    while pos < end:  # blocks of about CHUNK bytes ending at a line break (a line is never cut)
        cut = data.find(b"\n", min(pos + CHUNK, end) - 1)
        cut = end if cut < 0 else cut + 1
        parts = data[pos:cut].decode("utf-8", "surrogatepass").split("\n")
        if parts.pop():  # the last line ends with a break too
            raise ValueError("the last line has no line break")
        lines.extend(parts)
        pos = cut
        yield
    if len(lines) != count:
        raise ValueError(f"{len(lines)} lines where the header says {count}")
    return StoredDraft(key, float(head.get("taken") or 0.0), lines)


def _parse_json(data: Union[bytes, bytearray], key: str) -> Steps:
    """A draft file of the first format: {"format": 1, "path", "taken",
    "lines": [...]} written by ``json.dumps`` with the lines last; the lines
    are decoded a slice at a time (anything else is parsed at once)."""
    text = data.decode("utf-8")
    del data
    at = text.rfind('"lines": [')
    head = json.loads(text[:at] + '"lines": []}') if at > 0 else None
    if head is None or not text.endswith("]}"):
        record = json.loads(text)  # not written by bleu-ls' own json.dumps: read at once
        yield
        head, lines = record, record.get("lines") if isinstance(record, dict) else None
    else:
        lines = yield from _json_strings(text, at + len('"lines": ['), len(text) - 2)
    if not (
        isinstance(head, dict)
        and head.get("format") == FORMAT_JSON
        and head.get("path") == key
        and isinstance(lines, list)
        and all(isinstance(x, str) for x in lines)
    ):
        raise ValueError("not a draft of this file")
    return StoredDraft(key, float(head.get("taken") or 0.0), lines)


def _json_strings(text: str, pos: int, end: int) -> Generator[None, None, list[str]]:
    """The JSON strings of ``text[pos:end]`` (``"a", "b"``), a slice at a time."""
    # typeshed's json/decoder.pyi leaves out scanstring, which the module has
    # (the C scanner, or its Python fallback): the stub is incomplete
    scan: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
    out: list[str] = []
    append = out.append
    n = 0
    while pos < end:
        if text[pos] != '"':
            raise ValueError(f"a string expected at {pos}")
        s, pos = scan(text, pos + 1)
        append(s)
        if pos < end:
            if text.startswith(", ", pos):
                pos += 2
            elif text[pos] == ",":
                pos += 1
            else:
                raise ValueError(f"a comma expected at {pos}")
        n += 1
        if n % JSON_LINES == 0:
            yield
    return out
