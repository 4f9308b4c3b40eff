"""What a glossary file is read into: concepts, their terms, each term's language and status.

One model for every glossary format (TBX 2019 and 2008, CSV/TSV, plain
do-not-translate lists; the readers are in :mod:`.read`).  A :class:`Concept`
is one entry of the glossary (a TBX ``conceptEntry``/``termEntry``, a CSV
row); its :class:`Term` s are the words that name it, each in one language
with one status:

* ``preferred`` — the term to use (a term with no status is preferred);
* ``admitted`` — a term that may be used too;
* ``forbidden`` — a term that must not be used (TBX deprecated or superseded);
* ``do-not-translate`` — a term that must appear unchanged in the target.

Languages are BCP 47 tags as the file wrote them; :func:`same_language`
compares them.  The language ``"*"`` (a plain do-not-translate list) is any
language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

PREFERRED = "preferred"
ADMITTED = "admitted"
FORBIDDEN = "forbidden"
DO_NOT_TRANSLATE = "do-not-translate"

#: every status, in the order the documentation lists them
STATUSES = (PREFERRED, ADMITTED, FORBIDDEN, DO_NOT_TRANSLATE)

#: the language of a term that is the same in every language (a do-not-translate list)
ANY_LANGUAGE = "*"


@dataclass(frozen=True, slots=True)
class Term:
    """One term: its text (whitespace normalised), its language as the file wrote it, its status."""

    text: str
    lang: str
    status: str = PREFERRED
    note: Optional[str] = None
    #: 1-based line of the term in the file (0: unknown)
    line: int = 0


@dataclass(slots=True)
class Concept:
    """One glossary entry: the terms that name one concept in one or more languages."""

    terms: tuple[Term, ...]
    id: Optional[str] = None
    note: Optional[str] = None
    #: 1-based line where the entry starts (0: unknown)
    line: int = 0

    def terms_in(self, lang: str) -> list[Term]:
        """The terms of this concept in ``lang`` (compared with :func:`same_language`), in file order."""
        return [t for t in self.terms if same_language(t.lang, lang)]


@dataclass
class Glossary:
    """A glossary file as read: never raises; what went wrong is in ``problems``.

    ``concepts`` is empty when the file could not be used at all (a fatal
    problem: nothing of a broken glossary is used).  ``languages`` lists the
    file's languages in file order (a CSV's header order; TBX: the root's
    ``xml:lang`` first, then the order in which language sections appear).
    """

    path: str
    languages: tuple[str, ...]
    concepts: list[Concept]
    problems: list[str] = field(default_factory=list)
    #: the TBX root's ``xml:lang`` or the CSV's first language column
    source_language: Optional[str] = None


def _norm(tag: str) -> str:
    return tag.strip().replace("_", "-").lower()


def same_language(a: str, b: str) -> bool:
    """Whether BCP 47 tags ``a`` and ``b`` name the same language for matching terms.

    Case-insensitive, ``_`` and ``-`` alike; a less specific tag covers the
    more specific ones it is a prefix of (subtag by subtag, as BCP 47 lookup
    does): a bare primary language matches any region or script of it
    (``de`` ~ ``de-DE``, ``zh`` ~ ``zh-Hans``, ``zh-Hans`` ~ ``zh-Hans-CN``),
    two different regions or scripts do not (``de-AT`` !~ ``de-DE``,
    ``sr-Latn`` !~ ``sr-Cyrl-RS``); ``"*"`` matches any language.
    """
    if a == ANY_LANGUAGE or b == ANY_LANGUAGE:
        return True
    na, nb = _norm(a), _norm(b)
    if na == nb:
        return bool(na)
    sa, sb = na.split("-"), nb.split("-")
    if not sa[0] or sa[0] != sb[0]:
        return False
    # one tag's subtags a prefix of the other's: the less specific tag covers the more specific one
    n = min(len(sa), len(sb))
    return sa[:n] == sb[:n]
