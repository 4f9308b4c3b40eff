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

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

#: Format names, as readers report them and as ``Segment``s carry them.
LINES = "lines"
PO = "po"
XLIFF1 = "xliff1"
XLIFF2 = "xliff2"
TMX = "tmx"
SRT = "srt"
VTT = "vtt"
FORMATS = (LINES, PO, XLIFF1, XLIFF2, TMX, SRT, VTT)


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


@dataclass(frozen=True, slots=True)
class Problem:
    """Something malformed in a file: one sentence, at a position of the decoded text."""

    offset: int
    line: int  # 0-based
    column: int  # 0-based, in characters
    message: str


@dataclass(slots=True)
class Segment:
    """One translatable unit (or one plural form, XLIFF segment, subtitle cue)."""

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
    source: Optional[str] = None
    #: An MT draft carried by the file (XLIFF 1.2 alt-trans of MT origin or an
    #: mt-suggestion / leveraged-mt target, XLIFF 2 ``mtc:match type="mt"``, a PO
    #: fuzzy msgstr); None when the file carries none.
    draft: Optional[str] = None
    #: The state as the file names it (XLIFF ``state``; PO: ``"fuzzy"`` or
    #: ``"translated"`` / ``"untranslated"``), and the XLIFF 1.2 state-qualifier / XLIFF 2 subState.
    state: Optional[str] = None
    state_qualifier: Optional[str] = None
    notes: tuple[str, ...] = ()
    #: PO flags (``fuzzy``, ``c-format``, …).
    flags: frozenset[str] = frozenset()
    #: Inline codes in the target and the source, in order.
    target_codes: tuple[InlineCode, ...] = ()
    source_codes: tuple[InlineCode, ...] = ()
    runs: tuple[Run, ...] = ()
    #: Format-specific facts a check or the hover may want (PO: ``msgctxt``,
    #: ``msgid``, ``msgid_plural``, ``plural_index``, ``previous_msgid``; XLIFF:
    #: ``original``, ``unit_id``, ``segment_id``; subtitles: ``start_ms``,
    #: ``end_ms``, ``settings``, ``text_lines`` (the raw lines); TMX: ``tuid``).
    extra: Mapping[str, object] = field(default_factory=dict)

    def file_offset(self, i: int) -> int:
        """The file offset of character ``i`` of the scored text (``len(target)``: the end)."""
        if not self.runs:
            return self.target_span[0] + i
        starts = [r.text_start for r in self.runs]
        k = bisect_right(starts, i) - 1
        if k < 0:
            return self.target_span[0]
        r = self.runs[k]
        if i < r.text_start + r.length:
            return r.file_start + (i - r.text_start)
        return r.file_start + r.length


@dataclass(slots=True)
class SegmentDocument:
    """A file read into segments."""

    format: str
    segments: list[Segment]
    #: Language codes the file declares (XLIFF srcLang/trgLang, PO Language, TMX srclang…).
    source_lang: Optional[str] = None
    target_lang: Optional[str] = None
    #: File-level facts (PO header fields such as ``Plural-Forms``, XLIFF version…).
    header: Mapping[str, str] = field(default_factory=dict)
    #: Malformed spots.  A reader that meets one keeps the segments read
    #: before it and reports the problem; it never raises on bad content.
    problems: list[Problem] = field(default_factory=list)
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
