"""The finding record and the codes it can carry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..config.settings import SEVERITY_RANK

#: The codes of the rule table, in the order findings on one line are listed.
#: Each can be switched off and given a severity (``diagnostics.<code>``).
CODES = (
    "low-score",
    "outlier",
    "empty-hypothesis",
    "untranslated",
    "length-ratio",
    "repetition",
    "line-count-mismatch",
    "unpaired",
    "number-mismatch",
    "markup-mismatch",
    "unbalanced",
    "end-punctuation",
    "wrong-language",
    "misaligned",
    "adequacy",
)
#: settings.diagnostics attribute per code
SETTING_OF = {code: code.replace("-", "_") for code in CODES}
#: Codes outside the settings: a reference or source that cannot be used,
#: settings that could not be read.
REFERENCE_ERROR = "reference-error"
SETTINGS_PROBLEM = "settings"
#: A rule failed (a bug): said on line 1.
INTERNAL = "internal"
ORDER = {code: i for i, code in enumerate(CODES)}


@dataclass
class Finding:
    """One diagnostic: 0-based line, columns in code points."""

    line: int
    code: str
    severity: str
    message: str
    start_col: int = 0
    #: None = to the end of the line
    end_col: Optional[int] = None
    data: dict = field(default_factory=dict)


def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)
