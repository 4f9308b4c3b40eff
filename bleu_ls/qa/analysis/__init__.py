"""The diagnostics rules, shared by the language server and ``bleu-ls check``.

Pure: takes a :class:`~bleu_ls.engine.PairModel` (and the source lines when
a source file is paired) and returns :class:`Finding` records.  Codes are
stable; each can be switched off and given a severity in the settings
(``diagnostics.<code>``):

``low-score``            the line's BLEU (chrF) is under the threshold
``outlier``              the line is far below this document's typical line
``empty-hypothesis``     the line is empty, the reference is not
``untranslated``         the line equals the source line
``length-ratio``         the line is much shorter/longer than the reference
``repetition``           a word or phrase repeats far more than in the reference
``line-count-mismatch``  hypothesis and reference have different line counts
``unpaired``             a hypothesis-like file with no reference

Where things are: the rule table and its loop (:mod:`.analyzer`), the
per-line context every rule reads (:mod:`.context`), one module per rule
family (:mod:`.score_rules`, :mod:`.text_rules`, :mod:`.length_rules`,
:mod:`.file_rules`), every sentence (:mod:`.wording`), the memo by line
text (:mod:`.memo`).

Cost.  :class:`Analyzer` keeps its findings by rule and by line between
passes (:mod:`.incremental`).  After an edit it finds the changed lines
(the hypothesis, reference and source lines compared at C speed), runs the
line rules on those lines only, recomputes the document-relative ones
vectorised (outlier: thresholds and medians read off sorted scores kept
between passes; misaligned: from the leaning lines kept between passes;
length-ratio, line-count: few findings) and rebuilds only the lines whose
findings moved; ``Analyzer.changed`` names them for the server, which
re-encodes just those (``bleu_ls.server.views.diaglines``).  An inserted or
deleted hypothesis line re-pairs every later line: that pass costs the
lines after it (as their scores do).  The per-line text work (tokenizing,
loops, normalising) is memoised by line content.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...config.settings import SEVERITY_RANK
    from ..findings import REFERENCE_ERROR, Finding, at_or_above, placed
    from ..rules import CODES, RULES, SETTING_OF, Rule
    from .analyzer import Analyzer, analyse
    from .context import LineContext
    from .file_rules import internal_error, line_count_findings, problem_findings, unpaired_findings
    from .score_rules import outlier_mask, outlier_select
    from .text_rules import find_repetition, pick_repetition, tandem_runs

#: Where each name of the package is (imported on first use: the rule table,
#: ``bleu_ls/qa/rules.py``, imports this package's rule modules, and the analyser runs the table).
_WHERE = {
    "SEVERITY_RANK": "...config.settings",
    "REFERENCE_ERROR": "..findings", "Finding": "..findings", "at_or_above": "..findings", "placed": "..findings",
    "CODES": "..rules", "RULES": "..rules", "SETTING_OF": "..rules", "Rule": "..rules",
    "Analyzer": ".analyzer", "analyse": ".analyzer",
    "LineContext": ".context",
    "internal_error": ".file_rules", "line_count_findings": ".file_rules", "problem_findings": ".file_rules",
    "unpaired_findings": ".file_rules",
    "outlier_mask": ".score_rules", "outlier_select": ".score_rules",
    "find_repetition": ".text_rules", "pick_repetition": ".text_rules", "tandem_runs": ".text_rules",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value

__all__ = [
    "CODES",
    "REFERENCE_ERROR",
    "RULES",
    "SETTING_OF",
    "SEVERITY_RANK",
    "Analyzer",
    "Finding",
    "LineContext",
    "Rule",
    "analyse",
    "at_or_above",
    "find_repetition",
    "internal_error",
    "line_count_findings",
    "outlier_mask",
    "outlier_select",
    "pick_repetition",
    "placed",
    "problem_findings",
    "tandem_runs",
    "unpaired_findings",
]
