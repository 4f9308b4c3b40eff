"""Inlay hints: each scored hypothesis line's score at the end of the line."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from ...settings import HintSettings
from .hover import breakdown

if TYPE_CHECKING:
    from ..server import BleuLanguageServer

_DEFAULT = HintSettings()


def label_for(model, i: int, hs: HintSettings) -> Optional[str]:
    parts = []
    for key, metric in model.metrics.items():
        value = model.line_value(key, i)
        fmt = hs.bleu_format if key == "bleu" else hs.chrf_format
        default = _DEFAULT.bleu_format if key == "bleu" else _DEFAULT.chrf_format
        if value is None or (isinstance(value, float) and math.isnan(value)):
            short = "BLEU" if key == "bleu" else "chrF"
            parts.append(f"{short} n/a")
            continue
        try:
            parts.append(fmt.format(**{key: value}))
        except Exception:  # a bad template in the settings
            parts.append(default.format(**{key: value}))
    return " · ".join(parts) if parts else None


#: At most this many unscored lines are scored inside one inlay hint request;
#: a bigger range (Neovim asks for the whole buffer) gets the lines scored so
#: far plus this many, and a ``workspace/inlayHint/refresh`` once the
#: background scoring is done.
ENSURE_LIMIT = 1000


def _resolve_tooltip(ls: "BleuLanguageServer") -> bool:
    td = ls.caps.text_document
    ih = td.inlay_hint if td else None
    rs = ih.resolve_support if ih else None
    return bool(rs and "tooltip" in (rs.properties or []))


def inlay_hints(ls: "BleuLanguageServer", params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    pair = ls.pair_for(uri)
    doc = ls.docs.get(uri)
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
    fresh = model._fresh
    stale = int(end - start - fresh[start:end].sum())
    if stale <= ENSURE_LIMIT:
        model.ensure(start, end)  # the requested lines first, before the rest of the file
    else:
        model.ensure(start, min(end, start + ENSURE_LIMIT))
        pair.hints_pending = True
        ls.start_scoring(pair)
    lazy_tooltip = _resolve_tooltip(ls)
    out = []
    for i in range(start, end):
        if not fresh[i]:
            continue
        hyp = model.hyp[i]
        if not hyp.strip() and not hs.show_on_empty:
            continue
        label = label_for(model, i, hs)
        if label is None:
            continue
        hint = types.InlayHint(
            position=types.Position(line=i, character=doc.end_column(i)),
            label=label,
            padding_left=True,
        )
        if lazy_tooltip:
            hint.data = {"uri": uri, "line": i, "version": model.version}
        else:
            hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=breakdown(pair, i))
        out.append(hint)
    return out


def resolve(ls: "BleuLanguageServer", hint: types.InlayHint) -> types.InlayHint:
    data = hint.data if isinstance(hint.data, dict) else None
    if not data:
        return hint
    pair = ls.pair_for(data.get("uri", ""))
    line = data.get("line")
    if pair is None or pair.model is None or not isinstance(line, int) or not 0 <= line < pair.model.n_paired:
        return hint
    hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=breakdown(pair, line))
    return hint


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    def _inlay_hints(ls, params: types.InlayHintParams):
        return inlay_hints(ls, params)

    @server.feature(types.INLAY_HINT_RESOLVE)
    def _resolve(ls, hint: types.InlayHint):
        return resolve(ls, hint)
