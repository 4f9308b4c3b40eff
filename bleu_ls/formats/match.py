"""Pairing the segments of a hypothesis with those of a reference, by key.

First every hypothesis segment takes the reference segment of the same key.
The segments left on both sides then go to the format's fallback
(:data:`FALLBACKS`): PO pairs by msgctxt + msgid + plural index (a singular
msgstr with form 0 of the same msgid made plural); XLIFF and TMX by source
text (every reference segment of that source: a TMX source with several
targets gives several references); subtitles by time first (``subtitles.match_by_time``; WebVTT cue ids decide
only where time links too few cues, see :func:`_pair_by_time`).
What is still left is unpaired, named on both sides, and never an error.

A paired hypothesis segment is *scored* when its target and at least one
partner's target are non-empty (:func:`align`).  Several partners are
alternatives (XLIFF, TMX: the first non-empty one is the reference), except in
subtitles (:data:`PIECES`), where they are pieces of one text: cues linked to
each other through their partners form one group, scored as one row, each
side's texts joined in file order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from .model import Segment, SegmentDocument
from .table import ROWS, row

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


def _flat_key_fallback(hyp: SegmentDocument, hi: list[int], ref: SegmentDocument, ri: list[int]) -> list[tuple[int, int]]:
    """Localization JSON: a flat key (``{"a.b": …}``, key ``a\\.b``) with the nested one (``a.b``)."""
    return _by(hyp, hi, ref, ri, lambda s: s.key.replace("\\.", "."), every=False)


def _time_fallback(hyp: SegmentDocument, hi: list[int], ref: SegmentDocument, ri: list[int]) -> list[tuple[int, int]]:
    """Subtitles: cues that cover the same time (``subtitles.match_by_time``; none while that module is absent)."""
    try:
        from .subtitles import match_by_time
    except ImportError:
        return []
    groups = match_by_time([hyp.segments[i] for i in hi], [ref.segments[j] for j in ri])
    return [(hi[a], ri[b]) for hs, rs in groups for a in hs for b in rs]


#: Per-format fallbacks after the exact key (the rows' ``fallback``, formats/table.py).
FALLBACKS: dict[str, Fallback] = {r.name: r.fallback.resolve() for r in ROWS if r.fallback is not None}

#: Which keys pair by equality (the rows' ``keys_pair``).  An SRT cue number says nothing across two
#: timings of a film, nor does a WebVTT cue's place (``#n``) when it has no id.
KEYED: dict[str, Callable[[str], bool]] = {r.name: r.keys_pair for r in ROWS if r.keys_pair is not None}


def _pair_by_time(hyp: SegmentDocument, ref: SegmentDocument) -> Optional[Pairing]:
    """Subtitles pair by time first, whatever their ids say (a cue the other timing
    split or merged keeps its id on one half only); cue ids decide only when time
    links fewer than half of the hypothesis' cues (two timings too far apart to
    overlap, e.g. another frame rate)."""
    links = FALLBACKS[hyp.format](hyp, list(range(len(hyp.segments))), ref, list(range(len(ref.segments))))
    partners: list[list[int]] = [[] for _ in hyp.segments]
    used = [False] * len(ref.segments)
    for i, j in links:
        partners[i].append(j)
        used[j] = True
    if row(hyp.format).ids_decide and sum(1 for p in partners if p) * 2 < len(partners):
        return None
    return Pairing(partners, [i for i, p in enumerate(partners) if not p], [j for j, u in enumerate(used) if not u])


#: Formats whose partners are pieces of one text (a cue the other timing split or merged).
PIECES = frozenset(r.name for r in ROWS if r.timed)


#: Which keys name a form of a plural entry (the rows' ``plural_form``: ``plural_keys.py``).
PLURAL_FORMS: dict[str, Callable[[str], Optional[tuple[str, str]]]] = {
    r.name: r.plural_form.resolve() for r in ROWS if r.plural_form is not None}


def _pair_plural_forms(hyp: SegmentDocument, ref: SegmentDocument, partners: list[list[int]], used: list[bool],
                       form_of: Callable[[str], Optional[tuple[str, str]]]) -> None:
    """A form of a plural entry still unpaired (Russian ``item_few``) with the source's form of that
    entry: its ``other``, else its first (paired with other forms too: the source has fewer)."""
    todo = [(i, f) for i, p in enumerate(partners) if not p for f in [form_of(hyp.segments[i].key)] if f is not None]
    if not todo:
        return
    entries: dict[str, list[tuple[str, int]]] = {}
    for j, s in enumerate(ref.segments):
        f = form_of(s.key)
        if f is not None:
            entries.setdefault(f[0], []).append((f[1], j))
    for i, (entry, _cat) in todo:
        forms = entries.get(entry)
        if forms:
            j = next((j for cat, j in forms if cat == "other"), forms[0][1])
            partners[i].append(j)
            used[j] = True


def pair_documents(hyp: SegmentDocument, ref: SegmentDocument, fallback: Optional[Fallback] = None) -> Pairing:
    """Pair ``hyp``'s segments with ``ref``'s: exact key, then the format's fallback (subtitles: time first)."""
    if fallback is None and hyp.format in PIECES:
        timed = _pair_by_time(hyp, ref)
        if timed is not None:
            return timed
    keyed = KEYED.get(hyp.format)
    by_key: dict[str, int] = {}
    j: Optional[int]
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
    form_of = PLURAL_FORMS.get(hyp.format) if fallback is None else None
    if form_of is not None:
        _pair_plural_forms(hyp, ref, partners, used, form_of)
    return Pairing(
        partners,
        [i for i, p in enumerate(partners) if not p],
        [j for j, u in enumerate(used) if not u],
    )


