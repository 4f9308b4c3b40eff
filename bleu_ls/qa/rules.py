"""The rule table: one row per diagnostic code, the only list of codes.

Each row says who reports the code (``by``): the rules of a line file
(:data:`LINE_RULES`: the analyser runs the row's ``check``; ``unpaired`` is said by
the pairing), the checks of a segment file's own format (:data:`XML` for
XLIFF and TMX, :data:`PO`, :data:`SUBTITLES`: :mod:`bleu_ls.qa.formats`; a code
both the XML and the PO checks report is one row), a reader (``malformed``),
the server's comparison with another system (:data:`COMPARE`).  A row with a
``setting`` is switched on or off and given its severity by
``diagnostics.<setting>`` (:mod:`bleu_ls.config.diagnostics`, where the
defaults are); the others are always said.

The rows are in the order findings on one line are listed.  Everything else
that names codes is derived from here: :data:`CODES` (the line files'
switchable codes), :data:`FORMAT_CODES`, the check modules' default
severities, :data:`RULES` (what :class:`~.analysis.analyzer.Analyzer` runs),
:data:`REFERENCE_CODES`, :data:`RANKED`, :data:`LINE_PAIR_CODES`, :data:`IGNORABLE`
(``tests/qa/test_rule_table.py`` checks that every code the source gives a finding
is a row, and every row is said somewhere).

A new check of a line file is one function in the module of its family
(``analysis/*_rules.py``) and one row here with it as ``check``; a new check of
a file's format is one function in ``qa/formats/`` and one row here ``by`` its
format.  Either gets its settings row ``diagnostics.<code>`` (its default
severity) in ``config/diagnostics.py``.

A line-file rule is a function ``rule(ctx, check) -> findings`` of the shared
:class:`~.analysis.context.LineContext` and its own settings (``diagnostics.<code>``).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

from ..config.diagnostics import DiagnosticsSettings
from ..formats.finding import MALFORMED, PO_SYNTAX, TIMECODE
from .analysis import (file_rules, length_rules, qe_rules, score_rules, source_rules, spell_rules, term_rules, text_rules,
                       user_rules)
from .analysis.context import LineContext
from .findings import INTERNAL, REFERENCE_ERROR, SETTINGS_PROBLEM

#: How a line-file rule is run after an edit (see :mod:`.analysis.incremental`): "line"
#: rules report on the lines in ``ctx.scope``; "doc" rules on the whole document every
#: pass; "delta" rules return (findings by line, changed lines).
LINE, DOC, DELTA = "line", "doc", "delta"

#: Who reports a code.
LINE_RULES = "lines"
XML = "xml"
PO = "po"
SUBTITLES = "subtitles"
#: key-value localization files paired with their source-language file (JSON, ARB…: qa/formats/keyed_checks.py)
KEYED = "keyed"
READER = "reader"
COMPARE = "compare"
#: the checks of a file's own format
FORMAT_CHECKS = (XML, PO, SUBTITLES, KEYED)


class Rule(NamedTuple):
    code: str
    #: a line file's rule: the findings (Iterable[Finding]); a "delta" rule's (see ``kind``):
    #: (findings by line, changed lines).  None: the findings are made elsewhere (``by``)
    check: Optional[Callable[[LineContext, Any], Any]] = None
    #: also run on a pair with no paired line
    file_level: bool = False
    #: how it is run after an edit: LINE, DOC or DELTA (above)
    kind: str = DOC
    #: "line" rules: what every line's verdict depends on besides the line
    #: (when it changes, the rule reports on every line again)
    params: Optional[Callable[[LineContext, Any], Any]] = None
    #: reads the reference (scores, its lengths, its lines): not run on a file
    #: checked without one (a PO, XLIFF, TMX or subtitle file alone, or a
    #: line file with its source only)
    needs_reference: bool = False
    #: who reports it (see the module's docstring)
    by: tuple[str, ...] = (LINE_RULES,)
    #: its settings row ``diagnostics.<setting>``; None: always said, not switchable
    setting: Optional[str] = ""
    #: ranks a line against the whole document (see :data:`RANKED`)
    ranked: bool = False
    #: compares line i with source or reference line i (see :data:`LINE_PAIR_CODES`)
    line_pair: bool = False
    #: started at the start of a full pass, before any rule runs: work the rule's ``check``
    #: later takes (the term scan in worker processes while the other rules run); rows may
    #: share one (it runs once a pass, for the first of them switched on)
    prefetch: Optional[Callable[[LineContext, Any], None]] = None

    @property
    def attribute(self) -> Optional[str]:
        """The settings attribute of the row (``diagnostics.<attribute>``), or None."""
        if self.setting is None:
            return None
        return self.setting or self.code.replace("-", "_")


def _format(code: str, *by: str) -> Rule:
    return Rule(code, by=by)


def _always(code: str, by: str = LINE_RULES) -> Rule:
    return Rule(code, by=(by,), setting=None)


TABLE: tuple[Rule, ...] = (
    # -- line files: the analyser's rules (bleu_ls/qa/analysis/), in the order a line's findings are listed
    Rule("low-score", score_rules.low_score, kind=LINE, needs_reference=True, line_pair=True),
    Rule("outlier", score_rules.outlier, kind=DELTA, needs_reference=True, ranked=True, line_pair=True),
    Rule("empty-hypothesis", text_rules.empty_hypothesis, kind=LINE, needs_reference=True),
    Rule("untranslated", text_rules.untranslated, kind=LINE, line_pair=True),
    Rule("length-ratio", length_rules.length_ratio, kind=LINE, params=length_rules.length_params, needs_reference=True,
         line_pair=True),
    Rule("repetition", text_rules.repetition, kind=LINE),
    Rule("doubled-word", text_rules.doubled_word, kind=LINE, params=text_rules.doubled_params),
    Rule("line-count-mismatch", file_rules.line_count_mismatch, file_level=True, needs_reference=True),
    Rule("unpaired"),  # said by the pairing: a hypothesis-like file with no reference (file_rules.unpaired_findings)
    # the per-line source checks (source_rules.LINE_CHECKS, all four computed together per line)
    Rule("number-mismatch", source_rules.number_mismatch, kind=LINE, line_pair=True),
    Rule("markup-mismatch", source_rules.markup_mismatch, kind=LINE, line_pair=True),
    Rule("unbalanced", source_rules.unbalanced, kind=LINE, line_pair=True),
    Rule("end-punctuation", source_rules.end_punctuation, kind=LINE, line_pair=True),
    Rule("wrong-language", source_rules.wrong_language, kind=LINE, params=source_rules.language_params),
    Rule("misaligned", source_rules.misaligned, needs_reference=True),
    Rule("adequacy", qe_rules.adequacy, ranked=True, line_pair=True),
    # terminology: the glossaries of [terms] files (term_rules; docs/terminology.md)
    Rule("term-missing", term_rules.term_missing, kind=LINE, params=term_rules.term_params, line_pair=True,
         prefetch=term_rules.prefetch),
    Rule("term-forbidden", term_rules.term_forbidden, kind=LINE, params=term_rules.term_params,
         prefetch=term_rules.prefetch),
    Rule("do-not-translate", term_rules.do_not_translate, kind=LINE, params=term_rules.term_params, line_pair=True,
         prefetch=term_rules.prefetch),
    # the target's spelling (spell_rules over qa/spelling/; docs/diagnostics.md#spelling)
    Rule("spelling", spell_rules.spelling, kind=LINE, params=spell_rules.spelling_params),
    # the user's own rules ([[rules]]; user_rules): one row for all of them, their findings
    # are coded rule:<the rule's code> (see USER_RULE)
    Rule("rule", user_rules.user_rules, kind=LINE, params=user_rules.rule_params),
    # -- line files, always said: a reference or source that cannot be used, settings that
    #    could not be read, a rule that failed (a bug: said on line 1)
    _always(REFERENCE_ERROR),
    _always(SETTINGS_PROBLEM),
    _always(INTERNAL),
    # -- the checks of a file's own format (bleu_ls/qa/formats/; docs/formats.md, docs/formats-xml.md)
    _format("codes-missing", XML),
    _format("codes-extra", XML),
    _format("codes-order", XML),
    _format("codes-malformed", XML),
    # the length limits an XLIFF file declares (xml_checks) and maxRatio to the source (a line rule:
    # it runs wherever the analyser has a source, PO, XLIFF and TMX files included)
    Rule("length-limit", length_rules.length_limit, kind=LINE, params=length_rules.limit_params,
         by=(XML, LINE_RULES), line_pair=True),
    _format("state-undefined", XML),
    _format("target-empty", XML, PO, KEYED),
    _format("target-same-as-source", XML, PO, KEYED),
    _format("whitespace-leading", XML, PO),
    _format("whitespace-trailing", XML, PO),
    _format("double-space", XML, PO),
    _format("inconsistent-translation", XML, PO, KEYED),
    _format("inconsistent-source", XML, PO, KEYED),
    _format("newlines", XML, PO),
    _format("icu-syntax", XML, KEYED),  # ICU messages in segments (qa/formats/icu_checks.py; ARB's values)
    _format("icu-arguments", XML),
    _format("plural-categories", XML, KEYED),
    _format(PO_SYNTAX, PO, READER),  # the PO reader's problems
    _format("placeholders-missing", PO, KEYED),
    _format("placeholders-extra", PO, KEYED),
    _format("placeholders-order", PO),
    _format("plural-count", PO),
    _format("plural-header", PO),
    _format("fuzzy", PO),
    _format("accelerator", PO),
    _format("key-missing", KEYED),
    _format("key-extra", KEYED),
    _format(TIMECODE, SUBTITLES, READER),  # the subtitle reader's problems
    _format("end-before-start", SUBTITLES),
    _format("cue-order", SUBTITLES),
    _format("cue-overlap", SUBTITLES),
    _format("reading-speed", SUBTITLES),
    _format("chars-per-line", SUBTITLES),
    _format("lines-per-cue", SUBTITLES),
    _format("duration-short", SUBTITLES),
    _format("duration-long", SUBTITLES),
    _format("cue-gap", SUBTITLES),
    # -- an XLIFF or TMX file that is not well-formed (the XML reader's problems)
    _always(MALFORMED, READER),
    # -- the server: a line at least ``compare.threshold`` below another system's (setting compare.severity)
    Rule("worse-than-other", by=(COMPARE,), setting=None),
)

#: The rows the analyser runs (a line file's rules), in the table's order.
RULES: tuple[Rule, ...] = tuple(r for r in TABLE if r.check is not None)

#: The codes of a line file that the settings switch (``diagnostics.<code>``), in the
#: order findings on one line are listed.
CODES: tuple[str, ...] = tuple(r.code for r in TABLE if LINE_RULES in r.by and r.setting is not None)
#: settings.diagnostics attribute per code of :data:`CODES`
SETTING_OF: dict[str, str] = {r.code: r.attribute for r in TABLE if r.code in CODES}  # type: ignore[misc]


#: The row of the user's own rules: a finding coded ``rule:<name>`` is this row's.
USER_RULE = "rule"


class _Order(dict):
    """code -> its place among a line's findings; ``rule:<name>`` in the user rules' row's."""

    def __missing__(self, code: str) -> int:
        if code.startswith(USER_RULE + ":"):
            return self[USER_RULE]
        raise KeyError(code)


