"""Open documents of a segment format (SubRip ``.srt``, WebVTT ``.vtt``), scored per segment.

A document is claimed by its file name (never by the editor's languageId), read
into a :class:`~bleu_ls.segments.live.LiveIndex` and paired with its reference
of the same format (the pairing rules and conventions of
:mod:`bleu_ls.pairing`: ``NAME.hyp.srt`` with ``NAME.ref.srt``, a ``[[pairs]]``
rule).  Subtitles pair by time (:func:`~bleu_ls.segments.subtitles.match_by_time`):
each group of hypothesis cues and the reference cues covering the same time is
one row of a :class:`~bleu_ls.engine.PairModel` (its texts joined by a space),
and the row's hint sits at the end of the group's last cue's text.

Edits: an edit inside a cue's text re-scores that cue's row only; an edit that
changes structure (a cue added or removed, a timing typed) pairs the cues
again and splices the rows that differ.  While an edit leaves the file
malformed (a half-typed timing line), the rows and hints of the last
well-formed reading stay (their positions moved through the edits) and the
problem is one diagnostic at its place; the next well-formed text is paired
again.

The subtitle checks (:mod:`bleu_ls.segments.subtitle_checks`) are diagnostics
with their codes, kept per cue and counted again for the cues an edit touched
(and the cue after them: gaps and overlaps look at the cue above).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np
from lsprotocol import types

from ...engine import PairModel, build_metrics
from ...engine.text import InputError, read_text
from ...pairing import find_pair, path_allowed
from ...segments.live import READERS, LiveIndex
from ...segments.live_whole import WholeIndex, XmlIndex
from ...segments.match import pair_documents
from ...segments.model import LINES, PO, SRT, VTT, XLIFF1, XLIFF2, Segment, SegmentDocument
from ...segments.read import EXTENSIONS as READ_EXTENSIONS
from ...segments.read import family, read_document
from ...segments.states import TITLES, needs_review, state_edits
from ...segments.states import actions as state_actions
from ...segments.subtitle_checks import check_cues
from ...segments.subtitles import estimate_offset, match_by_time
from ..background import heap
from ..documents.document import from_units, to_units
from ..documents.files import path_key, uri_path
from ..roles import ManagerRole
from ..views.render import SOURCE, label_for

log = logging.getLogger(__name__)

#: file name suffix -> segment format (PO, XLIFF, TMX, SRT, WebVTT)
EXTENSIONS = {ext: fmt for ext, fmt in READ_EXTENSIONS.items() if fmt != LINES}
#: formats paired by time (the others by key)
TIMED = (SRT, VTT)
#: at most this many rows are scored inside one inlay hint request
ROW_LIMIT = 2000
#: at most this many diagnostics per document (the first ones in file order; VS Code shows 1,000)
DIAGNOSTIC_LIMIT = 1000
PUSH_DELAY = 0.05
#: rows counted between two turns of the event loop when the lens needs them all
REFRESH_SLICE = 500



def segment_format(path: Path) -> Optional[str]:
    """The segment format of a file, by its name; None for a line file."""
    return EXTENSIONS.get(Path(path).suffix.lower())


@dataclass
class _Finding:
    code: str
    severity: str
    message: str
    #: span relative to the cue's target start (the cue's offsets move with edits)
    rel: tuple[int, int]
    #: (line, column, line, column) in the client's units, lines counted from the cue's
    #: timing line, and the rest of its JSON: made on first need
    rel_pos: Optional[tuple[int, int, int, int]] = None
    tail: str = ""


@dataclass
class SegmentPair:
    uri: str
    path: Path
    index: LiveIndex
    version: Optional[int] = None
    ref: Optional[SegmentDocument] = None
    ref_path: Optional[Path] = None
    #: why there is no reference (said in the hover and the lens)
    no_ref: Optional[str] = None
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
    #: first hints of a large file do not wait for them)
    qa: Optional[list[list[_Finding]]] = None
    #: the rows' hint offsets while the text is malformed (None: well-formed, read from the index)
    frozen: Optional[np.ndarray] = None
    good_problems: int = 0
    serial: int = 0
    #: (serial, the diagnostics of that version)
    diagnostics: Optional[tuple[int, list[str]]] = None
    push_task: Optional[asyncio.Task] = None


class SegmentDocs:
    """The open segment-format documents of the pair manager (:mod:`.manager`, which owns one)."""

    def __init__(self, manager: ManagerRole) -> None:
        self.manager = manager
        self.docs: dict[str, SegmentPair] = {}

    # -- lifecycle ------------------------------------------------------------------
    def claims(self, uri: str) -> bool:
        if uri in self.docs:
            return True
        try:
            return segment_format(uri_path(uri)) is not None
        except Exception:
            return False

    def open(self, uri: str, text: str, version: Optional[int]) -> None:
        path = uri_path(uri)
        fmt = segment_format(path)
        assert fmt is not None
        # a large file: no collection while its objects are made, the heap frozen after (heap.py)
        with heap.quiet(text.count("\n")):
            if fmt in READERS:
                index: LiveIndex = LiveIndex(fmt, text)
            elif fmt in (XLIFF1, XLIFF2):
                index = XmlIndex(fmt, text)
            else:
                index = WholeIndex(fmt, text)
            sp = SegmentPair(uri=uri, path=path, index=index, version=version)
            self.docs[uri] = sp
            self._read_reference(sp)
            self._pair(sp)
            sp.good_problems = len(sp.index.problems)
        self._changed(sp)

    def close(self, uri: str) -> None:
        sp = self.docs.pop(uri, None)
        if sp is None:
            return
        if sp.push_task is not None:
            sp.push_task.cancel()
        if not self.manager.pull_diagnostics:
            self.manager.client.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def change(self, params: types.DidChangeTextDocumentParams) -> None:
        sp = self.docs.get(params.text_document.uri)
        if sp is None:
            return
        for ch in params.content_changes:
            rng = getattr(ch, "range", None)
            if rng is None:
                start, end = 0, len(sp.index.text)
            else:
                start = self._offset(sp, rng.start.line, rng.start.character)
                end = max(start, self._offset(sp, rng.end.line, rng.end.character))
            self._apply(sp, start, end, ch.text)
        sp.version = params.text_document.version
        self._changed(sp)

    def watched(self) -> set[Path]:
        """The reference files of the open segment documents (watched for changes on disk)."""
        return {sp.ref_path for sp in self.docs.values() if sp.ref_path is not None}

    def file_changed(self, path: Path) -> None:
        """A file changed on disk: the documents it is the reference of read it again."""
        for sp in self.docs.values():
            if sp.ref_path is not None and path_key(sp.ref_path) == path_key(path):
                sp.model, sp.frozen = None, None
                self._read_reference(sp)
                self._pair(sp)
                self._changed(sp)
                self._refresh()

    def _refresh(self) -> None:
        """Ask the editor for the hints, diagnostics and lens again (when it can be asked)."""
        manager = self.manager
        try:
            manager.publisher.schedule_refresh()
        except Exception:  # no event loop (a test driving the manager)
            pass

    def settings_changed(self) -> None:
        """Settings changed: pair every open segment document again."""
        for sp in self.docs.values():
            sp.model, sp.frozen = None, None
            self._read_reference(sp)
            self._pair(sp)
            self._changed(sp)

    # -- positions ------------------------------------------------------------------
    def _offset(self, sp: SegmentPair, line: int, character: int) -> int:
        index = sp.index
        if line >= index.line_count:
            return len(index.text)
        content = index.line(line)
        if content.endswith("\r"):
            content = content[:-1]
        return index.line_start(line) + from_units(content, character, self.manager.encoding)

    def position(self, sp: SegmentPair, offset: int) -> types.Position:
        line, col = sp.index.position(offset)
        return types.Position(line=line, character=to_units(sp.index.line(line), col, self.manager.encoding))

    def _range(self, sp: SegmentPair, a: int, b: int) -> types.Range:
        return types.Range(start=self.position(sp, a), end=self.position(sp, b))

    # -- the reference and the rows ---------------------------------------------------
    def _read_reference(self, sp: SegmentPair) -> None:
        manager = self.manager
        sp.ref, sp.ref_path = None, None
        root = manager.root_for(sp.path)
        try:
            spec = find_pair(sp.path, manager.settings, root)
        except Exception as exc:  # a bad rule: said, not raised
            sp.no_ref = f"the pairing rules could not be read ({exc})"
            return
        if spec is None or not spec.references:
            sp.no_ref = "no reference file pairs with this file (NAME.hyp.srt beside NAME.ref.srt, or a [[pairs]] rule)"
            return
        ref_path = spec.references[0]
        sp.ref_path = ref_path
        ref_format = segment_format(ref_path)
        if ref_format is None or family(ref_format) != family(sp.index.format):
            sp.no_ref = f"the reference {ref_path.name} is not a file of the same format"
            return
        if not path_allowed(ref_path, root, manager.settings):
            sp.no_ref = f"the reference {ref_path} is outside the workspace"
            return
        open_ref = next((d for d in self.docs.values() if d.path == ref_path), None)
        try:
            if open_ref is not None:
                sp.ref = open_ref.index.document()
            elif sp.index.format in READERS:
                sp.ref = LiveIndex(sp.index.format, read_text(str(ref_path))).document()
            else:
                sp.ref = read_document(str(ref_path), ref_format)
        except InputError as exc:
            sp.no_ref = str(exc)
            return
        except OSError as exc:
            sp.no_ref = f"{ref_path.name} could not be read ({exc.strerror or exc})"
            return
        except Exception as exc:  # a reader's own sentence (a malformed file)
            sp.no_ref = f"{ref_path.name} could not be read ({exc})"
            return
        sp.no_ref = None
        if sp.index.format not in TIMED:
            return
        sp.offset_ms = estimate_offset(sp.index.unshifted(), sp.ref.segments) if sp.ref.segments else 0
        starts = np.fromiter((int(s.extra["start_ms"]) for s in sp.ref.segments), np.int64, len(sp.ref.segments))  # type: ignore[call-overload]
        ends = np.fromiter((int(s.extra["end_ms"]) for s in sp.ref.segments), np.int64, len(sp.ref.segments))  # type: ignore[call-overload]
        sp.ref_order = np.argsort(starts, kind="stable")
        sp.ref_starts = starts[sp.ref_order]
        sp.ref_longest = int((ends - starts).max()) if len(starts) else 0

    def _rows(self, sp: SegmentPair, segs: list[Segment], refs: list[int], h0: int = 0) -> tuple[list[int], list[int], list[list[int]]]:
        """Rows of the cues ``segs`` (hypothesis cues h0, h0 + 1, …) against the reference cues ``refs``:
        (first cue, end cue, reference cues) of each, in file order.  A row is a run of
        hypothesis cues: groups whose cues interleave are one row."""
        assert sp.ref is not None
        if sp.index.format in TIMED:
            groups = match_by_time(segs, [sp.ref.segments[j] for j in refs], sp.offset_ms)
            spans = sorted((min(h) + h0, max(h) + h0 + 1, sorted(refs[j] for j in r)) for h, r in groups if h and r)
        else:  # by key (then the format's fallback: msgid, source text)
            hyp_doc = SegmentDocument(format=sp.index.format, segments=list(segs))
            ref_doc = SegmentDocument(format=sp.ref.format, segments=[sp.ref.segments[j] for j in refs])
            partners = pair_documents(hyp_doc, ref_doc).partners
            spans = [(i + h0, i + h0 + 1, sorted(refs[j] for j in p)) for i, p in enumerate(partners) if p]
        hs: list[int] = []
        he: list[int] = []
        rr: list[list[int]] = []
        for a, b, r in spans:
            if he and a < he[-1]:  # interleaved with the row before: one row
                he[-1] = max(he[-1], b)
                rr[-1] = sorted(rr[-1] + r)
            else:
                hs.append(a)
                he.append(b)
                rr.append(r)
        return hs, he, rr

    def _texts(self, sp: SegmentPair, hs, he, rr) -> tuple[list[str], list[str]]:
        assert sp.ref is not None
        segs = sp.index.unshifted()
        refs = sp.ref.segments
        hyp = [" ".join(t for t in (segs[i].target for i in range(a, b)) if t) for a, b in zip(hs, he)]
        ref = [" ".join(t for t in (refs[j].target for j in r) if t) for r in rr]
        return hyp, ref

    def _set_rows(self, sp: SegmentPair, hs: np.ndarray, he: np.ndarray, rr: list[list[int]]) -> None:
        assert sp.ref is not None
        n = len(sp.index)
        sp.row_hs, sp.row_he, sp.row_refs = hs, he, rr
        row_of = np.full(n, -1, np.int64)
        for r, (a, b) in enumerate(zip(hs.tolist(), he.tolist())):
            row_of[a:b] = r
        sp.row_of = row_of
        ref_row = np.full(len(sp.ref.segments), -1, np.int64)
        for r, js in enumerate(rr):
            ref_row[js] = r
        sp.ref_row = ref_row
        self._counts(sp)

    def _counts(self, sp: SegmentPair) -> None:
        sp.row_anchor = sp.row_he - 1
        sp.unpaired_hyp = int((sp.row_of < 0).sum())
        sp.unpaired_ref = int((sp.ref_row < 0).sum())

    def _pair(self, sp: SegmentPair) -> None:
        """Pair every cue (again) and splice the model's rows that differ."""
        if sp.ref is None:
            sp.model = None
            sp.row_hs = sp.row_he = sp.row_anchor = np.zeros(0, np.int64)
            sp.row_refs = []
            sp.row_of = np.full(len(sp.index), -1, np.int64)
            sp.unpaired_hyp = len(sp.index)
            return
        segs = sp.index.unshifted()  # times and texts only: no offsets needed here
        hs, he, rr = self._rows(sp, segs, list(range(len(sp.ref.segments))))
        self._set_rows(sp, np.asarray(hs, np.int64), np.asarray(he, np.int64), rr)
        hyp, ref = self._texts(sp, hs, he, rr)
        model = sp.model
        if model is None:
            sp.model = PairModel(build_metrics(self.manager.settings), hyp, [ref], lazy=True)
            return
        old_h, old_r = model.hyp, model.refs[0]
        n_old, n_new = len(old_h), len(hyp)
        a = 0
        while a < min(n_old, n_new) and old_h[a] == hyp[a] and old_r[a] == ref[a]:
            a += 1
        b = 0
        while b < min(n_old, n_new) - a and old_h[n_old - 1 - b] == hyp[n_new - 1 - b] and old_r[n_old - 1 - b] == ref[n_new - 1 - b]:
            b += 1
        if a == n_old == n_new:
            return
        model.splice_ref(0, a, n_old - b, ref[a : n_new - b])
        model.splice_hyp(a, n_old - b, hyp[a : n_new - b])

    def _repair(self, sp: SegmentPair, a: int, b: int, count: int) -> None:
        """Cues [a, b) were replaced by ``count`` new ones: pair again the rows around them only."""
        if sp.ref is None or sp.model is None or sp.index.format not in TIMED:
            self._pair(sp)
            return
        ref_segs = sp.ref.segments
        segs = sp.index.unshifted()
        d = count - (b - a)
        n_rows = len(sp.row_hs)
        # the reference cues the new cues' time may reach
        lo_c, hi_c = max(0, a - 1), min(len(segs), a + count + 1)
        cands: list[int] = []
        if hi_c > lo_c:
            t0 = min(int(segs[i].extra["start_ms"]) for i in range(lo_c, hi_c)) + sp.offset_ms  # type: ignore[call-overload]
            t1 = max(int(segs[i].extra["end_ms"]) for i in range(lo_c, hi_c)) + sp.offset_ms  # type: ignore[call-overload]
            k0 = int(np.searchsorted(sp.ref_starts, t0 - sp.ref_longest, "left"))
            k1 = int(np.searchsorted(sp.ref_starts, t1, "right"))
            cands = [int(j) for j in sp.ref_order[k0:k1] if int(ref_segs[int(j)].extra["end_ms"]) > t0]  # type: ignore[call-overload]
        touched = sp.row_of[max(0, a - 1) : min(len(sp.row_of), b + 1)]
        rows = {int(r) for r in touched if r >= 0}
        rows.update(int(sp.ref_row[j]) for j in cands if sp.ref_row[j] >= 0)
        if rows:
            r0, r1 = min(rows), max(rows) + 1
        else:
            r0 = r1 = int(np.searchsorted(sp.row_hs, a, "left"))
        h0 = min(a, int(sp.row_hs[r0])) if r0 < r1 else a
        h1 = max(b, int(sp.row_he[r1 - 1])) if r0 < r1 else b
        wrefs = sorted({j for r in range(r0, r1) for j in sp.row_refs[r]} | {j for j in cands if sp.ref_row[j] < 0 or r0 <= sp.ref_row[j] < r1})
        # cues out of time order around the window (a retimed cue moved past others): their
        # groups may reach rows outside it; pair every cue again then
        lo, hi = max(0, h0 - 1), min(len(segs), h1 + d + 1)
        starts = [int(segs[i].extra["start_ms"]) for i in range(lo, hi)]  # type: ignore[call-overload]
        if any(x > y for x, y in zip(starts, starts[1:])):
            self._pair(sp)
            return
        hs, he, rr = self._rows(sp, segs[h0 : h1 + d], wrefs, h0)
        drow = len(hs) - (r1 - r0)
        sp.row_hs = np.concatenate((sp.row_hs[:r0], np.asarray(hs, np.int64), sp.row_hs[r1:] + d))
        sp.row_he = np.concatenate((sp.row_he[:r0], np.asarray(he, np.int64), sp.row_he[r1:] + d))
        sp.row_refs[r0:r1] = rr
        mid = np.full(h1 + d - h0, -1, np.int64)
        for k, (x, y) in enumerate(zip(hs, he)):
            mid[x - h0 : y - h0] = r0 + k
        tail = sp.row_of[h1:]
        sp.row_of = np.concatenate((sp.row_of[:h0], mid, np.where(tail >= 0, tail + drow, -1)))
        ref_row = sp.ref_row
        for j in wrefs:
            ref_row[j] = -1
        if drow:
            later = ref_row >= r1
            ref_row[later] += drow
        for k, js in enumerate(rr):
            ref_row[js] = r0 + k
        self._counts(sp)
        hyp, ref = self._texts(sp, hs, he, rr)
        model = sp.model
        if model.hyp[r0:r1] != hyp or model.refs[0][r0:r1] != ref:
            model.splice_ref(0, r0, r1, ref)
            model.splice_hyp(r0, r1, hyp)

    # -- edits -------------------------------------------------------------------------
    def _apply(self, sp: SegmentPair, start: int, end: int, new: str) -> None:
        index = sp.index
        # the hint places before the edit: kept (moved through it) if it leaves the text malformed
        before = self._hint_offsets(sp) if sp.frozen is None else sp.frozen
        change = index.edit(start, end, new)
        inside = (before > start) & (before < end)
        before[inside] = start + len(new)
        before[before >= end] += change.delta
        if sp.frozen is not None:
            sp.frozen = before
        if change.kind == "none":
            if change.problems_changed:
                self._maybe_freeze(sp, before)
            return
        if change.kind == "text":
            self._recheck(sp, change.start, change.start + 1)
            if sp.frozen is None and change.text_changed and sp.model is not None:
                r = int(sp.row_of[change.start])
                if r >= 0:
                    h = range(int(sp.row_hs[r]), int(sp.row_he[r]))
                    text = " ".join(t for t in (index.segment(i).target for i in h) if t)
                    sp.model.splice_hyp(r, r + 1, [text])
            if change.problems_changed:
                self._maybe_freeze(sp, before)
            return
        # structure: the checks of the new cues, then the rows (unless malformed)
        if sp.qa is not None:
            del sp.qa[change.start : change.end]
            sp.qa[change.start : change.start] = [[] for _ in range(change.count)]
        self._recheck(sp, change.start, change.start + change.count)
        if not self._maybe_freeze(sp, before):
            self._repair(sp, change.start, change.end, change.count)

    def _maybe_freeze(self, sp: SegmentPair, before: np.ndarray) -> bool:
        """Keep the last good rows (hints at ``before``) while the text has more
        problems than when they were made; True while frozen, and when the rows
        were just made again (nothing left to pair)."""
        n = len(sp.index.problems)
        if n > sp.good_problems:
            if sp.frozen is None:
                sp.frozen = before
            return True
        sp.good_problems = n
        if sp.frozen is not None:  # well-formed again: every cue paired again
            sp.frozen = None
            self._pair(sp)
            return True
        return False

    def _hint_offsets(self, sp: SegmentPair) -> np.ndarray:
        if not len(sp.row_anchor):
            return np.zeros(0, np.int64)
        ends = sp.index.target_ends(sp.row_anchor)
        if sp.index.format == PO:  # after the closing quote of the last msgstr line
            text = sp.index.text
            ends += np.fromiter((text.startswith('"', e) for e in ends.tolist()), np.int64, len(ends))
        return ends

    # -- checks --------------------------------------------------------------------------
    def _checks(self, sp: SegmentPair) -> list[list[_Finding]]:
        if sp.qa is None:
            with heap.quiet(sp.index.line_count):
                self._all_checks(sp)
        assert sp.qa is not None
        return sp.qa

    def _all_checks(self, sp: SegmentPair) -> None:
        index = sp.index
        if index.format not in TIMED:  # the checks of these formats are the CLI's so far
            sp.qa = [[] for _ in range(len(index))]
            return
        segs = index.segments()
        where = {s.key: i for i, s in enumerate(segs)}
        sp.qa = [[] for _ in segs]
        doc = SegmentDocument(format=index.format, segments=segs)
        for f in check_cues(doc, text=index.text):
            i = where.get(f.key) if f.key is not None else None
            if i is None:
                continue
            base = segs[i].target_span[0]
            sp.qa[i].append(_Finding(f.code, f.severity, f.message, (f.span[0] - base, f.span[1] - base)))

    def _recheck(self, sp: SegmentPair, a: int, b: int) -> None:
        """The checks of cues [a, b) and of the cue after them."""
        if sp.qa is None or sp.index.format not in TIMED:
            return  # all counted on first need; subtitle checks only
        index = sp.index
        n = len(index)
        b = min(n, b + 1)
        for i in range(a, b):
            seg = index.segment(i)
            prev = [index.segment(i - 1)] if i > 0 else []
            doc = SegmentDocument(format=index.format, segments=prev + [seg])
            base = seg.target_span[0]
            sp.qa[i] = [
                _Finding(f.code, f.severity, f.message, (f.span[0] - base, f.span[1] - base))
                for f in check_cues(doc, text=index.text)
                if f.key == seg.key
            ]

    # -- answers ---------------------------------------------------------------------------
    def hints(self, params: types.InlayHintParams) -> list[types.InlayHint]:
        sp = self.docs.get(params.text_document.uri)
        hs = self.manager.settings.hints
        if sp is None or sp.model is None or not len(sp.row_hs) or not hs.enabled:
            return []
        index = sp.index
        lo = index.line_start(max(0, min(params.range.start.line, index.line_count - 1)))
        end_line = params.range.end.line
        hi = len(index.text) if end_line >= index.line_count else index.line_end(end_line)
        offsets = sp.frozen if sp.frozen is not None else self._hint_offsets(sp)
        rows = np.flatnonzero((offsets >= lo) & (offsets <= hi))[:ROW_LIMIT]
        if not len(rows):
            return []
        model = sp.model
        out = []
        for r in rows:
            r = int(r)
            if r >= model.n_paired or not model.hyp[r] or not model.refs[0][r]:
                continue
            model.ensure(r, r + 1)  # row by row: a group's rows need not be next to each other
            label = label_for(model, r, hs)
            if label is None:
                continue
            out.append(types.InlayHint(position=self.position(sp, int(offsets[r])), label=label, padding_left=True))
        return out

    def diagnostics(self, uri: str) -> list[str]:
        """The document's diagnostics as JSON texts (problems first, then the checks' findings in file order)."""
        sp = self.docs.get(uri)
        if sp is None:
            return []
        if sp.diagnostics is not None and sp.diagnostics[0] == sp.serial:
            return sp.diagnostics[1]
        out = self._diagnostics(sp)
        sp.diagnostics = (sp.serial, out)
        return out

    def _diagnostics(self, sp: SegmentPair) -> list[str]:
        out: list[str] = []
        index = sp.index
        code = "timecode" if index.format in (SRT, VTT) else "malformed"
        for p in index.problems:
            a = self.position(sp, p.offset)
            b = self.position(sp, index.line_end(p.line))
            out.append(_RANGE % (a.line, a.character, b.line, b.character) + _tail(code, "error", p.message))
        for i, found in enumerate(self._checks(sp)):
            if not found:
                continue
            line0 = index.anchor_line(i)
            for f in found:
                if f.rel_pos is None:  # counted once per finding: it moves with its cue
                    base = index.target_span(i)[0]
                    a = self.position(sp, base + f.rel[0])
                    b = self.position(sp, base + f.rel[1])
                    f.rel_pos = (a.line - line0, a.character, b.line - line0, b.character)
                    f.tail = _tail(f.code, f.severity, f.message)
                l1, c1, l2, c2 = f.rel_pos
                out.append(_RANGE % (line0 + l1, c1, line0 + l2, c2) + f.tail)
                if len(out) >= DIAGNOSTIC_LIMIT:
                    return out
        return out

    def result_id(self, uri: str) -> str:
        sp = self.docs.get(uri)
        return f"seg-{sp.serial}" if sp is not None else "none"

    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        sp = self.docs.get(params.text_document.uri)
        if sp is None:
            return None
        i = sp.index.at_line(params.position.line)
        if i is None:
            return None
        seg = sp.index.segment(i)
        what = "Cue" if sp.index.format in TIMED else "Segment"
        parts = [f"**{what} {seg.key}**"]
        if "start_ms" in seg.extra:
            parts[0] += f" · {_clock(int(seg.extra['start_ms']))} → {_clock(int(seg.extra['end_ms']))}"  # type: ignore[call-overload]
        if seg.source:
            parts.append(f"**Source:** {seg.source}")
        r = int(sp.row_of[i]) if i < len(sp.row_of) and sp.frozen is None else -1
        if r >= 0 and sp.model is not None and sp.ref is not None:
            h, refs = range(int(sp.row_hs[r]), int(sp.row_he[r])), sp.row_refs[r]
            sp.model.ensure(r, r + 1)
            label = label_for(sp.model, r, self.manager.settings.hints)
            if label:
                parts.append(f"**{label}**" + (f" (cues {', '.join(sp.index.segment(k).key for k in h)} together)" if len(h) > 1 else ""))
            ref_keys = ", ".join(sp.ref.segments[j].key for j in refs)
            parts.append(f"**Reference** (cue {ref_keys}): {sp.model.refs[0][r]}")
        elif sp.ref is None:
            parts.append(f"_Not scored: {sp.no_ref}_")
        else:
            parts.append("_No reference cue covers this cue's time: not scored._" if what == "Cue"
                         else "_No segment of the reference pairs with this one: not scored._")
        if seg.draft:
            parts.append(f"**Draft:** {seg.draft}")
        if seg.state:
            parts.append(f"**State:** {seg.state}" + (f" ({seg.state_qualifier})" if seg.state_qualifier else ""))
        for note in seg.notes:
            parts.append(f"**Note:** {note}")
        qa = self._checks(sp)
        for f in qa[i] if i < len(qa) else []:
            parts.append(f"- `{f.code}`: {f.message}")
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n".join(parts)))

    def code_actions(self, uri: str, rng: types.Range) -> list[types.CodeAction]:
        """The state actions ("Mark as translated", "Mark as final", "Remove fuzzy") of the
        segments whose target the range touches (the cursor inside one: that one): each a
        WorkspaceEdit of the open document at its version, never written by the server."""
        sp = self.docs.get(uri)
        if sp is None or sp.frozen is not None or sp.index.problems:
            return []  # a malformed buffer: its offsets are not a fresh reading's
        index = sp.index
        a = self._offset(sp, rng.start.line, rng.start.character)
        b = max(a, self._offset(sp, rng.end.line, rng.end.character))
        first = index.at_offset(a)
        if first is None:  # the range starts between targets: the first target after it
            first = next((i for i in range(len(index)) if index.target_span(i)[0] >= a), None)
            if first is None:
                return []
        segs = []
        i = first
        while i < len(index) and len(segs) < 100:
            s0, s1 = index.target_span(i)
            if s0 > b or (s1 < a):
                break
            segs.append(index.segment(i))
            i += 1
        text, fmt = index.text, index.doc_format  # XLIFF 1.2 or 2 by its root, not its name
        out: list[types.CodeAction] = []
        for action in ("translated", "final", "remove-fuzzy"):
            edits: dict[tuple[int, int], str] = {}
            n = 0
            for seg in segs:
                if action not in state_actions(fmt, seg):
                    continue
                found = state_edits(text, fmt, seg, action)
                if not found:
                    continue
                n += 1
                for x, y, t in found:
                    edits[(x, y)] = t
            if not edits:
                continue
            title = TITLES[action] + (f" ({n} segments)" if n > 1 else "")
            doc_edit = types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=sp.version),
                edits=[types.TextEdit(range=self._range(sp, x, y), new_text=t) for (x, y), t in sorted(edits.items())],
            )
            out.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix,
                                        edit=types.WorkspaceEdit(document_changes=[doc_edit])))
        return out

    def next_review(self, uri: str, line: int, character: int, direction: str = "next") -> Optional[dict[str, Any]]:
        """The start of the target of the next (previous) segment that needs review
        (:func:`~bleu_ls.segments.states.needs_review`) or has a finding, wrapping; None when none does."""
        sp = self.docs.get(uri)
        if sp is None:
            return None
        index = sp.index
        offset = self._offset(sp, line, character)
        qa = self._checks(sp)
        fmt = index.doc_format
        segs = index.unshifted()
        wanted = [i for i in range(len(index)) if (i < len(qa) and qa[i]) or needs_review(fmt, segs[i])]
        if not wanted:
            return None
        if direction == "previous":
            before = [i for i in wanted if index.target_span(i)[1] < offset]
            k = before[-1] if before else wanted[-1]
        else:
            k = next((i for i in wanted if index.target_span(i)[0] > offset), wanted[0])
        pos = self.position(sp, index.target_span(k)[0])
        return {"line": pos.line, "character": pos.character, "key": index.segment(k).key}

    async def lens(self, uri: str) -> list[types.CodeLens]:
        sp = self.docs.get(uri)
        if sp is None:
            return []
        await self._scored(sp)
        if sp.model is None:
            title = f"bleu-ls: not scored: {sp.no_ref}"
        else:
            scores = []
            for key in sp.model.metrics:
                score = sp.model.corpus(key)
                value = getattr(score, "score", score)
                scores.append(f"{key.upper() if key != 'chrf' else 'chrF'} {value:.2f}" if isinstance(value, float) and not math.isnan(value) else key)
            timed = sp.index.format in TIMED
            title = " · ".join(scores) + (f" · {len(sp.row_hs)} cue groups" if timed else f" · {len(sp.row_hs)} segments")
            if sp.unpaired_hyp or sp.unpaired_ref:
                unit = "cues" if timed else "segments"
                title += f" · {sp.unpaired_hyp} {unit} without a partner, {sp.unpaired_ref} reference {unit} without one"
        zero = types.Position(line=0, character=0)
        return [types.CodeLens(range=types.Range(start=zero, end=zero), command=types.Command(title=title, command=""))]

    async def _scored(self, sp: SegmentPair) -> None:
        """Every row counted (slices of rows, the event loop free between them)."""
        model = sp.model
        left = model.stale_count() if model is not None else 0
        while left and model is sp.model:
            now = model.refresh(max_lines=REFRESH_SLICE)
            if now >= left:  # nothing counted (rows left for a worker): stop
                return
            left = now
            await asyncio.sleep(0)

    async def corpus(self, uri: str) -> Optional[dict[str, Any]]:
        sp = self.docs.get(uri)
        if sp is None or sp.model is None:
            return None
        await self._scored(sp)
        if sp.model is None:
            return None
        out: dict[str, Any] = {"segments": len(sp.index), "rows": len(sp.row_hs), "unpairedHypothesis": sp.unpaired_hyp,
                               "unpairedReference": sp.unpaired_ref, "problems": len(sp.index.problems)}
        for key in sp.model.metrics:
            score = sp.model.corpus(key)
            out[key] = getattr(score, "score", score)
        return out

    # -- after a change: push or refresh -----------------------------------------------
    def _changed(self, sp: SegmentPair) -> None:
        sp.serial += 1
        manager = self.manager
        if manager.pull_diagnostics:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._push_now(sp)
            return
        if sp.push_task is None or sp.push_task.done():
            sp.push_task = asyncio.ensure_future(self._push_later(sp))

    async def _push_later(self, sp: SegmentPair) -> None:
        serial = -1
        while serial != sp.serial:
            serial = sp.serial
            await asyncio.sleep(PUSH_DELAY)
        if sp.uri in self.docs:
            self._push_now(sp)

    def _push_now(self, sp: SegmentPair) -> None:
        self.manager.publisher._publish_encoded(sp.uri, ",".join(self.diagnostics(sp.uri)), sp.version)


_RANGE = '{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}'
_SEVERITY_NUMBER = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def _tail(code: str, severity: str, message: str) -> str:
    return (
        f',"severity":{_SEVERITY_NUMBER.get(severity, 3)},"code":{json.dumps(code)},'
        f'"source":{json.dumps(SOURCE)},"message":{json.dumps(message)}}}'
    )


def _clock(ms: int) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{milli:03d}"
