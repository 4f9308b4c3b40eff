"""Paths and file reading for the server: one key per file, the open buffer
before the disk."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from pygls.uris import to_fs_path

from ...engine import InputError, read_text, split_lsp_lines
from .document import LineDocument


#: absolute path -> its key, until :func:`forget_path_keys`
_KEYS: dict[Path, Path] = {}
_KEYS_MAX = 4096


def path_key(path: Path) -> Path:
    """The key a file is known by (resolved; absolute when it cannot be).

    An absolute path's key is remembered until :func:`forget_path_keys`,
    which the server calls whenever files are opened, closed, paired or
    changed on disk: resolving costs a system call per folder of the path,
    and each of them lets a background thread take the interpreter from the
    event loop, so an edit (which looks up the files its pair reads) would
    wait for them.  A relative path depends on the working folder and is
    resolved every time."""
    key = _KEYS.get(path)
    if key is not None:
        return key
    try:
        key = path.resolve()
    except OSError:
        key = path.absolute()
    if path.is_absolute():
        if len(_KEYS) >= _KEYS_MAX:
            _KEYS.clear()
        _KEYS[path] = key
    return key


def forget_path_keys() -> None:
    """Resolve every path afresh from now on (a link may point elsewhere)."""
    _KEYS.clear()


def same_path(a: Path, b: Path) -> bool:
    return path_key(a) == path_key(b)


def uri_path(uri: str) -> Path:
    fs = to_fs_path(uri)
    return Path(fs) if fs else Path(uri)


def arg_path(value: str) -> Path:
    """A command argument naming a file: a URI or a plain path."""
    return uri_path(value) if "://" in value else Path(value)


def read_lines_from(path: Path, open_docs: Mapping[Path, LineDocument]) -> list[str]:
    """A file's lines: the open buffer when there is one, else the disk file.

    Raises InputError with a sentence for the user.
    """
    doc = open_docs.get(path_key(path))
    if doc is not None:
        return doc.engine_lines()
    check_regular(path)
    return split_lsp_lines(read_text(str(path)))


def check_regular(path: Path) -> None:
    """Raise InputError for a pipe, socket or device: opening a FIFO would
    block the whole server until someone writes to it."""
    if path.exists() and not path.is_file() and not path.is_dir():
        raise InputError(f"{path}: not a regular file (a pipe, socket or device); expected a text file")
