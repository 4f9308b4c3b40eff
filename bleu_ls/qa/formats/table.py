"""The checks of each file format: one row per format that has checks of its own.

The format table (``formats/table.py``) sits below ``qa/`` and cannot name
checks, so this small table does, keyed by the format's name: a row gives the
format's document checks (what :func:`~.format_checks.findings_for` runs for the
CLI and the server) and its segment checks (what
:class:`~.live_checks.LiveChecks` keeps per segment in step with edits), with
the few facts those need (a header's plural facts, the fields that make the
same source a group, whether plural entries are counted, the summary counts).

A format without a row has no checks of its own (a line file).  A format with
checks of its own is one row here plus its check module.  Check modules are
imported when first used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from ...formats.model import (ANDROID, ARB, JSON, PO, PROPERTIES, SRT, STRINGS, STRINGSDICT, TMX, VTT, WEBEXT, XCSTRINGS,
                              XLIFF1, XLIFF2, YAML, Segment, SegmentDocument)
from ..findings import Finding


@dataclass(frozen=True)
class CheckRow:
    """The checks of one format."""

    #: ``(doc, diagnostics settings, code -> severity or None, said, text) -> findings``: every finding
    #: of the document (``said``: keys whose copied source ``untranslated`` already names)
    document: Callable[[SegmentDocument, Any, dict, frozenset, Optional[str]], list[Finding]]
    #: ``(seg, fmt, text, given severities, header facts) -> findings``: one segment's own checks
    #: (spans in the file); None: the format is not checked segment by segment in step with edits
    segment: Optional[Callable[[Segment, str, str, dict, dict], list[Finding]]] = None
    #: ``header -> facts`` the segment and plural checks read (PO: single-valued forms, nplurals)
    header_facts: Optional[Callable[[dict], dict]] = None
    #: ``(doc, given severities) -> {key: findings}``: the checks of plural entries (``plural-count``;
    #: a key-value file's plural groups: ``plural-categories``); None: the format has no plural entries
    plurals: Optional[Callable[[SegmentDocument, dict], dict]] = None
    #: ``segment -> bool``: the segment is a form of a plural entry (what ``plurals`` reads; counted again
    #: with its neighbours after an edit)
    in_plural: Callable[[Segment], bool] = lambda seg: "plural_index" in seg.extra
    #: the same source translated differently (and one translation of different sources) are findings
    #: (not in a String Catalog: its sources are in many languages)
    same_source: bool = True
    #: the fields of a segment's ``extra`` that, with its source, make its group of the same source
    #: (PO: msgctxt and plural form); none: the source alone
    group_fields: tuple[str, ...] = ()
    #: ``doc -> {name: count}`` for the summary of ``check`` (PO: fuzzy, untranslated)
    counts: Optional[Callable[[SegmentDocument], dict[str, int]]] = None
    #: ``text -> the text as the file spells it, or None``: how a quick fix's new text is written into a
    #: target (:mod:`~bleu_ls.qa.fixes`: PO C escapes, XML character data, a cue's text as it is)
    write: Callable[[str], Optional[str]] = lambda text: _fixes().plain_line(text)
    #: ``(seg, items) -> bool``: the inline items the rule table's ``markup-mismatch`` names are all
    #: placeholders of the format's own syntax (PO: of the entry's format flag), which
    #: ``placeholders-missing`` / ``-extra`` already say by that syntax: the generic finding is left out
    placeholders_own: Optional[Callable[[Segment, Iterable[str]], bool]] = None


def _fixes():
    from .. import fixes

    return fixes


def _po_write(text: str) -> Optional[str]:
    return _fixes().po_string(text)


def _po_placeholders_own(seg: Segment, items: Iterable[str]) -> bool:
    from ...formats.po_placeholders import placeholders_own

    return placeholders_own(seg, items)


def _xml_write(text: str) -> Optional[str]:
    return _fixes().xml_text(text)


def _kept(sev: dict) -> dict:
    return {c: s for c, s in sev.items() if s is not None}


def limits_of(d: Any):
    """The subtitle limits the rows of ``d`` (a :class:`~bleu_ls.config.diagnostics.DiagnosticsSettings`) give."""
    from ...config.diagnostics import SubtitleLimits

    return SubtitleLimits(
        max_chars_per_line=d.chars_per_line.max_chars,
        max_lines=d.lines_per_cue.max_lines,
        max_cps=d.reading_speed.max_cps,
        min_duration_ms=d.duration_short.min_ms,
        max_duration_ms=d.duration_long.max_ms,
        min_gap_ms=d.cue_gap.min_ms,
    )


def _subtitle_document(doc, d, sev, said, text):
    from .subtitle_checks import check_cues

    # the subtitle checks have no severity table of their own: the row's is set here
    return [Finding(c.code, sev[c.code], c.message, c.span)
            for c in check_cues(doc, limits_of(d), text=text) if sev.get(c.code)]


def _by_key(raw: list, found: dict, sev: dict, said: frozenset) -> list:
    raw += [f for k, fs in found.items() for f in fs if not (f.code == "target-same-as-source" and k in said)]
    return [f for f in raw if sev.get(f.code, f.severity) is not None]


def _xml_document(doc, d, sev, said, text):
    # the XML checks take the severities; ICU messages in the segments (Angular's XLIFF)
    from .icu_checks import check_icu
    from .xml_checks import check_document

    given = _kept(sev)
    icu = [f for s in doc.segments for f in check_icu(s, s.extra.get("lang") or doc.target_lang, given)]
    return _by_key(icu, check_document(doc, given), sev, said)


def _po_document(doc, d, sev, said, text):
    # a PO plural form's missing placeholder may still be said one step softer, where the plural
    # formula cannot be read; the reader's problems are po-syntax findings
    from .po_checks import check_document, problem_findings

    given = _kept(sev)
    return _by_key(problem_findings(doc, given), check_document(doc, given), sev, said)


def _xml_segment(seg, fmt, text, given, facts):
    from .icu_checks import check_icu
    from .xml_checks import check_newlines, check_segment

    return (check_segment(seg, fmt, given, text) + check_newlines(seg, text, given)
            + check_icu(seg, seg.extra.get("lang") or facts.get("language"), given))


def _xml_facts(header: dict) -> dict:
    """The target language the file declares (XLIFF 1.2 ``target-language``, XLIFF 2 ``trgLang``)."""
    return {"language": header.get("target-language") or header.get("trgLang")}


def _po_segment(seg, fmt, text, given, facts):
    from .po_checks import check_segment

    return check_segment(seg, given, facts.get("single"))


def _po_facts(header: dict) -> dict:
    from ...formats.po_plural import nplurals, single_valued_forms

    return {"single": single_valued_forms(header), "nplurals": nplurals(header)}


def _po_plurals(doc, given):
    from .po_checks import check_plurals

    return check_plurals(doc, given)


def _po_counts(doc):
    from .po_checks import counts

    return counts(doc)


def _json_write(text: str) -> Optional[str]:
    import json

    return json.dumps(text, ensure_ascii=False)[1:-1]


def _android_write(text: str) -> Optional[str]:
    """A quick fix's text in an Android string: XML character data with aapt2's escapes (``\'``, ``\"``,
    ``\\``, ``\n``, a leading ``@`` / ``?``)."""
    out = text.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"').replace("\n", "\\n")
    out = out.replace("&", "&amp;").replace("<", "&lt;")
    return "\\" + out if out[:1] in ("@", "?") else out


def _properties_write(text: str) -> Optional[str]:
    """A quick fix's text in a ``.properties`` value (backslash, line breaks and tabs escaped)."""
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


