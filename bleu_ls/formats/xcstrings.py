"""Xcode String Catalogs (``.xcstrings``, JSON) read into segments: every language in one file.

The catalog::

    {"sourceLanguage": "en", "version": "1.0",
     "strings": {"%lld files": {"comment": "…",
                  "localizations": {"de": {"variations": {"plural": {
                      "one": {"stringUnit": {"state": "translated", "value": "%lld Datei"}},
                      "other": {"stringUnit": {"state": "needs_review", "value": "%lld Dateien"}}}}},
                                    "fr": {"stringUnit": {"state": "translated", "value": "…"}}}}}}

One segment per string key, target language (every language but ``sourceLanguage``) and
variation, as a multilingual TMX gives one per language (``extra["lang"]``):

* ``Segment.key``: ``LANG/KEY`` for a plain ``stringUnit``, ``LANG/KEY[plural:one]``,
  ``LANG/KEY[device:iphone]``, ``LANG/KEY[device:iphone/plural:one]``, and for the
  ``substitutions`` of a string with several variables ``LANG/KEY[count/plural:one]``
  (the variation path's parts joined by ``/``; a language code has no ``/``).
* ``Segment.source``: the source language's value at the same variation (a category the
  source language lacks, such as ``few``: its ``other``), else its plain value, else the
  key itself (Xcode's convention: the key is the source text).
* ``Segment.state``: the unit's ``state`` (``translated``, ``needs_review``, ``new``,
  ``stale``); ``needs_review`` and ``new`` need review (``states.xcstrings_needs_review``).
* ``notes``: the string's ``comment``; ``extra``: ``lang``, ``source_lang``,
  ``string_key``, ``variation`` (the path, "" for a plain unit).
* ``target_span``: the ``value`` string's characters between its quotes; JSON escapes
  are mapped back with runs (an escape's character maps to its backslash); line breaks
  are folded to spaces in the scored text (``extra["value"]`` keeps them).

A string with ``"shouldTranslate": false`` gives no segment.  Malformed JSON is one
problem at its place; the strings read before it are kept.

The JSON is read by the standard library's C reader, the ``"value"`` strings placed by one
regular expression in file order, each checked against the value read (:func:`_scan_fast`);
a text that is not valid JSON, or one whose strings do not check out, is read by a small
position-keeping scanner of this module (:func:`_scan`: the strings before an error kept).
The localization JSON readers (``l10n_json.py``) have their own scanner, to be made one.
"""

from __future__ import annotations

import re
from typing import Optional, Union

from .model import Run, Segment, SegmentDocument, line_col
from .finding import problem
from .xmlcontent import LineCounter

FORMAT = "xcstrings"
_FOLD = {ord("\n"): " ", ord("\r"): " "}


def _fold(s: str) -> str:
    """Line breaks as spaces (one for one: the runs hold)."""
    return s.translate(_FOLD) if "\n" in s or "\r" in s else s
_ESC = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WS = re.compile(r"[ \t\r\n]*")
_NUM = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_MAX_DEPTH = 200


# --- a minimal JSON scanner keeping positions -----------------------------------------------------
class _Bad(Exception):
    def __init__(self, offset: int, message: str) -> None:
        self.offset = offset
        self.message = message


class _Str:
    __slots__ = ("value", "start", "end", "runs")

    def __init__(self, value: str, start: int, end: int, runs: tuple[Run, ...]) -> None:
        self.value, self.start, self.end, self.runs = value, start, end, runs


class _Obj:
    __slots__ = ("items", "start")

    def __init__(self, start: int) -> None:
        self.items: list[tuple[_Str, "_Node"]] = []
        self.start = start

    def get(self, key: str) -> Optional["_Node"]:
        for k, v in self.items:
            if k.value == key:
                return v
        return None


class _Arr:
    __slots__ = ("items", "start")

    def __init__(self, start: int) -> None:
        self.items: list["_Node"] = []
        self.start = start


class _Lit:
    __slots__ = ("value", "start")

    def __init__(self, value: object, start: int) -> None:
        self.value, self.start = value, start


_Node = Union[_Str, _Obj, _Arr, _Lit]


