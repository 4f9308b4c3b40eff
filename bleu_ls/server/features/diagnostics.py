"""Diagnostics from :mod:`bleu_ls.analysis`, pulled (``textDocument/diagnostic``)
or pushed (debounced) for clients without pull support.

The ``resultId`` is a digest of the diagnostics themselves, so a pull after
a change that altered no diagnostic also answers *unchanged*.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Union

from lsprotocol import types

from ...analysis import Analyzer, Finding, unpaired_findings

if TYPE_CHECKING:
    from ..server import BleuLanguageServer
    from ..workspace import Pair

log = logging.getLogger(__name__)

SOURCE = "bleu-ls"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def _names(pair: "Pair") -> dict:
    spec = pair.spec
    return {
        "hypothesis": pair.path.name,
        "references": [p.name for p in spec.references] if spec else [],
    }


def findings_for(ls: "BleuLanguageServer", pair: "Pair") -> list[Finding]:
    out: list[Finding] = []
    for problem in pair.problems:
        out.append(Finding(0, "reference-error", "error", problem[:1].upper() + problem[1:], 0, None, {}))
    for problem in pair.settings_problems:
        out.append(Finding(0, "settings", "warning", problem, 0, None, {}))
    if pair.model is None:
        if pair.spec is None and pair.hypothesis_like:
            out += unpaired_findings(pair.path.name, pair.settings)
        return out
    analyzer = ls.analyzers.get(pair.uri)
    if analyzer is None:
        analyzer = ls.analyzers[pair.uri] = Analyzer(pair.settings)
    analyzer.set_settings(pair.settings)
    try:
        out += analyzer.analyse(pair.model, pair.source_lines, _names(pair))
    except Exception as exc:  # never let a rule take the server down
        log.exception("analysis failed")
        out.append(Finding(0, "internal", "error", f"bleu-ls could not analyse this file: {exc}", 0, None, {}))
    return out


def to_diagnostic(ls: "BleuLanguageServer", pair: "Pair", f: Finding) -> types.Diagnostic:
    doc = ls.docs.get(pair.uri)
    n = doc.line_count if doc is not None else 1
    line = max(0, min(f.line, n - 1))
    text = doc.line(line) if doc is not None else ""
    start = doc.column(line, f.start_col or 0) if doc is not None else 0
    end_idx = len(text) if f.end_col is None else f.end_col
    end = doc.column(line, end_idx) if doc is not None else 0
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=line, character=start),
            end=types.Position(line=line, character=max(start, end)),
        ),
        message=f.message,
        severity=SEVERITY.get(str(f.severity).lower(), types.DiagnosticSeverity.Warning),
        code=f.code,
        source=SOURCE,
        data=f.data or None,
    )


def compute(ls: "BleuLanguageServer", pair: "Pair") -> tuple[list[types.Diagnostic], str]:
    """Diagnostics of the pair's current state and their result id (cached)."""
    model = pair.model
    doc = ls.docs.get(pair.uri)
    key = (
        id(model),
        model.version if model is not None else None,
        id(pair.settings),
        tuple(pair.problems),
        tuple(pair.settings_problems),
        pair.hypothesis_like,
        doc.line_count if doc is not None else 0,
    )
    cached = pair.diag_cache
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    findings = findings_for(ls, pair)
    memo = pair.diag_memo if isinstance(getattr(pair, "diag_memo", None), dict) else {}
    fresh: dict = {}
    diags = []
    for f in findings:
        text = doc.line(f.line) if doc is not None else ""
        fkey = (f.line, f.code, f.severity, f.message, f.start_col, f.end_col, text)
        d = memo.get(fkey)
        if d is None:
            d = to_diagnostic(ls, pair, f)
        fresh[fkey] = d
        diags.append(d)
    pair.diag_memo = fresh
    pair.flagged = sorted({d.range.start.line for d in diags})
    digest = hashlib.sha1()
    for k in fresh:
        digest.update(repr(k).encode("utf-8", "surrogatepass"))
    rid = digest.hexdigest()[:20]
    pair.diag_cache = (key, diags, rid)
    return diags, rid


async def pull(
    ls: "BleuLanguageServer", params: types.DocumentDiagnosticParams
) -> Union[types.RelatedFullDocumentDiagnosticReport, types.RelatedUnchangedDocumentDiagnosticReport]:
    pair = ls.pair_for(params.text_document.uri)
    if pair is None:
        if params.previous_result_id == "none":
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id="none")
        return types.RelatedFullDocumentDiagnosticReport(items=[], result_id="none")
    await ls.wait_scored(pair)
    diags, rid = compute(ls, pair)
    if params.previous_result_id == rid:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
    return types.RelatedFullDocumentDiagnosticReport(items=diags, result_id=rid)


def register(server) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def _pull(ls, params: types.DocumentDiagnosticParams):
        return await pull(ls, params)
