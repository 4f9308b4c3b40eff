"""What the user chose to ignore: ``.bleu-ls/ignore.json`` at the workspace root.

Read by the language server and by ``bleu-ls check``; written only when the
user runs one of the server's "Ignore …" code actions.  A JSON file beside
``bleu-ls.toml`` rather than a table inside it: rewriting a TOML file
without losing the user's comments and layout needs a round-tripping TOML
writer, and the entries (text hashes) are machine-made and of no use to
read by hand.

Shape (every part optional)::

    {"version": 1,
     "off": ["low-score"],                         # codes off for the workspace
     "files": {"out/news.hyp": {                   # path relative to the root, with /
         "codes": {"<line hash>": ["outlier"]},    # this code on this line text
         "lines": ["<line hash>"],                 # every code on this line text
         "reviewed": ["<line hash>"]}}}            # reviewed: hidden until the text changes

A line is known by a hash of its text, so an entry follows the line when
lines above it are added or removed, and stops applying when the line is
edited ("reviewed" needs nothing more).  A file that cannot be read is
reported in one sentence and ignored as a whole; it is never rewritten
until the user asks for a new entry (and then only after it reads again).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from .findings import Finding
from .rules import IGNORABLE  # the codes an entry can name

#: the folder and file, relative to the workspace root
FOLDER = ".bleu-ls"
FILE_NAME = "ignore.json"
RELATIVE = f"{FOLDER}/{FILE_NAME}"
#: what an entry can say
KINDS = ("code", "line", "reviewed", "off")
_LISTS = {"line": "lines", "reviewed": "reviewed"}
_REVISIONS = itertools.count(1)


#: line text → its hash, for the lines with findings (re-analysis after an
#: edit hashes the same texts again); emptied when it grows past the bound
_MEMO: dict[str, str] = {}
_MEMO_MAX = 200_000


def line_hash(text: str) -> str:
    """The key of a line's text: 16 hex digits of its SHA-1 (line breaks
    and trailing spaces are part of the text only as far as the editor
    keeps them; a ``\\r`` at the end is dropped)."""
    h = _MEMO.get(text)
    if h is None:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        h = _MEMO[text] = hashlib.sha1(text.rstrip("\r").encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return h


def store_path(root: Path) -> Path:
    return Path(root) / FOLDER / FILE_NAME


def find_store_root(start: Path) -> Optional[Path]:
    """The nearest folder at or above ``start`` holding ``.bleu-ls/ignore.json``."""
    p = Path(start).absolute()
    if p.is_file() or not p.exists():
        p = p.parent
    for d in (p, *p.parents):
        if store_path(d).is_file():
            return d
    return None


@dataclass
class FileEntries:
    codes: dict[str, set[str]] = field(default_factory=dict)
    lines: set[str] = field(default_factory=set)
    reviewed: set[str] = field(default_factory=set)


@dataclass
class Filtered:
    """Findings left after the store's entries, and what was hidden."""

    findings: list[Finding]
    #: findings hidden by an entry of this file ("code" or "line")
    ignored: int = 0
    #: lines whose findings were hidden because the line is marked reviewed
    reviewed: int = 0


