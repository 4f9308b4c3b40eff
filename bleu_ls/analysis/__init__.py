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

Cost.  What is vectorised over ``model.values()`` / the BLEU statistics
(low-score, outlier, length-ratio) costs array operations.  The checks that
read the text (empty, untranslated, repetition) are cached by line content
in :class:`Analyzer`, so re-analysing a 100k-line document after an edit
costs one dictionary lookup per line plus the edited lines.
"""

from ..settings import SEVERITY_RANK
from .analyzer import RULES, Analyzer, Rule, analyse
from .context import LineContext
from .file_rules import internal_error, line_count_findings, problem_findings, unpaired_findings
from .findings import CODES, REFERENCE_ERROR, SETTING_OF, Finding, at_or_above
from .score_rules import outlier_mask, outlier_select
from .text_rules import find_repetition, pick_repetition, tandem_runs

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
    "problem_findings",
    "tandem_runs",
    "unpaired_findings",
]
