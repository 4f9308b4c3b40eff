"""Apple ``.stringsdict`` files (XML property lists of plural rules) read into segments.

Read over the safe expat layer (``xmlscan.py``): the plist's ``<!DOCTYPE … "http://www.apple.com/DTDs/…">``
is never fetched, a declared entity stops the read with one problem (nothing expanded).

What is a segment (one per ``<string>`` a translator writes)::

    <key>files_count</key>                      the entry's key K
    <dict>
      <key>NSStringLocalizedFormatKey</key>
      <string>%#@files@</string>                 K, only when it has text besides its %#@variables@
      <key>files</key>                           a variable
      <dict>
        <key>NSStringFormatSpecTypeKey</key>     NS… keys: not text, not read
        <key>one</key> <string>%d file</string>  K[one]  (K[files:one] when the entry has several variables)
        <key>other</key> <string>%d files</string>

A plain ``<key>K</key><string>…</string>`` at the top is the segment ``K``.  Keys: the
entry's key, then ``[category]`` with one variable, ``[variable:category]`` with
several (``NSStringVariableWidthRuleType`` widths are categories too: ``K[20]``).

``target_span`` is the ``<string>`` element's content (entities decoded and line breaks folded in
the scored text, mapped back with runs, as the XLIFF reader does); ``source`` is None: the
source text is in the source-language file (``en.lproj/…``, see
:func:`~.apple_strings.source_files`); ``extra``: ``variable`` and ``category``, the ``entry``'s key
and the variable's ``rule`` (its ``NSStringFormatSpecTypeKey``, ``""`` when it has none): the strings
of one entry's variable with ``NSStringPluralRuleType`` are one plural group.
"""

from __future__ import annotations

from typing import Callable, Optional

from .finding import Finding
from .model import Segment, SegmentDocument
from .xmlcontent import Content, LineCounter
from .xmlscan import Scanner, problem_at, read_xml_bytes, run_reader

FORMAT = "stringsdict"
FORMAT_KEY = "NSStringLocalizedFormatKey"
#: a variable's rule type (``NSStringPluralRuleType``: its other keys are CLDR plural categories)
SPEC_TYPE_KEY = "NSStringFormatSpecTypeKey"
PLURAL_RULE = "NSStringPluralRuleType"


class _Stop(Exception):
    pass


class _Dict:
    __slots__ = ("key", "path")

    def __init__(self, path: tuple[str, ...]) -> None:
        self.path = path  # the keys leading to this dict
        self.key: Optional[str] = None  # the key waiting for its value


