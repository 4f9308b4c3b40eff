"""gettext PO catalogues read into segments, keeping the position of every character.

One segment per translated string: a ``msgstr`` (key ``msgid``, or
``msgctxt\\x04msgid``), or each ``msgstr[n]`` of a plural entry (key
followed by ``[n]``).  The header entry (``msgid ""`` without a context) is no
segment: its fields go to ``SegmentDocument.header``.  Obsolete ``#~``
entries are skipped.

The scored text is the msgstr with its C escapes decoded and line breaks
(``\\n``, ``\\r``) folded to spaces, one space each; ``extra["msgstr"]`` keeps it unfolded.
``target_span`` runs from after the first msgstr string's opening quote to
before the last string's closing quote; ``runs`` map the literal characters
to the file, and a zero-length run marks each escape, so
``Segment.file_offset`` of a decoded character points at its backslash.

Malformed input (an unterminated string, an unknown keyword, a msgstr
without a msgid…) becomes a :func:`~bleu_ls.formats.finding.problem` (code ``po-syntax``); reading goes on with the next
line.  Nothing here raises on bad content.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Callable, Optional, cast

from .finding import PO_SYNTAX, Finding, problem
from .model import PO, InlineCode, Run, Segment, SegmentDocument

#: The separator gettext puts between a context and a msgid (in .mo files and keys).
CTXT_SEP = "\x04"

_SIMPLE_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
    "a": "\a", "b": "\b", "f": "\f", "v": "\v",
}
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?")
# Placeholders by format flag (what msgfmt --check-format compares): printf style,
# brace style, Qt's %1.  ``%%`` and ``{{``/``}}`` are literal characters, not placeholders.
_PRINTF = re.compile(r"%%|%(?:\d+\$|\([^)]*\))?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                     r"(?:hh|h|ll|l|L|q|j|z|t|I64|I32|I)?[diouxXeEfFgGaAcCsSpn@]")
_BRACE = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_QT = re.compile(r"%%|%L?\d{1,2}")
PLACEHOLDER_FLAGS = {
    **dict.fromkeys(("c-format", "python-format", "php-format", "objc-format", "perl-format", "gcc-internal-format",
                     "gfc-internal-format", "awk-format", "object-pascal-format", "ycp-format", "sh-printf-format",
                     "lua-format", "java-printf-format"), _PRINTF),
    **dict.fromkeys(("python-brace-format", "perl-brace-format", "csharp-format", "rust-format"), _BRACE),
    **dict.fromkeys(("qt-format", "qt-plural-format", "kde-format"), _QT),
}
_PLAIN = re.compile(r'[^"\\]*')
_FOLD = {ord("\n"): " ", ord("\r"): " "}
_CHARSET = re.compile(rb"charset=([A-Za-z0-9_.:-]+)")
#: the flag sets met so far, each kept once (an empty frozenset is 216 bytes a segment otherwise)
_FLAGSETS: dict[frozenset, frozenset] = {}


@dataclass
class _Str:
    """One field's strings: decoded text, runs into the file, and the span of the contents."""

    text: list[str] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    start: int = -1  # after the first opening quote
    end: int = -1  # before the last closing quote
    line: int = 0  # the keyword's line
    length: int = 0  # of the decoded text
    after_keyword: int = -1  # where the string would start when it is missing

    @property
    def value(self) -> str:
        return "".join(self.text)


