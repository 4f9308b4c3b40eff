"""``bleu-ls report``: one self-contained HTML report on one or more systems.

Plain Python over scored pairs (:class:`~bleu_ls.engine.PairModel`), so the
command line and the language server render the same report::

    from . import ReportInput, System, render_report
    html, data = render_report(ReportInput([System("A", model_a), System("B", model_b)], ["ref.txt"]))
"""

from .build import build_report
from .inputs import Options, ReportInput, System
from .render import render_html, render_report

__all__ = ["Options", "ReportInput", "System", "build_report", "render_html", "render_report"]