class _Reader:
    pos: Callable[[], int]

    def __init__(self, text: str, sc: Scanner, max_segments: Optional[int]) -> None:
        self.file = text
        self.sc = sc
        self.max = max_segments
        self.segments: list[Segment] = []
        self.problems: list[Finding] = []
        self.stack: list[str] = []  # element names open
        self.dicts: list[_Dict] = []
        self.key_parts: Optional[list[str]] = None
        self.content: Optional[Content] = None
        self.content_path: tuple[str, ...] = ()
        self.lines = LineCounter(text)
        #: the entry being read: its key and its strings ((variable or None, category or None), content, line)
        self.entry: Optional[str] = None
        self.found: list[tuple[Optional[str], Optional[str], Content, int]] = []
        #: the entry's variables' ``NSStringFormatSpecTypeKey`` (``NSStringPluralRuleType``…)
        self.rules: dict[str, str] = {}
        self.seen: set[str] = set()
        self.root = False

    # --- events -------------------------------------------------------------------------------
    def start(self, name: str, attrs: dict) -> None:
        self.stack.append(name)
        if name == "plist":
            self.root = True
        elif name == "dict":
            d = self.dicts[-1] if self.dicts else None
            path = () if d is None else (*d.path, d.key or "")
            if d is not None:
                d.key = None
            self.dicts.append(_Dict(path))
            if len(path) == 1:
                self.entry = path[0]
                self.found = []
                self.rules = {}
        elif name == "key" and self.dicts:
            self.key_parts = []
            self.sc.set_buffering(False)
        elif name == "string" and self.dicts:
            d = self.dicts[-1]
            at = self.pos()
            end, empty = self.sc.tag_end(at)
            c = Content(self.file, end - 2 if empty else end, at)
            c.empty = empty
            self.content = c
            self.content_path = (*d.path, d.key or "")
            d.key = None
            self.sc.set_buffering(False)
            if empty:
                c.finish(c.start)
                self._string(c)
                self.content = None
        elif self.dicts:
            self.dicts[-1].key = None  # an integer, a date, an array…: not text

    def end(self, name: str) -> None:
        self.stack.pop()
        if name == "key" and self.key_parts is not None:
            self.dicts[-1].key = "".join(self.key_parts)
            self.key_parts = None
            self.sc.set_buffering(True)
        elif name == "string" and self.content is not None:
            c = self.content
            c.finish(self.pos())
            self.content = None
            self.sc.set_buffering(True)
            self._string(c)
        elif name == "dict" and self.dicts:
            d = self.dicts.pop()
            if len(d.path) == 1:
                self._entry_done()

    def text(self, data: str) -> None:
        if self.key_parts is not None:
            self.key_parts.append(data)
        elif self.content is not None:
            self.content.add(data, self.pos())

    # --- segments -----------------------------------------------------------------------------
    def _string(self, c: Content) -> None:
        path = self.content_path
        line = self.lines(c.start)
        if len(path) == 1:  # a plain string at the top
            self.found = []
            self.entry = path[0]
            self.found.append((None, None, c, line))
            self._entry_done()
        elif len(path) == 2:
            if path[1] == FORMAT_KEY:
                self.found.append((None, None, c, line))
        elif len(path) == 3 and not path[2].startswith("NSString"):
            self.found.append((path[1], path[2], c, line))
        elif len(path) == 3 and path[2] == SPEC_TYPE_KEY:
            self.rules[path[1]] = c.text().strip()

    def _entry_done(self) -> None:
        entry, found = self.entry, self.found
        self.entry, self.found = None, []
        if entry is None:
            return
        variables = list(dict.fromkeys(v for v, _, _, _ in found if v is not None))
        several = len(variables) > 1
        for var, cat, c, line in found:
            text = c.text()
            if var is None:
                if len(found) > 1 and not _has_text(text):
                    continue  # the format key is only its variables
                key = entry
            else:
                key = f"{entry}[{var}:{cat}]" if several else f"{entry}[{cat}]"
            if key in self.seen:
                self.problems.append(problem_at(self.file, c.tag_start, f"The key {key!r} is defined again; this definition is not read."))
                continue
            self.seen.add(key)
            extra = None if var is None else {"variable": var, "category": cat, "entry": entry,
                                              "rule": self.rules.get(var, "")}
            self.segments.append(Segment(key=key, target=text, target_span=(c.start, c.end), line=line,
                                         runs=c.run_tuple(), extra=extra))
        if self.max is not None and len(self.segments) >= self.max:
            raise _Stop


def _has_text(value: str) -> bool:
    """``value`` holds something besides ``%#@variable@`` references and spaces."""
    i = 0
    out = []
    while i < len(value):
        if value.startswith("%#@", i):
            e = value.find("@", i + 3)
            if e > 0:
                i = e + 1
                continue
        out.append(value[i])
        i += 1
    return bool("".join(out).strip())


def read_stringsdict_text(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """A ``.stringsdict`` file's decoded text read into segments (offsets index ``text``)."""
    sc = Scanner(text)
    r = _Reader(text, sc, max_segments)
    found = run_reader(sc, r, text, max_segments, _Stop, "stringsdict")
    doc = SegmentDocument(format=FORMAT, segments=r.segments, text=text, problems=r.problems)
    if found is not None:
        doc.problems.append(found)
    elif not r.root and not doc.problems:
        doc.problems.append(problem_at(text, 0, "This is not a property list: its <plist> root element is missing."))
    if sc.stopped:
        doc.header["partial"] = "true"
    return doc


def read_stringsdict(data: bytes, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """A ``.stringsdict`` file's bytes read (decoded as the XML declaration says; offsets index the decoded text)."""
    return read_xml_bytes(read_stringsdict_text, data, path, max_segments)
