r"""Android string resources (``res/values*/strings.xml``) read into segments, with exact positions.

One segment per string value: each ``<string name>`` (key ``name``), each
``<item quantity>`` of a ``<plurals name>`` (key ``name[quantity]``), each
``<item>`` of a ``<string-array name>`` (key ``name[0]``, ``name[1]``…), and an
``<item type="string" name>`` (key ``name``).  ``translatable="false"`` on a
string, a plurals or an array leaves it (all of its items) out.  A name met twice
(``product`` variants) gets ``#2``, ``#3``… and ``extra["duplicate"]``.

These files hold targets only: ``Segment.source`` is None (the source is the
same name in the source-language file, :func:`source_files`).

The scored text is the string as Android compiles it (aapt2): the XML decoded
(entities, CDATA), then, when the value has no styling tag, the white space at
its two ends trimmed; outside ``"…"`` every run of white space is one space,
inside it white space is kept; ``"`` itself is not text (``\"`` is); the
escapes ``\t \n \' \" \\ \@ \? \#`` and ``\uXXXX``; a backslash before any
other character is that character.  A styling tag (an element without a
namespace) ends the quoting and the white-space run, as in aapt2.  An
unescaped apostrophe outside quotes or a malformed ``\u`` escape makes aapt2
refuse the file: the reader keeps the character as it is, reads on, and says it
as a problem at that place.  Line breaks of the result (``\n``) are folded to
one space each in ``Segment.target``; ``extra["value"]`` keeps the string as
compiled when it differs.

``target_span`` is the element's content (between ``>`` and ``</``); the runs
map the scored text back: an escaped character maps to its backslash, a
decoded entity to its ``&``, a collapsed run of white space to its first
character.  Tags inside a value (``<b>``, ``<i>``, ``<u>``, ``<annotation>``…
and ``<xliff:g>``) are inline codes, their content kept as text (``xliff:g``'s
content is usually a placeholder such as ``%1$s``: :func:`java_placeholders`).
Attributes in the ``tools:`` namespace are not read.

Reading is the project's safe expat layer (:mod:`.xmlscan`): nothing fetched or
expanded; malformed XML ends the read with one problem, the segments before it
kept.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Optional

from .finding import Finding
from .model import ANDROID, InlineCode, Run, Segment, SegmentDocument, runs_of
from .xmlcontent import LineCounter
from .xmlscan import NS_SEP, Scanner, end_read, problem_at, read_xml_bytes, run_reader

XLIFF_NS = "urn:oasis:names:tc:xliff:document:1.2"

#: C's ``isspace`` in the "C" locale: what aapt2 collapses and trims
_SPACE = frozenset(" \t\n\v\f\r")
#: the escapes aapt2 turns into a character of their own; any other escaped character is itself
_ESCAPES = {"t": "\t", "n": "\n"}
_HEX = frozenset("0123456789abcdefABCDEF")
#: characters aapt2 copies as they are: no white space, no quote, no apostrophe, no backslash
_PLAIN = re.compile(r"[^\\\"' \t\n\v\f\r]+")

#: a Java format specifier (``java.util.Formatter``): ``%s``, ``%1$s``, ``%-10.2f``, ``%tY``, ``%%``, ``%n``
_JAVA_SPEC = re.compile(r"%(?:\d+\$|<)?[-#+ 0,(]*\d*(?:\.\d+)?(?:[tT][a-zA-Z]|[a-zA-Z%])")


def java_placeholders(text: str) -> list[tuple[int, int, str]]:
    """The Java format specifiers of ``text`` (``%s``, ``%1$s``, ``%d``, ``%.2f``, ``%%``, ``%n``…):
    ``(start, end, spelling)`` each, in order."""
    return [(m.start(), m.end(), m.group()) for m in _JAVA_SPEC.finditer(text)]


# --- the file's place: its language and its source-language file ------------------------------
_QUALIFIER = re.compile(r"^values-(?:b\+([a-zA-Z]{2,8}(?:\+[a-zA-Z0-9]{1,8})*)|([a-z]{2,3})(?:-r([A-Z]{2}|[0-9]{3}))?)(?:-|$)")


def android_language(path: Path) -> Optional[str]:
    """The language of ``res/values-XX…/strings.xml`` as a BCP 47 tag (``values-de`` → ``de``,
    ``values-de-rDE`` → ``de-DE``, ``values-b+sr+Latn`` → ``sr-Latn``); None for ``values/`` or
    a folder without a language qualifier (``values-night``, ``values-v21``)."""
    m = _QUALIFIER.match(Path(path).parent.name)
    if m is None:
        return None
    if m.group(1):
        return "-".join(m.group(1).split("+"))
    return m.group(2) + (f"-{m.group(3)}" if m.group(3) else "")


def is_android_strings(path: Path) -> bool:
    """A file named ``strings.xml`` in a ``values`` or ``values-…`` folder (other ``.xml`` never)."""
    p = Path(path)
    folder = p.parent.name
    return p.name == "strings.xml" and (folder == "values" or folder.startswith("values-"))


def source_files(path: Path, text_lang: Optional[str] = None) -> list[Path]:
    """The source-language file of ``res/values-de/strings.xml`` (also ``values-de-rDE``,
    ``values-b+sr+Latn``): ``res/values/strings.xml``.  None to look for (``[]``) when the file
    is in ``values/`` itself or its folder names no language.  No I/O."""
    p = Path(path)
    if android_language(p) is None:
        return []
    return [p.parent.parent / "values" / p.name]


# --- reading ----------------------------------------------------------------------------------
class _Stop(Exception):
    pass


class _Value:
    """One value being read: its pieces in file order."""

    __slots__ = ("key", "start", "tag_start", "line", "pieces", "extra", "open")

    def __init__(self, key: str, start: int, tag_start: int, line: int, extra: dict):
        self.key = key
        self.start = start  # the content's start (after the start tag's ``>``)
        self.tag_start = tag_start
        self.line = line
        #: ("t", chars, offsets, exact) text; ("s", span, code) / ("e", span, code) a tag opening / closing
        self.pieces: list[tuple] = []
        self.extra = extra
        #: the elements open inside the value: (styling tag, opening code, empty element)
        self.open: list[tuple[bool, InlineCode, bool]] = []


def _aligned(file: str, data: str, off: int) -> tuple[list[int], list[bool]]:
    """The file offset of each character of the character data ``data`` delivered at ``off``, and
    whether the file spells it as itself there (False: an entity, a character reference, a CR LF)."""
    n = len(data)
    if file.startswith(data, off) and not (data[0] == "&" and file.startswith(("&amp;", "&#"), off)):
        return list(range(off, off + n)), [True] * n
    offs: list[int] = []
    exact: list[bool] = []
    fp, flen = off, len(file)
    for c in data:
        if c == "\n" and fp < flen and file[fp] == "\r":
            offs.append(fp)
            exact.append(False)
            fp += 2 if file.startswith("\r\n", fp) else 1
        elif fp < flen and file[fp] == c and not (c == "&" and file.startswith(("&amp;", "&#"), fp)):
            offs.append(fp)
            exact.append(True)
            fp += 1
        else:
            offs.append(fp)
            exact.append(False)
            if fp < flen and file[fp] == "&":
                j = file.find(";", fp)
                fp = flen if j < 0 else j + 1
            else:
                fp += 1
    return offs, exact


class _Compiled:
    """aapt2's string builder over a value's pieces: the characters with their file offsets."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.offs: list[int] = []
        self.exact: list[bool] = []
        self.quote = False
        self.last_space = False
        #: (offset, sentence) of what aapt2 refuses
        self.errors: list[tuple[int, str]] = []

    def emit(self, c: str, off: int, exact: bool) -> None:
        self.chars.append(c)
        self.offs.append(off)
        self.exact.append(exact)

    def reset(self) -> None:
        """A styling tag opens or closes: quoting and the white-space run end."""
        self.quote = False
        self.last_space = False

    def text(self, chars: list[str], offs: list[int], exact: list[bool]) -> None:
        i, n = 0, len(chars)
        joined = "".join(chars)
        plain = _PLAIN.match
        while i < n:
            m = plain(joined, i)
            if m is not None:  # characters that are themselves, whatever the state: copied as a block
                j = m.end()
                self.chars += chars[i:j]
                self.offs += offs[i:j]
                self.exact += exact[i:j]
                self.last_space = False
                i = j
                if i >= n:
                    break
            c = chars[i]
            if not self.quote and c in _SPACE:
                if not self.last_space:
                    self.emit(" ", offs[i], exact[i] and c == " ")
                    self.last_space = True
                i += 1
                continue
            self.last_space = False
            if c == "\\":
                if i + 1 >= n:  # a backslash ending the text before a tag (or the value): nothing
                    i += 1
                    continue
                e = chars[i + 1]
                at = offs[i]
                if e == "u":
                    j = i + 2
                    digits = ""
                    while len(digits) < 4 and j < n and chars[j] in _HEX:
                        digits += chars[j]
                        j += 1
                    if len(digits) < 4 and j < n:
                        self.errors.append((at, "a \\u escape needs four hexadecimal digits; aapt2 refuses this string"))
                        self.emit("\\", at, exact[i])
                        i += 1
                        continue
                    self.emit(chr(int(digits, 16)) if digits else "\x00", at, False)
                    i = j
                    continue
                self.emit(_ESCAPES.get(e, e), at, False)
                i += 2
                continue
            if c == '"':
                self.quote = not self.quote
            else:
                if c == "'" and not self.quote:
                    self.errors.append((offs[i], "an apostrophe must be escaped (\\') or the text quoted (\"…\"); "
                                                 "aapt2 refuses this string"))
                self.emit(c, offs[i], exact[i])
            i += 1


