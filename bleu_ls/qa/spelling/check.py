"""One target line's unknown words: the words the dictionary does not know, after what is
never a spelling question is left out.

Left out: placeholders, inline tags, URLs, e-mail addresses and inline code (masked as the
terminology check masks them, :func:`~bleu_ls.qa.terms.words.masked`); words with a digit;
words of fewer than :data:`MIN_LETTERS` letters ("km", "ok"); words in capitals ("NASA") or with a capital inside ("iPhone",
"McDonald"); in languages that do not capitalise nouns, a capitalised word that does not start
a sentence (a name); any word of the source line (names, brands and code kept as written).
The rule (``analysis/spell_rules.py``) then leaves out the user's word list and the
glossaries' terms.

Words are the terminology check's (:func:`~bleu_ls.qa.terms.words.words`): a hyphen or an
apostrophe separates them; a word written with an apostrophe that the dictionary knows whole
("don't", "l'homme") is known.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ..terms.words import masked, words
from .dictionary import Dictionary

#: languages whose nouns are written with a capital: a capitalised word there is checked
NOUNS_CAPITALISED = frozenset({"de", "lb"})
#: what ends a sentence (the next word starts one)
_ENDS = ".!?…:;"
#: what may stand between a sentence's end and its first word
_OPENERS = " \t\"'«»„“”‚‘’()[]¿¡-–—*"
_APOSTROPHES = "'’"
#: shorter words are not checked (units, abbreviations, interjections)
MIN_LETTERS = 3


class Unknown(NamedTuple):
    start: int
    end: int
    word: str


def _starts_sentence(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in _OPENERS:
        i -= 1
    return i < 0 or text[i] in _ENDS


def source_words(source: Optional[str]) -> frozenset:
    """The lower-case words of a source line (its placeholders and code masked)."""
    if not source:
        return frozenset()
    return frozenset(w.lower for w in words(masked(source)))


def unknown_words(target: str, source: Optional[str], dictionary: Dictionary) -> tuple[Unknown, ...]:
    """The words of ``target`` that ``dictionary`` does not know, minus what is never a
    spelling question (see the module) and the words of ``source``."""
    text = masked(target)
    found = words(text)
    if not found:
        return ()
    from_source = source_words(source)
    names = dictionary.language not in NOUNS_CAPITALISED
    out: list[Unknown] = []
    n = len(found)
    known = dictionary.known
    for k, w in enumerate(found):
        t = w.text
        if len(t) < MIN_LETTERS or not t.isalpha():
            continue
        if t.isupper() or any(ch.isupper() for ch in t[1:]):
            continue
        low = w.lower
        if low in from_source:
            continue
        # a word written with an apostrophe: "don't", "l'homme", "geht's"
        if k + 1 < n and w.end < len(text) and text[w.end] in _APOSTROPHES and found[k + 1].start == w.end + 1:
            whole = low + "'" + found[k + 1].lower
            if whole in dictionary:
                continue
        if k > 0 and w.start >= 1 and text[w.start - 1] in _APOSTROPHES and found[k - 1].end == w.start - 1:
            whole = found[k - 1].lower + "'" + low
            if whole in dictionary or len(t) <= 2:
                continue
        if t[0].isupper() and names and not _starts_sentence(text, w.start):
            continue
        if known(low):
            continue
        out.append(Unknown(w.start, w.end, t))
    return tuple(out)