def _strings_write(text: str) -> Optional[str]:
    """A quick fix's text in a ``.strings`` value (between double quotes: backslash, quote, line break escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _yaml_write(text: str) -> Optional[str]:
    """A quick fix's text in a YAML value: only text a plain or quoted scalar keeps as it is (no quote, no
    backslash, no line break); other text is not offered as an edit."""
    return None if any(c in text for c in "\"'\\\n:#") else text


def _plural_groups(grouping: str) -> tuple[Callable[[SegmentDocument, dict], dict], Callable[[Segment], bool]]:
    """The ``plurals`` and ``in_plural`` of a format whose plural groups ``keyed_checks.<grouping>_plural_groups``
    finds (``keyed_checks.<grouping>_in_plural``: a segment of one)."""

    def plurals(doc: SegmentDocument, given: dict) -> dict:
        from .keyed_checks import check_plural_groups

        return check_plural_groups(doc, given, f"{grouping}_plural_groups")

    def in_plural(seg: Segment) -> bool:
        from . import keyed_checks

        return getattr(keyed_checks, f"{grouping}_in_plural")(seg)

    return plurals, in_plural


def _xcstrings_document(doc, d, sev, said, text):
    from .keyed_checks import check_plural_groups

    return _by_key([], check_plural_groups(doc, _kept(sev), "xcstrings_plural_groups"), sev, said)


def _keyed(syntax: str, write: Callable[[str], Optional[str]] = _json_write, icu: bool = False,
           plurals: Optional[str] = None) -> CheckRow:
    """A key-value localization file's checks, its placeholders by ``syntax`` (a function of keyed_checks);
    ``icu``: its values are ICU messages (ARB), checked as such too (``icu-syntax``, ``plural-categories``;
    a lost or added argument is the placeholder checks' to say); ``plurals``: its plural groups are found by
    ``keyed_checks.<plurals>_plural_groups`` and checked against CLDR (``plural-categories``)."""
    groups, member = _plural_groups(plurals) if plurals else (None, None)

    def _icu(seg, language, given) -> list[Finding]:
        if not icu or seg.source is None:
            return []
        from .icu_checks import check_icu

        return [f for f in check_icu(seg, language, {c: s for c, s in given.items() if c != "icu-arguments"})]

    def document(doc, d, sev, said, text):
        from . import keyed_checks

        given = _kept(sev)
        found = keyed_checks.check_document(doc, given, getattr(keyed_checks, syntax), said)
        language = keyed_checks.document_language(doc)
        found += [f for s in doc.segments for f in _icu(s, language, given)]
        return _by_key(found, groups(doc, given) if groups is not None else {}, sev, said)

    def segment(seg, fmt, text, given, facts):
        from . import keyed_checks

        return keyed_checks.check_one(seg, given, getattr(keyed_checks, syntax), facts) + _icu(seg, facts.get("language"), given)

    def header_facts(header: dict) -> dict:
        from ...formats.l10n_paths import PATH_LANGUAGE
        from .keyed_checks import facts

        return {**facts(header), "language": header.get("locale") or header.get(PATH_LANGUAGE) or None}

    def placeholders_own(seg: Segment, items: Iterable[str]) -> bool:
        from . import keyed_checks

        return keyed_checks.placeholders_own(seg, items, getattr(keyed_checks, syntax))

    if groups is None or member is None:
        return CheckRow(document=document, segment=segment, header_facts=header_facts, write=write,
                        placeholders_own=placeholders_own)
    return CheckRow(document=document, segment=segment, header_facts=header_facts, write=write, plurals=groups,
                    in_plural=member, placeholders_own=placeholders_own)


_XML = CheckRow(document=_xml_document, segment=_xml_segment, header_facts=_xml_facts, write=_xml_write)
_SUBTITLES = CheckRow(document=_subtitle_document)

#: format name -> its checks
CHECKS: dict[str, CheckRow] = {
    PO: CheckRow(document=_po_document, segment=_po_segment, header_facts=_po_facts, plurals=_po_plurals,
                 group_fields=("msgctxt", "plural_index"), counts=_po_counts, write=_po_write,
                 placeholders_own=_po_placeholders_own),
    XLIFF1: _XML,
    XLIFF2: _XML,
    TMX: _XML,
    SRT: _SUBTITLES,
    VTT: _SUBTITLES,
    JSON: _keyed("json_placeholders", plurals="i18next"),
    ARB: _keyed("icu_placeholders", icu=True),
    WEBEXT: _keyed("webext_placeholders"),
    ANDROID: _keyed("java_format_placeholders", _android_write, plurals="android"),
    PROPERTIES: _keyed("message_format_arguments", _properties_write),
    STRINGS: _keyed("apple_format_placeholders", _strings_write),
    STRINGSDICT: _keyed("apple_format_placeholders", _xml_write, plurals="stringsdict"),
    # a String Catalog: its plural variations only (its sources, in many languages, are not one file's)
    XCSTRINGS: CheckRow(document=_xcstrings_document, plurals=_plural_groups("xcstrings")[0],
                        in_plural=_plural_groups("xcstrings")[1], same_source=False),
    YAML: _keyed("yaml_placeholders", _yaml_write, plurals="yaml"),
}


def checks_of(fmt: str) -> Optional[CheckRow]:
    """The checks of format ``fmt`` (None: it has none of its own)."""
    return CHECKS.get(fmt)