class IgnoreStore:
    """The entries of one workspace root; :meth:`load` never raises."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.off: set[str] = set()
        self.files: dict[str, FileEntries] = {}
        #: one sentence when the file could not be used, else None
        self.problem: Optional[str] = None
        #: (mtime_ns, size) of the file when read; None when absent
        self.stamp: Optional[tuple] = None
        #: changes with every load and entry (a cache key)
        self.revision = next(_REVISIONS)

    @property
    def path(self) -> Path:
        return store_path(self.root)

    @classmethod
    def load(cls, root: Path) -> "IgnoreStore":
        store = cls(root)
        store.stamp = _stamp(store.path)
        if store.stamp is None:
            return store
        try:
            data = json.loads(store.path.read_text(encoding="utf-8"))
            store._take(data)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            store.off, store.files = set(), {}
            store.problem = f"{RELATIVE} is not used: {_reason(exc)}; fix or delete it"
        return store

    def stale(self) -> bool:
        """Has the file changed on disk since it was read?"""
        return _stamp(self.path) != self.stamp

    def _take(self, data) -> None:
        if not isinstance(data, dict):
            raise ValueError("it is not a JSON object")
        self.off = _codes(data.get("off", []), '"off"')
        files = data.get("files", {})
        if not isinstance(files, dict):
            raise ValueError('"files" is not an object')
        for name, raw in files.items():
            if not isinstance(raw, dict):
                raise ValueError(f'the entry of "{name}" is not an object')
            codes = raw.get("codes", {})
            if not isinstance(codes, dict):
                raise ValueError(f'"codes" of "{name}" is not an object')
            self.files[name] = FileEntries(
                {str(h): _codes(c, f'"codes" of "{name}"') for h, c in codes.items()},
                _strings(raw.get("lines", []), f'"lines" of "{name}"'),
                _strings(raw.get("reviewed", []), f'"reviewed" of "{name}"'),
            )

    # -- reading ---------------------------------------------------------------
    def key_of(self, path: Path) -> str:
        """The store's name for a file: relative to the root, with ``/``."""
        p = Path(path).absolute()
        try:
            return p.relative_to(self.root.absolute()).as_posix()
        except ValueError:
            return p.as_posix()

    def filter(self, path: Path, findings: Iterable[Finding], line_text: Callable[[int], str]) -> Filtered:
        """``findings`` of ``path`` without those the entries hide.  Only
        rule codes are hidden (never a settings or reference problem); only
        the lines with a finding are hashed."""
        entries = self.files.get(self.key_of(path))
        if entries is None:
            if not self.off:
                return Filtered(list(findings))
            entries = FileEntries()
        hashes: dict[int, str] = {}
        kept, ignored, reviewed = [], 0, set()
        for f in findings:
            if f.code not in IGNORABLE:
                kept.append(f)
                continue
            if f.code in self.off:
                continue
            h = hashes.get(f.line)
            if h is None:
                h = hashes[f.line] = line_hash(line_text(f.line))
            if h in entries.reviewed:
                reviewed.add(f.line)
                continue
            if h in entries.lines or f.code in entries.codes.get(h, ()):
                ignored += 1
                continue
            kept.append(f)
        return Filtered(kept, ignored, len(reviewed))

    # -- writing ---------------------------------------------------------------
    def add(self, path: Path, kind: str, text: str = "", code: Optional[str] = None) -> None:
        """Add one entry (in memory; :meth:`save` writes it)."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of entry {kind!r}: use one of {', '.join(KINDS)}")
        if kind in ("code", "off") and code not in IGNORABLE:
            raise ValueError(f"unknown diagnostic code {code!r}")
        self.revision = next(_REVISIONS)
        if kind == "off":
            assert code is not None  # (checked above)
            self.off.add(code)
            return
        entries = self.files.setdefault(self.key_of(path), FileEntries())
        h = line_hash(text)
        if kind == "code":
            assert code is not None  # (checked above)
            entries.codes.setdefault(h, set()).add(code)
        else:
            getattr(entries, _LISTS[kind]).add(h)

    def as_json(self) -> dict:
        files = {}
        for name in sorted(self.files):
            e = self.files[name]
            rec: dict[str, Any] = {}
            if e.codes:
                rec["codes"] = {h: sorted(c) for h, c in sorted(e.codes.items())}
            if e.lines:
                rec["lines"] = sorted(e.lines)
            if e.reviewed:
                rec["reviewed"] = sorted(e.reviewed)
            if rec:
                files[name] = rec
        return {"version": 1, "off": sorted(self.off), "files": files}

    def save(self) -> None:
        """Write the file atomically (a temporary file beside it, then a rename)."""
        if self.problem is not None:
            raise ValueError(self.problem)
        target = self.path
        target.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(self.as_json(), indent=1, ensure_ascii=False) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=".ignore-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(body)
            os.chmod(tmp, _mode(target))
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        self.stamp = _stamp(target)


def _stamp(path: Path) -> Optional[tuple]:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _mode(target: Path) -> int:
    """The permissions of the file replaced, else read-write for the user
    and readable by others as the umask allows (not mkstemp's 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def _strings(value, what: str) -> set[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} is not a list of strings")
    return set(value)


def _codes(value, what: str) -> set[str]:
    out = _strings(value, what)
    unknown = sorted(out - set(IGNORABLE))
    if unknown:
        raise ValueError(f"{what} names unknown codes ({', '.join(unknown)})")
    return out
