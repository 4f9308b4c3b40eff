"""The checks of key-value localization files (JSON, ARB, WebExtension ``messages.json``).

Their source is another file, the source-language file, paired by key (``formats/keyed.py``):

* ``key-missing``: a key of the source that this file does not have, said on the value of the key it
  would follow in the source's order (on the first value when it would come first);
* ``key-extra``: a key of this file that the source no longer has (on its value);
* ``target-empty``: an empty value where the source's is not;
* ``target-same-as-source``: the value copied from the source (with a letter in it);
* ``inconsistent-translation`` / ``inconsistent-source``: as in XLIFF (one source translated
  differently, one translation of different sources);
* ``placeholders-missing`` / ``placeholders-extra``: the format's own placeholders compared as
  multisets with the source's (:data:`SYNTAX`: i18next ``{{var}}`` and ``$t(key)``, vue/ngx
  ``{name}``; ARB ICU arguments ``{name}``, ``{n, plural, …}`` by name; WebExtension
  ``$NAME$`` and ``$1``).  ICU well-formedness is ``icu_checks``' (ARB);
* ``plural-categories``: each plural group the format spells its own way (Android ``<plurals>``,
  i18next v4 ``key_one``/``key_other``, ``.stringsdict`` plural rules, String Catalog plural
  variations, Rails YAML ``one:``/``other:`` entries: the ``*_plural_groups`` functions) against its language's CLDR categories
  (:func:`check_plural_groups`): said whether or not the file was paired with its source.

Each finding's span is in the file; severities are the rows' (``diagnostics.<code>``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from ...formats.keyed import SOURCE_FILE, missing_keys
from ...formats.model import Segment, SegmentDocument
from ..findings import Finding
from ..rules import KEYED, default_severities

#: code -> its default severity (the rule table's rows ``by`` KEYED)
DEFAULT_SEVERITY = default_severities(KEYED)
CODES = tuple(DEFAULT_SEVERITY)

#: text -> its placeholders: (as compared, start, end) in the text
Syntax = Callable[[str], list[tuple[str, int, int]]]

_I18NEXT = re.compile(r"\{\{-?\s*([^{}]*?)\s*\}\}|\$t\(([^()]*)\)|(?<!\{)\{\s*([A-Za-z_$][\w.$-]*)\s*\}(?!\})")
_WEBEXT = re.compile(r"\$([A-Za-z0-9_@]+)\$|\$([1-9])(?![0-9])")
_LETTER = re.compile(r"[^\W\d_]")


def json_placeholders(text: str) -> list[tuple[str, int, int]]:
    """i18next ``{{var}}`` (format arguments after a comma dropped: ``{{d, datetime}}`` is ``{{d}}``),
    ``$t(key)`` nesting, vue-i18n / ngx-translate ``{name}``."""
    out: list[tuple[str, int, int]] = []
    if "{" not in text and "$t(" not in text:
        return out
    for m in _I18NEXT.finditer(text):
        if m.group(1) is not None:
            name = m.group(1).split(",", 1)[0].strip()
            out.append(("{{" + name + "}}", m.start(), m.end()))
        elif m.group(2) is not None:
            out.append(("$t(" + m.group(2).split(",", 1)[0].strip() + ")", m.start(), m.end()))
        else:
            out.append(("{" + m.group(3) + "}", m.start(), m.end()))
    return out


def webext_placeholders(text: str) -> list[tuple[str, int, int]]:
    """``$NAME$`` (names are case-insensitive) and ``$1``…``$9``."""
    if "$" not in text:
        return []
    return [(f"${(m.group(1) or '').upper()}$" if m.group(1) else f"${m.group(2)}", m.start(), m.end())
            for m in _WEBEXT.finditer(text)]


def java_format_placeholders(text: str) -> list[tuple[str, int, int]]:
    """Android: the Java format specifiers (``%s``, ``%1$d``…; ``%%`` and ``%n`` are text, not arguments)."""
    if "%" not in text:
        return []
    from ...formats.android import java_placeholders

    return [(s, a, b) for a, b, s in java_placeholders(text) if s not in ("%%", "%n")]


_PRINTF = re.compile(r"%%|%#@([A-Za-z_]\w*)@|%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|z|t|j|L)?"
                     r"([@dDiuUxXoOfFeEgGcCsSpaA])")
_YAML = re.compile(r"%\{\s*([A-Za-z_]\w*)\s*\}|%([A-Za-z_]\w*)%|\{\{\s*([A-Za-z_]\w*)\s*\}\}|\{\s*([A-Za-z_]\w*)\s*[,}]")


def apple_format_placeholders(text: str) -> list[tuple[str, int, int]]:
    """Apple ``.strings`` / ``.stringsdict``: printf specifiers by their conversion (``%1$@`` and ``%@`` are
    one ``%@``: a translation may number them to reorder), ``%#@var@`` plural references by name;
    ``%%`` is text."""
    if "%" not in text:
        return []
    out = []
    for m in _PRINTF.finditer(text):
        if m.group(1):
            out.append((f"%#@{m.group(1)}@", m.start(), m.end()))
        elif m.group(2):
            conv = m.group(2)
            out.append(("%" + ("d" if conv in "diDuU" else conv), m.start(), m.end()))
    return out


def yaml_placeholders(text: str) -> list[tuple[str, int, int]]:
    """Rails ``%{name}``, Symfony ``%name%`` and ``{name}`` / ICU ``{name, …}``, Twig-style ``{{ name }}``."""
    if "%" not in text and "{" not in text:
        return []
    out = []
    for m in _YAML.finditer(text):
        if m.group(1):
            out.append(("%{" + m.group(1) + "}", m.start(), m.end()))
        elif m.group(2):
            out.append(("%" + m.group(2) + "%", m.start(), m.end()))
        elif m.group(3):
            out.append(("{{" + m.group(3) + "}}", m.start(), m.end()))
        else:
            out.append(("{" + m.group(4) + "}", m.start(), m.start() + len(m.group(0)) - 1))
    return out


def message_format_arguments(text: str) -> list[tuple[str, int, int]]:
    """Java ``.properties``: the ``MessageFormat`` arguments by name (``{0,number,#.##}`` is ``{0}``)."""
    if "{" not in text:
        return []
    from ...formats.properties import message_format_placeholders

    return [("{" + s[1:-1].split(",", 1)[0].strip() + "}", a, b) for a, b, s in message_format_placeholders(text)]


def icu_placeholders(text: str) -> list[tuple[str, int, int]]:
    """The arguments of an ICU message, by name (``{n}``, ``{n, plural, …}``, nested messages
    read too), each where it is written; apostrophe quoting honoured.  Lenient: an ill-formed
    message gives what was read of it."""
    out: list[tuple[str, int, int]] = []
    n = len(text)

    def message(i: int, depth: int) -> int:
        """Read message text from ``i`` to its closing ``}`` (depth > 0) or the end; return the offset at the ``}``."""
        while i < n:
            c = text[i]
            if c == "'":
                if i + 1 < n and text[i + 1] == "'":
                    i += 2
                    continue
                if i + 1 < n and text[i + 1] in "{}#|":  # quoted literal up to the next lone apostrophe
                    j = text.find("'", i + 1)
                    i = n if j < 0 else j + 1
                    continue
                i += 1
                continue
            if c == "}":
                if depth:
                    return i
                i += 1
                continue
            if c == "{":
                i = argument(i, depth)
                continue
            i += 1
        return n

    def argument(i: int, depth: int) -> int:
        m = re.compile(r"\{\s*([^\s,{}]+)\s*([,}])").match(text, i)
        if not m:
            return i + 1
        name = m.group(1)
        if m.group(2) == "}":
            out.append(("{" + name + "}", i, m.end()))
            return m.end()
        j = m.end()
        t = re.compile(r"\s*(\w+)\s*([,}])").match(text, j)
        if not t:
            return j
        out.append(("{" + name + "}", i, t.end() if t.group(2) == "}" else j))
        if t.group(2) == "}":
            return t.end()
        j = t.end()
        if t.group(1) not in ("plural", "select", "selectordinal"):
            close = message(j, depth + 1)  # a style such as {d, date, short}: skipped to its brace
            return close + 1
        while j < n:  # selector {sub-message} pairs up to the closing brace
            k = re.compile(r"\s*(offset:\s*\d+\s*)?([^\s{}]+)?\s*").match(text, j)
            j = k.end() if k else j
            if j >= n:
                return n
            if text[j] == "}":
                return j + 1
            if text[j] != "{":
                return j
            close = message(j + 1, depth + 1)
            j = close + 1
        return n

    message(0, 0)
    return out


def _listing(items: Counter) -> str:
    return ", ".join(f"{k} ({v} times)" if v > 1 else k for k, v in sorted(items.items()))


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def facts(header: dict) -> dict:
    """What the checks read of a document's header (:mod:`~bleu_ls.formats.keyed`): paired with a source
    file or not, its name, the source keys the file lacks by the key they would follow."""
    if SOURCE_FILE not in header:
        return {"paired": False}
    return {"paired": True, "name": header.get(SOURCE_FILE) or "the source-language file",
            "missing": missing_keys(header)}


def _missing(seg_key: str, span: tuple[int, int], facts: dict, sev: dict) -> list[Finding]:
    if not sev.get("key-missing"):
        return []
    return [Finding("key-missing", sev["key-missing"],
                    f"{'Before' if before else 'After'} this value, the key \"{key}\" of {facts['name']} is "
                    f"missing (source: \"{_short(text)}\").", span, key=key)
            for key, text, before in facts["missing"].get(seg_key, ())]


def check_one(seg: Segment, sev: dict, syntax: Optional[Syntax], facts: dict,
              said: frozenset = frozenset()) -> list[Finding]:
    """One segment's findings in a document paired with its source (none when it was not): the source
    keys missing next to it, its key gone from the source, or its value's checks."""
    if not facts.get("paired"):
        return []
    out: list[Finding] = []
    if seg.source is None:
        if sev.get("key-extra"):
            out.append(Finding("key-extra", sev["key-extra"], f"{facts['name']} has no key \"{seg.key}\" any more.",
                               seg.target_span, key=seg.key))
    else:
        out += check_segment(seg, sev, syntax, said)
    return out + _missing(seg.key, seg.target_span, facts, sev)


def check_segment(seg: Segment, sev: dict, syntax: Optional[Syntax], said: frozenset = frozenset()) -> list[Finding]:
    """One paired segment's value checks (none without a source)."""
    src = seg.source
    if src is None:
        return []
    out: list[Finding] = []
    a, b = seg.target_span
    tgt = seg.target
    if not tgt.strip():
        if src.strip() and sev.get("target-empty"):
            out.append(Finding("target-empty", sev["target-empty"], "The value is empty; the source's is not.", (a, b)))
        return out
    if tgt == src and _LETTER.search(src) and seg.key not in said and sev.get("target-same-as-source"):
        out.append(Finding("target-same-as-source", sev["target-same-as-source"],
                           "The value is the source's, unchanged: not translated?", (a, b)))
    if syntax is not None:
        want_list, have_list = syntax(src), syntax(tgt)
        want = Counter(p for p, _s, _e in want_list)
        have = Counter(p for p, _s, _e in have_list)
        lost, added = want - have, have - want
        if lost and sev.get("placeholders-missing"):
            many = sum(lost.values()) > 1
            # as the source writes them, in its order (what the quick fix inserts: qa/fixes.py)
            left, missing = Counter(lost), []
            for p, start, end in want_list:
                if left[p] > 0:
                    left[p] -= 1
                    missing.append(src[start:end])
            out.append(Finding("placeholders-missing", sev["placeholders-missing"],
                               f"The source's placeholder{'s' if many else ''} {_listing(lost)} "
                               f"{'are' if many else 'is'} missing here.", (a, b),
                               data={"lost": sorted(lost.elements()), "missing": missing}))
        if added and sev.get("placeholders-extra"):
            first = next(x for x in have_list if x[0] in added)
            span = (seg.file_offset(first[1]), seg.file_offset(first[2]))
            out.append(Finding("placeholders-extra", sev["placeholders-extra"],
                               f"The source has no placeholder {_listing(added)}.", span,
                               data={"added": sorted(added.elements())}))
    return out


def placeholders_own(seg: Segment, items: Iterable[str], syntax: Syntax) -> bool:
    """Whether every one of ``items`` (texts the rule table's ``markup-mismatch`` found lost or added) is
    a placeholder of the format's ``syntax`` in the source or the value (or part of one), as written or
    as compared: then
    ``placeholders-missing`` / ``-extra`` say it (so the generic check need not say it again)."""
    texts: set[str] = set()
    for text in (seg.source or "", seg.target):
        for compared, a, b in syntax(text):
            texts.add(compared)
            texts.add(text[a:b])
    items = list(items)
    # (the generic check may name part of one: ``{model}`` of Rails' ``%{model}``)
    return bool(items) and all(i in texts or any(i in t for t in texts) for i in items)


def plural_category(fmt: str) -> Optional[Callable[[str], Optional[str]]]:
    """key -> the plural category it names a form of (None: none), for a format whose keys name plural
    forms (``formats/plural_keys.py``); None for the others."""
    from ...formats.match import PLURAL_FORMS

    form_of = PLURAL_FORMS.get(fmt)
    if form_of is None:
        return None

    def category(key: str) -> Optional[str]:
        got = form_of(key)
        return got[1] if got is not None else None

    return category


def check_document(doc: SegmentDocument, sev: dict, syntax: Optional[Syntax], said: frozenset = frozenset()) -> list[Finding]:
    """Every finding of a key-value localization file paired with its source (none when it was not)."""
    f = facts(doc.header)
    if not f["paired"]:
        return []
    if not doc.segments:  # nothing to put them after: the file's start
        return _missing("", (0, 0), f, sev)
    from .xml_checks import inconsistent_sources, inconsistent_translations

    paired = [s for s in doc.segments if s.source is not None]
    groups = (inconsistent_translations(paired, sev, plural_category(doc.format)), inconsistent_sources(paired, sev))
    out: list[Finding] = []
    for seg in doc.segments:
        out += check_one(seg, sev, syntax, f, said=said)
        for g in groups:
            out += g.get(seg.key, ())
    return out


# --- plural groups against the language's CLDR categories (``plural-categories``) ------------------
@dataclass
class PluralGroup:
    """One plural of a key-value file: its forms, one segment per category."""

    #: the group's name as the file spells it (Android ``name``, i18next base key, .stringsdict ``entry:variable``)
    name: str
    #: its segments in file order (the finding sits on the first)
    segments: list[Segment] = field(default_factory=list)
    #: their categories, in the same order
    categories: list[str] = field(default_factory=list)
    #: its own language (a String Catalog's localization); None: the document's
    language: Optional[str] = None
    ordinal: bool = False


#: Apple (``.stringsdict``, String Catalogs) and i18next: a ``zero`` form is allowed in every language
#: (used for the number 0 where the language has no ``zero`` category of its own)
ZERO_ANYWHERE = ("zero",)


def android_in_plural(seg: Segment) -> bool:
    """An ``<item quantity>`` of a ``<plurals>``."""
    return seg.extra.get("resource") == "plurals"


def android_plural_groups(segments, header: dict) -> list[PluralGroup]:
    """Each ``<plurals name>``'s items (a name defined again, ``#2``: its own group)."""
    groups: dict[tuple, PluralGroup] = {}
    for s in segments:
        if not android_in_plural(s):
            continue
        name = s.extra.get("name", "")
        g = groups.setdefault((name, s.extra.get("duplicate")), PluralGroup(name))
        g.segments.append(s)
        g.categories.append(s.extra.get("quantity", ""))
    return list(groups.values())


def stringsdict_in_plural(seg: Segment) -> bool:
    """A category string of a variable whose rule type is ``NSStringPluralRuleType``."""
    from ...formats.stringsdict import PLURAL_RULE

    return seg.extra.get("rule") == PLURAL_RULE


def stringsdict_plural_groups(segments, header: dict) -> list[PluralGroup]:
    """Each entry's ``NSStringPluralRuleType`` variable (width rules and variables without a rule type
    are not plurals)."""
    groups: dict[tuple, PluralGroup] = {}
    for s in segments:
        if not stringsdict_in_plural(s):
            continue
        entry, var = s.extra.get("entry", ""), s.extra.get("variable", "")
        g = groups.setdefault((entry, var), PluralGroup(f"{entry}:{var}"))
        g.segments.append(s)
        g.categories.append(s.extra.get("category", ""))
    return list(groups.values())


def _xcstrings_plural(seg: Segment) -> Optional[tuple[str, str]]:
    """(the variation path before it, the category) of a String Catalog plural variation's segment."""
    variation = str(seg.extra.get("variation") or "")
    head, _, last = variation.rpartition("/")
    if not last.startswith("plural:"):
        return None
    return head, last[len("plural:"):]


def xcstrings_in_plural(seg: Segment) -> bool:
    """A ``variations.plural`` case (under a device variation or a substitution too)."""
    return _xcstrings_plural(seg) is not None


def xcstrings_plural_groups(segments, header: dict) -> list[PluralGroup]:
    """Each localization's plural variations of a string (each device variation's, each substitution's
    apart), in that localization's language."""
    groups: dict[tuple, PluralGroup] = {}
    for s in segments:
        got = _xcstrings_plural(s)
        if got is None:
            continue
        head, cat = got
        lang, key = s.extra.get("lang"), s.extra.get("string_key", "")
        g = groups.setdefault((lang, key, head), PluralGroup(f"{key}[{head}]" if head else key, language=lang))
        g.segments.append(s)
        g.categories.append(cat)
    return list(groups.values())


def i18next_in_plural(seg: Segment) -> bool:
    """A key ending in an i18next v4 plural suffix (``_one``, ``_ordinal_few``…)."""
    from ...formats.l10n_json import i18next_plural

    return i18next_plural(seg.key) is not None


def _plurals(groups: dict, source_other: set) -> list[PluralGroup]:
    """The groups that are plurals: their ``other`` form is there (or in the source-language file: its key
    in ``source_other``), or a ``few`` or ``many`` beside another form (Russian ``one``/``few``/``many``
    written without ``other``); a base that only looks like one (``step_one`` and ``step_two``) is not."""
    return [g for k, g in groups.items()
            if "other" in g.categories or k in source_other or (len(set(g.categories)) > 1 and {"few", "many"} & set(g.categories))]


def i18next_plural_groups(segments, header: dict) -> list[PluralGroup]:
    """The keys of one base with i18next v4 plural suffixes (``item_one``, ``item_other``; ordinal
    ``item_ordinal_one``… a group of their own): a group when its ``_other`` form is there, in this file
    or in the source-language file, or it has a ``_few`` or ``_many`` form beside another (Russian
    ``_one``, ``_few``, ``_many`` without ``_other``); a base that only looks like one (``step_one`` and
    ``step_two``) is not a plural."""
    from ...formats.l10n_json import i18next_plural

    groups: dict[tuple, PluralGroup] = {}
    for s in segments:
        got = i18next_plural(s.key)
        if got is None:
            continue
        base, ordinal, cat = got
        g = groups.setdefault((base, ordinal), PluralGroup(base, ordinal=ordinal))
        g.segments.append(s)
        g.categories.append(cat)
    source_other = {(p[0], p[1]) for keys in missing_keys(header).values() for key, _t, _b in keys
                    for p in [i18next_plural(key)] if p is not None and p[2] == "other"}
    return _plurals(groups, source_other)


def yaml_in_plural(seg: Segment) -> bool:
    """A key whose last part is a CLDR category name (``….entry.one``): maybe a form of a Rails plural
    entry (:func:`yaml_plural_groups` decides)."""
    from ...formats.plural_keys import dotted_form

    return dotted_form(seg.key) is not None


def yaml_plural_groups(segments, header: dict) -> list[PluralGroup]:
    """Rails i18n plural entries: the keys under one parent that are all CLDR category names
    (``entry: {one: …, other: …}``), with ``other`` among them, here or in the source-language file,
    or a ``few`` or ``many`` beside another form.  A parent with any other child (``pagination: {one:
    …, multiple: …}``) is no plural: Rails reads those keys by name."""
    from ...formats.plural_keys import CATEGORIES, dotted_form

    children: dict[str, set[str]] = {}
    for s in segments:
        parts = s.key.split(".")
        for k in range(1, len(parts)):
            children.setdefault(".".join(parts[:k]), set()).add(parts[k])
    groups: dict[str, PluralGroup] = {}
    for s in segments:
        form = dotted_form(s.key)
        if form is None or not children.get(form[0], set()) <= CATEGORIES:
            continue
        parent, cat = form
        g = groups.setdefault(parent, PluralGroup(parent))
        g.segments.append(s)
        g.categories.append(cat)
    source_other = {key.rpartition(".")[0] for keys in missing_keys(header).values() for key, _t, _b in keys
                    if key.rpartition(".")[2] == "other"}
    return _plurals(groups, source_other)


#: the format's grouping -> the categories every language may have besides its own
_OPTIONAL = {"stringsdict_plural_groups": ZERO_ANYWHERE, "xcstrings_plural_groups": ZERO_ANYWHERE,
             "i18next_plural_groups": ZERO_ANYWHERE, "yaml_plural_groups": ZERO_ANYWHERE}


def document_language(doc: SegmentDocument) -> Optional[str]:
    """The target language of a key-value file: what its content declares (ARB ``@@locale``, the reader's
    ``target_lang``), else what its place names (:data:`~bleu_ls.formats.l10n_paths.PATH_LANGUAGE`)."""
    from ...formats.l10n_paths import PATH_LANGUAGE

    return doc.header.get("locale") or doc.target_lang or doc.header.get(PATH_LANGUAGE) or None


def check_plural_groups(doc: SegmentDocument, sev: dict, grouping: str) -> dict[str, list[Finding]]:
    """``plural-categories`` of each plural group (``grouping``: the name of this module's function that
    finds them) against its language's CLDR categories (:func:`~bleu_ls.qa.text.plurals.compare_forms`),
    said on the group's first segment: key -> findings.  A group whose language is not known (none
    declared or named by the path; one Babel does not know) is not checked."""
    severity = sev.get("plural-categories")
    if not severity:
        return {}
    from ..text.plurals import compare_forms, forms_sentence

    groups = globals()[grouping](doc.segments, doc.header)
    language = document_language(doc)
    optional = _OPTIONAL.get(grouping, ())
    out: dict[str, list[Finding]] = {}
    for g in groups:
        lang = g.language or language
        if not lang:
            continue
        found = compare_forms(lang, g.categories, g.ordinal, optional)
        if found is None or not (found[0] or found[1]):
            continue
        missing, extra = found
        first = g.segments[0]
        out.setdefault(first.key, []).append(Finding(
            "plural-categories", severity, forms_sentence(missing, extra, lang, g.ordinal), first.target_span,
            data={"missing": missing, "extra": extra, "language": lang, "group": g.name}))
    return out
