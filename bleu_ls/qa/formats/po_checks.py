"""QA checks on the entries of a gettext PO catalogue: plain functions over the segments.

Each finding is a :class:`~bleu_ls.qa.findings.Finding` whose
``span`` is a pair of offsets in the decoded file text (inside the msgstr's
strings).  The checks that do not depend on the format (empty target, target
same as source, white space, inconsistent translations) are the XML checks'
own functions, run on a view of the segment where line breaks are not white
space (the ``newlines`` check counts them).  Defaults and where each check
comes from are in ``docs/formats.md`` ("Checks on PO entries"):

============================  ===========  ====================================================
code                          default      compare with
============================  ===========  ====================================================
``po-syntax``                 error        msgfmt's syntax errors (the reader's problems)
``placeholders-missing``      error        pofilter ``printf`` / ``pythonbraceformat``; msgfmt -c
``placeholders-extra``        error        pofilter ``printf`` / ``pythonbraceformat``; msgfmt -c
``placeholders-order``        error        msgfmt -c: unnumbered printf directives reordered
``plural-count``              error        pofilter ``nplurals``; msgfmt -c
``plural-header``             warning      msgfmt --check-header: plural entries, no Plural-Forms
``fuzzy``                     information  pofilter ``isfuzzy``; msgfmt leaves fuzzy entries out
``target-empty``              information  pofilter ``untranslated``; CheckMate "empty target"
``target-same-as-source``     warning      pofilter ``unchanged``; CheckMate "target same as source"
``whitespace-leading``        warning      pofilter ``startwhitespace``; CheckMate
``whitespace-trailing``       warning      pofilter ``endwhitespace``; CheckMate
``newlines``                  warning      pofilter ``newlines``; msgfmt -c (a leading/trailing ``\\n``)
``double-space``              information  pofilter ``doublespacing``; CheckMate double spaces
``accelerator``               warning      pofilter ``accelerators``
``inconsistent-translation``  warning      Xbench "inconsistency in target" (same msgctxt)
``inconsistent-source``       information  Xbench "inconsistency in source" (same plural form)
============================  ===========  ====================================================

Plain Python; imports only the segment model, the PO reader's placeholder
patterns, the placeholder parser (``po_placeholders``), the Plural-Forms
reader (``po_plural``) and the XML checks' shared functions.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable, Mapping, Optional, cast

from ...formats.model import Segment, SegmentDocument
from ...formats.po import PLACEHOLDER_FLAGS
from ...formats.po_placeholders import QT_PARTS, find_placeholders, parse_placeholders
from ...formats.po_plural import nplurals, plural_entries, single_valued_forms
from ..findings import Finding
from ..rules import PO, default_severities
from .xml_checks import check_empty, check_same_as_source, check_whitespace, inconsistent_sources, inconsistent_translations

#: code -> default severity of the PO checks' codes (the rule table's rows ``by`` PO;
#: the settings' severities, bleu_ls/config/diagnostics.py)
DEFAULT_SEVERITY = default_severities(PO)
CODES = tuple(DEFAULT_SEVERITY)


def _anchor(seg: Segment) -> tuple[int, int]:
    """From the target's first character to its last (the msgstr's strings when it is empty)."""
    if not seg.target:
        return seg.target_span
    return seg.file_offset(0), seg.file_offset(len(seg.target))


def _sev(severity: Optional[dict], code: str) -> str:
    return (severity or {}).get(code, DEFAULT_SEVERITY[code])


def check_placeholders(seg: Segment, severity: Optional[dict] = None,
                       single_forms: Optional[frozenset] = None) -> list[Finding]:
    """Placeholders of the entry's format flag missing from, or extra in, the msgstr; printf directives reordered.

    The msgstr is compared with the msgid; each form of a plural entry with the
    msgid_plural, as msgfmt -c does (form 0 stands for 1, 21, 31… in Russian and
    needs the count), and it may also use the msgid's.  A form the header's
    plural formula uses for one number only (``single_forms``, see
    :func:`~.po_plural.single_valued_forms`) may leave placeholders out; where the formula
    is not known, a missing placeholder in a plural form is a warning, not an
    error.  Placeholders are compared by the argument they take
    and its type (``%d`` and ``%i`` alike; ``%s`` and ``%d`` not), so a numbered
    ``%2$s %1$d`` is the source's ``%d … %s`` in another order and is right;
    brace and Qt placeholders may repeat or be left out of a repeat.  An entry
    without a format flag (or with ``no-c-format``…) is not checked; nor is an empty msgstr.
    """
    flags = seg.flags
    if not any(f in PLACEHOLDER_FLAGS for f in flags) or not seg.target.strip():
        return []
    extra: Mapping[str, Any] = seg.extra
    idx = extra.get("plural_index")
    plural = extra.get("msgid_plural")
    if idx is not None and plural is not None:
        ref = parse_placeholders(find_placeholders(plural, flags), flags)
        allowed = ref + parse_placeholders(find_placeholders(extra.get("msgid", ""), flags), flags)
    else:
        ref = parse_placeholders([(c.id, None) for c in seg.source_codes], flags)
        allowed = ref
    tgt = parse_placeholders([(c.id, c.span) for c in seg.target_codes], flags)
    if not ref and not tgt:
        return []
    out: list[Finding] = []
    # unnumbered printf directives in another order: the same texts, other arguments
    if (sorted(p.text for p in tgt) == sorted(p.text for p in ref) and any(p.sequential for p in tgt)
            and [(p.arg, p.kind) for p in tgt] != [(p.arg, p.kind) for p in ref]):
        fix = "name them (%(name)s)" if "python-format" in flags else "number them (%1$s, %2$d)"
        return [Finding(
            "placeholders-order", _sev(severity, "placeholders-order"),
            "The target has the source's placeholders in another order; unnumbered ones take the "
            f"arguments in order: {fix} to reorder.", _anchor(seg))]
    if any(p.sequential for p in tgt) and any(p.arg[0] == "pos" and not p.sequential and not p.text.startswith("{")
                                              and not QT_PARTS.match(p.text) for p in tgt):
        out.append(Finding("placeholders-order", _sev(severity, "placeholders-order"),
                                  "The target mixes numbered (%1$s) and unnumbered (%s) placeholders.", _anchor(seg)))
    have = {(p.arg, p.kind) for p in tgt}
    missing = []
    for p in ref:
        if (p.arg, p.kind) not in have and p.text not in missing:
            missing.append(p.text)
    if missing and idx is not None and plural is not None and single_forms is not None and idx in single_forms:
        missing = []  # a form for one number only ("one file"): msgfmt lets it leave them out
    if missing:
        sev = _sev(severity, "placeholders-missing")
        if idx is not None and plural is not None and single_forms is None and sev == "error":
            sev = "warning"  # the formula is not known: the form may stand for one number only
        names = ", ".join(missing)
        out.append(Finding("placeholders-missing", sev, f"The target lacks the source's {names}.", _anchor(seg),
                           data={"missing": missing}))
    ok = {(p.arg, p.kind) for p in allowed}
    for p in tgt:
        if (p.arg, p.kind) not in ok:
            out.append(Finding("placeholders-extra", _sev(severity, "placeholders-extra"),
                                      f"The target has {p.text}, which the source does not have.", p.span or _anchor(seg)))
    return out


# -- plural forms ----------------------------------------------------------------

def check_plurals(doc: SegmentDocument, severity: Optional[dict] = None) -> dict[str, list[Finding]]:
    """Each plural entry's number of ``msgstr[n]`` against the header's ``nplurals``; plural entries without one."""
    entries = plural_entries(doc.segments)
    out: dict[str, list[Finding]] = {}
    if not entries:
        return out
    n = nplurals(doc.header)
    if n is None:
        pf = doc.header.get("Plural-Forms")
        if pf is None:
            msg = "The catalogue has plural entries but its header has no Plural-Forms."
        elif "INTEGER" in pf:
            return out  # a template (.pot): the count is the translator's to fill in
        else:
            msg = "The header's Plural-Forms names no nplurals."
        first = entries[0][0]
        out[first.key] = [Finding("plural-header", _sev(severity, "plural-header"), msg, _anchor(first))]
        return out
    sev = _sev(severity, "plural-count")
    for forms in entries:
        have = {s.extra["plural_index"] for s in forms}
        lacking = [i for i in range(n) if i not in have]
        if lacking:
            last = forms[-1]
            names = ", ".join(f"msgstr[{i}]" for i in lacking)
            out.setdefault(last.key, []).append(Finding(
                "plural-count", sev, f"The header says nplurals={n}; this entry lacks {names}.", _anchor(last)))
        for s in forms:
            i = cast(int, s.extra["plural_index"])
            if i >= n:
                out.setdefault(s.key, []).append(Finding(
                    "plural-count", sev, f"The header says nplurals={n}: there is no msgstr[{i}].", _anchor(s)))
    return out


# -- per segment -------------------------------------------------------------------

def check_fuzzy(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """A ``#, fuzzy`` entry: a draft that needs review (gettext does not use it until the flag is
    removed).  When the entry keeps the source it was translated from (``#| msgid``, and
    ``#| msgctxt``), the message says what changed: the changed words with a word of
    context on each side (:func:`source_change_words`)."""
    if "fuzzy" not in seg.flags:
        return []
    message = "Fuzzy: needs review (not used until the flag is removed)."
    extra: Mapping[str, Any] = seg.extra
    for name, what in (("msgid", "source"), ("msgctxt", "context")):
        if f"previous_{name}" not in extra and not (name == "msgctxt" and "previous_msgid" in extra):
            continue
        before, now = extra.get(f"previous_{name}") or "", extra.get(name) or ""
        if before != now:
            if before.split() == now.split():
                message = f"Fuzzy: the {what} changed in its white space only."
            else:
                old, new = source_change_words(before, now)
                message = f"Fuzzy: the {what} changed: {old} \u2192 {new}."
            break
    return [Finding("fuzzy", _sev(severity, "fuzzy"), message, _anchor(seg))]


#: at most this many characters of each side of a changed source in the ``fuzzy`` message
CHANGE_CHARS = 60


def source_change_words(before: str, now: str, context: int = 1) -> tuple[str, str]:
    """The words of ``before`` and ``now`` that differ, with ``context`` words on each
    side and "…" where words were left out, each quoted on one line ("" shows as
    “”): ``("“…this e-mail address…”", "“…this email address…”")``."""
    a, b = before.split(), now.split()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1

    def part(words: list[str]) -> str:
        lo, hi = max(0, head - context), len(words) - max(0, tail - context)
        text = " ".join(words[lo:hi])
        cut = len(text) > CHANGE_CHARS
        if cut:
            text = text[: CHANGE_CHARS - 1].rstrip()
        return "\u201c" + ("\u2026" if lo else "") + text + ("\u2026" if cut or hi < len(words) else "") + "\u201d"

    return part(a), part(b)


def _raw_source(seg: Segment) -> Optional[str]:
    extra: Mapping[str, Any] = seg.extra
    if extra.get("plural_index", 0) >= 1 and extra.get("msgid_plural") is not None:
        return extra["msgid_plural"]
    return extra.get("msgid", seg.source)


#: Stands for a line break in the white-space view: not white space, one character (offsets kept).
_BREAK = "\x01"
_BREAKS = {ord("\n"): _BREAK, ord("\r"): _BREAK}


def check_newlines(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """The msgstr has another number of line breaks (``\\n``) than its source."""
    src, tgt = _raw_source(seg), cast(str, seg.extra.get("msgstr", seg.target))
    if not src or not tgt:
        return []
    a, b = src.count("\n"), tgt.count("\n")
    if a == b:
        return []
    return [Finding("newlines", _sev(severity, "newlines"),
                           f"The target has {b} line break{'s' if b != 1 else ''} (\\n); the source has {a}.", _anchor(seg))]


def check_whitespace_po(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """Leading / trailing white space and double spaces (the XML checks' own), line breaks left to ``newlines``."""
    src, tgt = _raw_source(seg), cast(str, seg.extra.get("msgstr", seg.target))
    if src is None:
        return []
    view = dataclasses.replace(seg, source=src.translate(_BREAKS), target=tgt.translate(_BREAKS))
    return check_whitespace(view, severity)


#: ``&`` before a letter or digit, anywhere in a word (``Ö&ffnen``) but not an entity (``&amp;``) nor
#: ``&&``; ``_`` before a letter or digit at the start of a word only (``snake_case`` is no accelerator).
_ACCEL = re.compile(r"(?<!&)(&)(?=[^\W_])(?!\w+;)|(?<![\w_])(_)(?=[^\W_])")


def _accelerators(text: str, codes=()) -> dict[str, int]:
    for c in codes:  # a placeholder's own characters (%(file_name)s) are not text
        text = text.replace(c.id, " ")
    counts: dict[str, int] = {}
    for m in _ACCEL.finditer(text):
        mark = m.group(1) or m.group(2)
        counts[mark] = counts.get(mark, 0) + 1
    return counts


def check_accelerators(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """The source has one accelerator marker (``&File``, ``_File``) and the target has none or several."""
    src, tgt = _raw_source(seg), cast(str, seg.extra.get("msgstr", seg.target))
    if not src or not tgt.strip():
        return []
    cs, ct = _accelerators(src, seg.source_codes), _accelerators(tgt, seg.target_codes)
    out = []
    for mark, n in cs.items():
        if n == 1 and ct.get(mark, 0) != 1:
            m = ct.get(mark, 0)
            said = "none" if m == 0 else str(m)
            out.append(Finding("accelerator", _sev(severity, "accelerator"),
                                      f"The source has one accelerator key ({mark}); the target has {said}.", _anchor(seg)))
    return out


def check_segment(seg: Segment, severity: Optional[dict] = None,
                  single_forms: Optional[frozenset] = None) -> list[Finding]:
    """Every per-segment check, in the order of ``CODES`` (``single_forms``: see :func:`check_placeholders`)."""
    out = []
    out += check_placeholders(seg, severity, single_forms)
    out += check_fuzzy(seg, severity)
    out += check_empty(seg, severity)
    out += check_same_as_source(seg, severity)
    out += check_whitespace_po(seg, severity)
    out += check_newlines(seg, severity)
    out += check_accelerators(seg, severity)
    return out


def inconsistent_in_context(segments: Iterable[Segment], severity: Optional[dict] = None) -> dict[str, list[Finding]]:
    """The same source translated differently, among entries of the same msgctxt and the same plural form
    (a context is there to tell two translations apart; the forms of one plural entry differ by design);
    and one translation used for two sources, among entries of the same plural form."""
    segments = list(segments)
    groups: dict[tuple, list[Segment]] = {}
    for s in segments:
        groups.setdefault((s.extra.get("msgctxt"), s.extra.get("plural_index")), []).append(s)
    out: dict[str, list[Finding]] = {}
    for group in groups.values():
        for k, f in inconsistent_translations(group, severity).items():
            out.setdefault(k, []).extend(f)
    # one translation for two sources: across contexts, among entries of the same plural form
    forms: dict[object, list[Segment]] = {}
    for s in segments:
        forms.setdefault(s.extra.get("plural_index"), []).append(s)
    for group in forms.values():
        for k, f in inconsistent_sources(group, severity).items():
            out.setdefault(k, []).extend(f)
    return out


def problem_findings(doc: SegmentDocument, severity: Optional[dict] = None) -> list[Finding]:
    """The reader's problems (a quote left open, an unknown keyword…) as ``po-syntax`` findings, to the end of their line."""
    out = []
    text = doc.text
    for p in doc.problems:
        end = p.offset
        if text is not None:
            nl = text.find("\n", p.offset)
            end = len(text) if nl < 0 else nl
            if end > p.offset and text[end - 1] == "\r":
                end -= 1
        out.append(Finding("po-syntax", _sev(severity, "po-syntax"), p.message[:1].upper() + p.message[1:] + ".",
                                  (p.offset, max(end, p.offset))))
    return out


def check_document(doc: SegmentDocument, severity: Optional[dict] = None) -> dict[str, list[Finding]]:
    """Every check on every entry: findings by segment key (segments without findings left out).

    The reader's problems are not here (they belong to no segment): see :func:`problem_findings`."""
    out: dict[str, list[Finding]] = {}
    single = single_valued_forms(doc.header)
    for s in doc.segments:
        f = check_segment(s, severity, single)
        if f:
            out[s.key] = f
    for part in (check_plurals(doc, severity), inconsistent_in_context(doc.segments, severity)):
        for k, f in part.items():
            out.setdefault(k, []).extend(f)
    return out


def counts(doc: SegmentDocument) -> dict[str, int]:
    """How many segments are fuzzy and how many have an empty msgstr (``untranslated``), for the summary."""
    fuzzy = sum(1 for s in doc.segments if "fuzzy" in s.flags)
    empty = sum(1 for s in doc.segments if not s.target.strip() and (s.source or "").strip())
    return {"fuzzy": fuzzy, "untranslated": empty}
