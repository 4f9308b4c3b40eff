"""What the editor is shown of a segment document: the inlay hints at the end
of each row's last target, the hover of a segment, the lens and the corpus
score (every row counted in slices, the event loop free between them)."""

from __future__ import annotations

import asyncio
import math
import re
from typing import Any, Optional

import numpy as np
from lsprotocol import types

from ...config.settings import HintSettings
from ...qa.terms.load import Terms
from ..views.render import label_for
from ..views.terms_render import glossary_block
from ...postedit.source_change import source_changes
from . import drafts, effort
from ...formats.model import Segment
from ...formats.rows import show_key
from .checks import findings
from .state import TIMED, SegmentPair, position_at, visible_rows

#: at most this many rows are scored inside one inlay hint request
ROW_LIMIT = 2000
#: rows counted between two turns of the event loop when the lens needs them all
REFRESH_SLICE = 500
#: characters Markdown reads as emphasis, code, links, HTML
_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>#|~]")


def hints(sp: SegmentPair, params: types.InlayHintParams, hs: HintSettings, encoding: str) -> list[types.InlayHint]:
    """The hints of the rows whose hint falls in the requested range (at most :data:`ROW_LIMIT`)."""
    if sp.model is None:  # no reference: HTER against the drafts alone (segdocs/effort.py)
        return effort.hints_alone(sp, params, hs, encoding)
    if not len(sp.row_hs) or not hs.enabled:
        return []
    index = sp.index
    lo = index.line_start(max(0, min(params.range.start.line, index.line_count - 1)))
    end_line = params.range.end.line
    hi = len(index.buf) if end_line >= index.line_count else index.line_end(end_line)
    if sp.frozen is not None:
        rows = np.flatnonzero((sp.frozen >= lo) & (sp.frozen <= hi))[:ROW_LIMIT]
        offsets = sp.frozen[rows]
    else:  # the rows of the segments in the range only (state.py)
        rows, offsets = visible_rows(sp, lo, hi)
        rows, offsets = rows[:ROW_LIMIT], offsets[:ROW_LIMIT]
    if not len(rows):
        return []
    model = sp.model
    out = []
    for r, at in zip(rows.tolist(), offsets.tolist()):
        if r >= model.n_paired or not model.hyp[r] or not model.refs[0][r]:
            continue
        model.ensure(r, r + 1)  # row by row: a group's rows need not be next to each other
        label = label_for(model, r, hs)
        if label is None:
            continue
        label = " · ".join(x for x in (label, drafts.row_part(sp, r, hs)) if x)  # HTER against the draft
        out.append(types.InlayHint(position=position_at(sp, at, encoding), label=label, padding_left=True))
    return out


def hover(sp: SegmentPair, params: types.HoverParams, hs: HintSettings, terms: Optional[Terms] = None) -> Optional[types.Hover]:
    """The segment under the cursor, in the order a translator reads: its key (and time) with
    its score, its findings, the reference, the source, the glossary entries that apply
    (``terms``), the draft diff, state and notes."""
    i = sp.index.at_line(params.position.line)
    if i is None:
        return None
    seg = sp.index.segment(i)
    timed = sp.index.format in TIMED
    head = f"**{'Cue' if timed else 'Segment'} {_md(show_key(seg.key, 60))}**"
    if "start_ms" in seg.extra:
        head += f" · {_clock(int(seg.extra['start_ms']))} → {_clock(int(seg.extra['end_ms']))}"  # type: ignore[call-overload]
    parts = [head]
    qa = findings(sp)
    rules = sp.rules  # a file with no reference: the rule table's findings too (rules.py)
    said = rules is not None and i in rules.untranslated
    parts.extend(f"- `{f.code}`: {f.message}" for f in (qa[i] if i < len(qa) else [])
                 if not (said and f.code == "target-same-as-source"))
    if rules is not None:
        parts.extend(f"- `{f.code}`: {f.message}" for f in rules.found.get(i, ()))
    r = int(sp.row_of[i]) if i < len(sp.row_of) and sp.frozen is None else -1
    if r >= 0 and sp.model is not None and sp.ref is not None:
        h, refs = range(int(sp.row_hs[r]), int(sp.row_he[r])), sp.row_refs[r]
        sp.model.ensure(r, r + 1)
        label = label_for(sp.model, r, hs)
        if label:
            together = f" (cues {', '.join(sp.index.segment(k).key for k in h)} together)" if len(h) > 1 else ""
            parts[0] += f" · **{label}**{together}"
        where = f" (cue {', '.join(sp.ref.segments[j].key for j in refs)})" if timed else ""
        parts.append(f"**Reference:**{where} {_md(sp.model.refs[0][r])}")
    elif sp.ref is None:
        parts.append(f"_Not scored: {_md(sp.no_ref or '')}_")
    else:
        parts.append("_No reference cue covers this cue's time: not scored._" if timed
                     else "_No segment of the reference pairs with this one: not scored._")
    if seg.source:
        parts.append(f"**Source:** {_md(seg.source)}")
    elif sp.no_source:
        parts.append(f"_No source: {_md(sp.no_source)}_")
    parts.extend(source_change_parts(seg))  # a fuzzy PO entry: its #| source against the current one
    block = glossary_block(terms, seg.source, seg.target) if terms is not None else None
    if block:
        parts.append(block)
    parts.extend(drafts.hover_parts(sp, seg))  # the draft diff once the target differs from it
    if seg.state:
        parts.append(f"**State:** {seg.state}" + (f" ({seg.state_qualifier})" if seg.state_qualifier else ""))
    for note in seg.notes:
        parts.append(f"**Note:** {_md(note)}")
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n".join(parts)))


