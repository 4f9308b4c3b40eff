"""``bleu-ls check`` output: diagnostics as compilers print them (or JSON),
a summary line per pair, errors and warnings on stderr."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional

from ...qa.findings import Finding, at_or_above


def display(p: Path) -> str:
    """A path as the user gave it: relative to the current folder when inside it."""
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return str(p)
    return str(p) if rel.startswith("..") else rel


class Report:
    """Collects what is printed and the exit status."""

    def __init__(self, fmt: str, fail_on: str, out, err) -> None:
        self.fmt = fmt
        self.fail_on = fail_on
        self.out = out
        self.err = err
        self.bad_input = False
        self.failed = False
        self.pairs: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self._warned: set[str] = set()

    # -- messages ------------------------------------------------------------
    def error(self, text: str) -> None:
        self.bad_input = True
        self.errors.append(text)
        print(f"bleu-ls check: error: {text}", file=self.err)

    def warn(self, text: str) -> None:
        if text in self._warned:
            return
        self._warned.add(text)
        print(f"bleu-ls check: warning: {text}", file=self.err)

    # -- one pair ------------------------------------------------------------
    def emit(self, shown: str, findings: list[Finding], summary: Optional[dict], info: dict) -> None:
        if self.fail_on != "never" and any(at_or_above(f.severity, self.fail_on) for f in findings):
            self.failed = True
        if self.fmt == "json":
            rec = dict(info)
            rec["diagnostics"] = [_finding_record(f) for f in findings]
            self.pairs.append(rec)
            return
        w = self.out.write
        for f in findings:
            w(f"{shown}:{f.line + 1}:{f.start_col + 1}: {f.severity}: {f.message} [{f.code}]\n")
        if summary is not None:
            w(_summary_line(shown, summary))

    def late(self, shown: str, findings: list[Finding]) -> None:
        """Findings that took the whole run (a file compared with the others), after every file's
        own: printed after the summaries; in JSON, added to the file's record."""
        if self.fail_on != "never" and any(at_or_above(f.severity, self.fail_on) for f in findings):
            self.failed = True
        if self.fmt == "json":
            for rec in self.pairs:
                if rec.get("hypothesis") == shown:
                    rec["diagnostics"].extend(_finding_record(f) for f in findings)
                    rec["diagnostics"].sort(key=lambda d: (d["line"], d["column"]))
                    return
            return
        w = self.out.write
        for f in findings:
            w(f"{shown}:{f.line + 1}:{f.start_col + 1}: {f.severity}: {f.message} [{f.code}]\n")

    # -- the end ---------------------------------------------------------------
    def finish(self) -> int:
        """Print what waits for the end (JSON); the exit status."""
        if self.fmt == "json":
            json.dump({"pairs": self.pairs, "errors": self.errors}, self.out, indent=2, ensure_ascii=False)
            self.out.write("\n")
        self.out.flush()
        if self.bad_input:
            return 2
        return 1 if self.failed else 0


def _finding_record(f: Finding) -> dict[str, Any]:
    return {
        "line": f.line + 1,
        "column": f.start_col + 1,
        "endColumn": None if f.end_col is None else f.end_col + 1,
        "severity": f.severity,
        "code": f.code,
        "message": f.message,
        "data": dict(f.data),
    }


def _summary_line(shown: str, summary: dict) -> str:
    if not summary.get("paired", True):
        return _alone_line(shown, summary)
    parts = []
    for c in summary["corpus"].values():
        value = "n/a" if c["score"] is None else f"{c['score']:.2f}"
        parts.append(f"{c['name']} {value}")
    n = summary["lines"]
    unit = "segment" if "segments" in summary else "line"
    parts.append(f"{n:,} {unit}{'s' if n != 1 else ''}")
    parts.extend(c["signature"] for c in summary["corpus"].values())
    refs = ", ".join(summary["references"])
    return f"{shown}: " + " \u00b7 ".join(parts) + f"  (against {refs})\n"


def _alone_line(shown: str, summary: dict) -> str:
    """A file checked without a reference: what was checked, and against what."""
    n = summary["lines"]
    unit = "segment" if "segments" in summary else "line"
    parts = [f"{n:,} {unit}{'s' if n != 1 else ''} checked"]
    effort = summary.get("effort")
    if effort is not None:
        parts.append(f"HTER {effort['score']:.2f} against the file's MT drafts ({effort['segments']:,} segments)")
    against = f"against {summary['source']}" if summary.get("source") else "against the file's own sources"
    return f"{shown}: " + " \u00b7 ".join(parts) + f"  ({against}; no reference, so no scores)\n"
