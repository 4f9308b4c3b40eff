"""Charts as inline SVG: the geometry is computed here, as plain shapes, and
one template macro draws any chart.  No script, no network: the charts show
in any browser, in a webview with a strict content policy, and in print.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

#: colour-blind-safe first (Okabe-Ito), then more distinct hues for many systems
PALETTE = (
    "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f00",
    "#332288", "#882255", "#44aa99", "#999933", "#aa4499", "#661100", "#6699cc",
)
#: also text (the "▲ better" / "▼ better" labels): 4.5:1 or more on white, as report.css's --win / --loss
BETTER, WORSE, NEUTRAL = "#1a7f37", "#c62828", "#9e9e9e"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


@dataclass
class Shape:
    kind: str  # rect | line | text | circle
    attrs: dict
    text: str = ""
    title: Optional[str] = None  # tooltip


@dataclass
class Chart:
    width: int
    height: int
    label: str  # what the chart shows, for screen readers
    shapes: list = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, title: Optional[str] = None) -> None:
        self.shapes.append(Shape("rect", _r(x=x, y=y, width=max(w, 0.0), height=max(h, 0.0), fill=fill), title=title))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#666", width: float = 1) -> None:
        self.shapes.append(Shape("line", _r(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **{"stroke-width": width})))

    def text(self, x: float, y: float, text: str, anchor: str = "middle", size: int = 10, fill: str = "#333") -> None:
        self.shapes.append(Shape("text", _r(x=x, y=y, fill=fill, **{"text-anchor": anchor, "font-size": size}), text))


def _r(**attrs) -> dict:
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in attrs.items()}


def nice_ceiling(v: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is ≥ v (1 for v ≤ 0)."""
    if v <= 0 or not math.isfinite(v):
        return 1.0
    exp = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if m * exp >= v * (1 - 1e-12):
            return m * exp
    return 10 * exp


def _fmt(v: float) -> str:
    """An axis label: 0.5, 25, 200, 5k, 50k, 1.2M."""
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:g}M"
    if a >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:g}" if a >= 1 or v == 0 else f"{v:.2g}"


