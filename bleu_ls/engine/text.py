"""Reading hypothesis / reference files, and the line rules.

Two line rules live here, kept apart on purpose:

* ``split_file_lines`` — as sacrebleu's command line reads a file: UTF-8,
  split on ``\\n`` only, each line right-stripped, a final newline adds no
  line.  The CLI uses it.
* ``split_lsp_lines`` — as an LSP client counts lines: a line ends at
  ``\\n``, ``\\r\\n`` or ``\\r`` and at nothing else (not at U+2028, form feed
  or NEL, which ``str.splitlines`` would break on).  The server uses it.

Both give the same list for ordinary LF and CRLF files.
"""

from __future__ import annotations

import os
import re
from typing import Optional


class InputError(Exception):
    """A file that cannot be scored, with a sentence meant for the user."""


_LSP_BREAK = re.compile(r"\r\n|\r|\n")


def split_lsp_lines(text: str, seen: Optional[dict[str, str]] = None) -> list[str]:
    """Lines as LSP counts them; a final line break adds no line.  Equal
    lines are one string object (see :func:`split_shared`; ``seen``: the
    lines met so far, to share them across calls).

    Without a carriage return the breaks are all ``\n``: ``str.split`` is
    several times faster than the expression on large files."""
    if not text:
        return []
    if "\r" not in text:
        lines = split_shared(text, "\n", seen)
    else:
        seen = {} if seen is None else seen
        lines = [seen.setdefault(x, x) for x in _LSP_BREAK.split(text)]
    if lines[-1] == "":
        lines.pop()
    return lines


#: characters split at a time by :func:`split_shared`
SHARE_BLOCK = 1 << 16


def split_shared(text: str, sep: str, seen: Optional[dict] = None) -> list[str]:
    """``text.split(sep)``, equal parts being one string object.

    A set of files built by concatenating systems (or the same test set
    scored many times) repeats its source and reference lines: held once,
    a repeated line costs a list slot.  The text is split a block of
    ``SHARE_BLOCK`` characters at a time, so the copies of a block are
    freed before the next block's are made (the small-object heap reuses
    their room instead of keeping a copy of every line)."""
    seen = {} if seen is None else seen
    get = seen.setdefault
    out: list[str] = []
    n, a, step = len(text), 0, len(sep)
    while True:
        b = text.find(sep, min(a + SHARE_BLOCK, n))
        if b < 0:
            out.extend([get(x, x) for x in text[a:].split(sep)])
            return out
        b += step
        part = text[a:b].split(sep)
        part.pop()  # the empty part after the block's last separator
        out.extend([get(x, x) for x in part])
        a = b


def split_file_lines(text: str) -> list[str]:
    """Lines as sacrebleu's CLI reads them (split on \\n, right-stripped)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def not_utf8(data: bytes | bytearray, start: int, name: str) -> InputError:
    """The error for the first byte of ``data`` at ``start`` that is not UTF-8."""
    line = data.count(b"\n", 0, start) + 1
    col = start - (data.rfind(b"\n", 0, start) + 1)
    return InputError(
        f"{name}: not UTF-8 text: byte 0x{data[start]:02x} at line {line}, "
        f"byte offset {start} (column byte {col + 1}); "
        "re-save the file as UTF-8"
    )


def looks_binary(line: int, name: str) -> InputError:
    """The error for a NUL character on ``line`` (1-based)."""
    return InputError(f"{name}: looks binary (NUL byte on line {line}); expected a text file, one segment per line")


def decode_utf8(data: bytes, name: str) -> str:
    """Decode UTF-8 (a leading BOM is dropped) or say where it is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(data, exc.start, name) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise looks_binary(text.count("\n", 0, text.index("\x00")) + 1, name)
    return text


def open_binary(path: str):
    """Open a file for reading bytes, with a clear error for every failure."""
    name = os.fspath(path)
    try:
        if os.path.isdir(name):
            raise InputError(f"{name}: is a folder, not a file")
        return open(name, "rb")
    except InputError:
        raise
    except OSError as exc:
        raise read_error(exc, name) from None


def read_error(exc: OSError, name: str) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{name}: no such file")
    if isinstance(exc, PermissionError):
        return InputError(f"{name}: permission denied (cannot read the file)")
    return InputError(f"{name}: cannot read: {exc.strerror or exc}")


def read_text(path: str, max_bytes: Optional[int] = None) -> str:
    """Read a whole file as UTF-8 text, with a clear error for every failure."""
    name = os.fspath(path)
    with open_binary(name) as fh:
        try:
            data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
        except OSError as exc:
            raise read_error(exc, name) from None
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(f"{name}: larger than {max_bytes} bytes; not read")
    return decode_utf8(data, name)


def read_lines(path: str) -> list[str]:
    """A file's lines under the CLI rule."""
    return split_file_lines(read_text(path))
