"""File-level rules: ``line-count-mismatch`` and ``unpaired``, and the
findings for a reference or settings problem (shown on line 1)."""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

from ...config.pairing import convention_parts
from ...config.settings import Settings
from . import wording
from .context import LineContext
from ..findings import INTERNAL, REFERENCE_ERROR, SETTINGS_PROBLEM, Finding


def line_count_mismatch(ctx: LineContext, c) -> Iterator[Finding]:
    yield from line_count_findings(ctx.model, c.severity, ctx.names)


def line_count_findings(model, severity: str, names: Optional[dict] = None) -> list[Finding]:
    """One finding per reference whose line count differs from the hypothesis."""
    names = names or {}
    hyp_name = names.get("hypothesis") or "the hypothesis"
    ref_names = list(names.get("references") or [])
    n_hyp = model.n_hyp
    out = []
    for k, ref in enumerate(model.refs):
        n_ref = len(ref)
        if n_ref == n_hyp:
            continue
        rname = wording.reference_name(ref_names, k, model.n_refs)
        line = n_ref if n_hyp > n_ref else max(n_hyp - 1, 0)
        out.append(
            Finding(
                "line-count-mismatch",
                severity,
                wording.line_count(hyp_name, rname, n_hyp, n_ref),
                line=line,
                data={"hypothesisLines": n_hyp, "referenceLines": n_ref, "reference": k},
            )
        )
    return out


def unpaired_findings(
    hyp_name: str, settings: Settings, command_title: Optional[str] = "Pair with reference"
) -> list[Finding]:
    """The ``unpaired`` finding for a hypothesis-like file with no reference.

    ``command_title``: the editor command that pairs a file (None where
    there is no such command, as on the command line).
    """
    d = settings.diagnostics
    c = d.unpaired
    if not (d.enabled and c.enabled):
        return []
    parts = convention_parts(hyp_name) if hyp_name else None
    suggested = None
    if parts is not None:
        name, _marker, ext = parts
        suggested = f"{name}.ref" + (f".{ext}" if ext else "")
    return [Finding("unpaired", c.severity, wording.unpaired(hyp_name, suggested, command_title), line=0)]


def problem_findings(reference_problems: Iterable[str], settings_problems: Iterable[str]) -> list[Finding]:
    """A reference/source that cannot be used (error), settings that could
    not be read (warning): on line 1."""
    out = [Finding(REFERENCE_ERROR, "error", wording.reference_error(p), line=0) for p in reference_problems]
    out += [Finding(SETTINGS_PROBLEM, "warning", p, line=0) for p in settings_problems]
    return out


def internal_error(exc: Exception) -> Finding:
    """A rule failed: said on line 1 instead of taking the server down."""
    return Finding(INTERNAL, "error", wording.internal_error(exc), line=0)
