"""Terminology rules: ``term-missing``, ``term-forbidden``, ``do-not-translate``.

They run when glossaries are set (``[terms] files``; :mod:`bleu_ls.qa.terms`).  The language
pair is the one the file declares (PO ``Language``, XLIFF ``srcLang``/``trgLang``, TMX
``xml:lang``: ``names["source_language"]`` / ``names["target_language"]``), else the
settings' ``terms.sourceLanguage`` / ``terms.targetLanguage``; a glossary of two languages
needs neither.

What a line is found to have is kept by position while the term index is the same
(:func:`_window`): an edit costs the edited lines, and a glossary saved on disk (a new index:
the rules' ``params`` change) has every line looked at again.  The findings are made once per
glossary entry and shared by the lines that meet it alike (:meth:`TermIndex.scan`): the rules
give them by line (:class:`~bleu_ls.qa.findings.ByLine`), and the store keeps the one tuple of
a line in the window and in its findings.  A glossary that cannot be used is said on
the first line by the first of the three rules switched on, as a warning; the other glossaries
and every other rule go on.
"""

from __future__ import annotations

import logging
from typing import Iterator, Optional, Union

from ..findings import DENSE_FROM, ByLine, DenseLines, Finding
from ..terms import batch
from ..terms.index import DO_NOT_TRANSLATE_CODE, TERM_FORBIDDEN, TERM_MISSING, Severities
from ..terms.load import Terms, document_terms
from .context import LineContext
from .memo import WindowValues
from ...engine.batch import default_workers
from .text_rules import over_cap

log = logging.getLogger(__name__)

CODES = (TERM_MISSING, TERM_FORBIDDEN, DO_NOT_TRANSLATE_CODE)


def terms_of(ctx: LineContext) -> Terms:
    """The term index for this pass (read once per pass)."""
    got = ctx.__dict__.get("_terms")
    if got is None:
        got = ctx.__dict__["_terms"] = document_terms(ctx.settings, ctx.names)
    return got


def _line_terms(ctx: LineContext) -> Optional[dict]:
    """language -> Terms, for a file whose targets are in several languages
    (``names["line_languages"]``: a multilingual TMX); None for the others."""
    langs = ctx.names.get("line_languages")
    if not langs:
        return None
    got = ctx.__dict__.get("_line_terms")
    if got is None:
        got = ctx.__dict__["_line_terms"] = {
            lang: document_terms(ctx.settings, {**ctx.names, "target_language": lang or None})
            for lang in sorted(set(langs))}
    return got


def term_params(ctx: LineContext, c) -> tuple:
    """What every line's verdict depends on besides the line: the term index (one per target
    language in a multilingual file)."""
    by_lang = _line_terms(ctx)
    if by_lang is not None:
        return tuple((lang, t.token) for lang, t in by_lang.items())
    return terms_of(ctx).token


def prefetch(ctx: LineContext, c) -> None:
    """At the start of a full pass over a large document, with worker processes to spare
    (``Analyzer.workers``, ``bleu-ls check --jobs``): every line's scan starts in forked
    workers while the other rules run here; :func:`_values` takes their findings.  Once per
    pass (the three rules share it); not for a file of several target languages."""
    if "_term_scan" in ctx.__dict__:
        return
    ctx.__dict__["_term_scan"] = None
    processes = batch_processes(ctx.analyzer.workers, ctx.n)
    if processes < 1 or _line_terms(ctx) is not None:
        return
    index = terms_of(ctx).termbase
    if index is None or _window(ctx).filled:  # (lines already scanned: the others are scanned here)
        return
    cap = ctx.settings.max_line_bytes
    scan = ctx.__dict__["_term_scan"] = batch.start(index, ctx.hyp, ctx.source, ctx.n, lambda t: over_cap(t, cap),
                                                    processes, severities(ctx))
    if scan is not None:
        ctx.closing.append(scan.close)


def severities(ctx: LineContext) -> Severities:
    """The severities the three rules give their findings ("" for a rule switched off)."""
    got = ctx.__dict__.get("_term_severities")
    if got is None:
        checks = [ctx.check(code.replace("-", "_")) for code in CODES]
        got = ctx.__dict__["_term_severities"] = tuple(c.severity if c is not None else "" for c in checks)
    return got


def _window(ctx: LineContext) -> WindowValues:
    """Each line's findings, kept by position from pass to pass (:class:`~.memo.WindowValues`:
    after an edit the edited lines are scanned again; after lines put in or taken out alike in
    every column, the lines around them), while the term index and the rules' severities stay
    the same (the findings are made with them).  By position, not by text: a key per line held
    ~100 bytes a line (10 MB at 100k lines) beside the lists of references kept here."""
    state = ctx.state("terms")
    token = (term_params(ctx, None), severities(ctx))
    window = state.get("window")
    if window is None or state.get("token") != token:
        state.clear()
        state["token"] = token
        window = state["window"] = WindowValues(_no_scan, 0, generations=1)
    return window


