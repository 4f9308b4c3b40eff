"""Pairing the segments of a hypothesis with those of a reference, by key.

First every hypothesis segment takes the reference segment of the same key.
The segments left on both sides then go to the format's fallback
(:data:`FALLBACKS`): PO pairs by msgctxt + msgid + plural index (a singular
msgstr with form 0 of the same msgid made plural); XLIFF and TMX by source
text (every reference segment of that source: a TMX source with several
targets gives several references); subtitles by time (``subtitles.match_by_time``;
SRT cue numbers and WebVTT cue places never pair by equality, see :data:`KEYED`).
What is still left is unpaired, named on both sides, and never an error.

A paired hypothesis segment is *scored* when its target and at least one
partner's target are non-empty (:func:`align`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from .model import PO, SRT, TMX, VTT, XLIFF1, XLIFF2, Segment, SegmentDocument

#: A fallback: the unpaired hypothesis and reference segments (as index lists
#: into the documents) -> links (hypothesis index, reference index).
Fallback = Callable[[SegmentDocument, list[int], SegmentDocument, list[int]], list[tuple[int, int]]]


@dataclass
class Pairing:
    """Reference partners of each hypothesis segment, and who is left unpaired."""

    #: ``partners[i]``: indices into the reference's segments paired with hypothesis segment ``i``.
    partners: list[list[int]]
    unpaired_hyp: list[int] = field(default_factory=list)
    unpaired_ref: list[int] = field(default_factory=list)


def _po_fallback(hyp: SegmentDocument, hi: list[int], ref: SegmentDocument, ri: list[int]) -> list[tuple[int, int]]:
    def ident(s: Segment):
        e = s.extra
        return (e.get("msgctxt"), e.get("msgid"), e.get("plural_index") or 0)

    return _by(hyp, hi, ref, ri, ident, every=False)


def _source_fallback(hyp: SegmentDocument, hi: list[int], ref: SegmentDocument, ri: list[int]) -> list[tuple[int, int]]:
    return _by(hyp, hi, ref, ri, lambda s: s.source if s.source else None, every=True)


def _by(hyp, hi, ref, ri, ident, every: bool) -> list[tuple[int, int]]:
    """Links by ``ident``: in file order, first come first served (``every``: all equal ones)."""
    pool: dict[object, list[int]] = {}
    for j in ri:
        k = ident(ref.segments[j])
        if k is not None:
            pool.setdefault(k, []).append(j)
    links: list[tuple[int, int]] = []
    for i in hi:
        k = ident(hyp.segments[i])
        js = pool.get(k) if k is not None else None
        if not js:
            continue
        if every:
            links.extend((i, j) for j in js)
        else:
            links.append((i, js.pop(0)))
    return links


def _time_fallback(hyp: SegmentDocument, hi: list[int], ref: SegmentDocument, ri: list[int]) -> list[tuple[int, int]]:
    """Subtitles: cues that cover the same time (``subtitles.match_by_time``; none while that module is absent)."""
    try:
        from .subtitles import match_by_time
    except ImportError:
        return []
    groups = match_by_time([hyp.segments[i] for i in hi], [ref.segments[j] for j in ri])
    return [(hi[a], ri[b]) for hs, rs in groups for a in hs for b in rs]


#: Per-format fallbacks after the exact key.
FALLBACKS: dict[str, Fallback] = {
    PO: _po_fallback,
    XLIFF1: _source_fallback,
    XLIFF2: _source_fallback,
    TMX: _source_fallback,
    SRT: _time_fallback,
    VTT: _time_fallback,
}

#: Which keys pair by equality.  An SRT cue number says nothing across two
#: timings of a film, nor does a WebVTT cue's place (``#n``) when it has no id:
#: those pair by time only.
KEYED: dict[str, Callable[[str], bool]] = {
    SRT: lambda key: False,
    VTT: lambda key: not key.startswith("#"),
}


def pair_documents(hyp: SegmentDocument, ref: SegmentDocument, fallback: Optional[Fallback] = None) -> Pairing:
    """Pair ``hyp``'s segments with ``ref``'s: exact key, then the format's fallback."""
    keyed = KEYED.get(hyp.format)
    by_key: dict[str, int] = {}
    for j, s in enumerate(ref.segments):
        if keyed is None or keyed(s.key):
            by_key.setdefault(s.key, j)
    partners: list[list[int]] = [[] for _ in hyp.segments]
    used = [False] * len(ref.segments)
    for i, s in enumerate(hyp.segments):
        j = by_key.get(s.key) if keyed is None or keyed(s.key) else None
        if j is not None and not used[j]:
            partners[i].append(j)
            used[j] = True
    hi = [i for i, p in enumerate(partners) if not p]
    ri = [j for j, u in enumerate(used) if not u]
    fb = fallback if fallback is not None else FALLBACKS.get(hyp.format)
    if fb is not None and hi and ri:
        for i, j in fb(hyp, hi, ref, ri):
            if j not in partners[i]:
                partners[i].append(j)
                used[j] = True
    return Pairing(
        partners,
        [i for i, p in enumerate(partners) if not p],
        [j for j, u in enumerate(used) if not u],
    )


@dataclass
class Alignment:
    """What a command scores: hypothesis segments against the partners in each other document.

    ``rows`` are the scored hypothesis segment indices in file order;
    ``texts[d][r]`` is the partner text of row ``r`` in other document ``d``
    (its first partner with a non-empty target).
    """

    rows: list[int]
    texts: list[list[str]]
    #: Per other document: the pairing with the hypothesis.
    pairings: list[Pairing]
    #: Hypothesis segments with a partner everywhere but an empty target on some side.
    empty: list[int]

    def unpaired_hyp(self) -> list[int]:
        out: set[int] = set()
        for p in self.pairings:
            out.update(p.unpaired_hyp)
        return sorted(out)


def align(hyp: SegmentDocument, others: Sequence[SegmentDocument]) -> Alignment:
    """Pair ``hyp`` with every document of ``others``; keep the segments scored against all of them."""
    pairings = [pair_documents(hyp, doc) for doc in others]
    rows: list[int] = []
    texts: list[list[str]] = [[] for _ in others]
    empty: list[int] = []
    for i, seg in enumerate(hyp.segments):
        if any(not p.partners[i] for p in pairings):
            continue
        picked: list[str] = []
        for doc, p in zip(others, pairings):
            text = next((doc.segments[j].target for j in p.partners[i] if doc.segments[j].target), "")
            picked.append(text)
        if not seg.target or not all(picked):
            empty.append(i)
            continue
        rows.append(i)
        for d, text in enumerate(picked):
            texts[d].append(text)
    return Alignment(rows, texts, pairings, empty)
