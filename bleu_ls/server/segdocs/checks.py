"""The checks of a segment document and the diagnostics they make.

The subtitle checks (:mod:`bleu_ls.segments.subtitle_checks`) are kept per
cue, counted on first need and again for the cues an edit touched (and the
cue after them: gaps and overlaps look at the cue above); a finding keeps its
span relative to its segment's target, so it moves with edits above it."""

from __future__ import annotations

import json

from ...segments.model import SRT, VTT, SegmentDocument
from ...segments.subtitle_checks import check_cues
from ..background import heap
from ..views.render import SOURCE
from .state import TIMED, SegFinding, SegmentPair, position_at

#: at most this many diagnostics per document (the first ones in file order; VS Code shows 1,000)
DIAGNOSTIC_LIMIT = 1000


def findings(sp: SegmentPair) -> list[list[SegFinding]]:
    """Per hypothesis segment, its checks' findings (all counted on first need)."""
    if sp.qa is None:
        with heap.quiet(sp.index.line_count):
            _all_checks(sp)
    assert sp.qa is not None
    return sp.qa


def _all_checks(sp: SegmentPair) -> None:
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
        sp.qa[i].append(SegFinding(f.code, f.severity, f.message, (f.span[0] - base, f.span[1] - base)))


def recheck(sp: SegmentPair, a: int, b: int) -> None:
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
            SegFinding(f.code, f.severity, f.message, (f.span[0] - base, f.span[1] - base))
            for f in check_cues(doc, text=index.text)
            if f.key == seg.key
        ]


def diagnostics_json(sp: SegmentPair, encoding: str) -> list[str]:
    """The document's diagnostics as JSON texts: the reading's problems first, then the
    checks' findings in file order (at most :data:`DIAGNOSTIC_LIMIT`)."""
    out: list[str] = []
    index = sp.index
    code = "timecode" if index.format in (SRT, VTT) else "malformed"
    for p in index.problems:
        a = position_at(sp, p.offset, encoding)
        b = position_at(sp, index.line_end(p.line), encoding)
        out.append(_RANGE % (a.line, a.character, b.line, b.character) + _tail(code, "error", p.message))
    for i, found in enumerate(findings(sp)):
        if not found:
            continue
        line0 = index.anchor_line(i)
        for f in found:
            if f.rel_pos is None:  # counted once per finding: it moves with its cue
                base = index.target_span(i)[0]
                a = position_at(sp, base + f.rel[0], encoding)
                b = position_at(sp, base + f.rel[1], encoding)
                f.rel_pos = (a.line - line0, a.character, b.line - line0, b.character)
                f.tail = _tail(f.code, f.severity, f.message)
            l1, c1, l2, c2 = f.rel_pos
            out.append(_RANGE % (line0 + l1, c1, line0 + l2, c2) + f.tail)
            if len(out) >= DIAGNOSTIC_LIMIT:
                return out
    return out


_RANGE = '{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}'
_SEVERITY_NUMBER = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def _tail(code: str, severity: str, message: str) -> str:
    return (
        f',"severity":{_SEVERITY_NUMBER.get(severity, 3)},"code":{json.dumps(code)},'
        f'"source":{json.dumps(SOURCE)},"message":{json.dumps(message)}}}'
    )