def _trim(pieces: list[tuple]) -> None:
    """aapt2 without a styling tag: the leading white space of the first text and the trailing of the last dropped."""
    texts = [k for k, p in enumerate(pieces) if p[0] == "t"]
    if not texts:
        return
    _, chars, offs, exact = pieces[texts[0]]
    a = 0
    while a < len(chars) and chars[a] in _SPACE:
        a += 1
    pieces[texts[0]] = ("t", chars[a:], offs[a:], exact[a:])
    _, chars, offs, exact = pieces[texts[-1]]
    b = len(chars)
    while b > 0 and chars[b - 1] in _SPACE:
        b -= 1
    pieces[texts[-1]] = ("t", chars[:b], offs[:b], exact[:b])


def _runs(c: _Compiled, end: int) -> list[Run]:
    """The runs of the compiled text (:func:`~.model.runs_of`)."""
    return runs_of(c.offs, c.exact, end)


_FOLD = {ord("\n"): " ", ord("\r"): " "}


class _Reader:
    pos: Callable[[], int]

    def __init__(self, file: str, sc: Scanner):
        self.file = file
        self.sc = sc
        self.segments: list[Segment] = []
        self.problems: list[Finding] = []
        self.keys: dict[str, int] = {}
        self.line = LineCounter(file)
        #: element stack: local names (a value's inner elements are not on it)
        self.stack: list[str] = []
        self.root_seen = False
        #: the plurals or string-array being read: (kind, name, skipped, count)
        self.group: Optional[list] = None
        self.value: Optional[_Value] = None
        #: where the elements of ``<resources>`` are (kept only for a live index: :func:`read_android_live`)
        self.layout: Optional[Layout] = None
        #: the top-level element being read: its start tag's end and whether it is empty (``<x/>``)
        self._top: tuple[int, bool] = (0, False)
        self._root_empty = False

    # --- events ------------------------------------------------------------------------------
    def start(self, name: str, attrs: dict) -> None:
        v = self.value
        if v is not None:
            self._inner_start(v, name, attrs)
            return
        ns, _, local = name.rpartition(NS_SEP)
        depth = len(self.stack)
        self.stack.append(local)
        if depth == 0:
            off = self.pos()
            if ns or local != "resources":
                self.problems.append(problem_at(
                    self.file, off, f"This is not an Android resource file: its root element is <{local}>, not <resources>."))
                raise _Stop
            self.root_seen = True
            if self.layout is not None:
                self.layout.root_end, self._root_empty = self.sc.tag_end(off)
            return
        if depth == 1 and self.layout is not None:
            off = self.pos()
            self._top = self.sc.tag_end(off)
            self.layout.starts.append(off)
        if ns:
            return
        skip = attrs.get("translatable") == "false"
        if depth == 1:
            rname = attrs.get("name") or ""
            if local == "string" or (local == "item" and attrs.get("type") == "string"):
                if not skip:
                    self._open(rname, {"resource": "string", "name": rname})
            elif local in ("plurals", "string-array"):
                self.group = [local, rname, skip, 0]
        elif depth == 2 and local == "item" and self.group is not None and self.stack[1] == self.group[0]:
            kind, gname, gskip, count = self.group
            self.group[3] += 1
            if gskip or skip:
                return
            if kind == "plurals":
                q = attrs.get("quantity") or ""
                self._open(f"{gname}[{q}]", {"resource": kind, "name": gname, "quantity": q})
            else:
                self._open(f"{gname}[{count}]", {"resource": kind, "name": gname, "index": count})

    def end(self, name: str) -> None:
        v = self.value
        if v is not None and v.open:
            self._inner_end(v, name)
            return
        local = self.stack.pop()
        if v is not None:
            self._close(v)
            self.value = None
            self.sc.set_buffering(True)
        elif len(self.stack) == 1 and self.group is not None and local == self.group[0]:
            self.group = None
        layout = self.layout
        if layout is not None and len(self.stack) < 2:
            if self.stack:  # a top-level element closed: after its end tag (an empty one: its start tag)
                tag_end, empty = self._top
                layout.ends.append(tag_end if empty else self.sc.close_tag_end(self.pos()))
            elif not self._root_empty:  # the root's end tag
                layout.close = self.pos()

    def text(self, data: str) -> None:
        v = self.value
        if v is None:
            return
        offs, exact = _aligned(self.file, data, self.pos())
        p = v.pieces
        if p and p[-1][0] == "t":  # one text between two tags, as aapt2 reads it (a comment does not cut it)
            p[-1][1].extend(data)
            p[-1][2].extend(offs)
            p[-1][3].extend(exact)
        else:
            p.append(("t", list(data), offs, exact))

    # --- a value -------------------------------------------------------------------------------
    def _open(self, key: str, extra: dict) -> None:
        off = self.pos()
        tag_end, empty = self.sc.tag_end(off)
        self.value = _Value(key, tag_end, off, self.line(off), extra)
        if empty:
            self.value.start = tag_end
        self.sc.set_buffering(False)

    def _inner_start(self, v: _Value, name: str, attrs: dict) -> None:
        ns, _, local = name.rpartition(NS_SEP)
        off = self.pos()
        tag_end, empty = self.sc.tag_end(off)
        if ns == XLIFF_NS:
            kind, cid, span = "xliff:" + local, attrs.get("id", ""), False
        elif ns:
            kind, cid, span = local, attrs.get("id", ""), False
        else:  # a styling tag: named as aapt2 names its span (``annotation;key=value``)
            plain = sorted((k, a) for k, a in attrs.items() if NS_SEP not in k)
            kind, cid, span = local, ";".join([local, *(f"{k}={a}" for k, a in plain)]), True
        code = InlineCode(kind, cid, (off, tag_end))
        v.pieces.append(("s", span, code))
        v.open.append((span, code, empty))
        if empty:
            v.pieces.append(("e", span, InlineCode(kind, cid, (tag_end, tag_end), closing=True)))

    def _inner_end(self, v: _Value, name: str) -> None:
        span, code, empty = v.open.pop()
        if not empty:  # an empty element's end went in with its start
            off = self.pos()
            v.pieces.append(("e", span, InlineCode(code.kind, code.id, (off, self.sc.close_tag_end(off)), closing=True)))

    def _close(self, v: _Value) -> None:
        off = self.pos()
        empty = self.sc.tag_end(v.tag_start)[1]
        end = v.start if empty else off
        pieces = v.pieces
        if not any(q[0] != "t" and q[1] for q in pieces):
            _trim(pieces)
        c = _Compiled()
        codes: list[InlineCode] = []
        for q in pieces:
            if q[0] == "t":
                c.text(q[1], q[2], q[3])
            else:
                if q[1]:
                    c.reset()
                codes.append(q[2])
        for at, sentence in c.errors:
            self.problems.append(problem_at(self.file, at, f"The string {v.extra['name']!r}: {sentence}."))
        value = "".join(c.chars)
        target = value.translate(_FOLD)
        if target != value:  # a folded line break is no longer the file's character
            c.exact = [e and ch not in "\n\r" for ch, e in zip(c.chars, c.exact)]
        extra = dict(v.extra)
        if target != value:
            extra["value"] = value
        key = v.key
        n = self.keys.get(key, 0) + 1
        self.keys[key] = n
        if n > 1:
            extra["duplicate"] = n
            key = f"{key}#{n}"
        runs = _runs(c, end)
        if len(runs) == 1 and runs[0].text_start == 0 and runs[0].file_start == v.start \
                and runs[0].length == len(target) == end - v.start:
            runs = []
        self.segments.append(Segment(key, target, (v.start, end), v.line, target_codes=codes, runs=runs, extra=extra))


