"""Key-value localization files paired with their source-language file, by key.

JSON, ARB and WebExtension files (and the other key-value formats) hold targets only; the
source text is the value of the same key in the source-language file (which file: the
row's ``source_files`` convention or a ``[[pairs]]`` rule's ``source``,
``config/pairing.py``).  :func:`fill_sources` pairs the two documents as references pair
(:func:`~.match.pair_documents`: the exact key, then the row's fallback) and puts each
paired source value into ``Segment.source``; the source's segments no target key pairs
with go to ``SegmentDocument.source_missing`` (the ``key-missing`` finding), a target
segment left with no source is a key the source no longer has (``key-extra``).
"""

from __future__ import annotations

from .match import pair_documents
from .model import SegmentDocument

#: the header field naming the source-language file a document was paired with (set by :func:`fill_sources`)
SOURCE_FILE = "source-file"


def paired_with_source(doc: SegmentDocument) -> bool:
    """Were ``doc``'s sources filled from a source-language file (so that a segment with none is a ``key-extra``)?"""
    return SOURCE_FILE in doc.header


def fill_sources(doc: SegmentDocument, source: SegmentDocument, name: str = "") -> SegmentDocument:
    """``doc`` with each segment's ``source`` the paired source value (None: no such key in the source),
    its ``source_missing`` the source segments no key pairs, and its languages from the source where unset
    (``name``: the source file, as said in findings)."""
    doc.header[SOURCE_FILE] = name
    pairing = pair_documents(doc, source)
    for seg, partners in zip(doc.segments, pairing.partners):
        seg.source = source.segments[partners[0]].target if partners else None
    doc.source_missing = [source.segments[j] for j in pairing.unpaired_ref]
    if doc.source_lang is None:
        doc.source_lang = source.target_lang
    return doc


def extra_keys(doc: SegmentDocument) -> list[int]:
    """The segments whose key the source does not have (after :func:`fill_sources`)."""
    return [i for i, s in enumerate(doc.segments) if s.source is None]
