"""Software-localization JSON files: i18next / vue-i18n / ngx-translate / generic key-value
JSON, Flutter ARB and WebExtension ``messages.json``.

These files hold the targets only (the source text is in the source-language file, paired by
key: ``config/pairing.py``, ``formats/keyed.py``).  One :class:`~.model.Segment` per string value:

* **JSON** (:func:`read_json`): every string leaf, its key the path of member names joined with
  ``"."``; an array item's index is a component (``colors.0``).  A member name holding ``"."``
  or ``"\\"`` has them written ``"\\."`` and ``"\\\\"`` in its component (:func:`join_key`),
  so ``{"a.b": "x"}`` is ``a\\.b`` and ``{"a": {"b": "x"}}`` is ``a.b``.  Numbers, booleans
  and null are not text: skipped.  i18next plural and context suffixes (``item_one``,
  ``item_other``, ``friend_male``) are member names like any other.
* **ARB** (:func:`read_arb`): each top-level string whose name does not start with ``@``;
  ``@@locale`` is the target language, other ``@@x`` header fields; ``@key`` is the metadata of
  ``key``: its ``description`` a note, its ``placeholders`` (as ``json.loads`` reads them) in
  ``extra["placeholders"]``.
* **WebExtension** (:func:`read_webext`): each top-level member's ``message``; its
  ``description`` a note, its ``placeholders`` in ``extra``.

A value's line breaks (``\\n``, ``\\r``) are folded to spaces in the scored text, as in PO.
Positions are exact: ``target_span`` is the value's characters between its quotes, and where
the value has escapes (``\\n``, ``\\"``, ``\\uXXXX``, a surrogate pair as one character) the
segment's runs map the decoded text back to them (an escape's character to its backslash, as
the PO reader does).  The scanner is written here and never raises on bad content: a string not
closed on its line, a missing ``:`` or ``,``, text after the end stop the reading (the segments
before are kept) with one problem; a trailing comma and a duplicate member name (the last one
counts, as ``json.loads`` has it) are problems the reading goes on after.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Optional, Sequence, Union

from .finding import Finding, problem
from .model import ARB, JSON, WEBEXT, Run, Segment, SegmentDocument

_WS = re.compile(r"[ \t\r\n]*")
#: the characters of a string that stand for themselves
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
#: a member whose name and string value have no escape, with the white space around (the common case, read at once)
_MEMBER = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\r\n]*:[ \t\r\n]*"([^"\\\x00-\x1f]*)"[ \t\r\n]*')


class JStr:
    """A string value: its decoded text, its content's [start, end) in the file, its runs (None: no escapes)."""

    __slots__ = ("value", "start", "end", "runs")

    def __init__(self, value: str, start: int, end: int, runs: Optional[list[Run]]) -> None:
        self.value, self.start, self.end, self.runs = value, start, end, runs


class JObj:
    """An object: member name -> (the name's offset, its value), in file order (a duplicate name: the
    last one, where it stands)."""

    __slots__ = ("start", "members")

    def __init__(self, start: int) -> None:
        self.start = start
        self.members: dict[str, tuple[int, Node]] = {}


class JArr:
    __slots__ = ("start", "items")

    def __init__(self, start: int) -> None:
        self.start = start
        self.items: list[Node] = []


