"""The plural categories a language has, from the Unicode CLDR (through Babel's copy of it).

CLDR gives each language its cardinal categories (``zero``, ``one``, ``two``, ``few``,
``many``, ``other``) and ordinal categories (for ``selectordinal``): German has
one/other, Russian one/few/many/other, Arabic all six, Japanese other alone.
A translation's plural forms are checked against them:

* **missing**: a category of the language that some whole number from 0 to 999 takes,
  with no form of its own. A category only millions reach (French, Spanish, Italian and
  Portuguese ``many``: "1 000 000 de fichiers") is not asked for: ICU, Android and Apple
  fall back to ``other`` for it, which is what most catalogues rely on;
* **extra**: a category the language does not have (``few`` in German, ``zero`` in English):
  ICU, Android and Apple never choose it, so the form is dead text, usually a copy of the
  source language's forms. Explicit values (``=0``, ``=1``) are always allowed.

The tables are Babel's (``babel.Locale.plural_form`` / ``ordinal_form``), never copied
here; a language Babel does not know gives ``None`` (nothing checked).  Imports nothing
of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

#: every category CLDR names, in its order
ORDER = ("zero", "one", "two", "few", "many", "other")
#: the whole numbers a category must be reached by to be asked for (0 … 999)
EVERYDAY = range(1000)


@dataclass(frozen=True)
class Categories:
    """A language's categories: all it has, and those everyday numbers reach."""

    all: frozenset[str]
    needed: frozenset[str]


@lru_cache(maxsize=256)
def rule_of(language: Optional[str], ordinal: bool = False):
    """Babel's plural rule of ``language`` (``rule(n) -> category``), or None (see :func:`categories`)."""
    if not language or not language.strip():
        return None
    try:
        from babel import Locale, UnknownLocaleError
    except ImportError:  # (a dependency; an install without it checks nothing)
        return None
    tag = language.strip().replace("-", "_")
    for t in (tag, tag.split("_")[0]):
        try:
            loc = Locale.parse(t)
        except (UnknownLocaleError, ValueError, TypeError):
            continue
        return loc.ordinal_form if ordinal else loc.plural_form
    return None


@lru_cache(maxsize=256)
def categories(language: Optional[str], ordinal: bool = False) -> Optional[Categories]:
    """The cardinal (or ordinal) categories of ``language`` (a BCP 47 tag or a POSIX name:
    ``de``, ``pt-BR``, ``sr_Latn``), or None when it is not given or Babel does not know it."""
    rule = rule_of(language, ordinal)
    if rule is None:
        return None
    every = frozenset(rule.tags) | {"other"}
    needed = frozenset(rule(n) for n in EVERYDAY) | {"other"}  # (ICU, Android and i18next fall back to it)
    return Categories(every, needed)


def ordered(names: Iterable[str]) -> list[str]:
    """Category names in CLDR's order (unknown names after, as given)."""
    names = list(dict.fromkeys(names))
    return sorted(names, key=lambda c: ORDER.index(c) if c in ORDER else len(ORDER) + names.index(c))


def compare(language: Optional[str], present: Iterable[str], ordinal: bool = False) -> Optional[tuple[list[str], list[str]]]:
    """(missing, extra) categories of a plural whose forms are ``present``, or None when the
    language's categories are not known.  Explicit values among them (``=0``, ``=1``: ICU) are
    always allowed and cover their numbers: French ``=0`` and ``=1`` leave ``one`` nothing to do."""
    rule = rule_of(language, ordinal)
    cats = categories(language, ordinal)
    if rule is None or cats is None:
        return None
    present = list(present)
    covered = set()
    for p in present:
        if p.startswith("="):
            try:
                v = float(p[1:])
            except ValueError:
                continue
            if v.is_integer():
                covered.add(int(v))
    needed = {rule(n) for n in EVERYDAY if n not in covered} | {"other"} if covered else set(cats.needed)
    have = {p for p in present if not p.startswith("=")}
    missing = ordered(c for c in needed if c not in have)
    extra = ordered(c for c in have if c not in cats.all)
    return missing, extra


def sentence(missing: list[str], extra: list[str], language: str) -> str:
    """What a plural with those categories is told."""
    parts = []
    if missing:
        parts.append(f"no {'/'.join(missing)} form ({language} needs {'it' if len(missing) == 1 else 'them'})")
    if extra:
        parts.append(f"a {'/'.join(extra)} form {language} never uses")
    return "Plural categories: " + "; ".join(parts) + "."


def compare_forms(language: Optional[str], present: Iterable[str], ordinal: bool = False,
                  optional: Iterable[str] = ()) -> Optional[tuple[list[str], list[str]]]:
    """:func:`compare` for a plural group written as one form per category (Android ``<plurals>``,
    i18next ``key_one``…, Apple's ``.stringsdict`` and String Catalog plural variations):
    (missing, extra), or None when the language's categories are not known.  ``optional``:
    categories every language may have besides its own (Apple's and i18next's ``zero``: a form for
    the number 0 in any language), never extra."""
    found = compare(language, present, ordinal)
    if found is None:
        return None
    missing, extra = found
    allowed = set(optional)
    return missing, [c for c in extra if c not in allowed]


def language_name(language: str) -> str:
    """The English name of ``language``'s language (``ru`` → Russian, ``pt-BR`` → Portuguese), as
    Babel's CLDR names it; the tag itself when Babel does not know it."""
    try:
        from babel import Locale, UnknownLocaleError
    except ImportError:
        return language
    tag = language.strip().replace("-", "_")
    for t in (tag, tag.split("_")[0]):
        try:
            name = Locale.parse(t).get_language_name("en")
        except (UnknownLocaleError, ValueError, TypeError):
            continue
        if name:
            return name
    return language


def forms_sentence(missing: list[str], extra: list[str], language: str, ordinal: bool = False) -> str:
    """What a plural group with those categories is told: ``Plural forms for “ru”: missing few, many
    (CLDR); has “two”, which Russian does not use.``"""
    what = "Ordinal plural forms" if ordinal else "Plural forms"
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)} (CLDR)")
    if extra:
        quoted = ", ".join(f"“{c}”" for c in extra)
        parts.append(f"has {quoted}, which {language_name(language)} does not use")
    return f"{what} for “{language}”: " + "; ".join(parts) + "."