@dataclass
class _Entry:
    first_line: int = -1
    flags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extracted: list[str] = field(default_factory=list)
    translator: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    previous: dict = field(default_factory=dict)
    #: offsets of the starts of the entry's ``#,`` lines and ``#|`` lines (for the "remove fuzzy" edit)
    flag_lines: list[int] = field(default_factory=list)
    previous_lines: list[int] = field(default_factory=list)
    msgctxt: Optional[_Str] = None
    msgid: Optional[_Str] = None
    msgid_plural: Optional[_Str] = None
    msgstr: dict = field(default_factory=dict)  # None (singular) or int -> _Str

    def empty(self) -> bool:
        return self.first_line < 0


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.problems: list[Finding] = []
        self.segments: list[Segment] = []
        self.header: dict[str, str] = {}
        self.header_seen = False
        self.keys: dict[str, int] = {}
        self.entry = _Entry()
        self.target: Optional[_Str] = None  # where continuation strings go
        self.prev_target: Optional[str] = None  # the ``#|`` field a ``#| "..."`` line continues

    # -- problems -------------------------------------------------------------
    def problem(self, line: int, line_start: int, col: int, message: str) -> None:
        self.problems.append(problem(line_start + col, line, col, message, PO_SYNTAX))

    # -- strings --------------------------------------------------------------
    def string(self, line: int, start: int, s: str, col: int, into: Optional[_Str]) -> None:
        """Read the quoted string of line ``s`` (starting at ``start`` in the file) at column ``col``."""
        n = len(s)
        while col < n and s[col] in " \t":
            col += 1
        if col >= n or s[col] != '"':
            what = "end of line" if col >= n else repr(s[col])
            self.problem(line, start, col, f"expected a quoted string, found {what}")
            return
        i = col + 1
        out: list[str] = []
        runs: list[Run] = []
        pos = into.length if into is not None else 0  # the length of the decoded text so far
        closed = False
        plain = cast("Callable[[str, int], re.Match[str]]", _PLAIN.match)  # it matches anywhere (maybe empty)
        while True:
            j = plain(s, i).end()
            if j > i:
                out.append(s[i:j])
                runs.append(Run(pos, start + i, j - i))
                pos += j - i
            if j >= n:
                end = i = n
                break
            if s[j] == '"':
                closed = True
                end = i = j
                break
            runs.append(Run(pos, start + j, 0))  # an escape: its character maps to the backslash
            ch, i = self.escape(line, start, s, j)
            out.append(ch)
            pos += len(ch)
        if not closed:
            self.problem(line, start, n, "unterminated string: the closing quote is missing")
        else:
            rest = s[i + 1 :].strip()
            if rest:
                self.problem(line, start, i + 1 + (len(s[i + 1 :]) - len(s[i + 1 :].lstrip())),
                             "text after the closing quote")
        if into is not None:
            if into.start < 0:
                into.start = start + col + 1
            into.end = start + end
            into.text.extend(out)
            into.runs.extend(runs)
            into.length = pos

    def escape(self, line: int, start: int, s: str, i: int) -> tuple[str, int]:
        """Decode the escape at ``s[i] == '\\\\'``; the decoded text and the index after it."""
        if i + 1 >= len(s):
            self.problem(line, start, i, "a backslash at the end of the line")
            return "\\", i + 1
        c = s[i + 1]
        if c in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[c], i + 2
        if c in "01234567":
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in "01234567":
                j += 1
            return chr(int(s[i + 1 : j], 8)), j
        if c == "x":
            j = i + 2
            while j < len(s) and s[j] in "0123456789abcdefABCDEF":
                j += 1
            if j > i + 2:
                return chr(int(s[i + 2 : j], 16) & 0xFF), j
        self.problem(line, start, i, f"unknown escape \\{c}")
        return c, i + 2

    # -- entries --------------------------------------------------------------
    def finish(self) -> None:
        e = self.entry
        self.entry = _Entry()
        self.target = None
        self.prev_target = None
        if e.empty():
            return
        if e.msgid is None:
            return  # comments only (or a stray msgstr, already reported)
        if not e.msgstr:
            ln = e.msgid.line
            self.problem(ln, self.line_starts[ln], 0, "an entry without msgstr")
            return
        if e.msgctxt is None and e.msgid.value == "" and not self.header_seen and e.msgid_plural is None:
            self.header_seen = True
            self.read_header(e.msgstr.get(None) or next(iter(e.msgstr.values())))
            return
        if e.msgid_plural is None and any(k is not None for k in e.msgstr):
            ln = e.msgid.line
            self.problem(ln, self.line_starts[ln], 0, "msgstr[n] without msgid_plural")
        if e.msgid_plural is not None and None in e.msgstr:
            ln = e.msgstr[None].line
            self.problem(ln, self.line_starts[ln], 0, "msgid_plural needs msgstr[0], msgstr[1]…, not msgstr")
        msgid = e.msgid.value
        ctxt = e.msgctxt.value if e.msgctxt is not None else None
        base_key = msgid if ctxt is None else ctxt + CTXT_SEP + msgid
        flags = frozenset(e.flags)
        if len(_FLAGSETS) < 4096:  # one object per set of flags (most entries share one)
            flags = _FLAGSETS.setdefault(flags, flags)
        state_fuzzy = "fuzzy" in flags
        common: dict[str, object] = {"msgid": msgid}
        if ctxt is not None:
            common["msgctxt"] = ctxt
        if e.msgid_plural is not None:
            common["msgid_plural"] = e.msgid_plural.value
        for name, value in e.previous.items():
            common["previous_" + name] = value
        if e.flag_lines:
            common["flag_lines"] = tuple(e.flag_lines)
        if e.previous_lines:
            common["previous_lines"] = tuple(e.previous_lines)
        if e.references:
            common["references"] = tuple(e.references)
        if e.extracted:
            common["extracted_comments"] = tuple(e.extracted)
        if e.translator:
            common["translator_comments"] = tuple(e.translator)
        for idx, st in e.msgstr.items():
            key = base_key if idx is None else f"{base_key}[{idx}]"
            if key in self.keys:
                self.problem(st.line, self.line_starts[st.line], 0,
                             f"a second entry for the same msgid (first at line {self.keys[key] + 1})")
                n = 2
                while f"{key}#{n}" in self.keys:
                    n += 1
                key = f"{key}#{n}"
            self.keys[key] = st.line
            raw = st.value
            # each line break becomes one space: the runs stay valid as they are
            target = raw.translate(_FOLD) if "\n" in raw or "\r" in raw else raw
            runs = st.runs
            if runs and runs[-1].file_start + runs[-1].length != st.end:
                runs = [*runs, Run(len(raw), st.end, 0)]  # the end of the text is the end of the span
            if idx is None or idx == 0:
                source = msgid
            else:
                source = e.msgid_plural.value if e.msgid_plural is not None else msgid
            if "\n" in source or "\r" in source:
                source = source.translate(_FOLD)
            extra = dict(common)
            extra["msgstr"] = raw
            if idx is not None:
                extra["plural_index"] = idx
            state = "fuzzy" if state_fuzzy else ("translated" if raw else "untranslated")
            span = (st.start, st.end) if st.start >= 0 else (st.after_keyword, st.after_keyword)
            seg = Segment(
                key=key, target=target, target_span=span, line=st.line, source=source,
                draft=None, state=state, notes=tuple(e.notes), flags=flags, runs=tuple(runs), extra=extra,
            )
            patterns = [PLACEHOLDER_FLAGS[f] for f in flags if f in PLACEHOLDER_FLAGS]
            if patterns:
                src = e.msgid if idx is None or idx == 0 or e.msgid_plural is None else e.msgid_plural
                seg.set_codes(_codes(raw, seg, patterns), _codes(src.value, Segment(
                    key="", target="", target_span=(src.start, src.end), line=src.line, runs=tuple(src.runs)
                ), patterns))
            self.segments.append(seg)

    def read_header(self, st: _Str) -> None:
        for row in st.value.split("\n"):
            name, sep, value = row.partition(":")
            if sep and name.strip():
                self.header[name.strip()] = value.strip()

    # -- lines ----------------------------------------------------------------
    def run(self) -> SegmentDocument:
        text = self.text
        starts: list[int]
        self.line_starts = starts = []
        add = starts.append
        line = self.line
        start = 0
        for ln, s in enumerate(text.split("\n")):
            add(start)
            n = len(s)
            if s and s[-1] == "\r":
                s = s[:-1]
            line(ln, start, s)
            start += n + 1
        self.finish()
        lang = self.header.get("Language") or None
        return SegmentDocument(PO, self.segments, target_lang=lang, header=self.header, problems=self.problems)

    def line(self, ln: int, start: int, s: str) -> None:
        if s and s[0] == '"' and self.target is not None:  # the common continuation line
            self.prev_target = None
            self.string(ln, start, s, 0, self.target)
            return
        t = s.lstrip(" \t")
        indent = len(s) - len(t)
        if not t:
            self.target = None
            return
        e = self.entry
        if t[0] == "#":
            if e.msgstr:
                self.finish()
                e = self.entry
            self.target = None
            if t.startswith("#~"):
                return  # obsolete entries are not segments
            if e.empty():
                e.first_line = ln
            kind = t[1:2]
            body = t[2:]
            if kind == ",":
                e.flags.extend(f.strip() for f in body.split(",") if f.strip())
                e.flag_lines.append(start)
            elif kind == "|":
                e.previous_lines.append(start)
                self.previous(ln, start, indent + 2, s, e)
            elif kind == ".":
                e.notes.append(body.strip())
                e.extracted.append(body[1:] if body.startswith(" ") else body)
            elif kind == ":":
                e.references.extend(body.split())
            else:
                e.notes.append(t[1:].strip())
                e.translator.append(t[2:] if t.startswith("# ") else t[1:])
            return
        if t.startswith('"'):
            self.prev_target = None
            if self.target is None:
                self.problem(ln, start, indent, "a string outside msgctxt, msgid or msgstr")
                return
            self.string(ln, start, s, indent, self.target)
            return
        m = _KEYWORD.match(t)
        if m is None or (m.end() < len(t) and t[m.end()] not in ' \t"'):
            word = t.split(None, 1)[0] if t.split() else t
            self.problem(ln, start, indent, f"unknown keyword {word[:40]!r}")
            self.target = None
            return
        word, idx = m.group(1), m.group(2)
        if word == "msgstr" or word == "msgid_plural":
            if e.msgid is None:
                self.problem(ln, start, indent, f"{word} without a msgid before it")
                self.target = None
                return
            if word == "msgid_plural":
                if e.msgstr or e.msgid_plural is not None:
                    self.problem(ln, start, indent, "msgid_plural out of place")
                    self.target = None
                    return
                e.msgid_plural = self.target = _Str(line=ln)
            else:
                key = int(idx) if idx is not None else None
                if key in e.msgstr:
                    self.problem(ln, start, indent, f"a second {t[:m.end()]} in one entry")
                    self.target = None
                    return
                e.msgstr[key] = self.target = _Str(line=ln, after_keyword=start + indent + m.end())
        else:
            if idx is not None:
                self.problem(ln, start, indent, f"{word} takes no index")
            if e.msgstr:
                self.finish()
                e = self.entry
            elif e.msgid is not None:
                self.problem(ln, start, indent, f"{word} where a msgstr was expected (the entry before has none)")
                self.finish()
                e = self.entry
            elif word == "msgctxt" and e.msgctxt is not None:
                self.problem(ln, start, indent, "a second msgctxt in one entry")
            if e.empty():
                e.first_line = ln
            st = _Str(line=ln)
            if word == "msgctxt":
                e.msgctxt = st
            else:
                e.msgid = st
            self.target = st
        self.string(ln, start, s, indent + m.end(), self.target)

    def previous(self, ln: int, start: int, col: int, s: str, e: _Entry) -> None:
        """A ``#|`` line: the previous msgctxt / msgid / msgid_plural, or a continuation."""
        rest = s[col:]
        body = rest.lstrip(" \t")
        col += len(rest) - len(body)
        m = re.match(r"(msgctxt|msgid_plural|msgid)\b", body)
        if m is not None:
            name = m.group(1)
            self.prev_target = name
            sink = _Str()
            self.string(ln, start, s, col + m.end(), sink)
            e.previous[name] = sink.value
        elif body.startswith('"') and self.prev_target is not None:
            sink = _Str()
            self.string(ln, start, s, col, sink)
            e.previous[self.prev_target] = e.previous.get(self.prev_target, "") + sink.value
        # anything else after ``#|`` is kept as it is: a comment gettext would ignore


