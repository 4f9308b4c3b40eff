"""Render a report to one self-contained HTML file with Jinja2 (autoescaped)."""

from __future__ import annotations

import json
import math
from typing import Optional

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from .build import build_report
from .inputs import ReportInput


def _num(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _signed(x: Optional[float], digits: int = 2) -> str:
    if x is None:
        return "n/a"
    return ("+" if x > 0 else "−" if x < 0 else "±") + f"{abs(x):.{digits}f}"


def _p(x: Optional[float]) -> str:
    return "" if x is None else f"{x:.4f}"


def data_block(data: dict) -> Markup:
    """The data as JSON that is safe inside a <script> element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


_ENV: Optional[Environment] = None


def environment() -> Environment:
    global _ENV
    if _ENV is None:
        env = Environment(
            loader=PackageLoader("bleu_ls.report", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters.update(num=_num, signed=_signed, p=_p, thousands=lambda n: f"{n:,}")
        _ENV = env
    return _ENV


def render_html(data: dict, view: dict) -> str:
    return environment().get_template("report.html.j2").render(data=data, view=view, json_data=data_block(data))


def render_report(inp: ReportInput) -> tuple[str, dict]:
    """(HTML, data) of a report on ``inp``."""
    data, view = build_report(inp)
    return render_html(data, view), data