class _Scanner:
    """Reads one JSON value into nodes with their offsets.  The containers are filled as they are
    read, so that when :class:`_Bad` is raised the nodes before the error are there."""

    def __init__(self, text: str) -> None:
        self.t = text
        self.root: Optional[_Node] = None

    def ws(self, i: int) -> int:
        return _WS.match(self.t, i).end()  # type: ignore[union-attr]  # it matches anywhere

    def value(self, i: int, depth: int) -> tuple[_Node, int]:
        t = self.t
        if depth > _MAX_DEPTH:
            raise _Bad(i, "The JSON nests too deeply to be read.")
        if i >= len(t):
            raise _Bad(i, "The JSON ends where a value was expected.")
        c = t[i]
        if c in "{[":
            node = self.container(i)
            return node, self.fill(node, i, depth)
        if c == '"':
            return self.string(i)
        for word, val in (("true", True), ("false", False), ("null", None)):
            if t.startswith(word, i):
                return _Lit(val, i), i + len(word)
        m = _NUM.match(t, i)
        if m is not None and m.end() > i:
            return _Lit(m.group(), i), m.end()
        raise _Bad(i, f"Expected a JSON value, found {t[i]!r}.")

    def container(self, i: int) -> Union[_Obj, _Arr]:
        node: Union[_Obj, _Arr] = _Obj(i) if self.t[i] == "{" else _Arr(i)
        if self.root is None:
            self.root = node
        return node

    def item(self, i: int, depth: int, put) -> int:
        """Read the value at ``i`` and hand it to ``put`` (a container before it is filled: what it
        holds so far is kept on an error); the offset after it."""
        if i < len(self.t) and self.t[i] in "{[":
            node = self.container(i)
            put(node)
            return self.fill(node, i, depth + 1)
        v, i = self.value(i, depth + 1)
        put(v)
        return i

    def fill(self, node: Union[_Obj, _Arr], i: int, depth: int) -> int:
        """Read the object or array opening at ``i`` into ``node``; the offset after it."""
        t = self.t
        if depth > _MAX_DEPTH:
            raise _Bad(i, "The JSON nests too deeply to be read.")
        close = "}" if isinstance(node, _Obj) else "]"
        i = self.ws(i + 1)
        if t.startswith(close, i):
            return i + 1
        while True:
            if isinstance(node, _Obj):
                if not t.startswith('"', i):
                    raise _Bad(i, "Expected a quoted key in the object.")
                k, i = self.string(i)
                i = self.ws(i)
                if not t.startswith(":", i):
                    raise _Bad(i, f"Expected : after the key {k.value!r}.")
                items = node.items
                i = self.item(self.ws(i + 1), depth, lambda v, k=k, items=items: items.append((k, v)))
            else:
                i = self.item(i, depth, node.items.append)
            i = self.ws(i)
            if t.startswith(",", i):
                i = self.ws(i + 1)
            elif t.startswith(close, i):
                return i + 1
            else:
                raise _Bad(i, f"Expected , or {close} in the {'object' if close == '}' else 'array'}.")

    def string(self, i: int) -> tuple[_Str, int]:
        t = self.t
        n = len(t)
        start = j = i + 1
        out: list[str] = []
        runs: list[Run] = []
        pos = 0
        while True:
            k = _PLAIN.match(t, j).end()  # type: ignore[union-attr]  # it matches anywhere
            if k > j:
                out.append(t[j:k])
                runs.append(Run(pos, j, k - j))
                pos += k - j
            if k >= n:
                raise _Bad(i, "This string is not closed: its closing quote is missing.")
            c = t[k]
            if c == '"':
                value = "".join(out)
                if len(runs) == 1 and runs[0].length == k - start:
                    runs = []
                elif runs and runs[-1].length == 0:
                    runs.append(Run(pos, k, 0))  # the text ends in an escape: its end is the closing quote
                return _Str(value, start, k, tuple(runs)), k + 1
            if c != "\\":
                raise _Bad(k, "A control character (a line break, a tab) inside a string must be escaped.")
            runs.append(Run(pos, k, 0))
            e = t[k + 1 : k + 2]
            if e == "u":
                h = t[k + 2 : k + 6]
                if not re.fullmatch(r"[0-9A-Fa-f]{4}", h):
                    raise _Bad(k, "A \\u escape needs four hex digits.")
                code = int(h, 16)
                j = k + 6
                if 0xD800 <= code < 0xDC00 and t.startswith("\\u", j) and re.fullmatch(r"[0-9A-Fa-f]{4}", t[j + 2 : j + 6]):
                    low = int(t[j + 2 : j + 6], 16)
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        j += 6
                ch = chr(code)
            elif e in _ESC:
                ch = _ESC[e]
                j = k + 2
            else:
                raise _Bad(k, f"\\{e} is not a JSON escape.")
            out.append(ch)
            pos += len(ch)