class Layout:
    """Where the elements of a file's ``<resources>`` are (what a live index needs to read a few of them
    again alone): the end of the root's start tag, the ``<`` of its end tag (-1: none), and each
    top-level element's ``<`` and the end of its end tag (of its start tag when empty), in file order.
    ``clean``: the file read to its end with no problem but those of values (aapt2's refusals)."""

    __slots__ = ("root_end", "close", "starts", "ends", "clean")

    def __init__(self) -> None:
        self.root_end = -1
        self.close = -1
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.clean = False


def _read(text: str, path: str, max_segments: Optional[int], layout: Optional[Layout]) -> SegmentDocument:
    sc = Scanner(text)
    r = _Reader(text, sc)
    r.layout = layout
    problem = run_reader(sc, r, text, max_segments, _Stop, "Android resource")
    if layout is not None:
        layout.clean = problem is None and r.root_seen and not sc.stopped and len(layout.starts) == len(layout.ends) \
            and layout.close >= 0
    doc = SegmentDocument(format=ANDROID, segments=r.segments, problems=list(r.problems), text=text)
    if path:
        doc.target_lang = android_language(Path(path))
    dups = sum(1 for s in r.segments if "duplicate" in s.extra)
    if dups:
        doc.header["duplicate-keys"] = str(dups)
    return end_read(doc, sc, problem, path,
                    None if r.root_seen else "This is not an Android resource file: no <resources> element was found.")


def read_android_text(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an Android string resource file from its decoded text (offsets index ``text``)."""
    return _read(text, path, max_segments, None)


def read_android_live(text: str) -> tuple[SegmentDocument, Layout]:
    """:func:`read_android_text` of a whole text, and where the elements of its ``<resources>`` are."""
    layout = Layout()
    return _read(text, "", None, layout), layout


def read_android(data: bytes, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an Android ``strings.xml`` file's bytes; offsets index ``decode_xml(data)[0]`` (the BOM left out)."""
    return read_xml_bytes(read_android_text, data, path, max_segments)