def _codes(text: str, where: Segment, patterns: list) -> tuple[InlineCode, ...]:
    """The placeholders of ``text`` (the format flags' patterns), in order, with their file spans."""
    found: dict[int, InlineCode] = {}
    for pat in patterns:
        for m in pat.finditer(text):
            a, b = m.span()
            if m.group() in ("%%", "{{", "}}") or a in found:
                continue
            # the end is after the last character (the next one may be on the next line)
            found[a] = InlineCode("placeholder", m.group(), (where.file_offset(a), where.file_offset(b - 1) + 1))
    return tuple(found[a] for a in sorted(found))


def read_po(text: str) -> SegmentDocument:
    """A decoded PO text read into segments (problems in ``problems``, never an exception)."""
    return _Reader(text).run()


def read_po_prefix(text: str, max_segments: int) -> SegmentDocument:
    """About the first ``max_segments`` entries of a decoded PO text (``read.read_prefix``): read up to
    a blank line after about 120 characters per segment (4 KB at least), the entry before the cut
    left out (a blank line may sit inside an entry)."""
    cut = text.find("\n\n", min(len(text), max(4096, 120 * max_segments)))
    if cut < 0:
        return read_po(text)
    doc = read_po(text[: cut + 1])
    segs = doc.segments
    if segs:  # the last entry (all its plural forms) may go on after the cut
        last = (segs[-1].extra.get("msgctxt"), segs[-1].extra.get("msgid"))
        while segs and (segs[-1].extra.get("msgctxt"), segs[-1].extra.get("msgid")) == last:
            segs.pop()
    return doc


def po_charset(data: bytes) -> str:
    """The charset the header declares (``utf-8`` when it names none or one Python does not know)."""
    m = _CHARSET.search(data[:65536])
    if m is None:
        return "utf-8"
    name = m.group(1).decode("ascii")
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"
