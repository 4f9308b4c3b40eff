"""Keys that name one form of a plural entry, per key-value format: ``(entry, category)``.

A translation's plural entry has the forms its language needs, not the source's: a Russian
``item_few`` translates the English ``item_other``, and a Japanese file has no ``item_one``.
Pairing by key (:func:`~.match.pair_documents`) gives a form the source lacks the source's form
of the same entry (its ``other``, else its first), and :func:`~.keyed.fill_sources` does not call
a source form missing when the file has the entry in other forms; whether the file's forms are
its language's is the ``plural-categories`` check's to say (``qa/formats/keyed_checks.py``).

The formats' rows name their function (``plural_form``, ``formats/table.py``):

* i18next v4 JSON: ``item_one``, ``place_ordinal_two`` (:func:`~.l10n_json.i18next_plural`);
* Android ``<plurals>`` and Apple ``.stringsdict``: ``name[few]``, ``entry[var:few]`` (the keys
  their readers give a plural item);
* Rails YAML: ``….entry.few`` (a key whose last part is a category name).
"""

from __future__ import annotations

import re
from typing import Optional

#: the CLDR plural category names
CATEGORIES = frozenset(("zero", "one", "two", "few", "many", "other"))

_BRACKET = re.compile(r"(.*)\[(?:([^\]:]*):)?(zero|one|two|few|many|other)\]\Z", re.S)


def i18next_form(key: str) -> Optional[tuple[str, str]]:
    """An i18next v4 plural key's (entry, category); ordinal forms are an entry of their own."""
    from .l10n_json import i18next_plural

    got = i18next_plural(key)
    if got is None:
        return None
    base, ordinal, cat = got
    return (base + "\x00ordinal" if ordinal else base), cat


def bracket_form(key: str) -> Optional[tuple[str, str]]:
    """An Android ``<plurals>`` item's or a ``.stringsdict`` category's (entry, category)."""
    m = _BRACKET.match(key)
    if m is None:
        return None
    return (m.group(1) if m.group(2) is None else f"{m.group(1)}[{m.group(2)}]"), m.group(3)


def dotted_form(key: str) -> Optional[tuple[str, str]]:
    """A Rails YAML key's (parent, category) when its last part is a category name."""
    parent, _, last = key.rpartition(".")
    return (parent, last) if parent and last in CATEGORIES else None
