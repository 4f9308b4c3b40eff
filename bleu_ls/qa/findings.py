"""The finding record and its helpers.

:class:`Finding` is the one record every reader, check and rule makes
(:mod:`bleu_ls.formats.finding`, re-exported here).  The codes it can carry
are the rows of the rule table (:mod:`bleu_ls.qa.rules`), where :data:`CODES`,
``SETTING_OF`` and ``ORDER`` are derived: every check imports this module, and
the table imports the checks, so the lists of codes sit with the table, above
them (nothing here imports it).
"""

from __future__ import annotations

from ..config.settings import SEVERITY_RANK
from ..formats.finding import NO_DATA, Finding

__all__ = ["INTERNAL", "NO_DATA", "REFERENCE_ERROR", "SETTINGS_PROBLEM", "Finding", "at_or_above"]

#: Codes outside the settings (rows of the table said always): a reference or source
#: that cannot be used, settings that could not be read.
REFERENCE_ERROR = "reference-error"
SETTINGS_PROBLEM = "settings"
#: A rule failed (a bug): said on line 1.
INTERNAL = "internal"

def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)