class JScalar:
    """A number, ``true``, ``false`` or ``null``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


Node = Union[JStr, JObj, JArr, JScalar]


class _Stop(Exception):
    """The scan cannot go on (its problem is already recorded), or has read as many strings as asked."""


class _Scanner:
    def __init__(self, text: str, max_strings: Optional[int] = None) -> None:
        self.text = text
        self.n = len(text)
        #: stop (no problem said) once this many string values are read (a prefix read)
        self.left = -1 if max_strings is None else max_strings
        self.problems: list[Finding] = []
        self._starts: Optional[list[int]] = None

    # -- places ----------------------------------------------------------------------------
    def line_of(self, offset: int) -> int:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return bisect_right(self._starts, offset) - 1

    def problem(self, offset: int, message: str) -> None:
        ln = self.line_of(offset)
        self.problems.append(problem(offset, ln, offset - self._starts[ln], message))  # type: ignore[index]

    def stop(self, offset: int, message: str) -> _Stop:
        self.problem(offset, message)
        return _Stop()

    def found(self, i: int) -> str:
        if i >= self.n:
            return "the end of the file"
        c = self.text[i]
        if c in "\r\n":
            return "the end of the line"
        return repr(c)

    def ws(self, i: int) -> int:
        return _WS.match(self.text, i).end()  # type: ignore[union-attr]  # it matches anywhere (maybe empty)

    # -- values ----------------------------------------------------------------------------
    def value(self, i: int, put) -> int:
        """Scan the value at ``i`` (white space skipped before it), hand its node to ``put`` as soon as
        it is made (an object before its members: what was read of it stays), return the offset after it."""
        i = self.ws(i)
        if i >= self.n:
            raise self.stop(i, "a value is missing before the end of the file")
        c = self.text[i]
        if c == "{":
            obj = JObj(i)
            put(obj)
            return self.object(obj, i + 1)
        if c == "[":
            arr = JArr(i)
            put(arr)
            return self.array(arr, i + 1)
        if c == '"':
            s, end = self.string(i)
            put(s)
            self.left -= 1
            if not self.left:
                raise _Stop()
            return end
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, i):
                put(JScalar(val))
                return i + len(word)
        m = _NUMBER.match(self.text, i)
        if m and m.end() > i:
            num = m.group()
            put(JScalar(float(num) if any(ch in num for ch in ".eE") else int(num)))
            return m.end()
        raise self.stop(i, f"expected a value (a string, number, object, array, true, false or null), found {self.found(i)}")

    def object(self, obj: JObj, i: int) -> int:
        members = obj.members
        i = self.ws(i)
        if i < self.n and self.text[i] == "}":
            return i + 1
        text, member = self.text, _MEMBER.match
        while True:
            m = member(text, i)
            if m is not None:  # the common member, a name and a string without escapes: read at once
                key = m.group(1)
                if key in members:
                    self.problem(i, f"duplicate member name \"{key}\": the last one counts")
                    del members[key]
                members[key] = (i, JStr(m.group(2), m.start(2), m.end(2), None))
                self.left -= 1
                if not self.left:
                    raise _Stop()
                i = m.end()
            else:
                i = self.ws(self.member(members, i))
            if i < self.n and self.text[i] == ",":
                j = self.ws(i + 1)
                if j < self.n and self.text[j] == "}":
                    self.problem(i, "a comma after the last member of an object")
                    return j + 1
                i = j
                continue
            if i < self.n and self.text[i] == "}":
                return i + 1
            raise self.stop(i, f"expected ',' or '}}' after a member, found {self.found(i)}")

    def member(self, members: dict, i: int) -> int:
        """Read the member at ``i`` into ``members``; the offset after its value."""
        if i >= self.n or self.text[i] != '"':
            raise self.stop(i, f"expected a member name in quotes, found {self.found(i)}")
        name_at = i
        name, i = self.string(i)
        i = self.ws(i)
        if i >= self.n or self.text[i] != ":":
            raise self.stop(i, f"expected ':' after the member name \"{name.value}\", found {self.found(i)}")
        key = name.value
        if key in members:
            self.problem(name_at, f"duplicate member name \"{key}\": the last one counts")
            del members[key]  # the last one counts, and its segments stay in file order
        members[key] = (name_at, JScalar(None))  # a placeholder until the value is read

        def put(node: Node, key: str = key, at: int = name_at) -> None:
            members[key] = (at, node)

        return self.value(i + 1, put)

    def array(self, arr: JArr, i: int) -> int:
        i = self.ws(i)
        if i < self.n and self.text[i] == "]":
            return i + 1
        while True:
            i = self.ws(self.value(i, arr.items.append))
            if i < self.n and self.text[i] == ",":
                j = self.ws(i + 1)
                if j < self.n and self.text[j] == "]":
                    self.problem(i, "a comma after the last item of an array")
                    return j + 1
                i = j
                continue
            if i < self.n and self.text[i] == "]":
                return i + 1
            raise self.stop(i, f"expected ',' or ']' after an item, found {self.found(i)}")

    def string(self, q: int) -> tuple[JStr, int]:
        """The string whose opening quote is at ``q``; the offset after its closing quote."""
        text, n = self.text, self.n
        i = start = q + 1
        parts: list[str] = []
        runs: list[Run] = []
        pos = 0  # the decoded length so far
        escaped = False
        while True:
            j = _PLAIN.match(text, i).end()  # type: ignore[union-attr]  # it matches anywhere (maybe empty)
            if j > i:
                parts.append(text[i:j])
                runs.append(Run(pos, i, j - i))
                pos += j - i
            if j >= n:
                raise self.stop(j, "the string is not closed: its closing quote is missing")
            c = text[j]
            if c == '"':
                break
            if c != "\\":
                what = "the end of the line" if c in "\r\n" else f"the control character U+{ord(c):04X}"
                raise self.stop(j, f"the string is not closed before {what}" if c in "\r\n"
                                else f"{what} must be written as an escape in a string")
            escaped = True
            runs.append(Run(pos, j, 0))  # an escape: its character maps to the backslash
            ch, i = self.escape(j)
            parts.append(ch)
            pos += len(ch)
        value = "".join(parts)
        if not escaped:
            return JStr(value, start, j, None), j + 1
        if runs and runs[-1].length == 0:
            runs.append(Run(pos, j, 0))  # the text ends in an escape: its end is the span's end
        return JStr(value, start, j, runs), j + 1

    def escape(self, j: int) -> tuple[str, int]:
        """The character of the escape at ``j`` (a backslash) and the offset after it."""
        text = self.text
        c = text[j + 1] if j + 1 < self.n else ""
        if c in _ESCAPES and c:
            return _ESCAPES[c], j + 2
        if c == "u":
            m = _HEX4.match(text, j + 2)
            if not m:
                raise self.stop(j, "\\u must be followed by four hexadecimal digits")
            code = int(m.group(), 16)
            k = j + 6
            if 0xD800 <= code < 0xDC00 and text.startswith("\\u", k):
                m2 = _HEX4.match(text, k + 2)
                if m2:
                    low = int(m2.group(), 16)
                    if 0xDC00 <= low < 0xE000:  # a surrogate pair: one character, as json.loads reads it
                        return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), k + 6
            return chr(code), k
        if not c or c in "\r\n":
            raise self.stop(j, "the string is not closed before the end of the line")
        raise self.stop(j, f"\\{c} is not an escape of JSON")


def scan(text: str, max_strings: Optional[int] = None) -> tuple[Optional[Node], list[Finding]]:
    """The tree of ``text`` (what was read of it where it stops early) and its problems; never raises.
    ``max_strings``: stop once that many string values are read."""
    sc = _Scanner(text, max_strings)
    root: list[Node] = []
    i = 1 if text.startswith("\ufeff") else 0
    try:
        i = sc.ws(sc.value(i, root.append))
        if i < sc.n:
            sc.problem(i, f"text after the end of the JSON value: {sc.found(i)}")
    except _Stop:
        pass
    except RecursionError:  # nesting deeper than Python's stack: said, what was read kept
        sc.problem(i, "the objects and arrays are nested too deeply to be read")
    return (root[0] if root else None), sc.problems


# -- keys --------------------------------------------------------------------------------------
def key_part(name: str) -> str:
    """A member name as one component of a key: ``\\`` and ``.`` escaped with a backslash."""
    if "\\" in name or "." in name:
        return name.replace("\\", "\\\\").replace(".", "\\.")
    return name


def join_key(parts: Sequence[str]) -> str:
    """The key of a path of member names (array indices as their decimal text)."""
    return ".".join(key_part(p) for p in parts)


def split_key(key: str) -> list[str]:
    """The member names of a key (:func:`join_key` undone)."""
    parts: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(key):
        c = key[i]
        if c == "\\" and i + 1 < len(key):
            cur.append(key[i + 1])
            i += 2
            continue
        if c == ".":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


# -- segments ----------------------------------------------------------------------------------
def fold(text: str) -> str:
    """A value as it is scored: its line breaks (``\\n``, ``\\r``) folded to spaces, as the PO reader folds them."""
    if "\n" in text or "\r" in text:
        return text.replace("\r", " ").replace("\n", " ")
    return text


def _segment(sc_line, key: str, s: JStr, notes: tuple[str, ...] = (), extra: Optional[dict] = None) -> Segment:
    return Segment(key=key, target=fold(s.value), target_span=(s.start, s.end), line=sc_line(s.start),
                   notes=notes, runs=s.runs or (), extra=extra)


def plain(node: Node) -> Any:
    """A node as ``json.loads`` would give it."""
    if isinstance(node, JStr):
        return node.value
    if isinstance(node, JScalar):
        return node.value
    if isinstance(node, JArr):
        return [plain(x) for x in node.items]
    return {k: plain(v) for k, (_at, v) in node.members.items()}


def _line_fn(text: str):
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    return lambda offset: bisect_right(starts, offset) - 1


def read_json(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A key-value localization JSON file (i18next, vue-i18n, ngx-translate…): every string leaf
    (``max_segments``: about the first that many, each as the whole read gives it, for the first
    hints of a large file; a member name repeated further down is the whole read's business)."""
    return _read_json(text, max_segments, None)


