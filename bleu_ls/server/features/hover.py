"""Hover on a hypothesis line: the score's breakdown, the reference and
source lines, the reference n-grams the line misses, the change since the
document was opened."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

if TYPE_CHECKING:
    from ..server import BleuLanguageServer
    from ..workspace import Pair

MAX_MISSING = 12


def _f(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _short(key: str) -> str:
    return "BLEU" if key == "bleu" else "chrF"


def line_delta(pair: "Pair", key: str, i: int) -> Optional[float]:
    base = pair.baseline_lines.get(key)
    model = pair.model
    if base is None or model is None or i >= len(base):
        return None
    now, then = model.line_value(key, i), float(base[i])
    if now is None or math.isnan(then):
        return None
    return now - then


def breakdown(pair: "Pair", i: int) -> str:
    """A compact breakdown (inlay hint tooltip)."""
    model = pair.model
    out = []
    for key, metric in model.metrics.items():
        s = model.line_score(key, i)
        if s is None:
            continue
        if key == "bleu":
            prec = " / ".join(_f(p, 1) for p in s.precisions)
            out.append(
                f"**{metric.name} {_f(s.score)}** — precisions {prec} · BP {_f(s.bp, 3)} · "
                f"hyp {s.sys_len} / ref {s.ref_len} tokens"
            )
        else:
            out.append(f"**{metric.name} {_f(s.score)}**")
        if s.error:
            out.append(f"({s.error})")
    return "  \n".join(out)


def missing_ngrams(metric, hyp: str, refs: list[str], max_n: int = 2) -> list[str]:
    """Reference n-grams (n ≤ max_n) the hypothesis line lacks, as BLEU clips them."""
    h = metric.tokens(hyp)
    rs = [metric.tokens(r) for r in refs]
    out: list[str] = []
    for n in range(1, max_n + 1):
        hc = Counter(tuple(h[j : j + n]) for j in range(len(h) - n + 1))
        rc: Counter = Counter()
        for r in rs:
            c = Counter(tuple(r[j : j + n]) for j in range(len(r) - n + 1))
            for g, k in c.items():
                rc[g] = max(rc[g], k)
        for g, k in rc.items():
            if k > hc.get(g, 0):
                out.append(" ".join(g))
    return out


def hover_text(pair: "Pair", i: int) -> Optional[str]:
    model = pair.model
    if model is None or not 0 <= i < model.n_paired:
        return None
    parts = [f"### Line {i + 1:,}"]
    for key, metric in model.metrics.items():
        s = model.line_score(key, i)
        if s is None:
            continue
        d = line_delta(pair, key, i)
        delta = f" (Δ {d:+.2f} since open)" if d is not None else ""
        parts.append(f"**{metric.name} {_f(s.score)}**{delta}")
        if s.error:
            parts.append(f"_{s.error}_")
        if key == "bleu":
            rows = ["| n | matches / total | precision |", "|---|---|---|"]
            for n, (c, t) in enumerate(zip(s.counts, s.totals), start=1):
                p = s.precisions[n - 1] if n - 1 < len(s.precisions) else None
                rows.append(f"| {n} | {c} / {t} | {_f(p, 1)} |")
            parts.append("\n".join(rows))
            parts.append(f"BP {_f(s.bp, 4)} · hypothesis {s.sys_len} tokens · reference {s.ref_len} tokens")
        elif s.extra:
            extras = ", ".join(f"{k} {v if not isinstance(v, float) else _f(v)}" for k, v in s.extra.items() if not isinstance(v, (list, dict)))
            if extras:
                parts.append(extras)
        parts.append(f"`{metric.signature(model.n_refs, sentence=True)}`")
    refs = model.ref_lines(i)
    for k, r in enumerate(refs):
        name = "Reference" if len(refs) == 1 else f"Reference {k + 1}"
        parts.append(f"**{name}:** {_quote(r)}")
    if pair.source_lines is not None and i < len(pair.source_lines):
        parts.append(f"**Source:** {_quote(pair.source_lines[i])}")
    metric = model.metrics.get("bleu") or next(iter(model.metrics.values()))
    missing = missing_ngrams(metric, model.hyp[i], refs)
    if missing:
        shown = ", ".join(f"`{m}`" for m in missing[:MAX_MISSING])
        more = f" (+{len(missing) - MAX_MISSING} more)" if len(missing) > MAX_MISSING else ""
        parts.append(f"**Missing reference n-grams:** {shown}{more}")
    return "\n\n".join(parts)


def _quote(text: str) -> str:
    text = text.replace("`", "\\`").replace("*", "\\*").replace("_", "\\_")
    return text if text.strip() else "_(empty)_"


def hover(ls: "BleuLanguageServer", params: types.HoverParams) -> Optional[types.Hover]:
    pair = ls.pair_for(params.text_document.uri)
    if pair is None or pair.model is None:
        return None
    text = hover_text(pair, params.position.line)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def _hover(ls, params: types.HoverParams):
        return hover(ls, params)