#: how the hover names a PO entry's field that changed
_FIELD_NAMES = {"msgctxt": "context", "msgid": "source", "msgid_plural": "plural source"}


def source_change_parts(seg: Segment) -> list[str]:
    """The hover's block for a fuzzy entry that keeps the source it was translated from
    (``#| msgid``…): each changed field's word diff, ~~removed~~ and **added** words
    marked as in the draft diff; nothing for any other segment."""
    if "fuzzy" not in seg.flags:
        return []
    changes = source_changes(seg.extra)
    if not changes:
        return []
    lines = ["**Source changed since it was translated:**"]
    for c in changes:
        diff = _diff_md(c.diff) if c.previous.split() != c.current.split() else "_(white space only)_"
        lines.append(f"- {_FIELD_NAMES[c.field]}: {diff}")
    return ["\n".join(lines)]


def _diff_md(ops: list[tuple[str, str]]) -> str:
    """A word diff in Markdown with the draft diff's marks: ~~removed~~ **added**, the rest plain."""
    return " ".join(_md(t) if op == "=" else f"~~{_md(t)}~~" if op == "-" else f"**{_md(t)}**" for op, t in ops)


def _md(text: str) -> str:
    """Text shown as itself in Markdown (its emphasis, code and link characters escaped)."""
    return _MD_SPECIAL.sub(r"\\\g<0>", text)


async def lens(sp: SegmentPair) -> list[types.CodeLens]:
    """One lens on the first line: the corpus scores, the rows, the segments without a partner."""
    await _scored(sp)
    if sp.model is None:
        title = f"bleu-ls: not scored: {sp.no_ref}"
    else:
        scores = []
        for key, metric in sp.model.metrics.items():
            score = sp.model.corpus(key)
            value = getattr(score, "score", score)
            scores.append(f"{metric.short} {value:.2f}{effort.paired_note(sp, key)}" if isinstance(value, float) and not math.isnan(value) else key)
        timed = sp.index.format in TIMED
        title = " · ".join(scores) + (f" · {len(sp.row_hs)} cue groups" if timed else f" · {len(sp.row_hs)} segments")
        if sp.unpaired_hyp or sp.unpaired_ref:
            unit = "cues" if timed else "segments"
            title += f" · {sp.unpaired_hyp} {unit} without a partner, {sp.unpaired_ref} reference {unit} without one"
    title = " · ".join(x for x in (title, await effort.lens_part(sp)) if x)  # HTER against the drafts
    zero = types.Position(line=0, character=0)
    return [types.CodeLens(range=types.Range(start=zero, end=zero), command=types.Command(title=title, command=""))]


async def _scored(sp: SegmentPair) -> None:
    """Every row counted (slices of rows, the event loop free between them)."""
    model = sp.model
    left = model.stale_count() if model is not None else 0
    while left and model is sp.model:
        assert model is not None  # left is 0 without one
        now = model.refresh(max_lines=REFRESH_SLICE)
        if now >= left:  # nothing counted (rows left for a worker): stop
            return
        left = now
        await asyncio.sleep(0)


async def corpus(sp: SegmentPair) -> Optional[dict[str, Any]]:
    """What ``bleuLs/corpusScore`` answers for a segment document."""
    if sp.model is None:  # no reference: the effort against the drafts only (None: none)
        return await effort.alone(sp)
    await _scored(sp)
    if sp.model is None:
        return None
    out: dict[str, Any] = {"segments": len(sp.index), "rows": len(sp.row_hs), "unpairedHypothesis": sp.unpaired_hyp,
                           "unpairedReference": sp.unpaired_ref, "problems": len(sp.index.problems)}
    for key in sp.model.metrics:
        score = sp.model.corpus(key)
        out[key] = getattr(score, "score", score)
    out.update(await effort.record(sp))  # effort, draft, tests: against the drafts (segdocs/effort.py)
    return out


def _clock(ms: int) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{milli:03d}"

