"""Key-value localization files paired with their source-language file, by key.

JSON, ARB and WebExtension files (and the other key-value formats) hold targets only; the
source text is the value of the same key in the source-language file (which file: the
row's ``source_files`` convention or a ``[[pairs]]`` rule's ``source``,
``config/pairing.py``).  :func:`fill_sources` pairs the two documents as references pair
(:func:`~.match.pair_documents`: the exact key, then the row's fallback) and puts each
paired source value into ``Segment.source``.  What the checks need of the pairing is in the
document's header, which the server's live index keeps (file-level facts):
:data:`SOURCE_FILE` (the source file's name: the document was paired), and
:data:`SOURCE_MISSING`: the source's keys this file lacks (``key-missing``), each under the
key of the target segment it would follow (or the first, marked, when it comes before any), as JSON.  A target
segment left with no source is a key the source no longer has (``key-extra``).
"""

from __future__ import annotations

import json

from .match import PLURAL_FORMS, pair_documents
from .model import SegmentDocument

#: the header field naming the source-language file a document was paired with (set by :func:`fill_sources`)
SOURCE_FILE = "source-file"
#: the header field of the source keys the file lacks: JSON ``{after key: [[key, source text], …]}``
SOURCE_MISSING = "source-missing"


def paired_with_source(doc: SegmentDocument) -> bool:
    """Were ``doc``'s sources filled from a source-language file (so that a segment with none is a ``key-extra``)?"""
    return SOURCE_FILE in doc.header


def fill_sources(doc: SegmentDocument, source: SegmentDocument, name: str = "") -> SegmentDocument:
    """``doc`` with each segment's ``source`` the paired source value (None: no such key in the source),
    the header's :data:`SOURCE_FILE` (``name``: the source file as said in findings) and
    :data:`SOURCE_MISSING`, and its source language from the source where unset."""
    pairing = pair_documents(doc, source)
    form_of = PLURAL_FORMS.get(doc.format)
    partner_of: dict[int, int] = {}
    for i, (seg, partners) in enumerate(zip(doc.segments, pairing.partners)):
        seg.source = source.segments[partners[0]].target if partners else None
        if partners and (form_of is None or source.segments[partners[0]].key == seg.key or form_of(seg.key) is None):
            partner_of[partners[0]] = i  # (a plural form paired with its entry's other form places nothing)
    missing: dict[str, list[list]] = {}
    unpaired = set(pairing.unpaired_ref)
    if form_of is not None and unpaired:  # a source form the file's language does without: not missing
        entries = {f[0] for s in doc.segments for f in [form_of(s.key)] if f is not None}
        unpaired = {j for j in unpaired if (f := form_of(source.segments[j].key)) is None or f[0] not in entries}
    first = doc.segments[0].key if doc.segments else ""
    after = None  # the target key of the nearest source segment above that the file has
    for j, s in enumerate(source.segments):
        if j in partner_of:
            after = doc.segments[partner_of[j]].key
        elif j in unpaired:  # under the key it follows (before the first: under the first, marked)
            missing.setdefault(first if after is None else after, []).append([s.key, s.target, after is None])
    doc.header[SOURCE_FILE] = name
    doc.header[SOURCE_MISSING] = json.dumps(missing, ensure_ascii=False)
    if doc.source_lang is None:
        doc.source_lang = source.target_lang
    return doc


def missing_keys(header: dict) -> dict[str, list[tuple[str, str, bool]]]:
    """:data:`SOURCE_MISSING` read back: target key -> [(source key, source text, before it), …]
    (before it: the source has the key before any key of the file; ``""``: the file has no key)."""
    raw = header.get(SOURCE_MISSING)
    if not raw:
        return {}
    return {k: [(a, b, bool(c)) for a, b, c in v] for k, v in json.loads(raw).items()}
