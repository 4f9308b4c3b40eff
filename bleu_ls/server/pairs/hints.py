"""Inlay hints of a line file: each scored hypothesis line's score at the end
of the line, sent as the ready JSON text of the reply; a large document's
first hints from its preview; a few heavy lines of the range waited for."""

from __future__ import annotations

import asyncio
import time
from json.encoder import encode_basestring_ascii as _json_str
from typing import TYPE_CHECKING, Optional, Union

from lsprotocol import types

from ..postedit.compare import hint_part
from ..views.effort_render import hter_label
from ..wire.protocol import Encoded
from ..views.render import RenderedHints, breakdown, breakdown_of, label_for, pending_sentence

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager  # what it uses of the manager

__all__ = ["ENSURE_LIMIT", "label_for", "hint_items", "inlay_hints", "inlay_hints_encoded", "wait_for_heavy_lines", "resolve"]

#: At most this many unscored lines are scored inside one inlay hint request;
#: a bigger range (Neovim asks for the whole buffer) gets the lines scored so
#: far plus this many, and a ``workspace/inlayHint/refresh`` once the
#: background scoring is done.
ENSURE_LIMIT = 1000
#: A request whose range holds at most this many heavy lines not counted yet
#: (an edited TER line over the cheap length, counted in the worker thread)
#: waits up to HEAVY_WAIT seconds for them, the event loop free meanwhile:
#: their count takes a few milliseconds, far less than the refresh round trip
#: (the editor asks again after its own delay) that the answer without them
#: would need.  Lines over the length cap take seconds: never waited for.
HEAVY_WAIT_LINES = 8
HEAVY_WAIT = 0.04


def _resolve_tooltip(manager: "PairManager") -> bool:
    td = manager.caps.text_document
    ih = td.inlay_hint if td else None
    rs = ih.resolve_support if ih else None
    return bool(rs and "tooltip" in (rs.properties or []))


def _preview_hints(manager: "PairManager", pair, doc, params: types.InlayHintParams) -> Optional[list[types.InlayHint]]:
    """Hints of a large document still being opened, from its preview (the
    lines asked for only); None when the model must be built first."""
    hs = pair.settings.hints
    preview = pair.preview
    start = max(0, params.range.start.line)
    end = params.range.end.line + 1
    if hs.hter or pair.compare is not None:
        return None
    if not hs.enabled:
        return []
    lazy_tooltip = _resolve_tooltip(manager)
    out = []
    stop = min(end, start + ENSURE_LIMIT)
    if start >= stop:
        return []
    if not all(preview.known(i) for i in (start, stop - 1)):
        if preview.wait_is_short():
            return None
        pair.hints_pending = True  # asked again once the model is built
    if end > stop and preview.known(stop) and doc.has_line(stop):
        pair.hints_pending = True  # the rest once the model is built and scored
    for i in range(start, stop):
        if preview.known(i) and not doc.has_line(i):
            break
        hyp = preview.hyp(i)
        if hyp is None or (not hyp.strip() and not hs.show_on_empty):
            continue
        label = label_for(preview, i, hs)
        if label is None:
            continue
        hint = types.InlayHint(
            position=types.Position(line=i, character=doc.end_column(i)), label=label, padding_left=True
        )
        if lazy_tooltip:
            hint.data = {"uri": params.text_document.uri, "line": i, "version": 0}
        else:
            hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=breakdown_of(preview, i))
        out.append(hint)
    return out


async def wait_for_heavy_lines(manager: "PairManager", params: types.InlayHintParams) -> bool:
    """Wait (HEAVY_WAIT at most) while a few heavy lines of the range are
    counted in the background; True when it waited and they were counted."""
    pair = manager.peek(params.text_document.uri)
    model = pair.model if pair is not None and pair.preview is None else None
    if model is None:
        return False
    assert pair is not None  # the model is the pair's
    start = max(0, params.range.start.line)
    end = min(params.range.end.line + 1, model.n_paired)
    if start >= end:
        return False
    stale = (~model.scored_mask(start, end)).nonzero()[0]
    if not 0 < len(stale) <= HEAVY_WAIT_LINES * 4:
        return False
    heavy = [start + int(k) for k in stale if model.is_heavy(start + int(k))]
    if not heavy or len(heavy) > HEAVY_WAIT_LINES or any(model.is_long(i) for i in heavy):
        return False
    manager.score_rest_later(pair)
    version, deadline = model.version, time.monotonic() + HEAVY_WAIT
    while time.monotonic() < deadline:
        await asyncio.sleep(0.001)
        if pair.model is not model or model.version != version:
            return False
        if all(model.scored_mask(i, i + 1)[0] for i in heavy):
            return True
    return False


