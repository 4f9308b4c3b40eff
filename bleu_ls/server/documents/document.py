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
from typing import Any, Generator, Optional

from ...engine import split_shared

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"

#: A document not split yet answers lines above this one by finding them from
#: the start; a line further down splits the whole text first.
HEAD_LINES = 5000

_BREAK = re.compile(r"\r\n|\r|\n")
_SPLIT = re.compile(r"(\r\n|\r|\n)")
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def split_lines(text: str, seen: Optional[dict[str, str]] = None) -> tuple[list[str], list[str]]:
    """``text`` as two parallel lists: line contents and line endings (the
    last ending is ``""``).

    A text with a single kind of break (all ``\n``, or all ``\r\n``) is cut
    with ``str.split``, which at 100k lines is several times faster than the
    regular expression that handles mixed breaks.
    """
    if "\r" not in text:
        lines = split_shared(text, "\n", seen)  # equal lines as one string (memory)
        return lines, ["\n"] * (len(lines) - 1) + [""]
    crlf = text.count("\r\n")
    if crlf == text.count("\r") == text.count("\n"):
        lines = text.split("\r\n")
        return lines, ["\r\n"] * (len(lines) - 1) + [""]
    parts = _SPLIT.split(text)
    ends = parts[1::2]
    ends.append("")
    return parts[0::2], ends


def split_entries(text: str) -> list[tuple[str, str]]:
    """``text`` as (content, line ending) pairs; the last pair has no ending."""
    lines, ends = split_lines(text)
    return list(zip(lines, ends))


