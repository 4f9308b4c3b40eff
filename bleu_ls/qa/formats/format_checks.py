"""The checks of a file's own format, run with the settings' rows.

One call for the CLI and the server: :func:`findings_for` runs the check
module of the document's format (its row of ``table.py``: subtitles, XLIFF/TMX, PO) with each code's
row of ``diagnostics.<code>`` — a code switched off is not reported, the
severity is the row's, the subtitle limits are the rows' parameters.  Plain
Python; imports the segment checks and the diagnostics settings, nothing of
the analysis or the server.
"""

from __future__ import annotations

from typing import Any, Optional

from ...config.diagnostics import DiagnosticsSettings
from ...formats.model import SegmentDocument
from ..findings import Finding
from ..rules import FORMAT_SETTING_OF as SETTING_OF  # settings.diagnostics attribute per format code
from .table import checks_of, limits_of

__all__ = ["SETTING_OF", "findings_for", "limits_of", "severities"]


def severities(d: DiagnosticsSettings) -> dict[str, Optional[str]]:
    """code -> the row's severity, or None when the code (or all diagnostics) is off."""
    out: dict[str, Optional[str]] = {}
    for code, attr in SETTING_OF.items():
        row = getattr(d, attr)
        out[code] = row.severity if (d.enabled and row.enabled) else None
    return out


def findings_for(doc: SegmentDocument, settings: Any, said: frozenset = frozenset(),
                 text: Optional[str] = None) -> list[Finding]:
    """Every finding of ``doc``'s own format under ``settings`` (a
    :class:`~bleu_ls.config.settings.Settings`), in the modules' order.

    ``said``: keys of segments whose copied source the rule table's
    ``untranslated`` already names (no ``target-same-as-source`` for them).
    ``text``: the decoded file (default ``doc.text``).  A line file gives none."""
    d = settings.diagnostics
    sev = severities(d)
    if not any(sev.values()):
        return []
    text = doc.text if text is None else text
    row = checks_of(doc.format)
    return row.document(doc, d, sev, said, text) if row is not None else []