def hint_items(manager: "PairManager", params: types.InlayHintParams) -> Union[list[types.InlayHint], list[tuple]]:
    """The hints of the range: InlayHint objects from a preview (a large
    document being opened), else tuples ``(line, column, label, tooltip,
    version)`` (``tooltip`` None: the editor resolves it)."""
    uri = params.text_document.uri
    doc = manager.docs.get(uri)
    pair = manager.peek(uri)
    if pair is not None and pair.preview is not None and doc is not None:
        answer = _preview_hints(manager, pair, doc, params)
        if answer is not None:
            return answer
    pair = manager.pair_for(uri)
    if pair is None or pair.model is None or doc is None:
        return []
    hs = pair.settings.hints
    if not hs.enabled:
        return []
    model = pair.model
    start = max(0, params.range.start.line)
    end = min(params.range.end.line + 1, model.n_paired)
    if start >= end:
        return []
    stale = int(end - start - model.scored_mask(start, end).sum())
    if stale <= ENSURE_LIMIT:
        model.ensure(start, end)  # the requested lines first, before the rest of the file
    else:
        model.ensure(start, min(end, start + ENSURE_LIMIT))
    scored = model.scored_mask(start, end)
    if not scored.all():  # heavy lines (never scored here) or more than the limit
        manager.score_rest_later(pair)
    lazy_tooltip = _resolve_tooltip(manager)
    cache = RenderedHints.of(pair, model, hs)
    keys = model.row_keys(start, end)
    hyp = model.hyp
    extra = hs.hter or (pair.compare is not None and pair.settings.compare.hint)
    out = []
    for i in range(start, end):
        if not scored[i - start]:
            continue
        if not hs.show_on_empty and not hyp[i].strip():
            continue
        label, tooltip = cache.get(keys[i - start], model, i, not lazy_tooltip)
        if extra:
            if hs.hter:
                label = " · ".join(x for x in (label, hter_label(pair, i, hs.hter_format, "HTER {hter:.1f}")) if x) or None
            other = hint_part(pair, i)
            if other:
                label = f"{label} · {other}" if label else other
        if label is None:
            continue
        out.append((i, doc.end_column(i), label, None if lazy_tooltip else tooltip, model.version))
    return out


def inlay_hints(manager: "PairManager", params: types.InlayHintParams) -> list[types.InlayHint]:
    items = hint_items(manager, params)
    if not items or isinstance(items[0], types.InlayHint):
        return items  # type: ignore[return-value]
    uri = params.text_document.uri
    out = []
    for i, col, label, tooltip, version in items:
        hint = types.InlayHint(position=types.Position(line=i, character=col), label=label, padding_left=True)
        if tooltip is None:
            hint.data = {"uri": uri, "line": i, "version": version}
        else:
            hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=tooltip)
        out.append(hint)
    return out


def inlay_hints_encoded(manager: "PairManager", params: types.InlayHintParams) -> Union[list[types.InlayHint], Encoded]:
    """:func:`inlay_hints` as the JSON text of the reply (what the converter
    would make of the objects, without building and unstructuring them)."""
    items = hint_items(manager, params)
    if not items or isinstance(items[0], types.InlayHint):
        return items  # type: ignore[return-value]
    s = _json_str
    uri = s(params.text_document.uri)
    parts = []
    for i, col, label, tooltip, version in items:
        head = f'{{"position":{{"line":{i},"character":{col}}},"label":{s(label)},'
        if tooltip is None:
            parts.append(f'{head}"paddingLeft":true,"data":{{"uri":{uri},"line":{i},"version":{version}}}}}')
        else:
            parts.append(f'{head}"tooltip":{{"kind":"markdown","value":{s(tooltip)}}},"paddingLeft":true}}')
    return Encoded("[" + ",".join(parts) + "]")


def resolve(manager: "PairManager", hint: types.InlayHint) -> types.InlayHint:
    data = hint.data if isinstance(hint.data, dict) else None
    if not data:
        return hint
    pair = manager.pair_for(data.get("uri", ""))
    line = data.get("line")
    if pair is None or pair.model is None or not isinstance(line, int) or not 0 <= line < pair.model.n_paired:
        return hint
    if not pair.model.scored_mask(line, line + 1).all() and pair.model.is_heavy(line):  # never scored here
        hint.tooltip = pending_sentence(pair.model, line)
        return hint
    hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=breakdown(pair, line))
    return hint