def _scan(text: str) -> tuple[Optional[_Node], Optional[tuple[int, str]]]:
    """(the root value, as much as was read; the error: (offset, sentence), or None)."""
    sc = _Scanner(text)
    try:
        i = sc.ws(1 if text.startswith("\ufeff") else 0)
        root, i = sc.value(i, 0)
        i = sc.ws(i)
        if i < len(text):
            return root, (i, "There is text after the JSON value.")
        return root, None
    except _Bad as bad:
        return sc.root, (bad.offset, bad.message)
    except RecursionError:
        return sc.root, (0, "The JSON nests too deeply to be read.")


#: a member named "value" with a string value, its string's content in group 1
_VALUE_MEMBER = re.compile(r'"value"[ \t\r\n]*:[ \t\r\n]*"((?:[^"\\\x00-\x1f]|\\.)*)"')


def _wrap(v: object) -> _Node:
    if isinstance(v, (_Obj, _Arr)):
        return v
    if isinstance(v, str):
        return _Str(v, -1, -1, ())
    if isinstance(v, list):
        a = _Arr(-1)
        a.items = [_wrap(x) for x in v]
        return a
    return _Lit(v, -1)


def _pairs(pairs: list) -> _Obj:
    o = _Obj(-1)
    o.items = [(_Str(k, -1, -1, ()), _wrap(v)) for k, v in pairs]
    return o


def _scan_fast(text: str) -> Optional[_Node]:
    """The same nodes as :func:`_scan`, read by the standard library's C JSON reader, with the
    positions of the ``"value"`` strings only (what the catalog's segments need), found by one
    regular expression in file order and each checked against the value read; None when the text
    is not valid JSON or a found string does not check out (then :func:`_scan` reads it, slowly)."""
    import json

    try:
        root = _wrap(json.loads(text[1:] if text.startswith("\ufeff") else text, object_pairs_hook=_pairs))
    except (ValueError, RecursionError):
        return None
    found = _VALUE_MEMBER.finditer(text)
    sc = _Scanner(text)
    stack: list[_Node] = [root]
    while stack:  # depth first, members in file order: the order the strings stand in the file
        node = stack.pop()
        if isinstance(node, _Obj):
            for n, (k, v) in enumerate(node.items):
                if k.value == "value" and isinstance(v, _Str):
                    m = next(found, None)
                    if m is None:
                        return None
                    placed, _ = sc.string(m.start(1) - 1)
                    if placed.value != v.value:
                        return None
                    node.items[n] = (k, placed)
            stack.extend(reversed([v for _, v in node.items if isinstance(v, (_Obj, _Arr))]))
        elif isinstance(node, _Arr):
            stack.extend(reversed([v for v in node.items if isinstance(v, (_Obj, _Arr))]))
    if next(found, None) is not None:
        return None
    return root


# --- the catalog --------------------------------------------------------------------------------
def _units(node: _Node, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], _Obj]]:
    """The ``stringUnit`` objects under a localization (or a variation), with their variation
    path, in file order."""
    if not isinstance(node, _Obj):
        return []
    out: list[tuple[tuple[str, ...], _Obj]] = []
    for name, member in node.items:
        if not isinstance(member, _Obj):
            continue
        if name.value == "stringUnit":
            out.append((path, member))
        elif name.value == "variations":
            for kind, cases in member.items:
                if isinstance(cases, _Obj):
                    for case, sub in cases.items:
                        out += _units(sub, (*path, f"{kind.value}:{case.value}"))
        elif name.value == "substitutions":
            for sub_name, sub in member.items:
                out += _units(sub, (*path, sub_name.value))
    return out


