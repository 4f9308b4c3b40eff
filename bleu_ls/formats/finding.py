"""The one finding record: what a reader, a check or a rule says about a place in a file.

Readers (this package) report what is malformed in a file; the checks and the
rules of :mod:`bleu_ls.qa` report what they find in a line or a segment.  All
of them say it with :class:`Finding`, which lives here, at the lowest layer
that makes one; :mod:`bleu_ls.qa.findings` re-exports it beside the codes.

The place is what the maker knows of it, any of:

* ``line`` (0-based) and columns ``start_col`` / ``end_col`` in code points
  on that line (``end_col`` None: to the end of the line) — the line files'
  rules, the pure text checks (columns only), a reader's problem;
* ``span``: [start, end) offsets in the decoded file text — the checks of a
  segment file's own format; a reader's problem is the empty span at its
  offset.  The server keeps a segment's findings with their span relative to
  the segment's target start (they move with edits above it);
* ``key``: the segment (cue) the finding is on, where the maker lists them
  for a whole document (the subtitle checks).

``data`` is machine-readable detail for the diagnostic's ``data`` (what code
actions read: the stretch of a misaligned run, the numbers that differ…).

Memory: the server keeps the findings of 100k-segment documents, so the
record has slots and no per-instance dict (``data`` defaults to one shared
empty mapping).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping, Optional

#: The ``data`` of a finding without any (one shared, read-only, empty mapping).
NO_DATA: Mapping[str, Any] = MappingProxyType({})

#: The codes of a reader's problems (rows of the rule table, bleu_ls/qa/rules.py): an XML
#: file's (XLIFF, TMX), a PO catalogue's, a subtitle file's.
MALFORMED = "malformed"
PO_SYNTAX = "po-syntax"
TIMECODE = "timecode"


@dataclass(slots=True)
class Finding:
    """One finding: a code (a row of the rule table), its severity, one
    sentence, and where (see the module's docstring)."""

    code: str
    #: error | warning | information | hint ("" until a rule gives the user's:
    #: the pure text checks know nothing of settings)
    severity: str
    message: str
    #: [start, end) offsets in the decoded text (or relative to a segment, where the holder says so)
    span: Optional[tuple[int, int]] = None
    #: 0-based line; 0 for a finding on the whole file (said on its first line)
    line: int = 0
    #: columns on ``line`` in code points; ``end_col`` None = to the end of the line
    start_col: int = 0
    end_col: Optional[int] = None
    #: the segment's key, where the maker names it
    key: Optional[str] = None
    data: Mapping[str, Any] = field(default_factory=lambda: NO_DATA)
    #: what a holder made of it once (the server: its diagnostic's relative
    #: position and JSON); not part of the finding: never compared, never shown
    cache: Any = field(default=None, compare=False, repr=False)

    # -- the words its makers use for its place --------------------------------------
    @property
    def offset(self) -> int:
        """A reader's problem: its offset in the decoded text (the span's start)."""
        return self.span[0] if self.span is not None else 0

    @property
    def column(self) -> int:
        """A reader's problem: its column on ``line``."""
        return self.start_col

    @property
    def start(self) -> int:
        """A text check's finding: its first column."""
        return self.start_col

    @property
    def end(self) -> Optional[int]:
        """A text check's finding: the column after its last (None: to the end of the line)."""
        return self.end_col

    def shifted(self, offset: int, lines: int) -> "Finding":
        """A reader's problem moved by an edit above it (``offset`` characters, ``lines`` lines)."""
        span = None if self.span is None else (self.span[0] + offset, self.span[1] + offset)
        return replace(self, span=span, line=self.line + lines, cache=None)


def problem(offset: int, line: int, column: int, message: str, code: str = MALFORMED) -> Finding:
    """A reader's problem: something malformed at ``offset`` (0-based ``line``, ``column``
    in characters) of the decoded text; an error (the checks' rows may soften it)."""
    return Finding(code, "error", message, (offset, offset), line, column)