def _no_scan(i: int) -> tuple:
    raise AssertionError("the term scan of a pass is set before its lines are read")


def batch_processes(workers: Optional[int], n: int) -> int:
    """Worker processes for the term scan of ``n`` lines: the caller's ``workers`` (None: one
    per core, at most 8) less the caller's own process, which runs the other rules."""
    if workers is None:
        workers = default_workers(n)
    return workers - 1 if n >= batch.MIN_LINES else 0


def _prefetched(ctx: LineContext) -> Optional[dict]:
    """The findings of a scan started by :func:`prefetch`, by line (a line without any is not
    in it); None when no scan was started or it failed (the lines are scanned here)."""
    scan = ctx.__dict__.get("_term_scan")
    if scan is None:
        return None
    ctx.__dict__["_term_scan"] = None
    try:
        return dict(scan.result())
    except Exception as e:  # (a worker killed, a finding that would not travel): scanned here
        log.debug("the term scan in worker processes failed (%s); scanning in this process", e, exc_info=True)
        return None


def _values(ctx: LineContext) -> list:
    """Each paired line's findings of the three codes (an empty tuple: none) for this pass,
    worked out for the lines that changed (:func:`_window`); empty without a glossary."""
    got = ctx.__dict__.get("_term_values")
    if got is not None:
        return got
    terms = terms_of(ctx)
    by_lang = _line_terms(ctx)
    langs = ctx.names.get("line_languages") if by_lang is not None else None
    values: list = []
    if terms.termbase is not None or by_lang is not None:
        window = _window(ctx)
        pre = _prefetched(ctx)
        severity = severities(ctx)
        hyp, source = ctx.hyp, ctx.source
        ns = len(source) if source is not None else 0
        cap = ctx.settings.max_line_bytes

        def skip(text: str) -> bool:
            return over_cap(text, cap)

        def scan(i: int) -> tuple:
            if pre is not None:  # (scanned in the worker processes)
                return pre.get(i, ())
            index = terms.termbase
            if langs is not None:
                lang = langs[i] if i < len(langs) else ""
                index = by_lang[lang].termbase if by_lang is not None else None
            if index is None:
                return ()
            return batch.scan_line(index, hyp[i], source[i] if source is not None and i < ns else None, skip, severity)

        columns: list = [hyp] if source is None else [hyp, source]
        if langs is not None:
            columns.append(langs)
        window.fn = scan
        try:
            values = window.values(columns, ctx.n, _same, ctx.pass_scope, ctx.passes, ctx.previous_pass)
        finally:
            window.fn = _no_scan  # (the pass's lines and workers are not kept)
    ctx.__dict__["_term_values"] = values
    return values


def _same(i: int) -> int:
    return i


def _problems(ctx: LineContext, code: str) -> Iterator[Finding]:
    """The glossaries' problems, said once (by the first term rule switched on) on line 1."""
    if ctx.span[0] != 0:
        return
    by_lang = _line_terms(ctx)
    problems = terms_of(ctx).problems if by_lang is None else tuple(
        dict.fromkeys(p for t in by_lang.values() for p in t.problems))
    if not problems:
        return
    owner: Optional[str] = next((x for x in CODES if ctx.check(x.replace("-", "_")) is not None), None)
    if owner != code:
        return
    for p in problems:
        yield Finding(code, "warning", f"Glossary not used: {p}", line=0)


def _mine(hits: tuple, code: str) -> Optional[tuple]:
    """The findings of ``code`` among a line's (``hits`` itself when they all are: one tuple
    for the line, in the window and the store); None for none."""
    if not hits:
        return None
    for h in hits:
        if h.code != code:
            break
    else:
        return hits
    return tuple(h for h in hits if h.code == code) or None


def _rule(code: str):
    def rule(ctx: LineContext, c) -> Union[ByLine, DenseLines]:
        values = _values(ctx)
        lo, hi = ctx.span
        hi = min(hi, len(values))
        out: Union[ByLine, DenseLines]
        if lo == 0 and hi >= DENSE_FROM:  # every line of a large document: a list by line
            out = DenseLines.of([_mine(x, code) for x in values[:hi]])
            if len(out) * 4 <= hi:  # (few lines have some: a dict is the smaller)
                out = ByLine(out.items())
        else:
            out = ByLine()
            for i in range(lo, hi):
                mine = _mine(values[i], code)
                if mine is not None:
                    out[i] = mine
        problems = tuple(_problems(ctx, code))
        if problems:
            out[0] = problems + out.get(0, ())
        return out

    rule.__name__ = code.replace("-", "_")
    rule.__doc__ = f"``{code}``: see :meth:`bleu_ls.qa.terms.index.TermIndex.scan`."
    return rule


term_missing = _rule(TERM_MISSING)
term_forbidden = _rule(TERM_FORBIDDEN)
do_not_translate = _rule(DO_NOT_TRANSLATE_CODE)