def read_json_live(text: str) -> tuple[SegmentDocument, set[tuple[str, ...]], set[tuple[str, ...]]]:
    """:func:`read_json`, with the paths of every object member and of every array (what
    :func:`scan_region` needs to read a region of the file alone; a path is its member names and
    array indices as a tuple)."""
    facts: tuple[set, set] = (set(), set())
    doc = _read_json(text, None, facts)
    return doc, facts[0], facts[1]


def _read_json(text: str, max_segments: Optional[int], facts: Optional[tuple[set, set]]) -> SegmentDocument:
    root, problems = scan(text, max_segments)
    line = _line_fn(text)
    segs: list[Segment] = []
    members, arrays = facts if facts is not None else (None, None)

    def walk(node: Node, path: tuple[str, ...], key: str, depth: int) -> None:
        """``key``: ``join_key`` of the node's path, made a component at a time, ``depth`` its length
        (``path`` kept for ``facts`` only)."""
        if isinstance(node, JStr):
            segs.append(_segment(line, key, node))
        elif isinstance(node, JObj):
            pre = key + "." if depth else ""
            for name, (_at, child) in node.members.items():
                p = (*path, name) if members is not None else path
                if members is not None:
                    members.add(p)
                walk(child, p, pre + key_part(name), depth + 1)
        elif isinstance(node, JArr):
            if arrays is not None:
                arrays.add(path)
            pre = key + "." if depth else ""
            for k, child in enumerate(node.items):
                walk(child, (*path, str(k)) if members is not None else path, pre + str(k), depth + 1)

    if root is not None:
        walk(root, (), "", 0)
    return SegmentDocument(JSON, segs, problems=problems, text=text)


