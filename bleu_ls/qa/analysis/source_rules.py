"""Source-aware rules and the document-level text rules.

Per line, when a source file is paired: ``number-mismatch``,
``markup-mismatch``, ``unbalanced``, ``end-punctuation`` (the checks of
:mod:`bleu_ls.qa.text`, all four computed together per (line, source,
references) text and memoised, so a pass over unchanged lines costs a
dictionary lookup each).  Per document: ``wrong-language`` (the line's
language differs from the document's) and ``misaligned`` (a stretch of
lines matching neighbouring reference lines better than their own).
"""

from __future__ import annotations

from itertools import compress, count
from typing import Iterator, Optional

from ..text import alignment, markup, numbers, punctuation
from ..text.language import LanguageIdentifier, check_language
from .context import LineContext
from ..findings import Finding

#: the per-line source checks: check(source, line, references) -> a finding of its own code, or None
LINE_CHECKS = (numbers.check_numbers, markup.check_markup, punctuation.check_brackets, punctuation.check_end_punctuation)
#: reference lines sampled to find the document's language
LANGUAGE_SAMPLE = 200


def line_issues(key: tuple) -> tuple[tuple[str, Finding], ...]:
    """Every per-line source check on (line, source, *references)."""
    hyp, src, *refs = key
    if src is None:
        return ()
    out = []
    for fn in LINE_CHECKS:
        issue = fn(src, hyp, refs)
        if issue is not None:
            out.append((issue.code, issue))
    return tuple(out)


def _finding(line: int, code: str, severity: str, issue: Finding) -> Finding:
    return Finding(code, severity, issue.message, line=line, start_col=issue.start, end_col=issue.end, data=dict(issue.data))


def _line_rule(code: str):
    def rule(ctx: LineContext, c) -> Iterator[Finding]:
        if ctx.source is None:
            return
        facts = ctx.source_issues
        for i in facts.special:
            for found_code, issue in facts.values[i]:
                if found_code == code:
                    yield _finding(i, code, c.severity, issue)

    rule.__name__ = code.replace("-", "_")
    rule.__doc__ = f"``{code}``: see :data:`LINE_CHECKS`."
    return rule


number_mismatch = _line_rule("number-mismatch")
markup_mismatch = _line_rule("markup-mismatch")
unbalanced = _line_rule("unbalanced")
end_punctuation = _line_rule("end-punctuation")


def document_language(identifier: LanguageIdentifier, lines: list[str]) -> Optional[str]:
    """The language of an evenly spaced sample of ``lines``."""
    step = max(1, len(lines) // LANGUAGE_SAMPLE)
    return identifier.document_language(lines[::step])


def language_params(ctx: LineContext, c) -> tuple:
    """What every line's ``wrong-language`` verdict depends on besides the
    line itself: the identifier's state and the expected language."""
    lid = ctx.analyzer.language_identifier(c.min_letters)
    if not lid.load():
        return ("error", lid.error)
    return ("ok", _expected_language(ctx, c, lid))


def _expected_language(ctx: LineContext, c, lid: LanguageIdentifier) -> Optional[str]:
    got = ctx.__dict__.get("_expected_language", ctx)
    if got is ctx:
        got = c.language
        if not got and ctx.refs:
            # the references' language, found again only when they changed
            # (the model's first reference list, and its count of reference changes)
            ref = ctx.refs[0]
            memo = ctx.state("wrong-language")
            key = (ctx.n, lid, getattr(ctx.model, "ref_version", None))
            last = memo.get("expected")
            if last is not None and last[0] is ref and last[1] == key and key[2] is not None:
                got = last[2]
            else:
                step = max(1, ctx.n // LANGUAGE_SAMPLE)  # document_language's sample, without copying the lines
                got = lid.document_language(ref[0 : ctx.n : step])
                memo["expected"] = (ref, key, got)
        elif not got:
            # no reference: the language the file declares for its targets (PO Language,
            # XLIFF target-language / trgLang), else the one most of its own lines are in
            declared = ctx.names.get("target_language")
            if declared:
                got = declared.replace("_", "-").split("-")[0].lower() or None
            else:
                step = max(1, ctx.n // LANGUAGE_SAMPLE)
                got = lid.document_language(ctx.hyp[0 : ctx.n : step])
        ctx.__dict__["_expected_language"] = got
    return got


def wrong_language(ctx: LineContext, c) -> Iterator[Finding]:
    """Lines confidently in another language than the document's (the
    setting's ``language``, else the language most reference lines are in;
    with no reference, the language the file declares, else the one most of
    its own lines are in)."""
    lid = ctx.analyzer.language_identifier(c.min_letters)
    if not lid.load():
        yield Finding("wrong-language", "information", f"{lid.error[0].upper()}{lid.error[1:]}.", line=0)
        return
    # a file whose segments are in several languages (a multilingual TMX, a String Catalog): each
    # line against its own segment's language, unless the setting names one
    langs = None if c.language else ctx.names.get("line_languages")
    expected = None if langs else _expected_language(ctx, c, lid)
    if not expected and not langs:
        return
    found = ctx.analyzer.languages(ctx.hyp)
    refs = ctx.refs
    lo, hi = ctx.span
    for i, hit in enumerate(found[lo:hi], lo):
        want = langs[i].replace("_", "-").split("-")[0].lower() if langs and i < len(langs) else expected
        if hit is None or not want or hit[1] < c.min_probability or hit[0] == want:
            continue
        issue = check_language(ctx.hyp[i], want, lid, [r[i] for r in refs], c.min_probability)
        if issue is not None:
            yield _finding(i, "wrong-language", c.severity, issue)


def misaligned(ctx: LineContext, c) -> Iterator[Finding]:
    """One finding per stretch of lines shifted against the (first) reference."""
    if not ctx.refs:
        return
    lean = ctx.analyzer.leanings(ctx.hyp, ctx.refs[0], ctx.n)
    for st in sparse_stretches(lean, c.min_run, ctx.analyzer.marked("lean")):
        issue = st.issue()
        yield Finding("misaligned", c.severity, issue.message, line=st.start, data=dict(issue.data))


def sparse_stretches(lean_of_line: list, min_run: int = 3, leaning: Optional[list] = None, max_gap: int = 3) -> list:
    """``alignment.stretches_from`` visiting only the leaning lines
    (``leaning``, in order; found here at C speed when not given): the same
    stretches, without a Python step per line."""
    runs: list[list[int]] = []  # [start, last, shift, leaning lines]
    for i in leaning if leaning is not None else compress(count(), lean_of_line):
        d = lean_of_line[i]
        if runs and runs[-1][2] == d and i - runs[-1][1] - 1 <= max_gap:
            runs[-1][1] = i
            runs[-1][3] += 1
        else:
            runs.append([i, i, d, 1])
    return [alignment.Stretch(a, b, d) for a, b, d, count_ in runs if count_ >= min_run]

