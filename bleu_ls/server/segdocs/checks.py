"""The checks of a segment document and the diagnostics they make.

The checks and their rows are the CLI's (:func:`~bleu_ls.qa.formats.format_checks.findings_for`,
each code on/off and its severity as its ``diagnostics.<code>`` row says, the
subtitle limits the rows' parameters), counted on first need.  After an edit:

* subtitles: the checks of the cues the edit touched (and the cue after them:
  gaps and overlaps look at the cue above);
* PO, XLIFF, TMX: :class:`~bleu_ls.qa.formats.live_checks.LiveChecks` counts
  again the touched segments' own checks, their plural entries and their
  "same source" groups (a source → segments map), nothing else.

A finding (:class:`~bleu_ls.qa.findings.Finding`) is kept with its ``span``
relative to its segment's target start, so it moves with edits above it; its
diagnostic's JSON is kept in its ``cache`` (made again only when its segment
moved lines)."""

from __future__ import annotations

import json
from typing import Any, Collection, Optional

import numpy as np

from ...qa.formats.format_checks import limits_of, severities
from ...qa.formats.live_checks import LiveChecks
from ...formats.finding import PO_SYNTAX
from ...formats.l10n_paths import path_language
from ...formats.model import SegmentDocument
from ...qa.findings import Finding
from ...qa.formats.subtitle_checks import check_cues
from ..background import heap
from ..views.diaglines import not_sent_note
from ..views.render import SOURCE
from .state import TIMED, SegmentPair, position_at

#: at most this many diagnostics per document unless the caller says (setting maxProblems;
#: the first ones in file order; VS Code shows 1,000)
DIAGNOSTIC_LIMIT = 1000


def configure(sp: SegmentPair, settings: Any) -> None:
    """Take the checks' rows from ``settings`` (a :class:`~bleu_ls.config.settings.Settings`); the
    findings are counted again on next need."""
    d = settings.diagnostics
    sp.qa_rows = (severities(d), limits_of(d))
    sp.qa, sp.qa_has, sp.live_qa, sp.diagnostics = None, None, None, None


def findings(sp: SegmentPair) -> list[list[Finding]]:
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


def _put(sp: SegmentPair, i: int, found: list[Finding]) -> None:
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
_NONE: list[Finding] = []


def _own(found) -> list[Finding]:
    return [Finding(f.code, f.severity, f.message, f.span, data=f.data) for f in found] if found else _NONE


def _all_checks(sp: SegmentPair) -> None:
    index = sp.index
    sp.qa_has = None
    sev, limits = _rows(sp)
    if index.format not in TIMED:
        live = LiveChecks(index.doc_format, sev, language=path_language(sp.path))
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
        sp.qa[i].append(_relative(f, sev[f.code], segs[i].target_span))


def _relative(f: Finding, severity: str, target: Optional[tuple[int, int]]) -> Finding:
    """A cue's finding with the row's severity, its span made relative to the cue's target."""
    assert f.span is not None and target is not None  # (a cue's findings and its target have spans)
    base = target[0]
    return Finding(f.code, severity, f.message, (f.span[0] - base, f.span[1] - base))


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
        _put(sp, i, [
            _relative(f, sev[f.code], seg.target_span)
            for f in check_cues(doc, limits, text=index.buf)  # type: ignore[arg-type]
            if f.key == seg.key and sev.get(f.code)
        ])


def diagnostics_json(sp: SegmentPair, encoding: str, more: Optional[dict[int, list[Finding]]] = None,
                     untranslated: Collection[int] = frozenset(), cap: int = DIAGNOSTIC_LIMIT) -> list[str]:
    """The document's diagnostics as JSON texts: the reading's problems first, then the
    checks' findings in file order.  ``more``: the rule table's findings per segment (a file
    with no reference, rules.py); ``untranslated``: the segments it calls untranslated (no
    ``target-same-as-source`` beside it, as in ``check``).  With ``cap`` (setting
    maxProblems; 0: none) and more findings than it, the first ``cap - 1`` and our note at
    line 1 counting them all (:func:`~..views.diaglines.not_sent_note`): an editor showing
    ``cap`` per file then shows the reply as it is."""
    out = _diagnostics_json(sp, encoding, more, untranslated, cap + 1 if cap > 0 else 0)
    if 0 < cap < len(out):
        total = _count(sp, more, untranslated, sum(1 for _ in _problem_rows(sp)))
        out = out[: cap - 1] + [not_sent_note(total, cap, sp.path.name, "the first in file order")]
    return out


def _count(sp: SegmentPair, more: Optional[dict[int, list[Finding]]], untranslated: Collection[int],
           problems: int) -> int:
    """Every diagnostic of the document: the reading's ``problems`` and every finding (counted
    from the lists: no finding encoded)."""
    qa = findings(sp)
    total = problems + sum(map(len, (qa[i] for i in with_findings(sp))))
    if more:
        total += sum(map(len, more.values()))
    for i in untranslated:
        if i < len(qa):
            total -= sum(1 for f in qa[i] if f.code == "target-same-as-source")
    return total


def _problem_rows(sp: SegmentPair):
    """The reading's problems said as diagnostics (their row on), with their severity."""
    rows = _rows(sp)[0]
    for p in sp.index.problems:
        po = p.code == PO_SYNTAX
        severity = rows.get(PO_SYNTAX) if po else p.severity
        if severity:
            yield p, po, severity


def _diagnostics_json(sp: SegmentPair, encoding: str, more: Optional[dict[int, list[Finding]]],
                      untranslated: Collection[int], limit: int) -> list[str]:
    """The first ``limit`` diagnostics (0: all) as JSON texts, in file order."""
    out: list[str] = []
    index = sp.index
    # each problem's code is its reader's (malformed, timecode, po-syntax), an error; a PO
    # catalogue's is said as the CLI says it (po_checks.problem_findings): as its row says
    for p, po, severity in _problem_rows(sp):
        a = position_at(sp, p.offset, encoding)
        b = position_at(sp, index.line_end(p.line), encoding)
        message = p.message[:1].upper() + p.message[1:] + "." if po else p.message
        out.append(_RANGE % (a.line, a.character, b.line, b.character) + _tail(p.code, severity, message))
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
            # cache: (the anchor line it was made at, its JSON, its (line, column, line, column) in
            # the client's units with lines counted from the anchor line, the rest of its JSON)
            made = f.cache
            if made is not None and made[0] == line0:  # its segment has not moved lines: as made
                out.append(made[1])
            else:
                if made is None:  # counted once per finding: it moves with its segment
                    base = index.target_span(i)[0]
                    rel = f.span or (0, 0)
                    a = position_at(sp, base + rel[0], encoding)
                    b = position_at(sp, base + rel[1], encoding)
                    rel_pos, tail = (a.line - line0, a.character, b.line - line0, b.character), _tail(f.code, f.severity, f.message)
                else:
                    rel_pos, tail = made[2], made[3]
                l1, c1, l2, c2 = rel_pos
                text = _RANGE % (line0 + l1, c1, line0 + l2, c2) + tail
                f.cache = (line0, text, rel_pos, tail)
                out.append(text)
            if limit and len(out) >= limit:
                return out
    return out


_RANGE = '{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}'
_SEVERITY_NUMBER = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def _tail(code: str, severity: str, message: str) -> str:
    return (
        f',"severity":{_SEVERITY_NUMBER.get(severity, 3)},"code":{json.dumps(code)},'
        f'"source":{json.dumps(SOURCE)},"message":{json.dumps(message)}}}'
    )
