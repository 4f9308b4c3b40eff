"""Reading large text files without stopping for them.

Two ways to read a file's lines under the LSP line rule (a line ends at
``\\n``, ``\\r\\n`` or ``\\r``, a final break adds no line, a leading BOM is
dropped; see :mod:`.text`):

* :class:`LazyLines` — the lines asked for, and only those: the file is read
  from the start in growing blocks as far as the highest line asked for, and a
  line is decoded when it is asked for.  A line that is not UTF-8 (or holds a
  NUL) is ``None``: the error is said by the full read.
* :func:`read_lines_sliced` — the whole file as :func:`.text.read_text` +
  :func:`.text.split_lsp_lines` give it (same lines, same error sentences),
  as a generator that yields between blocks of about ``chunk`` bytes, so a
  caller can let other work through in between (``lines = yield from ...``).
"""

from __future__ import annotations

import os
from typing import Generator, Iterator, Optional

from .text import InputError, looks_binary, not_utf8, open_binary, read_error, split_lsp_lines

BOM = b"\xef\xbb\xbf"
#: Bytes decoded and split between two yields of the sliced reader.
CHUNK = 1 << 20
#: First block :class:`LazyLines` reads; each next block doubles.
FIRST_BLOCK = 1 << 16


class LazyLines:
    """The lines of a file, read and decoded as far as they are asked for."""

    def __init__(self, path: str) -> None:
        self.name = os.fspath(path)
        self._fh = open_binary(self.name)
        self._data = b""
        self._eof = False
        self._block = FIRST_BLOCK
        #: line starts and content ends found so far (byte offsets)
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._pos = 0  # where the next line starts
        while len(self._data) < len(BOM) and self._read_more():
            pass
        if self._data.startswith(BOM):
            self._pos = len(BOM)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        self._eof = True

    def _read_more(self) -> bool:
        if self._eof or self._fh is None:
            return False
        try:
            block = self._fh.read(self._block)
        except OSError as exc:
            self.close()
            raise read_error(exc, self.name) from None
        self._block *= 2
        if not block:
            self.close()
            return False
        self._data += block
        return True

    def _next_break(self, pos: int) -> Optional[tuple[int, int]]:
        """(content end, next line start) of the line starting at ``pos``,
        or None when the data read so far holds no complete break."""
        data = self._data
        nl = data.find(b"\n", pos)
        cr = data.find(b"\r", pos, nl if nl >= 0 else len(data))
        if cr >= 0:
            if cr + 1 < len(data):
                return cr, cr + (2 if data[cr + 1] == 0x0A else 1)
            if self._eof:
                return cr, cr + 1
            return None  # "\r" last in the block: its "\n" may follow
        if nl >= 0:
            return nl, nl + 1
        return None

    def _scan_to(self, i: int) -> bool:
        """Find lines up to ``i``; False when the file has no line ``i``."""
        while len(self._starts) <= i:
            pos = self._pos
            brk = self._next_break(pos)
            if brk is None:
                if self._read_more():
                    continue
                brk = self._next_break(pos)  # at the end now: a last "\r" is a break
            if brk is None:
                if pos < len(self._data):  # a last line without a break
                    self._starts.append(pos)
                    self._ends.append(len(self._data))
                    self._pos = len(self._data)
                    continue
                return False
            self._starts.append(pos)
            self._ends.append(brk[0])
            self._pos = brk[1]
        return True

    def line(self, i: int) -> Optional[str]:
        """Line ``i`` (not right-stripped); None when the file has no such
        line or it is not UTF-8 text."""
        if i < 0 or not self._scan_to(i):
            return None
        try:
            text = self._data[self._starts[i] : self._ends[i]].decode("utf-8")
        except UnicodeDecodeError:
            return None
        return None if "\x00" in text else text

    def has_line(self, i: int) -> bool:
        return i >= 0 and self._scan_to(i)


def _blocks(data: bytes | bytearray, start: int, chunk: int) -> Iterator[tuple[int, int]]:
    """[a, b) blocks of about ``chunk`` bytes, each but the last ending just
    after a ``\\n`` (so no line break, no UTF-8 character straddles two)."""
    n = len(data)
    a = start
    while a < n:
        b = data.find(b"\n", min(a + chunk, n) - 1)
        b = n if b < 0 else b + 1
        yield a, b
        a = b


def read_all_sliced(fh, step: int) -> Generator[None, None, bytearray]:
    """The rest of the open binary file ``fh``, read ``step`` bytes per
    slice into one buffer sized from the file (no final join: joining the
    parts of a 130 MB file was one 80-100 ms step)."""
    try:
        size = max(0, os.fstat(fh.fileno()).st_size - fh.tell())
    except (OSError, AttributeError, ValueError):
        size = 0
    buf = bytearray(size)
    view = memoryview(buf)
    pos = 0
    while pos < size:
        got = fh.readinto(view[pos : min(size, pos + step)])
        if not got:
            break
        pos += got
        yield
    view.release()
    del buf[pos:]
    while True:  # the file grew meanwhile, or its size was not known
        part = fh.read(step)
        if not part:
            break
        buf += part
        yield
    return buf


def read_lines_sliced(path: str, chunk: int = CHUNK) -> Generator[None, None, list[str]]:
    """A file's lines, as ``split_lsp_lines(read_text(path))``, yielding
    between blocks; raises the same :class:`InputError` sentences."""
    name = os.fspath(path)
    with open_binary(name) as fh:
        try:
            data = yield from read_all_sliced(fh, 8 * chunk)
        except OSError as exc:
            raise read_error(exc, name) from None
    lines: list[str] = []
    seen: dict = {}  # equal lines as one string, across blocks
    first_nul: Optional[int] = None
    start = len(BOM) if data.startswith(BOM) else 0
    for a, b in _blocks(data, start, chunk):
        try:
            text = data[a:b].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8(data, a + exc.start, name) from None
        if first_nul is None and "\x00" in text:
            first_nul = data.count(b"\n", 0, a) + text.count("\n", 0, text.index("\x00")) + 1
        lines.extend(split_lsp_lines(text, seen))
        yield
    if first_nul is not None:
        raise looks_binary(first_nul, name)
    return lines


def run(gen: Generator[None, None, object]):
    """Drive a sliced generator to its end at once; its return value."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


__all__ = ["CHUNK", "InputError", "LazyLines", "read_lines_sliced", "run"]
