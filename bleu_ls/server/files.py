"""Paths and file reading for the server: one key per file, the open buffer
before the disk."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from pygls.uris import to_fs_path

from ..engine import InputError, read_text, split_lsp_lines
from .document import LineDocument


def path_key(path: Path) -> Path:
    """The key a file is known by (resolved; absolute when it cannot be)."""
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


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
