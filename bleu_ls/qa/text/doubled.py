"""Doubled words: the same word twice in a row ("the the", "Die die").

What counts:

* A *word* is a run of letters (any script that writes spaces between
  words), with ``'``, ``’`` or ``-`` inside it ("l'homme", "e-mail").
  Numbers are not words ("1 1", "10 10" are never flagged: tables, scores
  and dates repeat them), nor are placeholders (``{0} {0}``, ``%s %s``),
  inline tags, URLs or e-mail addresses.
* Two words are *adjacent* when only white space and inline tags
  (``<b>``, ``</b>``, ``<x id="1"/>``) stand between them, with at least
  one white-space character: "the <b>the</b>" is a doubled word,
  "the<b>the</b>" reads as one word and is not.  Anything else between them
  (punctuation, a placeholder) keeps them apart: "yes, yes" and
  "the {0} the" are not flagged.
* They are compared case-folded: "Die die" is a doubled word.
* Scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer,
  Myanmar) have no words here: a run of their characters is never compared,
  so "谢谢", "人々", "ค่อยๆ" and a Chinese phrase repeated with a space
  between are not flagged.  Korean writes spaces and is checked.

Legitimate doubles are the *allowed doubles* (:data:`ALLOWED`): per
language, the words a grammar doubles ("die die" and "das das" in German
relative clauses, "that that" and "had had" in English, "nous nous" and
"vous vous" in French reflexives, …).  When the language is not known, the
union of every language's list is allowed.  A double the source line has
too (same word, case-folded) is not flagged either: a name such as "Bora
Bora", or a quotation; nor one a reference line has, when there is one.
With no source, a capitalised double inside a sentence is taken for a name
and not flagged ("wir Ylang Ylang", "nach Walla Walla"); at the start of a
sentence it is ("Danke Danke.").
A word written three times or more in a row is left to the ``repetition``
check (which weighs it against the reference).

The finding covers the *second* word with the white space just before it
(or, when a tag stands just before it, the white space just after it), the
text a fix removes: ``data["remove"]`` = [start, end] in code points.
"""

from __future__ import annotations

import re
from itertools import islice
from operator import eq
from typing import Optional, Sequence

from . import Finding, finding, quoted
from .markup import find_markup

#: Per language (ISO 639-1), the words that are doubled grammatically and are
#: not flagged when the line is in that language.  Lower-case, case-folded.
ALLOWED: dict[str, frozenset[str]] = {
    # "I know that that is true"; "she had had enough"; "where a country is is an average";
    # "what they do do"
    "en": frozenset({"that", "had", "is", "do", "does", "did", "bye", "ha", "no"}),
    # relative pronoun after an article or demonstrative: "die die Regeln kennen",
    # "das das Haus hat", "der der"; personal pronouns as subject and object: "weil sie sie liebt",
    # "rollt es es weg"
    "de": frozenset({"der", "die", "das", "den", "dem", "des", "sie", "es"}),
    # "de man die die auto kocht", "het huis dat dat dak heeft"
    "nl": frozenset({"die", "dat"}),
    # reflexive verbs: "nous nous levons", "vous vous trompez"
    "fr": frozenset({"nous", "vous"}),
}
#: allowed when the language is not known: every list together
ALLOWED_ANY: frozenset[str] = frozenset().union(*ALLOWED.values())

#: letters (no digits, no underscore), with ' ’ - inside
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
#: scripts written without spaces between words
_NO_SPACES = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029"
    "\u3031-\u3035\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff]"
)


def allowed_for(language: Optional[str]) -> frozenset[str]:
    """The allowed doubles of ``language`` ("de", "de-CH", "pt_BR"…); unknown or none: every list's."""
    if not language:
        return ALLOWED_ANY
    base = language.replace("_", "-").split("-")[0].lower()
    return ALLOWED.get(base, frozenset())


