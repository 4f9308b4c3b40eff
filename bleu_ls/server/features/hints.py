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
    model.ensure(start, end)  # the visible lines first, whatever is still stale
    out = []
    for i in range(start, end):
        hyp = model.hyp[i]
        empty = not hyp.strip()
        if empty and not hs.show_on_empty:
            continue
        label = label_for(model, i, hs)
        if label is None:
            continue
        out.append(
            types.InlayHint(
                position=types.Position(line=i, character=doc.end_column(i)),
                label=label,
                padding_left=True,
                tooltip=types.MarkupContent(kind=types.MarkupKind.Markdown, value=breakdown(pair, i)),
            )
        )
    return out


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    def _inlay_hints(ls, params: types.InlayHintParams):
        return inlay_hints(ls, params)
