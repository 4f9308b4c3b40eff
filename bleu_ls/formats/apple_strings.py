"""Apple ``.strings`` files read into segments (one per ``"key" = "value";`` entry).

The file is an old-style property list dictionary without its braces::

    /* the note of the entry below */
    "Cancel" = "Abbrechen";
    // a line comment
    plainKey = plain_value;

* Keys and values are quoted (``"…"``, or ``'…'`` as the old-style plist allows) or
  unquoted strings of plain characters (letters, digits and ``_$+/:.-``).  An entry
  without a value (``"key";``) is its key.
* Escapes in quoted strings: ``\\"``, ``\\'``, ``\\\\``, ``\\n``, ``\\t``, ``\\r``, ``\\a``,
  ``\\b``, ``\\f``, ``\\v``, ``\\Uxxxx`` / ``\\uxxxx`` (up to four hex digits; two of them
  making a surrogate pair are one character), octal ``\\ooo``; any other escaped
  character is itself.
* The comment (``/* */`` or ``//`` lines) between the previous entry and this one is
  its note (``Segment.notes``), its markers and surrounding space removed.
* ``Segment.key`` is the decoded key; ``target_span`` the value's characters between
  its quotes (an unquoted value: the value itself); ``Segment.runs`` map the decoded
  text back to the file where escapes differ from it (an escape's character maps to
  its backslash, as in the PO reader); line breaks are folded to spaces in the scored
  text (``extra["value"]`` keeps them).  ``Segment.source`` is None: the source text is
  in the source-language file (:func:`source_files`).

Decoding (the row's ``"utf16-or-utf8"``): a UTF-16 byte-order mark (LE or BE) or a
UTF-8 one wins; bytes without a mark whose NUL bytes fall on every other byte are
UTF-16 (LE or BE by where the NULs are) and read so, with one warning; else UTF-8
(undecodable bytes replaced, and said).

A malformed place (an unterminated string or comment, a missing ``=`` or ``;``) is one
problem; the entries before it are kept and the read stops there.  A key defined twice
is one problem at its second definition, which is not read (the first is).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import replace
from pathlib import Path
from typing import Optional

from .finding import Finding, problem
from .model import Run, Segment, SegmentDocument, line_col
from .xmlcontent import LineCounter

FORMAT = "strings"

#: the characters of an unquoted string of an old-style property list
_PLAIN = re.compile(r"[A-Za-z0-9_$+/:.\-]+")
_SPACE = re.compile(r"[ \t\r\n\f\v\ufeff]*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_FOLD = {ord("\n"): " ", ord("\r"): " "}


def _fold(s: str) -> str:
    """Line breaks as spaces (one for one: the runs hold)."""
    return s.translate(_FOLD) if "\n" in s or "\r" in s else s
_HEX = re.compile(r"[0-9A-Fa-f]{1,4}")
_OCT = re.compile(r"[0-7]{1,3}")
#: the characters of a quoted string up to its closing quote or an escape
_UNTIL = {'"': re.compile(r'[^"\\]*'), "'": re.compile(r"[^'\\]*")}

#: the source language when the settings name none
DEFAULT_SOURCE = "en"


# --- decoding ---------------------------------------------------------------------------------
def decode_strings(data: bytes) -> tuple[str, Optional[str]]:
    """``(text, warning-or-None)`` of a ``.strings`` file's bytes (see the module's docstring)."""
    if data.startswith(codecs.BOM_UTF8):
        return _utf8(data[3:])
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), None  # the codec reads and drops the mark
        except UnicodeDecodeError as e:
            return data.decode("utf-16", errors="replace"), f"The UTF-16 text is not valid at byte {e.start}; undecodable bytes were replaced."
    guess = _utf16_without_bom(data)
    if guess is not None:
        text = data.decode(guess, errors="replace")
        return text, (f"The file is UTF-16 ({'little' if guess.endswith('le') else 'big'}-endian) without a byte-order "
                      "mark; it was read as such (Xcode writes the mark: add one, or save the file as UTF-8).")
    return _utf8(data)


def _utf8(data: bytes) -> tuple[str, Optional[str]]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return data.decode("utf-8", errors="replace"), f"The file is not valid UTF-8 at byte {e.start}; undecodable bytes were replaced."


def _utf16_without_bom(data: bytes) -> Optional[str]:
    """"utf-16-le" / "utf-16-be" when the NUL bytes of the first kilobytes fall on every other byte, else None."""
    head = data[:4096]
    half = len(head) // 2
    if half < 1 or b"\0" not in head:
        return None
    even = head[0::2].count(0)
    odd = head[1::2].count(0)
    # ASCII-heavy UTF-16: at least a third of one side is NUL and the other side has (almost) none
    if odd * 3 >= half and even * 20 <= odd:
        return "utf-16-le"
    if even * 3 >= half and odd * 20 <= even:
        return "utf-16-be"
    return None


# --- the source-language file -----------------------------------------------------------------
def source_files(path: Path, source_lang: Optional[str] = None) -> list[Path]:
    """``de.lproj/Localizable.strings`` → ``en.lproj/Localizable.strings`` (``source_lang``, the
    ``[terms] sourceLanguage`` setting, else ``en``), then ``Base.lproj/Localizable.strings``.
    Nothing (``[]``) when the file is not in a ``*.lproj`` folder.  No I/O."""
    p = Path(path)
    folder = p.parent.name
    if not folder.endswith(".lproj"):
        return []
    base = p.parent.parent
    src = source_lang or DEFAULT_SOURCE
    out = [base / f"{src}.lproj" / p.name]
    if "-" in src or "_" in src:  # en-US → also en
        out.append(base / f"{re.split('[-_]', src)[0]}.lproj" / p.name)
    out.append(base / "Base.lproj" / p.name)
    return [c for c in dict.fromkeys(out) if c != p]


def lproj_language(path: Path) -> Optional[str]:
    """The language a ``*.lproj`` folder names (None for ``Base.lproj`` or another folder)."""
    name = Path(path).parent.name
    if not name.endswith(".lproj") or name == "Base.lproj":
        return None
    return name[: -len(".lproj")] or None


# --- reading ----------------------------------------------------------------------------------
class _Bad(Exception):
    def __init__(self, offset: int, message: str) -> None:
        self.offset = offset
        self.message = message


class _Str:
    __slots__ = ("value", "start", "end", "runs", "quoted")

    def __init__(self, value: str, start: int, end: int, runs: list[Run], quoted: bool) -> None:
        self.value = value
        self.start = start  # the first character inside the quotes (unquoted: of the string)
        self.end = end  # the closing quote (unquoted: after the string)
        self.runs = runs
        self.quoted = quoted


def _quoted(text: str, i: int) -> tuple[_Str, int]:
    """The quoted string whose opening quote is at ``i``: (it, offset after its closing quote)."""
    q = text[i]
    start = i + 1
    out: list[str] = []
    runs: list[Run] = []
    pos = 0
    j = start
    n = len(text)
    while True:
        k = _UNTIL[q].match(text, j).end()  # type: ignore[union-attr]  # it matches anywhere (maybe empty)
        if k > j:
            out.append(text[j:k])
            runs.append(Run(pos, j, k - j))
            pos += k - j
        if k >= n:
            raise _Bad(i, "This string is not closed: its closing quote is missing.")
        if text[k] == q:
            value = "".join(out)
            if len(runs) == 1 and runs[0].length == k - start:
                runs = []  # the text is the file's, character for character
            elif runs and runs[-1].length == 0:
                runs.append(Run(pos, k, 0))  # the text ends in an escape: its end is the closing quote
            return _Str(value, start, k, runs, True), k + 1
        # an escape: its character maps to the backslash
        runs.append(Run(pos, k, 0))
        if k + 1 >= n:
            raise _Bad(i, "This string is not closed: its closing quote is missing.")
        c = text[k + 1]
        j = k + 2
        if c in "Uu":
            m = _HEX.match(text, j)
            if m is None:
                ch = c
            else:
                code = int(m.group(), 16)
                j = m.end()
                if 0xD800 <= code < 0xDC00 and text.startswith("\\", j) and j + 1 < n and text[j + 1] in "Uu":
                    m2 = _HEX.match(text, j + 2)
                    if m2 is not None and 0xDC00 <= int(m2.group(), 16) < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (int(m2.group(), 16) - 0xDC00)
                        j = m2.end()
                ch = chr(code)
        elif c in "01234567":
            m = _OCT.match(text, k + 1)
            assert m is not None
            ch = chr(int(m.group(), 8))
            j = m.end()
        else:
            ch = _ESCAPES.get(c, c)
        out.append(ch)
        pos += len(ch)


def _string(text: str, i: int, what: str) -> tuple[_Str, int]:
    """The string (quoted or plain) at ``i``: (it, offset after it)."""
    if i < len(text) and text[i] in "\"'":
        return _quoted(text, i)
    m = _PLAIN.match(text, i)
    if m is None:
        found = "the end of the file" if i >= len(text) else repr(text[i])
        raise _Bad(i, f"Expected {what} (a quoted string), found {found}.")
    return _Str(m.group(), i, m.end(), [], False), m.end()


def _skip(text: str, i: int, notes: Optional[list[str]]) -> int:
    """Skip white space and comments from ``i`` (the comments' text added to ``notes``)."""
    n = len(text)
    while True:
        i = _SPACE.match(text, i).end()  # type: ignore[union-attr]  # it matches anywhere (maybe empty)
        if text.startswith("/*", i):
            e = text.find("*/", i + 2)
            if e < 0:
                raise _Bad(i, "This comment is not closed: its */ is missing.")
            if notes is not None:
                notes.append(text[i + 2 : e].strip())
            i = e + 2
        elif text.startswith("//", i):
            e = text.find("\n", i)
            e = n if e < 0 else e
            if notes is not None:
                notes.append(text[i + 2 : e].strip())
            i = e
        else:
            return i


def entry_end(text: str) -> Optional[int]:
    """The offset after the ``;`` that ends an entry in ``text``, which starts where the entry's value
    (or its key, in ``"key";``) ends: at its closing quote, or after an unquoted string; None when white
    space and comments up to a ``;`` do not follow there."""
    i = 1 if text.startswith(('"', "'")) else 0
    try:
        i = _skip(text, i, None)
    except _Bad:
        return None
    return i + 1 if text.startswith(";", i) else None


def read_strings(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A ``.strings`` file's decoded text read into segments (see the module's docstring)."""
    doc = SegmentDocument(format=FORMAT, segments=[], text=text)
    seen: dict[str, int] = {}
    lines = LineCounter(text)  # the entries' lines, counted as the read goes forward
    i = 0
    n = len(text)
    if text.startswith("\ufeff"):
        i = 1
    try:
        while True:
            notes: list[str] = []
            i = _skip(text, i, notes)
            if i >= n:
                break
            if max_segments is not None and len(doc.segments) >= max_segments:
                doc.header["partial"] = "true"
                break
            key_at = i
            key, i = _string(text, i, "a key")
            i = _skip(text, i, None)
            if text.startswith(";", i):  # "key"; : the value is the key
                value = key
                i += 1
            else:
                if not text.startswith("=", i):
                    found = "the end of the file" if i >= n else repr(text[i])
                    raise _Bad(i, f"Expected = after the key {key.value!r}, found {found}.")
                i = _skip(text, i + 1, None)
                value, i = _string(text, i, "a value")
                i = _skip(text, i, None)
                if not text.startswith(";", i):
                    found = "the end of the file" if i >= n else repr(text[i])
                    raise _Bad(i, f"Expected ; after the value of {key.value!r}, found {found}.")
                i += 1
            if key.value in seen:
                ln, col = line_col(text, key_at)
                first = seen[key.value] + 1
                doc.problems.append(_warning(problem(
                    key_at, ln, col, f"The key {key.value!r} is defined again (first on line {first}); "
                    "this definition is not read.")))
                continue
            seen[key.value] = lines(key_at)
            doc.segments.append(_segment(key.value, value, tuple(x for x in notes if x), lines(value.start)))
    except _Bad as bad:
        ln, col = line_col(text, bad.offset)
        doc.problems.append(problem(bad.offset, ln, col, bad.message))
    return doc


def _warning(f: Finding) -> Finding:
    return replace(f, severity="warning")


def _segment(key: str, value: _Str, notes: tuple[str, ...], line: int) -> Segment:
    raw = value.value
    folded = _fold(raw)
    extra = {"value": raw} if folded != raw else None
    return Segment(key=key, target=folded, target_span=(value.start, value.end), line=line, notes=notes,
                   runs=value.runs, extra=extra)


def read_strings_bytes(data: bytes, max_segments: Optional[int] = None) -> SegmentDocument:
    """A ``.strings`` file's bytes decoded (UTF-16 with or without its mark, UTF-8) and read; a
    decoding warning is the first problem."""
    text, warning = decode_strings(data)
    doc = read_strings(text, max_segments)
    if warning:
        doc.problems.insert(0, _warning(problem(0, 0, 0, warning)))
    return doc
