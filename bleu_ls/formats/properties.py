r"""Java ``.properties`` files read into segments, with exact positions, as ``java.util.Properties.load`` reads them.

One segment per key, in file order; the key is the property's key (escapes
decoded).  A key met twice (Java keeps the last) gets ``#2``, ``#3``… and
``extra["duplicate"]``.  These files hold targets only: ``Segment.source`` is
None (the source is the same key in the source-language file, :func:`source_files`).

The reading is ``Properties.load``'s, step by step:

* natural lines end at ``\n``, ``\r`` or ``\r\n``; white space (space, tab, form
  feed) at a line's start is skipped; a line whose first other character is
  ``#`` or ``!`` is a comment (a backslash at its end continues nothing);
* a line ending in an odd number of backslashes goes on on the next line, that
  line's leading white space dropped (a ``#`` there is text, unless nothing came
  before the backslash: then, as in Java 9 and later, the next line is read as a
  new one, and a comment there is a comment);
* the key ends at the first unescaped ``=``, ``:`` or white space; white space
  and then one ``=`` or ``:`` and more white space separate it from the value;
* escapes in key and value: ``\t \n \r \f``, ``\uXXXX``; a backslash before any
  other character is that character; a backslash ending the file is dropped
  (alone on its line, it leaves a property with an empty key, as in Java).

``target_span`` runs from the value's first character to its last, across
continuation lines; the runs map the decoded value back to the file (an
escaped character maps to its backslash; the line breaks and indentation of a
continuation are not text).  Line breaks in the value (``\n``, ``\r``) are folded
to one space each in ``Segment.target``; ``extra["value"]`` keeps the value when it
differs.  A malformed ``\uXXXX`` (which makes ``load`` throw) is a problem at its
place; its characters are kept as they are and the reading goes on.

Decoding (``read.py``, the row's ``utf-8-or-latin-1``): UTF-8, and ISO-8859-1 when
the bytes are not UTF-8, as Java 9+ ``PropertyResourceBundle`` does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from .finding import Finding, problem
from .model import PROPERTIES, Run, Segment, SegmentDocument, line_col, runs_of

_WS = frozenset(" \t\f")
_ESC = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_HEX = frozenset("0123456789abcdefABCDEF")
_FOLD = {ord("\n"): " ", ord("\r"): " "}
_EOL = re.compile(r"[\r\n]")


def message_format_placeholders(text: str) -> list[tuple[int, int, str]]:
    """The ``java.text.MessageFormat`` arguments of ``text`` (``{0}``, ``{0,number,#.##}``,
    ``{name}``, a choice's nested braces included): ``(start, end, spelling)`` each, in order.
    Text between apostrophes is quoted (no argument in it); ``''`` is an apostrophe."""
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    quoted = False
    while i < n:
        c = text[i]
        if c == "'":
            if i + 1 < n and text[i + 1] == "'":
                i += 2
                continue
            quoted = not quoted
        elif c == "{" and not quoted:
            depth, j = 0, i
            while j < n:
                if text[j] == "{":
                    depth += 1
                elif text[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n:  # an unclosed brace: no argument
                return out
            out.append((i, j + 1, text[i:j + 1]))
            i = j + 1
            continue
        i += 1
    return out


# --- the file's place: its language and its source-language file ------------------------------
_SUFFIX = re.compile(r"^(.+)_([a-z]{2,3})(?:_([A-Z][a-z]{3}))?(?:_([A-Z]{2}|[0-9]{3}))?$")


def _split(path: Path, text_lang: Optional[str] = None) -> Optional[tuple[str, str]]:
    """(base name, BCP 47 language) of ``messages_de_DE.properties``; None without a language suffix.
    A three-letter suffix is a language only when ``text_lang`` says so (``my_app`` is not)."""
    m = _SUFFIX.match(Path(path).stem)
    if m is None:
        return None
    base, lang, script, region = m.groups()
    if len(lang) == 3 and (text_lang or "").lower().replace("_", "-").split("-")[0] != lang:
        return None
    return base, "-".join(p for p in (lang, script, region) if p)


def properties_language(path: Path, text_lang: Optional[str] = None) -> Optional[str]:
    """The language of ``messages_de.properties`` (``de``), ``messages_de_DE.properties`` (``de-DE``),
    ``messages_sr_Latn.properties`` (``sr-Latn``); None for ``messages.properties``."""
    got = _split(path, text_lang)
    return None if got is None else got[1]


def source_files(path: Path, text_lang: Optional[str] = None) -> list[Path]:
    """The source-language files of ``messages_de.properties`` / ``messages_de_DE.properties``:
    ``messages.properties``, then ``messages_en.properties`` (``[]`` for a file with no
    language suffix, and English's own file offers only the first).  No I/O."""
    p = Path(path)
    got = _split(p, text_lang)
    if got is None:
        return []
    base, lang = got
    out = [p.with_name(base + p.suffix)]
    if lang.split("-")[0] != "en":
        out.append(p.with_name(base + "_en" + p.suffix))
    return out


# --- reading ----------------------------------------------------------------------------------
def _logical_lines(text: str):
    """``Properties.load``'s logical lines: ``(chars, offsets, line)`` each, the characters of the
    line with their offsets in ``text`` (continuations joined, their backslash and the next line's
    leading white space left out), ``line`` the 0-based line it starts on."""
    i, n = 0, len(text)
    line = 0
    while i < n:
        # a natural line's leading white space; blank lines
        while i < n and text[i] in _WS:
            i += 1
        if i >= n:
            return
        c = text[i]
        if c == "\n" or c == "\r":
            i += 2 if text.startswith("\r\n", i) else 1
            line += 1
            continue
        if c == "#" or c == "!":
            m = _EOL.search(text, i)
            i = n if m is None else m.start()
            continue
        chars: list[str] = []
        offs: list[int] = []
        start_line = line
        afresh = False
        while True:
            m = _EOL.search(text, i)
            e = n if m is None else m.start()
            piece = text[i:e]
            chars += piece
            offs += range(i, e)
            i = e
            if (len(piece) - len(piece.rstrip("\\"))) % 2 == 0:
                break
            chars.pop()  # the continuing backslash (at the end of the file: dropped, the line kept)
            offs.pop()
            if i >= n:
                break
            if i == n - 1:  # its line break ends the file: Java returns the line as it is (even empty)
                i += 1
                break
            i += 2 if text.startswith("\r\n", i) else 1
            line += 1
            if not chars:  # nothing yet: Java reads the next line as a new one (a comment there is one)
                afresh = True
                break
            while i < n and text[i] in _WS:
                i += 1
        if not afresh:
            yield chars, offs, start_line


def _low_surrogate(chars: list[str], i: int, b: int) -> Optional[int]:
    """The low surrogate a ``\\uDC00``–``\\uDFFF`` escape at ``chars[i]`` writes (None: no such escape)."""
    if i + 6 > b or chars[i] != "\\" or chars[i + 1] != "u":
        return None
    digits = "".join(chars[i + 2:i + 6])
    if not all(d in _HEX for d in digits):
        return None
    code = int(digits, 16)
    return code if 0xDC00 <= code < 0xE000 else None


class _Converted:
    """``loadConvert`` over a run of a logical line: the text, each character's offset, whether it is spelled as itself."""

    def __init__(self, chars: list[str], offs: list[int], a: int, b: int, problems: list[Finding], file: str):
        out: list[str] = []
        at: list[int] = []
        exact: list[bool] = []
        i = a
        joined = "".join(chars[a:b])
        while i < b:
            k = joined.find("\\", i - a)
            j = b if k < 0 else a + k
            if j > i:  # up to the next backslash: the characters themselves, copied as a block
                out += chars[i:j]
                at += offs[i:j]
                exact += [True] * (j - i)
                i = j
                if i >= b:
                    break
            c = chars[i]
            if c != "\\" or i + 1 >= b:
                out.append(c)
                at.append(offs[i])
                exact.append(True)
                i += 1
                continue
            e = chars[i + 1]
            if e == "u":
                digits = "".join(chars[i + 2:i + 6])
                if len(digits) == 4 and all(d in _HEX for d in digits):
                    code = int(digits, 16)
                    low = _low_surrogate(chars, i + 6, b) if 0xD800 <= code < 0xDC00 else None
                    if low is not None:  # a UTF-16 pair written as two escapes: one character
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    out.append(chr(code))
                    at.append(offs[i if low is None else i - 6])
                    exact.append(False)
                    i += 6
                    continue
                ln, col = line_col(file, offs[i])
                problems.append(problem(offs[i], ln, col, "A malformed \\uXXXX escape: four hexadecimal digits must "
                                                          "follow \\u (Java refuses to load this file)."))
                out.append("\\")
                at.append(offs[i])
                exact.append(True)
                i += 1
                continue
            out.append(_ESC.get(e, e))
            at.append(offs[i])
            exact.append(False)
            i += 2
        self.text = "".join(out)
        self.offs = at
        self.exact = exact

    def runs(self, end: int) -> list[Run]:
        """The value's runs (:func:`~.model.runs_of`): each escape's character at its backslash."""
        return runs_of(self.offs, self.exact, end)


def read_properties(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read a ``.properties`` file's decoded text (offsets index ``text``); never raises on content."""
    segments: list[Segment] = []
    problems: list[Finding] = []
    keys: dict[str, int] = {}
    for chars, offs, line in _logical_lines(text):
        n = len(chars)
        k = 0
        backslash = False
        vstart = n
        sep = False
        while k < n:
            c = chars[k]
            if not backslash and c in "=:":
                vstart, sep = k + 1, True
                break
            if not backslash and c in _WS:
                vstart = k + 1
                break
            backslash = (not backslash) if c == "\\" else False
            k += 1
        while vstart < n:
            c = chars[vstart]
            if c not in _WS:
                if not sep and c in "=:":
                    sep = True
                else:
                    break
            vstart += 1
        key = _Converted(chars, offs, 0, k, problems, text).text
        value = _Converted(chars, offs, vstart, n, problems, text)
        if vstart < n:
            span = (offs[vstart], offs[n - 1] + 1)
        else:  # no value: where it would start (after the separator and white space)
            span = (offs[n - 1] + 1,) * 2 if n else (0, 0)
        runs = value.runs(span[1])
        target = value.text.translate(_FOLD)
        extra: dict[str, object] = {}
        if target != value.text:
            extra["value"] = value.text
        count = keys.get(key, 0) + 1
        keys[key] = count
        seg_key = key
        if count > 1:
            extra["duplicate"] = count
            seg_key = f"{key}#{count}"
        if len(runs) == 1 and runs[0].text_start == 0 and runs[0].file_start == span[0] \
                and runs[0].length == len(target) == span[1] - span[0]:
            runs = []
        segments.append(Segment(seg_key, target, span, line, runs=runs, extra=extra or None))
        if max_segments is not None and len(segments) >= max_segments:
            break
    doc = SegmentDocument(format=PROPERTIES, segments=segments, problems=problems, text=text)
    if path:
        doc.target_lang = properties_language(Path(path))
        doc.header["path"] = path
    dups = sum(1 for s in segments if "duplicate" in s.extra)
    if dups:
        doc.header["duplicate-keys"] = str(dups)
    return doc