@dataclass
class Alignment:
    """What a command scores: hypothesis segments against the partners in each other document.

    ``rows`` are the scored hypothesis segment indices in file order (a
    group's first segment); ``members[r]`` the hypothesis segments of row
    ``r`` (one, except for a subtitle group); ``hyp_texts[r]`` their text and
    ``texts[d][r]`` the partner text of row ``r`` in other document ``d`` (the
    first partner with a non-empty target; subtitles: every partner's, joined).
    """

    rows: list[int]
    texts: list[list[str]]
    #: Per other document: the pairing with the hypothesis.
    pairings: list[Pairing]
    #: Hypothesis segments with a partner everywhere but an empty target on some side.
    empty: list[int]
    members: list[list[int]] = field(default_factory=list)
    hyp_texts: list[str] = field(default_factory=list)

    def unpaired_hyp(self) -> list[int]:
        out: set[int] = set()
        for p in self.pairings:
            out.update(p.unpaired_hyp)
        return sorted(out)


def _groups(n: int, pairings: Sequence[Pairing]) -> list[list[int]]:
    """Hypothesis segments joined through a shared partner in any document, in file order."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairings:
        first_of: dict[int, int] = {}
        for i, js in enumerate(p.partners):
            for j in js:
                k = first_of.setdefault(j, i)
                a, b = find(i), find(k)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return [groups[r] for r in sorted(groups)]


def align(hyp: SegmentDocument, others: Sequence[SegmentDocument]) -> Alignment:
    """Pair ``hyp`` with every document of ``others``; keep the segments scored against all of them."""
    pairings = [pair_documents(hyp, doc) for doc in others]
    pieces = hyp.format in PIECES
    groups = _groups(len(hyp.segments), pairings) if pieces else [[i] for i in range(len(hyp.segments))]
    rows: list[int] = []
    members: list[list[int]] = []
    hyp_texts: list[str] = []
    texts: list[list[str]] = [[] for _ in others]
    empty: list[int] = []
    for group in groups:
        if any(not p.partners[i] for p in pairings for i in group):
            continue
        picked: list[str] = []
        for doc, p in zip(others, pairings):
            if pieces:
                js = sorted({j for i in group for j in p.partners[i]})
                text = " ".join(t for t in (doc.segments[j].target for j in js) if t)
            else:
                text = next((doc.segments[j].target for j in p.partners[group[0]] if doc.segments[j].target), "")
            picked.append(text)
        own = " ".join(t for t in (hyp.segments[i].target for i in group) if t)
        if not own or not all(picked):
            empty.extend(group)
            continue
        rows.append(group[0])
        members.append(group)
        hyp_texts.append(own)
        for d, text in enumerate(picked):
            texts[d].append(text)
    return Alignment(rows, texts, pairings, empty, members, hyp_texts)
