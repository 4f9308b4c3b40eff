"""The finding record and the codes it can carry.

:class:`Finding` is the one record every reader, check and rule makes
(:mod:`bleu_ls.formats.finding`, re-exported here).  The codes are the rows of
the rule table (:mod:`bleu_ls.qa.rules`); :data:`CODES`, :data:`SETTING_OF`
and :data:`ORDER` are derived from it, on first use: the table's rule modules
import this module for :class:`Finding`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..config.settings import SEVERITY_RANK
from ..formats.finding import NO_DATA, Finding

if TYPE_CHECKING:
    from .rules import CODES, ORDER, SETTING_OF

__all__ = ["CODES", "INTERNAL", "NO_DATA", "ORDER", "REFERENCE_ERROR", "SETTINGS_PROBLEM", "SETTING_OF", "Finding",
           "at_or_above"]

#: Codes outside the settings (rows of the table said always): a reference or source
#: that cannot be used, settings that could not be read.
REFERENCE_ERROR = "reference-error"
SETTINGS_PROBLEM = "settings"
#: A rule failed (a bug): said on line 1.
INTERNAL = "internal"

#: derived from the rule table (bleu_ls/qa/rules.py)
_DERIVED = ("CODES", "SETTING_OF", "ORDER")


def __getattr__(name: str) -> Any:
    """:data:`CODES` (the line files' switchable codes, in the order findings on one
    line are listed), :data:`SETTING_OF` (their settings attributes) and :data:`ORDER`
    (code -> its place), from the rule table."""
    if name in _DERIVED:
        from . import rules

        value = getattr(rules, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)
