"""The rule table: one row per diagnostic code the analyser runs, and how it is run after an edit.

A rule is a function ``rule(ctx, check) -> findings`` of the shared
:class:`~.context.LineContext` and its own settings (``diagnostics.<code>``);
a new check is one function in the module of its family and one row in
:data:`RULES`.  :class:`~.analyzer.Analyzer` runs the table.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

from .analysis import file_rules, length_rules, qe_rules, score_rules, source_rules, text_rules
from .analysis.context import LineContext
from .analysis.incremental import DELTA, DOC, LINE


class Rule(NamedTuple):
    code: str
    #: the findings (Iterable[Finding]); a "delta" rule's (see ``kind``): (findings by line, changed lines)
    check: Callable[[LineContext, Any], Any]
    #: also run on a pair with no paired line
    file_level: bool = False
    #: how it is run after an edit (see :mod:`.incremental`): "line" rules
    #: report on the lines in ``ctx.scope``; "doc" rules on the whole
    #: document every pass; "delta" rules return (findings by line, changed lines)
    kind: str = DOC
    #: "line" rules: what every line's verdict depends on besides the line
    #: (when it changes, the rule reports on every line again)
    params: Optional[Callable[[LineContext, Any], Any]] = None
    #: reads the reference (scores, its lengths, its lines): not run on a file
    #: checked without one (a PO, XLIFF, TMX or subtitle file alone, or a
    #: line file with its source only)
    needs_reference: bool = False


RULES: tuple[Rule, ...] = (
    Rule("empty-hypothesis", text_rules.empty_hypothesis, kind=LINE, needs_reference=True),
    Rule("repetition", text_rules.repetition, kind=LINE),
    Rule("untranslated", text_rules.untranslated, kind=LINE),
    Rule("low-score", score_rules.low_score, kind=LINE, needs_reference=True),
    Rule("outlier", score_rules.outlier, kind=DELTA, needs_reference=True),
    Rule("length-ratio", length_rules.length_ratio, kind=LINE, params=length_rules.length_params, needs_reference=True),
    Rule("line-count-mismatch", file_rules.line_count_mismatch, file_level=True, needs_reference=True),
    Rule("number-mismatch", source_rules.number_mismatch, kind=LINE),
    Rule("markup-mismatch", source_rules.markup_mismatch, kind=LINE),
    Rule("unbalanced", source_rules.unbalanced, kind=LINE),
    Rule("end-punctuation", source_rules.end_punctuation, kind=LINE),
    Rule("wrong-language", source_rules.wrong_language, kind=LINE, params=source_rules.language_params),
    Rule("misaligned", source_rules.misaligned, needs_reference=True),
    Rule("adequacy", qe_rules.adequacy),
)

#: The codes that need a reference (the rest run on a file checked alone).
REFERENCE_CODES: tuple[str, ...] = tuple(r.code for r in RULES if r.needs_reference)

#: Rules that rank a line against the whole document: while the server holds
#: them (``Analyzer.hold_ranks``, set while the user types) they are not run
#: after an edit that keeps the line count; the edited lines lose their
#: findings of these codes (their numbers are stale), every other line keeps
#: its own, and the first pass without the hold catches up on every line
#: changed meanwhile.  One keystroke then changes the diagnostics of the line
#: it changed only, not the lines at the margin of a ranking.
RANKED = ("outlier", "adequacy")