# -- a region read alone (the live index) --------------------------------------------------------
#: the states of :func:`scan_region`: a value expected (for ``pending``), a value just read, a member
#: name expected (after a comma), a member name or "}" (after "{"), a value or "]" (after "[")
VALUE, AFTER, NAME, NAME_OR_CLOSE, VALUE_OR_CLOSE = range(5)
#: deeper than this, a region is not read alone (the whole reader's own limit is Python's stack)
_MAX_DEPTH = 100

#: an open container while a region is read: ``[kind ("o" object, "a" array), its path, the next
#: item's index (arrays)]``
Frame = list


class Region:
    """What :func:`scan_region` read: the string values (segments, offsets and lines those of the
    text it was given), the paths of the object members whose names it read and of the arrays it
    opened, and where it stopped: the open containers, the state and the path a value is expected for."""

    __slots__ = ("segments", "members", "arrays", "frames", "state", "pending")

    def __init__(self, segments: list[Segment], members: list[tuple[str, ...]], arrays: list[tuple[str, ...]],
                 frames: list[Frame], state: int, pending: tuple[str, ...]) -> None:
        self.segments, self.members, self.arrays = segments, members, arrays
        self.frames, self.state, self.pending = frames, state, pending


def scan_region(text: str, i: int, frames: list[Frame], state: int, pending: tuple[str, ...] = ()) -> Optional[Region]:
    """Read ``text[i:]``, a piece of a JSON file, from the state the scan of the whole file was in at
    its start (``frames``: the containers open there, outermost first; ``state``; ``pending``: the
    path of the value expected, in state :data:`VALUE`) to its end, without recursion.  None where
    the whole scan would say a problem in it (a string not closed by its end included) or the
    nesting is deeper than :data:`_MAX_DEPTH`: the caller reads the whole file."""
    sc = _Scanner(text)
    n = len(text)
    frames = [list(f) for f in frames]
    segs: list[Segment] = []
    members: list[tuple[str, ...]] = []
    arrays: list[tuple[str, ...]] = []
    line = _line_fn(text)
    ws = sc.ws
    try:
        while True:
            i = ws(i)
            if i >= n:
                break
            c = text[i]
            if state == VALUE_OR_CLOSE:
                if c == "]":
                    frames.pop()
                    i, state = i + 1, AFTER
                    continue
                f = frames[-1]
                pending = (*f[1], str(f[2]))
                f[2] += 1
                state = VALUE
            if state == VALUE:
                if c == "{":
                    frames.append(["o", pending, 0])
                    i, state = i + 1, NAME_OR_CLOSE
                elif c == "[":
                    arrays.append(pending)
                    frames.append(["a", pending, 0])
                    i, state = i + 1, VALUE_OR_CLOSE
                elif c == '"':
                    s, i = sc.string(i)
                    segs.append(_segment(line, join_key(pending), s))
                    state = AFTER
                else:
                    for word in ("true", "false", "null"):
                        if text.startswith(word, i):
                            i += len(word)
                            break
                    else:
                        m = _NUMBER.match(text, i)
                        if m is None or m.end() == i:
                            return None
                        i = m.end()
                    state = AFTER
                if len(frames) > _MAX_DEPTH:
                    return None
            elif state == AFTER:
                if not frames:  # text after the end of the file's value
                    return None
                f = frames[-1]
                if c == ",":
                    i += 1
                    if f[0] == "o":
                        state = NAME
                    else:
                        pending = (*f[1], str(f[2]))
                        f[2] += 1
                        state = VALUE
                        j = ws(i)
                        if j < n and text[j] == "]":  # a comma after the last item
                            return None
                elif c == ("}" if f[0] == "o" else "]"):
                    frames.pop()
                    i += 1
                else:
                    return None
            else:  # NAME, NAME_OR_CLOSE
                if c == "}" and state == NAME_OR_CLOSE:
                    frames.pop()
                    i, state = i + 1, AFTER
                    continue
                if c != '"':
                    return None
                name, i = sc.string(i)
                i = ws(i)
                if i >= n or text[i] != ":":
                    return None
                pending = (*frames[-1][1], name.value)
                members.append(pending)
                i, state = i + 1, VALUE
    except _Stop:
        return None
    if sc.problems:
        return None
    return Region(segs, members, arrays, frames, state, pending)


