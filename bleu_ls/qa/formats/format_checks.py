"""The checks of a file's own format, run with the settings' rows.

One call for the CLI and the server: :func:`findings_for` runs the check
module of the document's format (subtitles, XLIFF/TMX, PO) with each code's
row of ``diagnostics.<code>`` — a code switched off is not reported, the
severity is the row's, the subtitle limits are the rows' parameters.  Plain
Python; imports the segment checks and the diagnostics settings, nothing of
the analysis or the server.
"""

from __future__ import annotations

from typing import Any, Optional

from ...config.diagnostics import DiagnosticsSettings, SubtitleLimits
from ...formats.model import PO, SRT, TMX, VTT, XLIFF1, XLIFF2, SegmentDocument
from ..findings import Finding
from ..rules import FORMAT_SETTING_OF as SETTING_OF  # settings.diagnostics attribute per format code


def limits_of(d: DiagnosticsSettings):
    """The subtitle limits the rows give."""
    return SubtitleLimits(
        max_chars_per_line=d.chars_per_line.max_chars,
        max_lines=d.lines_per_cue.max_lines,
        max_cps=d.reading_speed.max_cps,
        min_duration_ms=d.duration_short.min_ms,
        max_duration_ms=d.duration_long.max_ms,
        min_gap_ms=d.cue_gap.min_ms,
    )


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
    if doc.format in (SRT, VTT):
        from .subtitle_checks import check_cues

        # the subtitle checks have no severity table of their own: the row's is set here
        return [Finding(c.code, sev[c.code], c.message, c.span)  # type: ignore[arg-type]
                for c in check_cues(doc, limits_of(d), text=text) if sev.get(c.code)]
    if doc.format not in (XLIFF1, XLIFF2, TMX, PO):
        return []
    # the XML and PO checks take the severities (a PO plural form's missing placeholder
    # may still be said one step softer, where the plural formula cannot be read)
    given = {c: s for c, s in sev.items() if s is not None}
    raw: list[Finding] = []
    if doc.format == PO:
        from .po_checks import check_document, problem_findings

        raw = problem_findings(doc, given)
    else:
        from .xml_checks import check_document
    raw += [f for k, fs in check_document(doc, given).items() for f in fs
            if not (f.code == "target-same-as-source" and k in said)]
    return [f for f in raw if sev.get(f.code, f.severity) is not None]
