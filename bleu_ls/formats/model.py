"""The segment model: what every reader produces and every layer above reads.

A document is a list of :class:`Segment` in file order.  A plain line file is
the special case one line = one segment (key ``"1"``, ``"2"``, …).  Bilingual
and structured files (gettext PO, XLIFF 1.2 / 2.x, TMX, SRT, WebVTT) give one
segment per translatable unit (per plural form, per XLIFF ``segment``, per cue).

Positions are offsets into the *decoded* document text (Python ``str``
indices, so the same numbers the server's line model uses), never bytes.
``Segment.target_span`` is the region a translator types into (between
``<target>`` and ``</target>``, the string content of the ``msgstr`` lines,
the cue's text lines).  The scored text (``Segment.target``) differs from that
region: entities and escapes are decoded, inline codes removed (the text
inside paired codes kept), line breaks folded to spaces.  ``Segment.runs``
maps the scored text back to the file: see :class:`Run`.

This module imports nothing from the rest of the package.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import Field, dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Mapping, Optional, Sequence

from .finding import Finding

#: Format names, as readers report them and as ``Segment``s carry them.
LINES = "lines"
PO = "po"
XLIFF1 = "xliff1"
XLIFF2 = "xliff2"
TMX = "tmx"
SRT = "srt"
VTT = "vtt"
JSON = "json"
ARB = "arb"
WEBEXT = "webext"
#: key-value localization files: the target language's file, the source text in another file of the format
ANDROID = "android"
PROPERTIES = "properties"
FORMATS: tuple[str, ...] = (LINES, PO, XLIFF1, XLIFF2, TMX, SRT, VTT)
FORMATS += (JSON, ARB, WEBEXT)
FORMATS += (ANDROID,)
FORMATS += (PROPERTIES,)
#: Apple .strings, .stringsdict, Xcode String Catalogs; Rails / Symfony translation YAML
STRINGS = "strings"
STRINGSDICT = "stringsdict"
XCSTRINGS = "xcstrings"
YAML = "yaml"
FORMATS += (STRINGS,)
FORMATS += (STRINGSDICT,)
FORMATS += (XCSTRINGS,)
FORMATS += (YAML,)


@dataclass(frozen=True, slots=True)
class Run:
    """``text[text_start : text_start + length]`` is ``file[file_start : file_start + length]``.

    Characters of the scored text that are not covered by a run (a decoded
    entity, an escape, a folded line break) map to the file position of the
    run before them (see :meth:`Segment.file_offset`).  A run may have length
    0: it then only marks where such a character is spelled in the file (the
    PO reader puts one at each escape, so the escape's character maps to its
    backslash, and one at the end when the text ends in an escape).
    """

    text_start: int
    file_start: int
    length: int


def runs_of(offs: Sequence[int], exact: Sequence[bool], end: int) -> list[Run]:
    """The runs of a decoded text from each character's file offset (``offs``) and whether it is
    spelled there as itself (``exact``): characters spelled as themselves at consecutive offsets
    joined; each other character (an escape's) a zero-length run at its place; ``end`` marked when
    the text ends in one."""
    out: list[Run] = []
    n = len(offs)
    i = 0
    while i < n:
        off = offs[i]
        if not exact[i]:
            out.append(Run(i, off, 0))
            i += 1
            continue
        j = i + 1
        while j < n and exact[j] and offs[j] == off + (j - i):
            j += 1
        out.append(Run(i, off, j - i))
        i = j
    if n and not exact[-1]:
        out.append(Run(n, end, 0))
    return out


@dataclass(frozen=True, slots=True)
class InlineCode:
    """An inline code of a target or source (XLIFF ``<g>``/``<x/>``/``<ph>``/``<pc>``…, a PO placeholder).

    ``kind`` is the element name or ``"placeholder"``; ``id`` the code's id
    (or the placeholder text); ``span`` its offsets in the file (None for a
    source read from another file); ``closing`` marks the end of a paired code.
    """

    kind: str
    id: str
    span: Optional[tuple[int, int]] = None
    closing: bool = False


#: Separates the names of a segment's codes in their one string (no XML name or id, no PO
#: placeholder has it; a segment whose names do have it keeps them in a tuple).
_SEP = "\x1f"
_NO_EXTRA: Mapping[str, object] = MappingProxyType({})
_NO_FLAGS: frozenset[str] = frozenset()


def pack_ints(vals: list[int]) -> bytes:
    """``vals`` packed: 4 bytes an int (8 with a leading marker byte where one does not fit),
    never an int object; a ``bytes`` (33 bytes of header, an array's is 80).  :func:`int_view` reads it."""
    try:
        return array("i", vals).tobytes()
    except OverflowError:
        return b"q" + array("q", vals).tobytes()


def int_view(b: bytes) -> memoryview:
    """The ints of :func:`pack_ints` (indexable, sliceable, ``len``)."""
    if len(b) & 3:
        return memoryview(b)[1:].cast("q")
    return memoryview(b).cast("i")


#: where the runs start in a segment's ints (after the span, the line and the two counts)
_R = 5


def _pack(span: tuple[int, int], line: int, runs: Sequence[Run], tcodes: Sequence[InlineCode],
          scodes: Sequence[InlineCode]):
    """The compact form of a segment's positions: ``(ints, names)``.

    ``ints``: ``[target start, target end, line]``, and where there are runs or codes,
    ``len(runs), len(tcodes)``, then ``text_start, file_start - start, length`` of each
    run, then ``a - start, b - start, flags`` of each target and source code's span
    (flags: 1 closing, 2 no span): runs and codes relative to the target's start.
    ``names``: each code's kind and id, in one string joined by :data:`_SEP` (or a
    tuple where a name holds it; None without codes).
    """
    base = span[0]
    if not runs and not tcodes and not scodes:
        return pack_ints([base, span[1], line]), None
    vals = [base, span[1], line, len(runs), len(tcodes)]
    for r in runs:
        vals += (r.text_start, r.file_start - base, r.length)
    names: list[str] = []
    for c in (*tcodes, *scodes):
        sp = c.span
        if sp is None:
            vals += (0, 0, 2 | c.closing)
        else:
            vals += (sp[0] - base, sp[1] - base, 1 if c.closing else 0)
        names += (c.kind, c.id)
    return pack_ints(vals), pack_names(names)


def pack_names(names: list[str]):
    if not names:
        return None
    joined = _SEP.join(names)
    if joined.count(_SEP) != len(names) - 1:
        return tuple(names)
    return joined


class Segment:
    """One translatable unit (or one plural form, XLIFF segment, subtitle cue).

    Built and read as the dataclass it was (``Segment(key=…, runs=…)``,
    ``dataclasses.replace``, ``==``), kept compact: its runs and inline codes
    are one array of ints with its target span and line (runs and codes relative
    to the target's start, so that moving a segment copies the array as it is) and
    one string of names; the
    :class:`Run` and :class:`InlineCode` objects are made when asked for.
    """

    __slots__ = ("key", "target", "source", "draft", "state", "state_qualifier", "notes", "flags", "extra",
                 "_ints", "_names")

    #: Unique within the document, stable across edits of the target text.
    #: XLIFF: ``original/unit-id`` (+ ``#segment-id`` where needed to be unique);
    #: PO: ``msgctxt\x04msgid`` (+ ``[n]`` for plural form n); subtitles: cue number or id;
    #: TMX: tuid (or ``#n``); line files: the 1-based line number as text.
    key: str
    #: The scored target text ("" when the target is absent or empty).
    target: str
    #: [start, end) of the target's content in the decoded file text.  Where
    #: the target element is absent, start == end at the place a target would go.
    target_span: tuple[int, int]
    #: 0-based line of the target's start: the ``<target>`` tag, the ``msgstr``
    #: keyword, the cue's first text line (for line files, the line itself).
    line: int
    #: The source text, scored-text style (None where the format has none).
    source: Optional[str]
    #: An MT draft carried by the file (XLIFF 1.2 alt-trans of MT origin or an
    #: mt-suggestion / leveraged-mt target, XLIFF 2 ``mtc:match type="mt"``, a PO
    #: fuzzy msgstr); None when the file carries none.
    draft: Optional[str]
    #: The state as the file names it (XLIFF ``state``; PO: ``"fuzzy"`` or
    #: ``"translated"`` / ``"untranslated"``), and the XLIFF 1.2 state-qualifier / XLIFF 2 subState.
    state: Optional[str]
    state_qualifier: Optional[str]
    notes: tuple[str, ...]
    #: PO flags (``fuzzy``, ``c-format``, …).
    flags: frozenset[str]
    #: Format-specific facts a check or the hover may want (PO: ``msgctxt``,
    #: ``msgid``, ``msgid_plural``, ``plural_index``, ``previous_msgid``; XLIFF:
    #: ``original``, ``unit_id``, ``segment_id`` (a :class:`~.xml_facts.XmlFacts`); subtitles: ``start_ms``,
    #: ``end_ms``, ``settings``, ``text_lines`` (the raw lines); TMX: ``tuid``).
    #: Read-only: a segment without facts shares one empty mapping.
    extra: Mapping[str, object]
    #: Those of the dataclass it was (set below the class), so ``dataclasses.replace`` takes a segment.
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __init__(self, key: str, target: str, target_span: tuple[int, int], line: int, source: Optional[str] = None,
                 draft: Optional[str] = None, state: Optional[str] = None, state_qualifier: Optional[str] = None,
                 notes: tuple[str, ...] = (), flags: frozenset[str] = _NO_FLAGS,
                 target_codes: Sequence[InlineCode] = (), source_codes: Sequence[InlineCode] = (),
                 runs: Sequence[Run] = (), extra: Optional[Mapping[str, object]] = None) -> None:
        self.key = key
        self.target = target
        self.source = source
        self.draft = draft
        self.state = state
        self.state_qualifier = state_qualifier
        self.notes = notes
        self.flags = flags
        self.extra = _NO_EXTRA if extra is None else extra
        self._ints, self._names = _pack(target_span, line, runs, target_codes, source_codes)

    @classmethod
    def packed(cls, key: str, target: str, source: Optional[str],
               draft: Optional[str], state: Optional[str], state_qualifier: Optional[str], notes: tuple[str, ...],
               ints: bytes, names, extra: Mapping[str, object]) -> "Segment":
        """A segment from its compact form as :func:`_pack` gives it (the XML readers build it directly;
        ``target_span`` and ``line`` are its first three ints)."""
        s = cls.__new__(cls)
        s.key, s.target, s.source, s.draft = key, target, source, draft
        s.state, s.state_qualifier, s.notes, s.flags, s.extra = state, state_qualifier, notes, _NO_FLAGS, extra
        s._ints, s._names = ints, names
        return s

    def with_key(self, key: str) -> "Segment":
        """This segment under another key (its compact positions shared, not unpacked and packed again)."""
        s = Segment.packed(key, self.target, self.source, self.draft, self.state, self.state_qualifier, self.notes,
                           self._ints, self._names, self.extra)
        s.flags = self.flags
        return s

    # --- positions, runs and codes, made when asked for ------------------------------------------
    @property  # type: ignore[no-redef]  # the field listed above, read through its compact form
    def target_span(self) -> tuple[int, int]:
        p = int_view(self._ints)
        return (p[0], p[1])

    @target_span.setter
    def target_span(self, span: tuple[int, int]) -> None:
        self._ints, self._names = _pack(span, self.line, self.runs, self.target_codes, self.source_codes)

    @property  # type: ignore[no-redef]  # the field listed above, read through its compact form
    def line(self) -> int:
        return int_view(self._ints)[2]

    @line.setter
    def line(self, line: int) -> None:
        self._ints, self._names = _pack(self.target_span, line, self.runs, self.target_codes, self.source_codes)

    @property
    def runs(self) -> tuple[Run, ...]:
        p = int_view(self._ints)
        if len(p) == 3 or not p[3]:
            return ()
        b = p[0]
        return tuple(Run(p[k], p[k + 1] + b, p[k + 2]) for k in range(_R, _R + 3 * p[3], 3))

    @runs.setter
    def runs(self, runs: Sequence[Run]) -> None:
        self._ints, self._names = _pack(self.target_span, self.line, runs, self.target_codes, self.source_codes)

    def _codes(self, first: int, last: int) -> tuple[InlineCode, ...]:
        p = int_view(self._ints)
        names = self._names
        if isinstance(names, str):
            names = names.split(_SEP)
        b = p[0]
        out = []
        k = _R + 3 * p[3] + 3 * first
        for n in range(first, last):
            flags = p[k + 2]
            span = None if flags & 2 else (p[k] + b, p[k + 1] + b)
            out.append(InlineCode(names[2 * n], names[2 * n + 1], span, bool(flags & 1)))
            k += 3
        return tuple(out)

    @property
    def target_codes(self) -> tuple[InlineCode, ...]:
        p = int_view(self._ints)
        if len(p) == 3 or not p[4]:
            return ()
        return self._codes(0, p[4])

    @target_codes.setter
    def target_codes(self, codes: Sequence[InlineCode]) -> None:
        self._ints, self._names = _pack(self.target_span, self.line, self.runs, codes, self.source_codes)

    @property
    def source_codes(self) -> tuple[InlineCode, ...]:
        p = int_view(self._ints)
        if len(p) == 3:
            return ()
        n = (len(p) - _R) // 3 - p[3]
        if n == p[4]:
            return ()
        return self._codes(p[4], n)

    @source_codes.setter
    def source_codes(self, codes: Sequence[InlineCode]) -> None:
        self._ints, self._names = _pack(self.target_span, self.line, self.runs, self.target_codes, codes)

    def set_codes(self, target_codes: Sequence[InlineCode], source_codes: Sequence[InlineCode]) -> None:
        """Both lists of codes at once (one packing, not two)."""
        self._ints, self._names = _pack(self.target_span, self.line, self.runs, target_codes, source_codes)

    def moved(self, dc: int, dl: int, extra: Optional[Mapping[str, object]] = None) -> "Segment":
        """This segment ``dc`` characters and ``dl`` lines further into the file (its runs and
        codes shared: they are kept relative to the target), with ``extra`` when given."""
        s = Segment.__new__(Segment)
        s.key, s.target, s.source, s.draft = self.key, self.target, self.source, self.draft
        s.state, s.state_qualifier, s.notes, s.flags = self.state, self.state_qualifier, self.notes, self.flags
        s.extra = self.extra if extra is None else extra
        p = int_view(self._ints)
        q = p.tolist()  # the runs and codes as they are: relative to the target
        q[0] += dc
        q[1] += dc
        q[2] += dl
        s._ints, s._names = pack_ints(q), self._names
        return s

    def file_offset(self, i: int) -> int:
        """The file offset of character ``i`` of the scored text (``len(target)``: the end)."""
        p = int_view(self._ints)
        if len(p) == 3 or not p[3]:
            return p[0] + i
        k = _run_at(p, i)
        if k < 0:
            return p[0]
        ts, fs, n = p[k], p[k + 1] + p[0], p[k + 2]
        if i < ts + n:
            return fs + (i - ts)
        return fs + n

    # --- the dataclass it was ---------------------------------------------------------------
    def _view(self) -> tuple:
        return (self.key, self.target, self.source, self.draft, self.state,
                self.state_qualifier, self.notes, self.flags, self._ints, self._names, self.extra)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._view() == other._view()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in _FIELDS)
        return f"Segment({fields})"

    def __getstate__(self):
        return tuple(getattr(self, f) for f in self.__slots__)

    def __setstate__(self, state) -> None:
        for f, v in zip(self.__slots__, state):
            object.__setattr__(self, f, v)


def _run_at(p: memoryview, i: int) -> int:
    """The index in ``p`` of the last run starting at or before text position ``i`` (-1: none)."""
    lo, hi = 0, p[3]
    while lo < hi:  # the runs' text starts are p[_R], p[_R + 3], …: increasing
        mid = (lo + hi) // 2
        if p[_R + 3 * mid] <= i:
            lo = mid + 1
        else:
            hi = mid
    return -1 if lo == 0 else _R + 3 * (lo - 1)


@dataclass
class _SegmentFields:
    key: str
    target: str
    target_span: tuple[int, int]
    line: int
    source: Optional[str] = None
    draft: Optional[str] = None
    state: Optional[str] = None
    state_qualifier: Optional[str] = None
    notes: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    target_codes: tuple[InlineCode, ...] = ()
    source_codes: tuple[InlineCode, ...] = ()
    runs: tuple[Run, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)


# ``dataclasses.replace``, ``fields`` and ``is_dataclass`` see the public fields (read through the properties)
Segment.__dataclass_fields__ = _SegmentFields.__dataclass_fields__
Segment.__dataclass_params__ = _SegmentFields.__dataclass_params__  # type: ignore[attr-defined]
_FIELDS = tuple(_SegmentFields.__dataclass_fields__)


@dataclass(slots=True)
class SegmentDocument:
    """A file read into segments."""

    format: str
    segments: list[Segment]
    #: Language codes the file declares (XLIFF srcLang/trgLang, PO Language, TMX srclang…).
    source_lang: Optional[str] = None
    target_lang: Optional[str] = None
    #: File-level facts (PO header fields such as ``Plural-Forms``, XLIFF version…).
    header: dict[str, str] = field(default_factory=dict)
    #: Malformed spots.  A reader that meets one keeps the segments read
    #: before it and reports the problem; it never raises on bad content.
    problems: list[Finding] = field(default_factory=list)
    #: The decoded text the offsets refer to, where the reader or ``read_document`` keeps it (else None).
    text: Optional[str] = None

    def keys(self) -> list[str]:
        return [s.key for s in self.segments]

    def targets(self) -> list[str]:
        return [s.target for s in self.segments]


def line_col(text: str, offset: int, line_starts: Optional[Sequence[int]] = None) -> tuple[int, int]:
    """0-based (line, column) of ``offset`` in ``text`` (lines end at ``\\n``)."""
    if line_starts is not None:
        ln = bisect_right(line_starts, offset) - 1
        return ln, offset - line_starts[ln]
    ln = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return ln, offset - start
