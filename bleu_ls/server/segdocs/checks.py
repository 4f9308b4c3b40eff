"""The checks of a segment document and the diagnostics they make.

The checks and their rows are the CLI's (:func:`~bleu_ls.qa.formats.format_checks.findings_for`,
each code on/off and its severity as its ``diagnostics.<code>`` row says, the
subtitle limits the rows' parameters), counted on first need.  After an edit:

* subtitles: the checks of the cues the edit touched (and the cue after them:
  gaps and overlaps look at the cue above);
* PO, XLIFF, TMX: :class:`~bleu_ls.qa.formats.live_checks.LiveChecks` counts
  again the touched segments' own checks, their plural entries and their
  "same source" groups (a source → segments map), nothing else.

A finding keeps its span relative to its segment's target start, so it moves
with edits above it."""

from __future__ import annotations

import json
from typing import Any, Collection, Optional

import numpy as np

from ...qa.formats.format_checks import limits_of, severities
from ...qa.formats.live_checks import LiveChecks
from ...formats.model import SegmentDocument
from ...formats.table import row
from ...qa.formats.subtitle_checks import check_cues
from ..background import heap
from ..views.render import SOURCE
from .state import TIMED, SegFinding, SegmentPair, position_at

#: at most this many diagnostics per document (the first ones in file order; VS Code shows 1,000)
DIAGNOSTIC_LIMIT = 1000


def configure(sp: SegmentPair, settings: Any) -> None:
    """Take the checks' rows from ``settings`` (a :class:`~bleu_ls.config.settings.Settings`); the
    findings are counted again on next need."""
    d = settings.diagnostics
    sp.qa_rows = (severities(d), limits_of(d))
    sp.qa, sp.qa_has, sp.live_qa, sp.diagnostics = None, None, None, None


def findings(sp: SegmentPair) -> list[list[SegFinding]]:
    """Per hypothesis segment, its checks' findings (all counted on first need)."""
    if sp.qa is None:
        with heap.quiet(sp.index.line_count):
            _all_checks(sp)
    assert sp.qa is not None
    return sp.qa


def with_findings(sp: SegmentPair) -> list[int]:
    """The hypothesis segments that have findings, in file order (kept per segment: no walk over them all)."""
    qa = findings(sp)
    if sp.qa_has is None or len(sp.qa_has) != len(qa):
        sp.qa_has = np.fromiter((bool(f) for f in qa), np.bool_, len(qa))
    return np.flatnonzero(sp.qa_has).tolist()


def _put(sp: SegmentPair, i: int, found: list[SegFinding]) -> None:
    assert sp.qa is not None
    sp.qa[i] = found
    if sp.qa_has is not None and i < len(sp.qa_has):
        sp.qa_has[i] = bool(found)


def _rows(sp: SegmentPair) -> tuple:
    if sp.qa_rows is None:
        from ...config.settings import Settings

        configure(sp, Settings())
    assert sp.qa_rows is not None
    return sp.qa_rows


#: the findings of a segment that has none: one list for all of them (a segment's list is replaced, never added to)
_NONE: list[SegFinding] = []


def _own(found) -> list[SegFinding]:
    return [SegFinding(f.code, f.severity, f.message, f.span) for f in found] if found else _NONE


def _all_checks(sp: SegmentPair) -> None:
    index = sp.index
    sp.qa_has = None
    sev, limits = _rows(sp)
    if index.format not in TIMED:
        live = LiveChecks(index.doc_format, sev)
        live.full(index)
        sp.live_qa = live
        sp.qa = [_own(live.at(i)) for i in range(len(index))]
        return
    segs = index.segments()
    where = {s.key: i for i, s in enumerate(segs)}
    sp.qa = [[] for _ in segs]
    doc = SegmentDocument(format=index.format, segments=segs)
    for f in check_cues(doc, limits, text=index.buf):  # type: ignore[arg-type]
        i = where.get(f.key) if f.key is not None else None
        if i is None or not sev.get(f.code):
            continue
        base = segs[i].target_span[0]
        sp.qa[i].append(SegFinding(f.code, sev[f.code], f.message, (f.span[0] - base, f.span[1] - base)))


