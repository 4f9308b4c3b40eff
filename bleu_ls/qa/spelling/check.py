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

import re
from typing import NamedTuple, Optional

from ..terms.words import NO_SPACE_RANGES, masked
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
#: a word, as the terminology check reads words (terms/words.py): letters and digits
_WORD = re.compile(f"[^\\W_{NO_SPACE_RANGES}]+")
#: the word that ends where a search ends
_WORD_BEFORE = re.compile(f"[^\\W_{NO_SPACE_RANGES}]+\\Z")


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
    return frozenset(map(str.lower, _WORD.findall(masked(source))))  # (strings: no match objects)


def unknown_words(target: str, source: Optional[str], dictionary: Dictionary) -> tuple[Unknown, ...]:
    """The words of ``target`` that ``dictionary`` does not know, minus what is never a
    spelling question (see the module) and the words of ``source``."""
    text = masked(target)
    known_words = dictionary.words
    found = [m for m in _WORD.finditer(text) if m.group().lower() not in known_words]
    if not found:  # (most lines: every word in the list)
        return ()
    from_source: Optional[frozenset] = None
    names = dictionary.language not in NOUNS_CAPITALISED
    out: list[Unknown] = []
    n = len(text)
    for m in found:
        t = m.group()
        if len(t) < MIN_LETTERS or not t.isalpha():
            continue
        if t.isupper() or not t[1:].islower():
            continue  # "NASA", "iPhone", "McDonald"
        low = t.lower()
        a, b = m.span()
        # a word written with an apostrophe: "don't", "l'homme", "geht's"
        if b + 1 < n and text[b] in _APOSTROPHES and text[b + 1].isalpha():
            after = _WORD.match(text, b + 1)
            if after is not None and low + "'" + after.group().lower() in known_words:
                continue
        if a >= 2 and text[a - 1] in _APOSTROPHES and text[a - 2].isalpha():
            before = _WORD_BEFORE.search(text, 0, a - 1)
            if before is not None and before.group().lower() + "'" + low in known_words:
                continue
        if t[0].isupper() and names and not _starts_sentence(text, a):
            continue
        if from_source is None:
            from_source = source_words(source)
        if low in from_source or dictionary.known(low):
            continue
        out.append(Unknown(a, b, t))
    return tuple(out)
