"""What the server keeps of an open segment document (:class:`SegmentPair`:
the live index, the reference, the rows of the pair model, the checks'
findings) and the positions between the editor's units and text offsets."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np
from lsprotocol import types

from ...engine import PairModel
from ...formats.live.index import LiveIndex
from ...formats.finding import Finding
from ...formats.model import SegmentDocument
from ...formats.read import EXTENSIONS as READ_EXTENSIONS
from ...formats.table import by_path, names, row
from ...qa.formats.live_checks import LiveChecks
from ..documents.document import from_units, to_units

#: file name suffix -> segment format (PO, XLIFF, TMX, SRT, WebVTT: the rows of segment files)
EXTENSIONS = {ext: fmt for ext, fmt in READ_EXTENSIONS.items() if row(fmt).segmented}
#: formats paired by time (the others by key)
TIMED = names(timed=True)


def loop_running() -> bool:
    """Whether an event loop runs here (not in a test driving the documents, nor a thread)."""
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


def segment_format(path: Path) -> Optional[str]:
    """The segment format of a file, by its place where a row knows its files so (the rows' ``paths``:
    ``locales/de/app.json``, Android's ``res/values*/strings.xml``), else by its name; None for a line file."""
    found = by_path(str(path))
    return found if found is not None else EXTENSIONS.get(Path(path).suffix.lower())


@dataclass
class SegmentPair:
    """An open segment document and its pair."""

    uri: str
    path: Path
    index: LiveIndex
    version: Optional[int] = None
    ref: Optional[SegmentDocument] = None
    ref_path: Optional[Path] = None
    #: why there is no reference (said in the hover and the lens)
    no_ref: Optional[str] = None
    #: a key-value localization file's source-language file (rows.read_source; None: none found)
    source_path: Optional[Path] = None
    #: why a key-value localization file has no source-language file (said in the hover)
    no_source: Optional[str] = None
    offset_ms: int = 0
    model: Optional[PairModel] = None
    #: row r: hypothesis cues [row_hs[r], row_he[r]) against reference cues row_refs[r]
    row_hs: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    row_he: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    row_refs: list[list[int]] = field(default_factory=list)
    #: reference cue -> row (-1: none); the reference cues by start time
    ref_row: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ref_order: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ref_starts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ref_longest: int = 0
    #: row -> the hypothesis segment its hint follows (the group's last cue)
    row_anchor: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: hypothesis segment -> row (-1: no reference partner)
    row_of: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: hypothesis cues without a reference partner, reference cues without a hypothesis one
    unpaired_hyp: int = 0
    unpaired_ref: int = 0
    #: per hypothesis segment: its checks' findings (None: not counted yet; the
    #: first hints of a large file do not wait for them), each kept with its ``span``
    #: relative to the segment's target start (it moves with the segment's edits;
    #: checks.diagnostics_json keeps its diagnostic's JSON in its ``cache``)
    qa: Optional[list[list[Finding]]] = None
    #: per hypothesis segment: 1 where ``qa`` has findings (the diagnostics walk these only)
    qa_has: Optional[np.ndarray] = None
    #: the settings' rows for the checks (format_checks.severities, subtitle limits), and the
    #: PO/XLIFF/TMX checks kept in step with the index (qa/formats/live_checks.py)
    qa_rows: Optional[tuple] = None
    live_qa: Optional[LiveChecks] = None
    #: the rows' hint offsets while the text is malformed (None: well-formed, read from the index)
    frozen: Optional[np.ndarray] = None
    good_problems: int = 0
    serial: int = 0
    #: (serial, the diagnostics of that version)
    diagnostics: Optional[tuple[int, list[str]]] = None
    #: the result id of the diagnostics: kept while an edit leaves them as they were (the editor's pull is then "unchanged")
    diag_rid: str = ""
    #: the result id last answered to the editor's pull (a pulling editor is asked to pull again
    #: after an edit only when the document's result id has moved from it)
    pulled_rid: Optional[str] = None
    push_task: Optional[asyncio.Task] = None
    #: the segments' drafts and the effort against them (drafts.SegDrafts; None: not bound)
    drafts: Any = None
    #: key-paired formats: every row a key's (no fallback pairing: an edit may splice rows by key alone)
    keyed_rows: bool = False
    #: (the reference, its key -> first segment with it)
    ref_keys: Optional[tuple[object, dict[str, int]]] = None
    #: the rule table's checks, alone or with the reference (rules.SegRules; None: not bound, or diagnostics off)
    rules: Any = None
    #: a large file's full read under way (its first segments only in ``index`` meanwhile: opening.py)
    loading: Optional[asyncio.Future] = None
    #: counts the edits made while it runs (a read of an older text is read again)
    load_gen: int = 0


# -- positions: the editor's (line, character in its units) and offsets of the text ----------
def offset_at(sp: SegmentPair, line: int, character: int, encoding: str) -> int:
    index = sp.index
    if line >= index.line_count:
        return len(index.buf)
    content = index.line(line)
    if content.endswith("\r"):
        content = content[:-1]
    return index.line_start(line) + from_units(content, character, encoding)


def position_at(sp: SegmentPair, offset: int, encoding: str) -> types.Position:
    line, col = sp.index.position(offset)
    return types.Position(line=line, character=to_units(sp.index.line(line), col, encoding))


def range_of(sp: SegmentPair, a: int, b: int, encoding: str) -> types.Range:
    return types.Range(start=position_at(sp, a, encoding), end=position_at(sp, b, encoding))


def hint_offsets(sp: SegmentPair, rows: Optional[np.ndarray] = None) -> np.ndarray:
    """Where each row's hint goes (of ``rows`` only, when given): the end of its last segment's target text."""
    anchors = sp.row_anchor if rows is None else sp.row_anchor[rows]
    if not len(anchors):
        return np.zeros(0, np.int64)
    ends = sp.index.target_ends(anchors)
    quoted = row(sp.index.format).quoted_target
    if quoted and hasattr(sp.index, "quoted"):  # kept by the PO index (live/po.py)
        ends += sp.index.quoted(anchors)
    elif quoted:  # after the closing quote of the last msgstr line
        text = sp.index.buf
        ends += np.fromiter((text.startswith('"', e) for e in ends.tolist()), np.int64, len(ends))
    return ends


def visible_rows(sp: SegmentPair, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows whose hint falls in ``[lo, hi]`` (in row order) and their hint offsets: found
    from the segments whose targets end there, not by placing every row's hint."""
    index = sp.index
    if len(sp.row_of) != len(index) or not hasattr(index, "first_ending_at"):
        offsets = hint_offsets(sp)
        rows = np.flatnonzero((offsets >= lo) & (offsets <= hi))
        return rows, offsets[rows]
    i0 = index.first_ending_at(lo - 1)  # a PO hint is one after the target's end (its closing quote)
    i1 = index.first_ending_at(hi + 1)
    if i1 <= i0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    rows = sp.row_of[i0:i1]
    segs = np.arange(i0, i1)
    keep = rows >= 0
    rows, segs = rows[keep], segs[keep]
    rows = np.unique(rows[sp.row_anchor[rows] == segs])
    offsets = hint_offsets(sp, rows)
    inside = (offsets >= lo) & (offsets <= hi)
    return rows[inside], offsets[inside]