def histogram(counts: Sequence[int], labels: Sequence[str], fill: str, name: str,
              width: int = 240, height: int = 130) -> Chart:
    """Bars of ``counts``; labels under the first, middle and last bar."""
    left, bottom, top = 30, 18, 8
    c = Chart(width, height, f"histogram of {name}'s sentence scores")
    peak = nice_ceiling(max(counts, default=0))
    plot_h = height - bottom - top
    step = (width - left - 4) / max(len(counts), 1)
    c.line(left, top + plot_h, width - 4, top + plot_h)
    c.text(left - 4, top + 4, _fmt(peak), anchor="end", size=9)
    c.text(left - 4, top + plot_h, "0", anchor="end", size=9)
    for i, n in enumerate(counts):
        h = plot_h * n / peak
        c.rect(left + i * step + 1, top + plot_h - h, step - 2, h, fill, f"{labels[i]}: {n} lines")
    for i in sorted({0, len(counts) // 2, len(counts) - 1}):
        if 0 <= i < len(labels):
            c.text(left + (i + 0.5) * step, height - 5, labels[i], size=9)
    return c


def scores_with_ci(names: Sequence[str], scores: Sequence[float], cis: Sequence[Optional[float]],
                   metric: str, width: int = 640) -> Chart:
    """Horizontal bars of corpus scores with the 95% interval as whiskers."""
    row, left, right, top = 20, 150, 50, 6
    height = top + row * len(names) + 20
    c = Chart(width, height, f"corpus {metric} per system with 95% confidence intervals")
    hi = nice_ceiling(max([s + (ci or 0) for s, ci in zip(scores, cis)], default=1))
    scale = (width - left - right) / hi
    for i, (name, s, ci) in enumerate(zip(names, scores, cis)):
        y = top + i * row
        c.text(left - 6, y + row * 0.65, name if len(name) <= 24 else name[:23] + "…", anchor="end")
        tip = f"{name}: {metric} {s:.2f}" + (f" ± {ci:.2f}" if ci is not None else "")
        c.rect(left, y + 3, s * scale, row - 6, colour(i), tip)
        if ci is not None:
            a, b = left + (s - ci) * scale, left + (s + ci) * scale
            mid = y + row / 2
            c.line(a, mid, b, mid, "#000")
            c.line(a, mid - 4, a, mid + 4, "#000")
            c.line(b, mid - 4, b, mid + 4, "#000")
        c.text(left + s * scale + (ci or 0) * scale + 4, y + row * 0.65, f"{s:.2f}", anchor="start")
    base = top + row * len(names)
    c.line(left, base, width - right, base)
    for t in (0, hi / 2, hi):
        c.text(left + t * scale, base + 13, _fmt(t), size=9)
    return c


def grouped_bars(groups: Sequence[str], series: Sequence[str], values: Sequence[Sequence[Optional[float]]],
                 metric: str, width: int = 720, height: int = 220) -> Chart:
    """One group of bars per bucket, one bar per system (``values[system][group]``)."""
    left, bottom, top = 36, 22, 8
    c = Chart(width, height, f"corpus {metric} per reference-length bucket and system")
    peak = nice_ceiling(max([v for vs in values for v in vs if v is not None], default=0))
    plot_h = height - bottom - top
    gw = (width - left - 4) / max(len(groups), 1)
    bw = min((gw - 8) / max(len(series), 1), 36.0)
    c.line(left, top + plot_h, width - 4, top + plot_h)
    for t in (0, peak / 2, peak):
        y = top + plot_h - plot_h * t / peak
        c.text(left - 4, y + 3, _fmt(t), anchor="end", size=9)
        c.line(left, y, width - 4, y, "#e4e4e4")
    for g, label in enumerate(groups):
        x0 = left + g * gw + (gw - bw * len(series)) / 2
        for s, name in enumerate(series):
            v = values[s][g]
            if v is None:
                continue
            h = plot_h * max(v, 0) / peak
            c.rect(x0 + s * bw, top + plot_h - h, max(bw - 1, 0.5), h, colour(s), f"{name}, {label}: {metric} {v:.2f}")
        c.text(left + (g + 0.5) * gw, height - 6, label, size=10)
    return c


def sorted_differences(deltas: Sequence[float], total: int, a: str, b: str,
                       width: int = 720, height: int = 200) -> Chart:
    """Per-line differences, sorted, one column per value: above the axis ``b`` is better."""
    left, top, bottom = 36, 8, 18
    c = Chart(width, height, f"per-line score difference, {b} against {a}, sorted")
    peak = nice_ceiling(max([abs(d) for d in deltas], default=0))
    mid = top + (height - top - bottom) / 2
    half = (height - top - bottom) / 2
    step = (width - left - 4) / max(len(deltas), 1)
    for i, d in enumerate(deltas):
        h = half * abs(d) / peak
        fill = BETTER if d > 0 else WORSE if d < 0 else NEUTRAL
        c.rect(left + i * step, mid - h if d > 0 else mid, max(step, 0.6), h, fill)
    c.line(left, mid, width - 4, mid, "#333")
    c.text(left - 4, top + 8, f"+{_fmt(peak)}", anchor="end", size=9)
    c.text(left - 4, mid + 3, "0", anchor="end", size=9)
    c.text(left - 4, height - bottom, f"−{_fmt(peak)}", anchor="end", size=9)
    # the sorted bars rise on the left and fall on the right: the labels go where bars are not
    c.text(left + 4, height - bottom - 4, f"▲ {b} better", anchor="start", size=10, fill=BETTER)
    c.text(width - 8, top + 10, f"▼ {a} better", anchor="end", size=10, fill=WORSE)
    shown = f"{len(deltas):,} of {total:,} lines (evenly spaced quantiles)" if len(deltas) < total else f"{total:,} lines"
    c.text(left + (width - left) / 2, height - 4, f"lines sorted by difference · {shown}", size=9)
    return c
