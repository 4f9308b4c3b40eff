"""The finding record and its helpers.

:class:`Finding` is the one record every reader, check and rule makes
(:mod:`bleu_ls.formats.finding`, re-exported here).  The codes it can carry
are the rows of the rule table (:mod:`bleu_ls.qa.rules`), where :data:`CODES`,
``SETTING_OF`` and ``ORDER`` are derived: every check imports this module, and
the table imports the checks, so the lists of codes sit with the table, above
them (nothing here imports it).
"""

from __future__ import annotations

from typing import Sequence

from ..config.settings import SEVERITY_RANK
from ..formats.finding import NO_DATA, Finding

__all__ = ["INTERNAL", "NO_DATA", "REFERENCE_ERROR", "SETTINGS_PROBLEM", "ByLine", "Finding", "at_or_above", "placed"]

#: Codes outside the settings (rows of the table said always): a reference or source
#: that cannot be used, settings that could not be read.
REFERENCE_ERROR = "reference-error"
SETTINGS_PROBLEM = "settings"
#: A rule failed (a bug): said on line 1.
INTERNAL = "internal"

def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)


class ByLine(dict):
    """A rule's findings already grouped by line (line -> tuple of findings), as a rule whose
    findings are shared by many lines gives them: each finding is made once and kept under
    every line it is on, with a ``line`` of its own that may be another (the term rules:
    :meth:`bleu_ls.qa.terms.index.TermIndex.scan`).  The store keeps them so; its readers
    place them on their line (:func:`placed`) where they hand them on."""

    __slots__ = ()


def placed(i: int, fs: Sequence[Finding]) -> Sequence[Finding]:
    """Line ``i``'s findings in the store, each with ``line`` i: ``fs`` itself when they all
    have it, else copies of those that do not (a finding the store keeps under several lines)."""
    for f in fs:
        if f.line != i:
            return tuple(f if f.line == i else Finding(f.code, f.severity, f.message, f.span, i, f.start_col, f.end_col,
                                                       f.key, f.data) for f in fs)
    return fs