def _note(meta: Optional[Node]) -> tuple[tuple[str, ...], Optional[dict]]:
    """A metadata object's description (a note) and placeholders (``extra``)."""
    if not isinstance(meta, JObj):
        return (), None
    notes: tuple[str, ...] = ()
    extra = None
    d = meta.members.get("description")
    if d is not None and isinstance(d[1], JStr) and d[1].value:
        notes = (d[1].value,)
    p = meta.members.get("placeholders")
    if p is not None and isinstance(p[1], JObj):
        extra = {"placeholders": plain(p[1])}
    return notes, extra


def read_arb_prefix(text: str, max_segments: int) -> SegmentDocument:
    """An ARB file's first segments: read whole (a message's ``@key`` metadata may stand anywhere)."""
    doc = read_arb(text)
    del doc.segments[max_segments:]
    return doc


def read_webext_prefix(text: str, max_segments: int) -> SegmentDocument:
    doc = read_webext(text)
    del doc.segments[max_segments:]
    return doc


def read_arb(text: str) -> SegmentDocument:
    """A Flutter ARB file: each top-level message; ``@key`` its metadata, ``@@locale`` the language."""
    root, problems = scan(text)
    line = _line_fn(text)
    segs: list[Segment] = []
    header: dict[str, str] = {}
    if isinstance(root, JObj):
        m = root.members
        for name, (_at, node) in m.items():
            if name.startswith("@@"):
                if isinstance(node, JStr):
                    header[name[2:]] = node.value
                continue
            if name.startswith("@") or not isinstance(node, JStr):
                continue
            meta = m.get("@" + name)
            notes, extra = _note(meta[1] if meta is not None else None)
            segs.append(_segment(line, key_part(name), node, notes, extra))
    return SegmentDocument(ARB, segs, target_lang=header.get("locale") or None, header=header,
                           problems=problems, text=text)


def read_webext(text: str) -> SegmentDocument:
    """A WebExtension ``_locales/<lang>/messages.json``: each message's ``message``."""
    root, problems = scan(text)
    line = _line_fn(text)
    segs: list[Segment] = []
    if isinstance(root, JObj):
        for name, (_at, node) in root.members.items():
            if not isinstance(node, JObj):
                continue
            msg = node.members.get("message")
            if msg is None or not isinstance(msg[1], JStr):
                continue
            notes, extra = _note(node)
            segs.append(_segment(line, key_part(name), msg[1], notes, extra))
    return SegmentDocument(WEBEXT, segs, problems=problems, text=text)


# -- i18next plural groups -----------------------------------------------------------------------
#: an i18next v4 plural form's key: the base key, ``_ordinal`` for an ordinal form, the CLDR category
_I18NEXT_PLURAL = re.compile(r"(.+?)_(ordinal_)?(zero|one|two|few|many|other)\Z", re.S)


def i18next_plural(key: str) -> Optional[tuple[str, bool, str]]:
    """``(base key, ordinal, category)`` of a key written as an i18next v4 plural form (``item_one``,
    ``item_other``, ``place_ordinal_two``; a context before the suffix stays in the base:
    ``friend_male_one`` is ``friend_male``), else None.  Whether the forms of a base make a plural
    group (its ``_other`` is there) is the checks' business; the older v3 suffixes (``key_plural``,
    ``key_0``) are not read as plural forms."""
    m = _I18NEXT_PLURAL.match(key)
    if m is None:
        return None
    return m.group(1), m.group(2) is not None, m.group(3)
