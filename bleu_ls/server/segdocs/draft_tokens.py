"""Semantic tokens of a segment document: the words of each target changed since
its draft (the line files' ``bleuChanged`` token type and legend).

A changed word of the scored text is mapped back to the file through the
segment's runs (:class:`~bleu_ls.formats.model.Run`): one token per piece of
the word the file spells on one line, never over an inline code's tag or a
PO string's quotes, never outside the target's span.  The pieces are kept per
segment key with the draft and the target's text in the file they were made
from, relative to the target's start: an edit recounts the edited segment
only, and a segment that only moved keeps its pieces.
"""

from __future__ import annotations

import re
from typing import Optional

import numpy as np

from ...postedit import changed_spans
from ...formats.model import Segment
from ..documents.document import to_units
from .drafts import SegDrafts, draft_of, spliced
from .state import SegmentPair

#: the token type (index in the line files' legend: ``bleuChanged``) and no modifier
CHANGED = 0

_WORD = re.compile(r"\S+")
_LINE = re.compile(r"[^\r\n]+")


def word_pieces(seg: Segment, text: str, start: int, end: int, base: int = 0) -> list[tuple[int, int]]:
    """File [a, b) pieces of the scored text's characters [start, end) of ``seg``:
    the runs' pieces, two joined when only an entity lies between them (no tag,
    no line break, no quote), each inside the target's span.  ``text`` is the file's
    text from offset ``base`` on (at least the target's span)."""
    t0, t1 = seg.target_span
    if not seg.runs:
        raw = [(t0 + start, t0 + end)]
    else:
        raw = []
        for r in seg.runs:
            a, b = max(start, r.text_start), min(end, r.text_start + r.length)
            if a < b:
                raw.append((r.file_start + a - r.text_start, r.file_start + b - r.text_start))
    out: list[tuple[int, int]] = []
    for a, b in raw:
        a, b = max(a, t0), min(b, t1)
        if a >= b:
            continue
        if out and _joinable(text[out[-1][1] - base : a - base]):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    split: list[tuple[int, int]] = []
    for a, b in out:  # one line each
        split.extend((m.start() + base, m.end() + base) for m in _LINE.finditer(text, a - base, b - base))
    return split


def _joinable(gap: str) -> bool:
    return len(gap) <= 12 and gap.startswith("&") and gap.endswith(";") and not any(c in gap for c in '<"\n\r')


def _length(index) -> int:
    """The length of the index's text (a live index's without joining its pieces)."""
    return len(index.buf) if hasattr(index, "buf") else len(index.text)


def segment_pieces(sp: SegmentPair, seg: Segment) -> list[tuple[int, int]]:
    """File pieces of the words of ``seg``'s target changed since its draft (none when it has no draft)."""
    d = sp.drafts
    draft = draft_of(sp, seg)
    if draft is None or not isinstance(d, SegDrafts) or draft == seg.target or not seg.target:
        return []
    t0, t1 = seg.target_span
    index = sp.index
    # the target's own text (a live index's text is in pieces: no copy of the whole file)
    raw = index.buf.slice(t0, t1) if hasattr(index, "buf") else index.text[t0:t1]
    got = d.pieces.get(seg.key)
    if got is not None and got[0] == draft and got[1] == raw:
        return [(t0 + a, t0 + b) for a, b in got[2]]
    pieces: list[tuple[int, int]] = []
    for s, e in changed_spans(draft, seg.target):
        for m in _WORD.finditer(seg.target, s, e):  # a replaced run of words: each word apart
            pieces.extend(word_pieces(seg, raw, m.start(), m.end(), t0))
    d.pieces[seg.key] = (draft, raw, [(a - t0, b - t0) for a, b in pieces])
    return pieces


def tokens_data(sp: SegmentPair, encoding: str, start_line: int = 0, end_line: Optional[int] = None) -> list[int]:
    """The LSP ``data`` of the changed words in lines [start_line, end_line) (all: None)."""
    d = sp.drafts
    index = sp.index
    if not isinstance(d, SegDrafts) or sp.frozen is not None or index.problems:
        return []  # a malformed buffer: its offsets are not a fresh reading's
    if len(d.differs) != len(index):  # out of step (should not happen)
        spliced(sp, 0, len(d.differs), len(index))
    stop = index.line_count if end_line is None else end_line
    lo = index.line_start(max(0, min(start_line, index.line_count - 1))) if index.line_count else 0
    hi = _length(index) if stop >= index.line_count else index.line_start(max(0, stop))
    out: list[int] = []
    prev_line, prev_col = 0, 0
    for i in np.flatnonzero(d.differs).tolist():
        t0, t1 = index.target_span(i)
        if t1 < lo or t0 > hi:
            continue
        seg = index.segment(i)  # its offsets now
        for a, b in segment_pieces(sp, seg):
            line, col = index.position(a)
            if line < start_line or line >= stop:
                continue
            content = index.line(line)
            ua = to_units(content, col, encoding)
            ub = to_units(content, col + (b - a), encoding)
            out.extend((line - prev_line, ua - prev_col if line == prev_line else ua, ub - ua, CHANGED, 0))
            prev_line, prev_col = line, ua
    return out