def doubles(line: str) -> tuple[tuple[str, int, int, int, int], ...]:
    """Each doubled word of ``line``: (case-folded word, first's start, first's end,
    second's start, second's end); a run of three gives two pairs."""
    if "<" not in line:  # the quick test (a tag between the two words: the full one)
        folded = _WORD.findall(line.casefold())
        if not any(map(eq, folded, islice(folded, 1, None))):
            return ()
    codes = find_markup(line)
    # the columns where a tag stands (transparent) and where other markup stands (content)
    tags = [(s, e) for kind, _v, s, e in codes if kind == "tag"]
    spans = [(s, e) for _k, _v, s, e in codes]
    words = []
    for m in _WORD.finditer(line):
        s, e = m.span()
        if any(a < e and s < b for a, b in spans):
            continue  # inside a tag, a placeholder, a URL or an address
        if _NO_SPACES.search(m.group()):
            continue
        words.append((m.group().casefold(), s, e))
    out = []
    for (w1, s1, e1), (w2, s2, e2) in zip(words, words[1:]):
        if w1 != w2 or not _gap_is_space(line, e1, s2, tags):
            continue
        out.append((w1, s1, e1, s2, e2))
    return tuple(out)


def _gap_is_space(line: str, start: int, end: int, tags: list) -> bool:
    """Is ``line[start:end]`` white space and tags only, with some white space?"""
    gap = list(line[start:end])
    for a, b in tags:
        if start <= a and b <= end:
            gap[a - start : b - start] = [""] * (b - a)
        elif a < end and start < b:
            return False
    rest = "".join(gap)
    return bool(rest) and rest.isspace() and any(ch.isspace() for ch in rest)


#: what may stand before the first word of a sentence (besides the start of the line)
_SENTENCE_END = ".!?\u2026:;\u00bf\u00a1\"'\u201c\u201e\u00ab\u2018\u201a\u2039([{\u2014\u2013-"


def is_name(line: str, double: tuple[str, int, int, int, int]) -> bool:
    """Is the double a name ("Bora Bora", "Ylang Ylang", "Walla Walla")?  Both words
    start with a capital and go on in small letters, and the first does not start a
    sentence ("Danke Danke." and "The The" at the start of a line are flagged; so is
    "THE THE")."""
    _w, s1, e1, s2, e2 = double
    first, second = line[s1:e1], line[s2:e2]
    if not (first[:1].isupper() and second[:1].isupper()) or first.isupper() or second.isupper():
        return False
    before = line[:s1].rstrip()
    return bool(before) and before[-1] not in _SENTENCE_END


def removal(line: str, start: int, end: int) -> tuple[int, int]:
    """The columns a fix removes for the second word at [start, end): the word and
    the white space just before it, else the white space just after it."""
    s = start
    while s > 0 and line[s - 1].isspace():
        s -= 1
    if s < start:
        return s, end
    e = end
    while e < len(line) and line[e].isspace():
        e += 1
    return start, e


def pairs(line: str) -> tuple[tuple[str, int, int, int, int], ...]:
    """:func:`doubles` that are a word written exactly twice: a run of three or more
    ("very very very") is the ``repetition`` check's to judge."""
    found = doubles(line)
    if len(found) < 2:
        return found
    return tuple(d for k, d in enumerate(found)
                 if not (k and found[k - 1][3] == d[1]) and not (k + 1 < len(found) and found[k + 1][1] == d[3]))


def check_doubled(line: str, source: Optional[str] = None, allowed: frozenset[str] = ALLOWED_ANY,
                  references: Sequence[str] = ()) -> Optional[Finding]:
    """A finding for the first doubled word of ``line`` (:func:`pairs`) that is
    neither an allowed double nor doubled in ``source`` or in a reference (the findings' ``data``: ``word`` as the
    line writes it the second time, ``first`` the first time, ``remove``: [start, end], ``count``: the
    doubled words of the line); None when there is none."""
    found = [d for d in pairs(line) if d[0] not in allowed and not is_name(line, d)]
    for other in (source, *references) if found else ():
        if other:
            elsewhere = {d[0] for d in doubles(other)}
            found = [d for d in found if d[0] not in elsewhere]
    if not found:
        return None
    _w, s1, _e1, s2, e2 = found[0]
    word = line[s2:e2]
    a, b = removal(line, s2, e2)
    first = line[s1:_e1]
    more = f" ({len(found)} doubled words in this line)" if len(found) > 1 else ""
    return finding(
        "doubled-word",
        f"{quoted(first + ' ' + word)}: the word is written twice in a row{more}.",
        a,
        b,
        {"word": word, "first": first, "remove": [a, b], "count": len(found)},
    )