ORDER: dict[str, int] = _Order({code: i for i, code in enumerate(CODES)})

#: The codes of the checks of a file's own format, each a settings row: XLIFF/TMX, then
#: those of PO only, then the subtitles'.
FORMAT_CODES: tuple[str, ...] = tuple(r.code for r in TABLE if set(r.by) & set(FORMAT_CHECKS))
#: settings.diagnostics attribute per code of :data:`FORMAT_CODES`
FORMAT_SETTING_OF: dict[str, str] = {r.code: r.attribute for r in TABLE if r.code in FORMAT_CODES}  # type: ignore[misc]

#: The codes that need a reference (the rest run on a file checked alone).
REFERENCE_CODES: tuple[str, ...] = tuple(r.code for r in RULES if r.needs_reference)

#: Rules that rank a line against the whole document: while the server holds
#: them (``Analyzer.hold_ranks``, set while the user types) they are not run
#: after an edit that keeps the line count; the edited lines lose their
#: findings of these codes (their numbers are stale), every other line keeps
#: its own, and the first pass without the hold catches up on every line
#: changed meanwhile.  One keystroke then changes the diagnostics of the line
#: it changed only, not the lines at the margin of a ranking.
RANKED: tuple[str, ...] = tuple(r.code for r in TABLE if r.ranked)

#: Codes that compare line i with source or reference line i: meaningless inside a
#: shifted stretch, where the ``misaligned`` finding says it once.
LINE_PAIR_CODES: frozenset[str] = frozenset(r.code for r in TABLE if r.line_pair)

#: The codes an entry of ``.bleu-ls/ignore.json`` can name: the switchable ones and the
#: server's comparison with another system.
IGNORABLE: tuple[str, ...] = (*CODES, *FORMAT_CODES, *(r.code for r in TABLE if COMPARE in r.by))


def default_severities(by: str) -> dict[str, str]:
    """code -> its default severity (the settings' row) of the codes ``by`` reports, in the table's order."""
    d = DiagnosticsSettings()
    return {r.code: getattr(d, r.attribute).severity for r in TABLE if by in r.by and r.attribute}


def row(code: str) -> Optional[Rule]:
    """The row of ``code`` (None: no such code); ``rule:<name>``: the user rules' row."""
    if code.startswith(USER_RULE + ":"):
        code = USER_RULE
    return _BY_CODE.get(code)


_BY_CODE = {r.code: r for r in TABLE}