def units(s: str, encoding: str = UTF16) -> int:
    """Length of ``s`` in code units of ``encoding``."""
    if encoding == UTF32 or s.isascii():
        return len(s)
    if encoding == UTF8:
        return len(s.encode("utf-8", "surrogatepass"))
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


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
    byte) rounds up to the next character boundary.  Linear in the line at
    C speed: a 10 MB line costs milliseconds, not a Python loop per character.
    """
    if column <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(column, len(line))
    if encoding == UTF8:
        data = line.encode("utf-8", "surrogatepass")
        if column >= len(data):
            return len(line)
        cut = column
        while cut > 0 and data[cut] & 0xC0 == 0x80:  # inside a character: back to its start
            cut -= 1
        return len(data[:cut].decode("utf-8", "surrogatepass")) + (cut < column)
    # UTF-16: a code point is one unit, two above U+FFFF
    pos = done = 0
    for m in _ASTRAL.finditer(line):
        a = m.start()
        if done + (a - pos) >= column:
            break
        done += a - pos + 2
        pos = a + 1
        if done >= column:  # at or inside this pair: the boundary after it
            return pos
    return min(len(line), pos + column - done)


@dataclass
class Splice:
    """What an edit did to the scored lines: lines [start, end) became ``lines``."""

    start: int
    end: int
    lines: list[str]


class LineDocument:
    """An open text document as two parallel lists: each line's content
    (``lines``) and its line ending (``ends``; the last one is ``""``).

    Parallel lists rather than (content, ending) tuples: opening a 100k-line
    file then costs one ``str.split`` and no per-line objects besides the
    strings themselves, which the pair model shares (``engine_lines``).
    """

    def __init__(self, text: str = "", version: Optional[int] = None, encoding: str = UTF16, *, lazy: bool = False) -> None:
        self.version = version
        self.encoding = encoding
        #: the text not split yet (``lazy``): lines are found from the start
        #: as far as they are asked for, and the whole text is split on the
        #: first edit or full read, or in slices by :meth:`split_sliced`
        self._text: Optional[str] = None
        self._lines: list[str] = []
        self._ends: list[str] = []
        if lazy:
            self._text = text
            #: starts and content ends of the lines found so far
            self._head: list[int] = [0]
            self._head_ends: list[int] = []
            self._count: Optional[int] = None  # of line breaks
        else:
            self._lines, self._ends = split_lines(text)

    # -- the lines, split when first needed -----------------------------------
    @property
    def lines(self) -> list[str]:
        if self._text is not None:
            self._split_now()
        return self._lines

    @lines.setter
    def lines(self, value: list[str]) -> None:
        self._text = None
        self._lines = value

    @property
    def ends(self) -> list[str]:
        if self._text is not None:
            self._split_now()
        return self._ends

    @ends.setter
    def ends(self, value: list[str]) -> None:
        self._text = None
        self._ends = value

    @property
    def is_split(self) -> bool:
        return self._text is None

    @property
    def size(self) -> int:
        """Characters of a text not split yet (0 once split)."""
        return len(self._text) if self._text is not None else 0

    def _split_now(self) -> None:
        text, self._text = self._text, None
        self._lines, self._ends = split_lines(text or "")

    def split_sliced(self, chunk: int = 1 << 20) -> Generator[None, None, None]:
        """Split the text in blocks of about ``chunk`` characters, yielding
        between blocks (a generator; a no-op once split).  Each block but the
        last ends just after a ``\n``, so no line break straddles two."""
        text = self._text
        if text is None:
            return
        lines: list[str] = []
        ends: list[str] = []
        seen: dict[str, str] = {}
        n, a = len(text), 0
        while a < n:
            b = text.find("\n", min(a + chunk, n) - 1)
            b = n if b < 0 else b + 1
            part_lines, part_ends = split_lines(text[a:b], seen)
            if b < n:  # the block ends with its break: no empty line after it
                part_lines.pop()
                part_ends.pop()
            lines.extend(part_lines)
            ends.extend(part_ends)
            a = b
            yield
            if self._text is not text:
                return  # split (or replaced) meanwhile
        if not lines:
            lines, ends = [""], [""]
        self._text = None
        self._lines, self._ends = lines, ends

    def _head_line(self, i: int) -> Optional[str]:
        """Line ``i`` of a text not split yet, found from the start (None:
        no such line).  For lines near the top (:data:`HEAD_LINES`)."""
        text, starts, ends = self._text, self._head, self._head_ends
        assert text is not None, "asked while the text is not split"
        while len(ends) <= i and len(starts) > len(ends):
            pos = starts[-1]
            nl = text.find("\n", pos)
            cr = text.find("\r", pos, nl if nl >= 0 else len(text))
            if cr >= 0:
                ends.append(cr)
                starts.append(cr + (2 if text.startswith("\n", cr + 1) else 1))
            elif nl >= 0:
                ends.append(nl)
                starts.append(nl + 1)
            else:  # the last line (empty after a final break)
                ends.append(len(text))
        if i >= len(ends):
            return None
        return text[starts[i] : ends[i]]

    # -- reading ---------------------------------------------------------------
    @property
    def entries(self) -> list[tuple[str, str]]:
        """(content, ending) pairs (a copy; for tests and debugging)."""
        return list(zip(self.lines, self.ends))

    @property
    def text(self) -> str:
        if self._text is not None:
            return self._text
        return "".join(c + e for c, e in zip(self.lines, self.ends))

    def line(self, i: int) -> str:
        if self._text is not None and i < HEAD_LINES:
            found = self._head_line(i) if i >= 0 else None
            return "" if found is None else found
        lines = self.lines
        return lines[i] if 0 <= i < len(lines) else ""

    def ready(self, i: int) -> bool:
        """Can line ``i`` be read without splitting the whole text first?"""
        return self._text is None or i < HEAD_LINES

    def has_line(self, i: int) -> bool:
        """Is ``i`` a scored line (below :attr:`n_lines`)?  Near the top of a
        text not split yet, found without counting the whole text."""
        if self._text is not None and 0 <= i < HEAD_LINES:
            if self._head_line(i) is None:
                return False
            last = len(self._head) == len(self._head_ends) and i == len(self._head_ends) - 1
            return not (last and self._head[i] == len(self._text))
        return 0 <= i < self.n_lines

    @property
    def line_count(self) -> int:
        """Lines as the editor counts them (a final break opens an empty line)."""
        if self._text is not None:
            if self._count is None:
                t = self._text
                self._count = t.count("\n") + (t.count("\r") - t.count("\r\n") if "\r" in t else 0)
            return self._count + 1
        return len(self.lines)

    @property
    def n_lines(self) -> int:
        """Lines as scored (a final line break adds no line)."""
        if self._text is not None:
            text = self._text
            return self.line_count - (1 if not text or text.endswith(("\n", "\r")) else 0)
        return len(self.lines) - (1 if self.lines[-1] == "" else 0)

    def engine_lines(self) -> list[str]:
        """The scored lines (a new list sharing the line strings)."""
        return self.lines[: self.n_lines]

    def end_column(self, i: int) -> int:
        """The end of line ``i`` in the document's position encoding."""
        return units(self.line(i), self.encoding)

    def column(self, i: int, index: int) -> int:
        return to_units(self.line(i), index, self.encoding)

    def index(self, i: int, column: int) -> int:
        return from_units(self.line(i), column, self.encoding)

    # -- editing ---------------------------------------------------------------
    def _clamp(self, line: int, column: int) -> tuple[int, int]:
        """A wire position as (line, code point index), clamped to the document."""
        if line < 0:
            return 0, 0
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return last, len(self.lines[last])
        return line, from_units(self.lines[line], column, self.encoding)

    def replace_all(self, text: str) -> Splice:
        old_n = self.n_lines
        self.lines, self.ends = split_lines(text)
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
        lines, ends = self.lines, self.ends
        old_n = self.n_lines
        within = a_line == b_line and "\n" not in text and "\r" not in text
        if within:
            old = lines[a_line]
            new = old[:a_idx] + text + old[b_idx:]
            # within one line, no break typed: no break is split, and none
            # joins unless the line empties between a "\r" and a "\n"
            within = bool(new) or not (a_line and ends[a_line - 1] == "\r" and ends[a_line] == "\n")
        if within:
            start = a_line
            stop = a_line + (new != old)
            if stop > start:
                lines[a_line] = new
        else:
            start, stop = self._splice_region(a_line, a_idx, b_line, b_idx, text)
        new_n = self.n_lines
        # map the line splice onto the scored lines
        eng_start = min(start, old_n)
        eng_end = min(stop, old_n)
        new_end = eng_end + new_n - old_n
        if new_end < eng_start:  # only a trailing empty line went away
            eng_start = new_end
        return Splice(eng_start, eng_end, lines[eng_start : max(eng_start, new_end)])

    def _splice_region(self, a_line: int, a_idx: int, b_line: int, b_idx: int, text: str) -> tuple[int, int]:
        """Replace the text between two positions by re-splitting the lines
        around it; the [start, stop) of the old lines that were replaced."""
        lines, ends = self._lines, self._ends
        # Widen the region by one line on each side so that line breaks
        # joining across its edges ("\r" + "\n") are re-split correctly.
        lo = max(0, a_line - 1)
        hi = min(len(lines), b_line + 2)
        pre = "".join(c + e for c, e in zip(lines[lo:a_line], ends[lo:a_line])) + lines[a_line][:a_idx]
        post = lines[b_line][b_idx:] + ends[b_line]
        post += "".join(c + e for c, e in zip(lines[b_line + 1 : hi], ends[b_line + 1 : hi]))
        new_lines, new_ends = split_lines(pre + text + post)
        if hi < len(lines) and new_lines[-1] == "" and new_ends[-1] == "":
            # the region ended with a line break; the split adds an empty tail
            new_lines.pop()
            new_ends.pop()
        s, e_old, e_new = _trim(lines, ends, lo, hi, new_lines, new_ends)
        start, stop = lo + s, lo + e_old
        lines[start:stop] = new_lines[s:e_new]
        ends[start:stop] = new_ends[s:e_new]
        return start, stop


def _trim(
    lines: list[str], ends: list[str], lo: int, hi: int, new_lines: list[str], new_ends: list[str]
) -> tuple[int, int, int]:
    """How much of the region [lo, hi) equals the new lines at both ends:
    (common head length, old end, new end), indices relative to ``lo``."""
    n_old, n_new = hi - lo, len(new_lines)
    s = 0
    while s < n_old and s < n_new and lines[lo + s] == new_lines[s] and ends[lo + s] == new_ends[s]:
        s += 1
    e_old, e_new = n_old, n_new
    while (
        e_old > s
        and e_new > s
        and lines[lo + e_old - 1] == new_lines[e_new - 1]
        and ends[lo + e_old - 1] == new_ends[e_new - 1]
    ):
        e_old -= 1
        e_new -= 1
    return s, e_old, e_new


def _get(obj: object, name: str) -> Any:
    """Field ``name`` of a change as JSON (a dict) or as lsprotocol's object."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)