def after_edit(sp: SegmentPair, change) -> None:
    """The findings of what ``change`` (the index's :class:`~bleu_ls.formats.live.offsets.Change`) touched."""
    if sp.qa is None:
        return  # all counted on first need
    if change.kind == "none":  # no segment changed (a PO header edit may change their findings)
        if sp.live_qa is not None:
            for i in sp.live_qa.update(sp.index, change):
                _put(sp, i, _own(sp.live_qa.at(i)))
        return
    a = change.start
    b, count = (a + 1, 1) if change.kind == "text" else (change.end, change.count)
    if change.kind != "text":
        del sp.qa[a:b]
        sp.qa[a:a] = [[] for _ in range(count)]
        if sp.qa_has is not None:
            sp.qa_has = np.concatenate((sp.qa_has[:a], np.zeros(count, np.bool_), sp.qa_has[b:]))
    if sp.index.format in TIMED:
        recheck(sp, a, a + count)
        return
    live = sp.live_qa
    assert isinstance(live, LiveChecks)
    more = live.update(sp.index, change)
    for i in range(a, a + count):
        _put(sp, i, _own(live.at(i)))
    for i in more:
        _put(sp, i, _own(live.at(i)))


def recheck(sp: SegmentPair, a: int, b: int) -> None:
    """The checks of cues [a, b) and of the cue after them."""
    if sp.qa is None or sp.index.format not in TIMED:
        return  # all counted on first need; subtitle checks only
    sev, limits = _rows(sp)
    index = sp.index
    n = len(index)
    b = min(n, b + 1)
    for i in range(a, b):
        seg = index.segment(i)
        prev = [index.segment(i - 1)] if i > 0 else []
        doc = SegmentDocument(format=index.format, segments=prev + [seg])
        base = seg.target_span[0]
        _put(sp, i, [
            SegFinding(f.code, sev[f.code], f.message, (f.span[0] - base, f.span[1] - base))
            for f in check_cues(doc, limits, text=index.buf)  # type: ignore[arg-type]
            if f.key == seg.key and sev.get(f.code)
        ])


def diagnostics_json(sp: SegmentPair, encoding: str, more: Optional[dict[int, list[SegFinding]]] = None,
                     untranslated: Collection[int] = frozenset()) -> list[str]:
    """The document's diagnostics as JSON texts: the reading's problems first, then the
    checks' findings in file order (at most :data:`DIAGNOSTIC_LIMIT`).  ``more``: the rule
    table's findings per segment (a file with no reference, rules.py); ``untranslated``: the
    segments it calls untranslated (no ``target-same-as-source`` beside it, as in ``check``)."""
    out: list[str] = []
    index = sp.index
    fmt = row(index.format)
    code, severity = fmt.problem_code, "error"
    if fmt.problems_checked:  # the CLI's word for them (PO: po-syntax), as its diagnostics row says
        severity = _rows(sp)[0].get(code)
    for p in index.problems if severity else ():
        a = position_at(sp, p.offset, encoding)
        b = position_at(sp, index.line_end(p.line), encoding)
        message = p.message[:1].upper() + p.message[1:] + "." if fmt.problems_checked else p.message
        out.append(_RANGE % (a.line, a.character, b.line, b.character) + _tail(code, severity, message))
    qa = findings(sp)
    segments = with_findings(sp)
    if more:
        segments = sorted(set(segments).union(more))
    for i in segments:
        line0 = index.anchor_line(i)
        own = qa[i] if i < len(qa) else _NONE
        if i in untranslated:
            own = [f for f in own if f.code != "target-same-as-source"]
        extra = more.get(i) if more else None
        for f in (own + extra if extra else own):
            if f.json is not None and f.json[0] == line0:  # its segment has not moved lines: as made
                out.append(f.json[1])
            else:
                if f.rel_pos is None:  # counted once per finding: it moves with its cue
                    base = index.target_span(i)[0]
                    a = position_at(sp, base + f.rel[0], encoding)
                    b = position_at(sp, base + f.rel[1], encoding)
                    f.rel_pos = (a.line - line0, a.character, b.line - line0, b.character)
                    f.tail = _tail(f.code, f.severity, f.message)
                l1, c1, l2, c2 = f.rel_pos
                text = _RANGE % (line0 + l1, c1, line0 + l2, c2) + f.tail
                f.json = (line0, text)
                out.append(text)
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
