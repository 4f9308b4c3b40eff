"""The server's own model of an open document: lines as LSP counts them.

A line ends at ``\\n``, ``\\r\\n`` or ``\\r`` and at nothing else — not at
U+2028, form feed or NEL, which ``str.splitlines`` (and so pygls'
``TextDocument.lines``) would break on.  Every line keeps its own ending, so
an edit that joins a ``\\r`` with a following ``\\n`` (or splits them) is
modelled exactly.  The last entry never has an ending; when it is empty the
document ends with a line break and, as in the CLI, that break adds no line
to what is scored (:meth:`LineDocument.engine_lines`).

Columns: positions on the wire count code units of the negotiated position
encoding (utf-16 by default, utf-8 or utf-32 when the client prefers them);
inside, a column is an index into the Python string (code points).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"

_BREAK = re.compile(r"\r\n|\r|\n")


def split_entries(text: str) -> list[tuple[str, str]]:
    """``text`` as (content, line ending) pairs; the last pair has no ending."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _BREAK.finditer(text):
        out.append((text[pos : m.start()], m.group()))
        pos = m.end()
    out.append((text[pos:], ""))
    return out


def units(s: str, encoding: str = UTF16) -> int:
    """Length of ``s`` in code units of ``encoding``."""
    if encoding == UTF32 or s.isascii():
        return len(s)
    if encoding == UTF8:
        return len(s.encode("utf-8", "surrogatepass"))
    return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)


def to_units(line: str, index: int, encoding: str = UTF16) -> int:
    """The column of code point ``index`` of ``line`` in ``encoding`` units."""
    index = max(0, min(index, len(line)))
    if encoding == UTF32 or line.isascii():
        return index
    return units(line[:index], encoding)


def from_units(line: str, column: int, encoding: str = UTF16) -> int:
    """The code point index of ``column`` (in ``encoding`` units) in ``line``.

    A column past the end means the end of the line (as the LSP says); a
    column inside a character (half a surrogate pair, a UTF-8 continuation
    byte) rounds up to the next character boundary.
    """
    if column <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(column, len(line))
    count = 0
    for i, c in enumerate(line):
        if count >= column:
            return i
        o = ord(c)
        if encoding == UTF8:
            count += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        else:
            count += 2 if o > 0xFFFF else 1
    return len(line)


@dataclass
class Splice:
    """What an edit did to the scored lines: lines [start, end) became ``lines``."""

    start: int
    end: int
    lines: list[str]


class LineDocument:
    """An open text document as a list of (content, line ending) entries."""

    def __init__(self, text: str = "", version: Optional[int] = None, encoding: str = UTF16) -> None:
        self.entries: list[tuple[str, str]] = split_entries(text)
        self.version = version
        self.encoding = encoding

    # -- reading ---------------------------------------------------------------
    @property
    def text(self) -> str:
        return "".join(c + e for c, e in self.entries)

    def line(self, i: int) -> str:
        return self.entries[i][0] if 0 <= i < len(self.entries) else ""

    @property
    def line_count(self) -> int:
        """Lines as the editor counts them (a final break opens an empty line)."""
        return len(self.entries)

    def _engine_len(self, entries: Sequence[tuple[str, str]]) -> int:
        return len(entries) - (1 if entries[-1][0] == "" else 0)

    @property
    def n_lines(self) -> int:
        """Lines as scored (a final line break adds no line)."""
        return self._engine_len(self.entries)

    def engine_lines(self) -> list[str]:
        return [c for c, _ in self.entries[: self.n_lines]]

    def end_column(self, i: int) -> int:
        """The end of line ``i`` in the document's position encoding."""
        return units(self.line(i), self.encoding)

    def column(self, i: int, index: int) -> int:
        return to_units(self.line(i), index, self.encoding)

    def index(self, i: int, column: int) -> int:
        return from_units(self.line(i), column, self.encoding)

    # -- editing ---------------------------------------------------------------
    def _clamp(self, line: int, column: int) -> tuple[int, int]:
        """A wire position as (entry, code point index), clamped to the document."""
        if line < 0:
            return 0, 0
        if line >= len(self.entries):
            last = len(self.entries) - 1
            return last, len(self.entries[last][0])
        return line, from_units(self.entries[line][0], column, self.encoding)

    def replace_all(self, text: str) -> Splice:
        old_n = self.n_lines
        self.entries = split_entries(text)
        return Splice(0, old_n, self.engine_lines())

    def apply(self, change: object) -> Splice:
        """Apply one ``TextDocumentContentChangeEvent`` (lsprotocol object or dict).

        Returns the change to the scored lines, trimmed to the lines whose
        content really differs.
        """
        rng = _get(change, "range")
        text = _get(change, "text") or ""
        if rng is None:
            return self.replace_all(text)
        start, end = _get(rng, "start"), _get(rng, "end")
        return self.edit(
            int(_get(start, "line")),
            int(_get(start, "character")),
            int(_get(end, "line")),
            int(_get(end, "character")),
            text,
        )

    def edit(self, l1: int, c1: int, l2: int, c2: int, text: str) -> Splice:
        """Replace the text between two wire positions with ``text``."""
        a_line, a_idx = self._clamp(l1, c1)
        b_line, b_idx = self._clamp(l2, c2)
        if (b_line, b_idx) < (a_line, a_idx):
            a_line, a_idx, b_line, b_idx = b_line, b_idx, a_line, a_idx
        entries = self.entries
        old_n = self._engine_len(entries)
        # Widen the region by one entry on each side so that line breaks
        # joining across its edges ("\r" + "\n") are re-split correctly.
        lo = max(0, a_line - 1)
        hi = min(len(entries), b_line + 2)
        pre = "".join(c + e for c, e in entries[lo:a_line]) + entries[a_line][0][:a_idx]
        b_content, b_end = entries[b_line]
        post = b_content[b_idx:] + b_end + "".join(c + e for c, e in entries[b_line + 1 : hi])
        new = split_entries(pre + text + post)
        if hi < len(entries):
            # the region ended with a line break; the split adds an empty tail
            if new and new[-1] == ("", ""):
                new.pop()
        old = entries[lo:hi]
        # trim what did not change
        s = 0
        while s < len(old) and s < len(new) and old[s] == new[s]:
            s += 1
        e_old, e_new = len(old), len(new)
        while e_old > s and e_new > s and old[e_old - 1] == new[e_new - 1]:
            e_old -= 1
            e_new -= 1
        start, stop = lo + s, lo + e_old
        entries[start:stop] = new[s:e_new]
        new_n = self._engine_len(entries)
        # map the entry splice onto the scored lines
        eng_start = min(start, old_n)
        eng_end = min(stop, old_n)
        delta = new_n - old_n
        new_end = eng_end + delta
        if new_end < eng_start:  # only a trailing empty line went away
            eng_start = new_end
        return Splice(eng_start, eng_end, [c for c, _ in entries[eng_start : max(eng_start, new_end)]])


def _get(obj: object, name: str):
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)
