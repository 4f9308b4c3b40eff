"""The ``spelling`` rule: words of the target that the language's dictionary does not know
(:mod:`bleu_ls.qa.spelling`; docs/diagnostics.md#spelling).

The target language is ``diagnostics.spelling.language``, else the one the file declares
(``names["target_language"]``), else ``[terms] targetLanguage``.  A line's unknown words are
memoised by (target, source) text while the dictionary is the same; the user's word list and the
glossaries' terms are taken out of them every pass (the rule's ``params`` follow both: a word
added to the list, or a glossary saved, reports on every line again at the cost of the memo's
look-ups).  A dictionary that cannot be had is one sentence on line 1.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from ..findings import Finding
from ..spelling import wordlist
from ..spelling.check import unknown_words
from ..spelling.dictionary import Loaded, dictionary
from ..terms.words import masked, words
from . import wording
from .context import LineContext
from .term_rules import terms_of
from .text_rules import over_cap

CODE = "spelling"
#: at most this many unknown words flagged on one line
MAX_PER_LINE = 20

_TERM_WORDS: dict[int, frozenset] = {}


def _language(ctx: LineContext, c: Any) -> Optional[str]:
    return c.language or ctx.names.get("target_language") or ctx.settings.terms.target_language or None


def _loaded(ctx: LineContext, c: Any) -> Loaded:
    got = ctx.__dict__.get("_spelling_dictionary")
    if got is None:
        got = ctx.__dict__["_spelling_dictionary"] = dictionary(_language(ctx, c), c.compounds)
    return got


def _words(ctx: LineContext) -> wordlist.WordList:
    got = ctx.__dict__.get("_spelling_words")
    if got is None:
        got = ctx.__dict__["_spelling_words"] = wordlist.for_document(ctx.names.get("path"))
    return got


def term_words(ctx: LineContext) -> frozenset:
    """The lower-case words of every term of the document's glossaries (any language)."""
    index = terms_of(ctx).termbase
    if index is None:
        return frozenset()
    got = _TERM_WORDS.get(index.serial)
    if got is None:
        found = {w.lower for g in index.glossaries for concept in g.concepts for t in concept.terms
                 for w in words(masked(t.text))}
        if len(_TERM_WORDS) > 8:
            _TERM_WORDS.clear()
        got = _TERM_WORDS[index.serial] = frozenset(found)
    return got


def spelling_params(ctx: LineContext, c: Any) -> tuple:
    """What every line's verdict depends on besides the line: the dictionary, the word list's
    file and stamp, the term index."""
    loaded = _loaded(ctx, c)
    d = loaded.dictionary
    return (d.serial if d is not None else loaded.problem, _words(ctx).stamp, terms_of(ctx).token)


def spelling(ctx: LineContext, c: Any) -> Iterator[Finding]:
    """Each word of a line that the dictionary does not know (see :mod:`bleu_ls.qa.spelling.check`),
    unless it is in the user's word list or a glossary's term."""
    loaded = _loaded(ctx, c)
    d = loaded.dictionary
    lo, hi = ctx.span
    if d is None:
        if lo == 0 and ctx.n and loaded.problem:
            yield Finding(CODE, "warning", wording.spelling_off(loaded.problem), line=0)
        return
    memo = ctx.text_memo(CODE, d.serial)
    skip = _words(ctx).words | term_words(ctx)
    hyp, source = ctx.hyp, ctx.source
    ns = len(source) if source is not None else 0
    cap = ctx.settings.max_line_bytes
    for i in range(lo, hi):
        line = hyp[i]
        src = source[i] if source is not None and i < ns else None
        key = (line, src)
        found = memo.get(key)
        if found is None:
            if not line or over_cap(line, cap) or (src is not None and over_cap(src, cap)):
                found = ()
            else:
                found = unknown_words(line, src, d)
            memo[key] = found
        if not found:
            continue
        k = 0
        for u in found:
            if u.word.lower() in skip:
                continue
            yield Finding(CODE, c.severity, wording.spelling(u.word, d.language), line=i,
                          start_col=u.start, end_col=u.end, data={"word": u.word})
            k += 1
            if k >= MAX_PER_LINE:
                break