def _unit_value(unit: _Obj) -> Optional[_Str]:
    v = unit.get("value")
    return v if isinstance(v, _Str) else None


def _lit_str(node: Optional[_Node]) -> Optional[str]:
    return node.value if isinstance(node, _Str) else None


def _source_text(units: dict[tuple[str, ...], _Obj], path: tuple[str, ...], key: str) -> str:
    """The source language's text for the variation ``path`` (see the module's docstring)."""
    tries = [path]
    if path and ":" in path[-1]:
        tries.append((*path[:-1], path[-1].split(":", 1)[0] + ":other"))
    tries.append(())
    for p in tries:
        u = units.get(p)
        if u is not None:
            v = _unit_value(u)
            if v is not None:
                return _fold(v.value)
    return key


def read_xcstrings(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A String Catalog's decoded text read into segments (see the module's docstring)."""
    doc = SegmentDocument(format=FORMAT, segments=[], text=text)
    fast = _scan_fast(text)
    root, error = (fast, None) if fast is not None else _scan(text)
    if isinstance(root, _Obj):
        source_lang = _lit_str(root.get("sourceLanguage")) or "en"
        doc.source_lang = source_lang
        version = _lit_str(root.get("version"))
        if version:
            doc.header["version"] = version
        strings = root.get("strings")
        if isinstance(strings, _Obj):
            _read_strings(doc, text, strings, source_lang, max_segments)
        elif error is None:
            doc.problems.append(_problem(text, root.start, 'This is not a String Catalog: it has no "strings" object.'))
        langs = {s.extra["lang"] for s in doc.segments}
        if len(langs) == 1:
            doc.target_lang = str(next(iter(langs)))
    elif error is None:
        doc.problems.append(_problem(text, 0, "This is not a String Catalog: its JSON value is not an object."))
    if error is not None:
        doc.problems.append(_problem(text, *error))
    return doc


def _problem(text: str, offset: int, message: str):
    offset = max(0, min(offset, len(text)))
    ln, col = line_col(text, offset)
    return problem(offset, ln, col, message)


def _read_strings(doc: SegmentDocument, text: str, strings: _Obj, source_lang: str, max_segments: Optional[int]) -> None:
    seen: set[str] = set()
    lines = LineCounter(text)  # the values' lines, counted as the read goes forward
    for k, entry in strings.items:
        if not isinstance(entry, _Obj):
            continue
        should = entry.get("shouldTranslate")
        if isinstance(should, _Lit) and should.value is False:
            continue
        comment = _lit_str(entry.get("comment"))
        notes = (comment,) if comment else ()
        locs = entry.get("localizations")
        if not isinstance(locs, _Obj):
            continue
        src_node = locs.get(source_lang)
        src_units = dict(_units(src_node, ())) if src_node is not None else {}
        for lang, loc in locs.items:
            if lang.value == source_lang:
                continue
            for path, unit in _units(loc, ()):
                value = _unit_value(unit)
                if value is None:
                    continue
                variation = "/".join(path)
                key = f"{lang.value}/{k.value}" + (f"[{variation}]" if variation else "")
                if key in seen:
                    doc.problems.append(_problem(text, value.start, f"The key {key!r} is defined again; this definition is not read."))
                    continue
                seen.add(key)
                state = _lit_str(unit.get("state"))
                raw = value.value
                extra = {"lang": lang.value, "source_lang": source_lang, "string_key": k.value, "variation": variation}
                if "\n" in raw or "\r" in raw:
                    extra["value"] = raw
                doc.segments.append(Segment(
                    key=key, target=_fold(raw), target_span=(value.start, value.end),
                    line=lines(value.start), source=_source_text(src_units, path, k.value),
                    state=state, notes=notes, runs=value.runs,
                    extra=extra,
                ))
                if max_segments is not None and len(doc.segments) >= max_segments:
                    doc.header["partial"] = "true"
                    return
