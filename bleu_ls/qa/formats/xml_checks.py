"""QA checks on the segments of XLIFF and TMX files: plain functions over a Segment.

Each check returns :class:`~bleu_ls.qa.findings.Finding` records whose ``span`` is a pair of
offsets in the decoded file text (the same offsets as ``Segment.target_span``);
the integrator turns them into diagnostics (line/column through
``model.line_col``).  Each code is a row of the rule table (``bleu_ls/qa/rules.py``),
its default severity the settings' (``DEFAULT_SEVERITY``: ``bleu_ls/config/diagnostics.py``);
where each check comes from is in ``docs/formats-xml.md``:

=========================  ===========  ==================================================
code                       default      compare with
=========================  ===========  ==================================================
``codes-missing``          error        pofilter ``xmltags``; CheckMate "missing codes"
``codes-extra``            warning      pofilter ``xmltags``; CheckMate "extra codes"
``codes-order``            information  CheckMate code order (reordering can be right)
``codes-malformed``        error        an end code before its start / a start left open
``length-limit``           warning      XLIFF ``maxwidth``/``maxbytes``, ``slr:sizeRestriction``/``storageRestriction``
``state-undefined``        warning      the XLIFF 1.2 / 2.x specification's value lists
``target-empty``           information  pofilter ``untranslated``; CheckMate "empty target"
``target-same-as-source``  warning      pofilter ``unchanged``; CheckMate "target same as source"
``whitespace-leading``     warning      pofilter ``startwhitespace``; CheckMate leading white space
``whitespace-trailing``    warning      pofilter ``endwhitespace``; CheckMate trailing white space
``double-space``           information  pofilter ``doublespacing``; CheckMate double spaces
``inconsistent-translation`` warning    Xbench "inconsistency in target"
``inconsistent-source``    information  Xbench "inconsistency in source" (one target, two sources)
``newlines``               warning      pofilter ``newlines`` (line breaks in the file's text)
=========================  ===========  ==================================================

Plain Python; imports the segment model, the finding record and the rule table.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Iterable, Optional, Sequence, cast

from ...formats.model import XLIFF1, XLIFF2, InlineCode, Segment, SegmentDocument
from ...formats.rows import show_key
from ...formats.finding import NO_DATA
from ..findings import Finding
from ..rules import XML, default_severities
from ..text.length_limit import verdicts

#: code -> default severity of the XML checks' codes (the rule table's rows ``by`` XML)
DEFAULT_SEVERITY = default_severities(XML)
CODES = tuple(DEFAULT_SEVERITY)

#: XLIFF 1.2 section 4.3 (state, state-qualifier); ``x-`` values are user-defined and allowed.
XLIFF1_STATES = frozenset({
    "final", "needs-adaptation", "needs-l10n", "needs-review-adaptation", "needs-review-l10n",
    "needs-review-translation", "needs-translation", "new", "signed-off", "translated",
})
XLIFF1_QUALIFIERS = frozenset({
    "exact-match", "fuzzy-match", "id-match", "leveraged-glossary", "leveraged-inherited", "leveraged-mt",
    "leveraged-repository", "leveraged-tm", "mt-suggestion", "rejected-grammar", "rejected-inaccurate",
    "rejected-length", "rejected-spelling", "tm-suggestion",
})
#: XLIFF 2.0–2.2 ``state``; ``subState`` is ``prefix:value``.
XLIFF2_STATES = ("initial", "translated", "reviewed", "final")
_SUBSTATE = re.compile(r"^[^\s:]+:\S+$")

#: The role of each inline element: a start of a paired code, its end, or a standalone code.
_ROLE = {
    "g": "open", "bx": "open", "bpt": "open", "pc": "open", "sc": "open",
    "ex": "close", "ept": "close", "ec": "close",
    "x": "ph", "ph": "ph", "it": "ph", "ut": "ph",
}


def _role(c: InlineCode) -> str:
    role = _ROLE.get(c.kind, "ph")
    if c.kind in ("g", "pc"):
        role = "close" if c.closing else "open"
    return role


def _ident(c: InlineCode) -> tuple[str, str]:
    return _role(c), c.id


def _describe(ident: tuple[str, str]) -> str:
    role, cid = ident
    what = {"open": "start of paired code", "close": "end of paired code", "ph": "code"}[role]
    return f"{what} {cid!r}" if cid else what


def _target_anchor(seg: Segment) -> tuple[int, int]:
    return seg.target_span


def check_codes(seg: Segment, severity: Optional[dict] = None, text: Optional[str] = None) -> list[Finding]:
    """Inline codes missing, extra, out of order relative to the source; a target's paired codes misnested.

    Codes are compared by role (start / end / standalone) and id, so ``<g id="1">``
    and ``<bx id="1"/>``, ``<pc id="1">`` and ``<sc id="1"/>`` are the same code.
    Only when the source has codes or the target has some (a target with no
    source to compare is not checked for missing codes).
    """
    sev = {**DEFAULT_SEVERITY, **(severity or {})}
    out: list[Finding] = []
    if seg.source is None:
        return out
    codes = seg.target_codes  # made on each read (model.Segment): once here
    if not seg.target and not codes:
        return out  # an empty target is the empty-target check's business
    src = [_ident(c) for c in seg.source_codes]
    tgt = [_ident(c) for c in codes]
    cs, ct = Counter(src), Counter(tgt)
    missing = cs - ct
    extra = ct - cs
    if missing:
        names = ", ".join(_describe(i) for i in sorted(missing.elements()))
        data = _missing_codes(seg, missing, text) if text is not None else None
        out.append(Finding("codes-missing", sev["codes-missing"], f"The target lacks the source's {names}.", _target_anchor(seg),
                           data=data or NO_DATA))
    if extra:
        seen: Counter[tuple[str, str]] = Counter()
        for c in codes:
            i = _ident(c)
            seen[i] += 1
            if seen[i] > cs.get(i, 0) and c.span is not None:
                out.append(Finding("codes-extra", sev["codes-extra"], f"The target has a {_describe(i)} the source does not have.", c.span))
    if not missing and not extra and src != tgt:
        out.append(Finding("codes-order", sev["codes-order"], "The target has the source's inline codes in another order.", _target_anchor(seg)))
    # nesting of the target's paired codes
    opened: Counter = Counter()
    for c in codes:
        role = _role(c)
        if role == "open":
            opened[c.id] += 1
        elif role == "close":
            if opened[c.id] <= 0:
                out.append(Finding("codes-malformed", sev["codes-malformed"], f"The end of paired code {c.id!r} comes before its start.", c.span or _target_anchor(seg)))
            else:
                opened[c.id] -= 1
    src_closed = {i for r, i in src if r == "close"}
    for c in codes:
        if _role(c) == "open" and opened[c.id] > 0 and c.id in src_closed:
            opened[c.id] -= 1
            out.append(Finding("codes-malformed", sev["codes-malformed"], f"The paired code {c.id!r} is started but never ended.", c.span or _target_anchor(seg)))
    return out


_TAG = re.compile(r"<[^>]*>")


def _missing_codes(seg: Segment, missing: Counter, text: str) -> Optional[dict]:
    """What a quick fix of ``codes-missing`` needs (:mod:`bleu_ls.qa.fixes`): for each missing
    standalone code, the source's element as the file writes it and where it stands in the source's
    text (``at``, left out where the file's source does not read as the scored source); None where a
    paired code is missing (its start and end go around words: no fix)."""
    if any(role != "ph" for role, _id in missing):
        return None
    src_span = cast("Optional[tuple[int, int]]", seg.extra.get("source_span"))
    left = Counter(missing)
    codes = []
    for c in seg.source_codes:
        ident = _ident(c)
        if left[ident] <= 0 or c.span is None:
            continue
        left[ident] -= 1
        item: dict = {"markup": text[c.span[0]:c.span[1]], "id": c.id}
        if src_span is not None and src_span[0] <= c.span[0] <= src_span[1]:
            before = _unescape(_TAG.sub("", text[src_span[0]:c.span[0]]))
            if seg.source is not None and seg.source.startswith(before):
                item["at"] = len(before)
        codes.append(item)
    return {"codes": codes} if codes and not +left else None


def _unescape(s: str) -> str:
    from xml.sax.saxutils import unescape

    return unescape(s, {"&quot;": '"', "&apos;": "'"})


def check_state(seg: Segment, fmt: str, severity: Optional[dict] = None) -> list[Finding]:
    """An XLIFF state (or 1.2 state-qualifier / 2.x subState) the version does not define."""
    sev = DEFAULT_SEVERITY["state-undefined"] if not severity else severity.get("state-undefined", DEFAULT_SEVERITY["state-undefined"])
    out = []
    st, sq = seg.state, seg.state_qualifier
    span = seg.target_span
    if fmt == XLIFF1:
        if st is not None and st not in XLIFF1_STATES and not st.startswith("x-"):
            out.append(Finding("state-undefined", sev, f"XLIFF 1.2 defines no state {st!r} (custom values start with 'x-').", span))
        if sq is not None and sq not in XLIFF1_QUALIFIERS and not sq.startswith("x-"):
            out.append(Finding("state-undefined", sev, f"XLIFF 1.2 defines no state-qualifier {sq!r} (custom values start with 'x-').", span))
    elif fmt == XLIFF2:
        if st is not None and st not in XLIFF2_STATES:
            out.append(Finding("state-undefined", sev, f"XLIFF 2 defines no state {st!r} (only {', '.join(XLIFF2_STATES)}).", span))
        if sq is not None:
            if not _SUBSTATE.match(sq):
                out.append(Finding("state-undefined", sev, f"An XLIFF 2 subState is 'prefix:value'; {sq!r} is not.", span))
            elif st is None:
                out.append(Finding("state-undefined", sev, "An XLIFF 2 subState needs a state beside it.", span))
    return out


def check_empty(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """The target is empty where the source is not (information: a catalogue in progress has many)."""
    if seg.source and seg.source.strip() and not seg.target.strip():
        sev = (severity or {}).get("target-empty", DEFAULT_SEVERITY["target-empty"])
        return [Finding("target-empty", sev, "The target is empty; the source is not.", seg.target_span)]
    return []


_LETTER = re.compile(r"[^\W\d_]")


def check_same_as_source(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """The target is the source, unchanged (only where the text has letters: numbers and codes stay as they are)."""
    if seg.source and seg.target and seg.target.strip() == seg.source.strip() and _LETTER.search(seg.target):
        sev = (severity or {}).get("target-same-as-source", DEFAULT_SEVERITY["target-same-as-source"])
        return [Finding("target-same-as-source", sev, "The target is the same as the source.", seg.target_span)]
    return []


def _lead(s: str) -> str:
    return s[: len(s) - len(s.lstrip())]


def _trail(s: str) -> str:
    return s[len(s.rstrip()):]


def check_whitespace(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """Leading / trailing white space of the target differs from the source's; double spaces the source does not have."""
    out: list[Finding] = []
    src, tgt = seg.source, seg.target
    if src is None or not tgt.strip() or not src.strip():
        return out
    sev = {**DEFAULT_SEVERITY, **(severity or {})}
    lt, ls = _lead(tgt), _lead(src)
    if lt != ls:
        a = seg.file_offset(0)
        out.append(Finding("whitespace-leading", sev["whitespace-leading"],
                           f"The target starts with {_ws(lt)}; the source with {_ws(ls)}.", (a, seg.file_offset(len(lt)) if lt else a),
                           data={"edits": [[0, len(lt), ls]]}))
    tt, ts = _trail(tgt), _trail(src)
    if tt != ts:
        b = seg.file_offset(len(tgt))
        out.append(Finding("whitespace-trailing", sev["whitespace-trailing"],
                           f"The target ends with {_ws(tt)}; the source with {_ws(ts)}.", (seg.file_offset(len(tgt) - len(tt)) if tt else b, b),
                           data={"edits": [[len(tgt) - len(tt), len(tgt), ts]]}))
    if "  " in tgt.strip() and "  " not in src.strip():
        core_start = len(lt)
        i = tgt.find("  ", core_start)
        # the fix: each run of two spaces or more between the first and the last other character made one
        core_end = len(tgt) - len(tt)
        runs = [[m.start() + 1, m.end(), ""] for m in _SPACES.finditer(tgt, core_start, core_end)]
        out.append(Finding("double-space", sev["double-space"], "The target has a double space; the source has none.",
                           (seg.file_offset(i), seg.file_offset(i + 2)), data={"edits": runs}))
    return out


#: two spaces or more (the double-space check's, U+0020 only)
_SPACES = re.compile(" {2,}")


def _ws(s: str) -> str:
    if not s:
        return "no white space"
    n = len(s)
    return f"{n} white-space character{'s' if n > 1 else ''}"


def check_length(seg: Segment, severity: Optional[dict] = None) -> list[Finding]:
    """``length-limit``: the target over a limit its file declares for it (``seg.extra["limits"]``:
    XLIFF ``maxwidth``/``maxbytes``, ``slr:sizeRestriction``/``slr:storageRestriction``).  An
    empty target is not measured (``target-empty`` names it).  ``maxRatio``, the target against
    its source, is the rule table's line rule (it runs on every file with a source)."""
    limits = cast("tuple", seg.extra.get("limits") or ())
    if not limits or not seg.target:
        return []
    sev = (severity or {}).get("length-limit", DEFAULT_SEVERITY["length-limit"])
    return [Finding("length-limit", sev, v.message, seg.target_span, data=v.data) for v in verdicts(seg.target, limits)]


def check_segment(seg: Segment, fmt: str, severity: Optional[dict] = None, text: Optional[str] = None) -> list[Finding]:
    """Every per-segment check above, in the order of ``CODES`` (``text``: the file's, which a missing
    code's quick fix reads its element from)."""
    out = []
    out += check_codes(seg, severity, text)
    out += check_length(seg, severity)
    out += check_state(seg, fmt, severity)
    out += check_empty(seg, severity)
    out += check_same_as_source(seg, severity)
    out += check_whitespace(seg, severity)
    return out


def inconsistent_translations(segments: Iterable[Segment], severity: Optional[dict] = None,
                              form: Optional[Callable[[str], Optional[str]]] = None) -> dict[str, list[Finding]]:
    """The same source translated differently within the file (by key: one finding on each segment involved).

    Sources and targets are compared with white space collapsed; empty targets are not translations.
    ``form``: key -> the plural category it is a form of (a key-value file: a Russian ``item_few`` and
    ``item_many`` both translate the English ``item_other``, differently by design), compared too.
    """
    sev = (severity or {}).get("inconsistent-translation", DEFAULT_SEVERITY["inconsistent-translation"])
    by_src: dict[object, list[Segment]] = {}
    for s in segments:
        if s.source and s.source.strip() and s.target.strip():
            src = " ".join(s.source.split())
            by_src.setdefault(src if form is None else (form(s.key), src), []).append(s)
    out: dict[str, list[Finding]] = {}
    for group in by_src.values():
        if len(group) < 2:
            continue
        variants = {" ".join(s.target.split()) for s in group}
        if len(variants) < 2:
            continue
        for s in group:
            others = [o.key for o in group if o is not s and " ".join(o.target.split()) != " ".join(s.target.split())]
            msg = f"The same source is translated differently in {', '.join(others[:3])}{'…' if len(others) > 3 else ''}."
            out.setdefault(s.key, []).append(Finding("inconsistent-translation", sev, msg, s.target_span))
    return out


_END_PUNCT = ".:!?…;,"


def source_identity(text: str) -> str:
    """A source as ``inconsistent-source`` compares two: white space collapsed, case folded and
    its end punctuation left out ("Save", "save" and "Save:" are one source)."""
    return " ".join(text.split()).casefold().rstrip(_END_PUNCT).rstrip()


def other_sources_message(others: list[tuple[str, str]]) -> str:
    """The sentence of ``inconsistent-source``: the other sources (quoted; with their key where it
    is not the source itself), at most three."""
    named = []
    for key, source in others[:3]:
        text = " ".join(source.split())
        short = text if len(text) <= 60 else text[:57] + "…"
        named.append(f"“{short}”" if key == source else f"“{short}” ({show_key(key, 60)})")
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    return f"The same translation stands for another source: {', '.join(named)}{more}."


def inconsistent_sources(segments: Iterable[Segment], severity: Optional[dict] = None) -> dict[str, list[Finding]]:
    """One target used for different sources within the file (by key: one finding on each segment
    involved).  Targets are compared with white space collapsed, sources by
    :func:`source_identity`; a target that is its own source (copied) is not a translation."""
    sev = (severity or {}).get("inconsistent-source", DEFAULT_SEVERITY["inconsistent-source"])
    by_tgt: dict[str, list[Segment]] = {}
    for s in segments:
        if s.source and s.source.strip() and s.target.strip():
            by_tgt.setdefault(" ".join(s.target.split()), []).append(s)
    out: dict[str, list[Finding]] = {}
    for group in by_tgt.values():
        if len(group) < 2:
            continue
        ids = {source_identity(s.source or "") for s in group}
        if len(ids) < 2:
            continue
        for s in group:
            mine = source_identity(s.source or "")
            others = [(o.key, o.source or "") for o in group if o is not s and source_identity(o.source or "") != mine]
            out.setdefault(s.key, []).append(Finding("inconsistent-source", sev, other_sources_message(others), s.target_span))
    return out


def inconsistent_sources_across(files: Sequence[tuple[str, Sequence[tuple[str, str, str, object]]]],
                                severity: Optional[dict] = None) -> list[dict[str, Finding]]:
    """One target used for different sources in *different* files of one run (``bleu-ls check`` over
    several files of a language): ``files`` is ``(name, items)`` per file, an item ``(key, source,
    target, form)`` (``form``: the plural form a PO entry's target is, else None; only targets of
    the same form are compared).  Returns, per file, key -> one finding naming the other files'
    sources.  Within one file the format's own ``inconsistent-source`` says it: a source the file
    itself has for the translation is not named again here."""
    sev = (severity or {}).get("inconsistent-source", DEFAULT_SEVERITY["inconsistent-source"])
    groups: dict[tuple[object, str], list[tuple[int, str, str]]] = {}
    for i, (_name, items) in enumerate(files):
        for key, source, target, form in items:
            if source and source.strip() and target.strip():
                groups.setdefault((form, " ".join(target.split())), []).append((i, key, source))
    out: list[dict[str, Finding]] = [{} for _ in files]
    for group in groups.values():
        if len(group) < 2 or len({i for i, _k, _s in group}) < 2:
            continue
        ids = [source_identity(s) for _i, _k, s in group]
        if len(set(ids)) < 2:
            continue
        own: dict[int, set[str]] = {}  # the sources each file itself has for this translation
        for (i, _k, _s), ident in zip(group, ids):
            own.setdefault(i, set()).add(ident)
        for i, key, _source in group:
            others, named = [], set()
            for (j, k, s), other in zip(group, ids):
                # a source the file itself has for this translation is said by its own check; each other once per file
                if j != i and other not in own[i] and (j, other) not in named:
                    named.add((j, other))
                    others.append((files[j][0], k, s))
            if others:
                out[i][key] = Finding("inconsistent-source", sev, _other_files_message(others))
    return out


def _other_files_message(others: list[tuple[str, str, str]]) -> str:
    """The sentence of a cross-file ``inconsistent-source``: the other sources with their file (and key
    where it is not the source itself), at most three."""
    named = []
    for name, key, source in others[:3]:
        text = " ".join(source.split())
        short = text if len(text) <= 60 else text[:57] + "…"
        where = name if key == source else f"{name}, {show_key(key, 40)}"
        named.append(f"“{short}” ({where})")
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    return f"The same translation stands for another source in another file: {', '.join(named)}{more}."


_LINE_BREAK = re.compile(r"\r\n|\n|\r|&#(?:10|13|x0*[aAdD]);")


def _line_breaks(raw: str) -> int:
    """Line breaks in a source or target as the file spells them: literal ones, ``&#10;``/``&#xA;`` (CR LF once)."""
    return len(_LINE_BREAK.findall(raw.replace("&#13;&#10;", "\n").replace("&#xD;&#xA;", "\n")))


def check_newlines(seg: Segment, text: str, severity: Optional[dict] = None) -> list[Finding]:
    """The target has another number of line breaks than its source (both read in the file's text,
    where the scored text has folded them to spaces).  Only where both are in this file and not empty."""
    src_span = cast("Optional[tuple[int, int]]", seg.extra.get("source_span"))
    if not src_span or not seg.target.strip() or not (seg.source or "").strip():
        return []
    a = _line_breaks(text[src_span[0] : src_span[1]])
    b = _line_breaks(text[seg.target_span[0] : seg.target_span[1]])
    if a == b:
        return []
    sev = (severity or {}).get("newlines", DEFAULT_SEVERITY["newlines"])
    return [Finding("newlines", sev, f"The target has {b} line break{'s' if b != 1 else ''}; the source has {a}.",
                           seg.target_span)]


def check_document(doc: SegmentDocument, severity: Optional[dict] = None) -> dict[str, list[Finding]]:
    """Every check on every segment: findings by segment key (segments without findings left out)."""
    out: dict[str, list[Finding]] = {}
    for s in doc.segments:
        f = check_segment(s, doc.format, severity, doc.text)
        if doc.text is not None:
            f += check_newlines(s, doc.text, severity)
        if f:
            out[s.key] = f
    for part in (inconsistent_translations(doc.segments, severity), inconsistent_sources(doc.segments, severity)):
        for k, f in part.items():
            out.setdefault(k, []).extend(f)
    return out
