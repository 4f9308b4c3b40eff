"""The draft of each segment of an open segment document, and the effort against it.

A segment's draft is, in this order:

1. the MT draft the file carries apart from the target (XLIFF 1.2 ``alt-trans``
   of machine-translation origin, XLIFF 2 ``<mtc:match type="mt">``): read
   from the file each time the segment is read;
2. the target as bleu-ls first saw it, when the target was itself a draft then
   (XLIFF 1.2 ``state-qualifier`` ``mt-suggestion`` / ``leveraged-mt``, a PO
   entry flagged ``fuzzy`` with a non-empty ``msgstr``): a snapshot kept per
   segment key, in memory and in the user's cache folder through the line
   files' :class:`~bleu_ls.postedit.DraftStore` (never in the workspace), so
   post-editing in place, removing ``fuzzy`` or closing and reopening the file
   still measures against what the machine wrote.

A ``[[pairs]]`` rule whose ``draft`` is ``git:REV`` replaces both: each segment's
draft is its target in the file as committed at revision REV (read from git,
read-only, :mod:`bleu_ls.postedit.revision`; paired by key), and nothing is kept
in the cache.  Reviewing a translation pull request with ``git:main`` shows the
HTER of every changed key against the base branch.  A revision that cannot be
read leaves the document without drafts and says why in the lens and hover.

The ``bleuLs.setDraft`` command makes every non-empty target the draft of its
segment (a snapshot of the file as it is now, kept as above, before the file's
own MT drafts from then on, across reopenings); ``bleuLs.forgetDraft`` drops
the snapshot and leaves the document without drafts until it is opened again
(then its drafts are found as on a first opening).

Per segment with a draft and a target that differs from it: HTER (sacrebleu's
``TER(case_sensitive=True)``, the draft the hypothesis, the target the
reference; the ``ter`` settings' tokenization options apply), the word diff in
the hover and the changed words as semantic tokens inside the target.  All of
it is kept per segment key with the texts it was made from, so an edit
recounts the edited segment only, on the next request that needs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from pathlib import Path

from ...engine import InputError
from ...engine.ter import UNITS, TerMetric
from ...postedit import DraftStore
from ...postedit.revision import RevisionError, read_at
from ...formats.model import Segment
from ...formats.read import first_problem, parse
from ...formats.table import row
from ...config.pairing import draft_revision
from ...config.settings import HintSettings, Settings
from ..views.effort_render import diff_markdown
from .state import SegmentPair


#: the first line of a kept snapshot (then key, draft, key, draft…)
MARK = "bleu-ls segment drafts 1"
#: the first line of a snapshot made by ``bleuLs.setDraft`` (it goes before the file's MT drafts)
MARK_SET = "bleu-ls segment drafts 1 set"
#: segments longer than this (words, either side) are not aligned live (as line files)
MAX_ALIGN_WORDS = 2000
#: at most this many rows' HTER parts kept (a screenful or two, scrolled)
ROW_PARTS = 4096
#: where a segment's draft comes from
FILE, KEPT, NONE = "file", "kept", None
#: a segment's part of the corpus HTER: to count, none (no draft or no target), too long to align, counted
STALE, NO_PART, TOO_LONG, COUNTED = -1, 0, 1, 2


@dataclass
class SegDrafts:
    """The drafts of one segment document."""

    metric: TerMetric
    store: DraftStore
    #: key -> the target as first seen (the snapshot, also in the store)
    kept: dict[str, str] = field(default_factory=dict)
    #: key -> FILE / KEPT / NONE, decided when the key is first seen as a possible draft
    #: (an MT draft in the file, a fuzzy entry, a kept snapshot; the others are not kept)
    kind: dict[str, Optional[str]] = field(default_factory=dict)
    #: key -> (draft, target, HTER record or None: too long)
    effort: dict[str, tuple[str, str, Optional[dict]]] = field(default_factory=dict)
    #: key -> (draft, the target's text in the file, token pieces relative to the target's start)
    pieces: dict[str, tuple[str, str, list[tuple[int, int]]]] = field(default_factory=dict)
    #: per segment (index): it has a draft and a non-empty target that differs from it
    differs: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    #: per segment (index): its part of the corpus HTER (segdocs/effort.py), -1 while to count again
    #: (else NO_PART, TOO_LONG or COUNTED), and its row: edits, target words, the four kinds, differs
    part: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))
    part_rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 7), np.int64))
    #: row -> (its text, its HTER part) as last shown (kept for a malformed buffer's hints)
    row_parts: dict[int, tuple[str, Optional[str]]] = field(default_factory=dict)
    #: the store could not be written (the snapshot is kept for this session only)
    problem: Optional[str] = None
    #: the snapshot was made by ``bleuLs.setDraft``: it goes before the file's own MT drafts
    pinned: bool = False
    #: ``bleuLs.forgetDraft``: no segment has a draft until the file is opened again
    forgotten: bool = False
    #: counts the commands that changed every draft (what depends on all of them is made again)
    version: int = 0
    #: what the corpus effort and the paired test keep between requests (segdocs/effort.py)
    corpus: Any = None
    #: the drafts are the file at a git revision (``draft = "git:REV"``): that revision as
    #: shown, ``HEAD (abc1234)``; None: the file's own drafts and the kept snapshot
    revision: Optional[str] = None


def hter_metric(settings: Settings) -> TerMetric:
    """HTER is case-sensitive (a changed capital is an edit); the TER tokenization options apply."""
    t = settings.ter
    return TerMetric(normalized=t.normalized, no_punct=t.no_punct, asian_support=t.asian_support, case_sensitive=True)


def bind(sp: SegmentPair, store: Optional[DraftStore], settings: Settings, root: Optional[Path] = None) -> None:
    """Read the kept snapshot of ``sp``'s file (or the file at the revision a rule names) and
    decide every segment's draft (on opening); ``store``: the manager's (None: one of this
    document's own, in the same cache folder); ``root``: the workspace root the rules are relative to."""
    d = SegDrafts(hter_metric(settings), store if store is not None else DraftStore())
    old = sp.drafts
    try:
        rev = draft_revision(sp.path, settings, root)
    except Exception:  # (a broken rule: the file's own drafts)
        rev = None
    if rev is not None:
        _at_revision(sp, d, rev)
    elif isinstance(old, SegDrafts) and old.revision is None:  # settings changed: the snapshot and kinds stay
        d.kept, d.kind, d.pinned, d.forgotten, d.version = old.kept, old.kind, old.pinned, old.forgotten, old.version + 1
    else:
        stored = d.store.get(sp.path)
        lines = stored.lines if stored is not None else []
        if lines and lines[0] in (MARK, MARK_SET) and len(lines) % 2 == 1:
            d.kept = dict(zip(lines[1::2], lines[2::2]))
            d.pinned = lines[0] == MARK_SET
    sp.drafts = d
    _resize(d, len(sp.index))
    _look(sp, d, 0, len(sp.index))


def _at_revision(sp: SegmentPair, d: SegDrafts, rev: str) -> None:
    """Every segment's draft: its key's target in the file at ``rev`` (none where the key was
    not there or its target was empty); a problem leaves no draft and is said."""
    d.pinned, d.kept = True, {}
    d.revision = f"git:{rev}"
    try:
        got = read_at(sp.path, rev)
        d.revision = got.label
        doc = parse(sp.index.format, got.data, f"{sp.path.name} at {got.label}")
    except (RevisionError, InputError, ValueError) as exc:
        d.problem = f"draft git:{rev}: {exc}"
        return
    broken = first_problem(f"{sp.path.name} at {got.label}", doc)
    if broken is not None and not doc.segments:
        d.problem = f"draft git:{rev}: {broken}"
        return
    d.kept = {s.key: s.target for s in doc.segments if s.target}
    d.kind = dict.fromkeys(d.kept, KEPT)


def _resize(d: SegDrafts, n: int) -> None:
    """Every segment's arrays made again (all to count)."""
    d.differs = np.zeros(n, bool)
    d.part = np.full(n, STALE, np.int8)
    d.part_rows = np.zeros((n, 7), np.int64)


def touched(sp: SegmentPair, i: int) -> None:
    """Segment ``i``'s target was edited (its key and structure kept)."""
    d = sp.drafts
    if isinstance(d, SegDrafts) and len(d.differs) == len(sp.index):
        _look(sp, d, i, i + 1)


def spliced(sp: SegmentPair, start: int, end: int, count: int) -> None:
    """Segments [start, end) were replaced by ``count`` new ones: the new keys' drafts as first seen."""
    d = sp.drafts
    if not isinstance(d, SegDrafts):
        return
    d.differs = np.concatenate((d.differs[:start], np.zeros(count, bool), d.differs[end:]))
    d.part = np.concatenate((d.part[:start], np.full(count, STALE, np.int8), d.part[end:]))
    d.part_rows = np.concatenate((d.part_rows[:start], np.zeros((count, 7), np.int64), d.part_rows[end:]))
    if not len(d.differs) == len(d.part) == len(sp.index):  # out of step (should not happen): every segment again
        _resize(d, len(sp.index))
        start, count = 0, len(sp.index)
    _look(sp, d, start, start + count)


def _look(sp: SegmentPair, d: SegDrafts, a: int, b: int) -> None:
    """Segments [a, b): the drafts of keys first seen as possible drafts decided (the new
    snapshots kept), and whether each target differs from its draft.  One pass over the
    segments that may have a draft (a 100k-unit file with none: ~20 ms)."""
    segs = sp.index.unshifted()
    fmt = sp.index.format
    kind, kept = d.kind, d.kept
    d.differs[a:b] = False
    d.part[a:b] = STALE
    if d.forgotten:
        return
    hits = []
    added = False
    for i in _candidates(d, fmt, segs, a, b):
        seg = segs[i]
        k = kind.get(seg.key, _UNSEEN)
        if k is _UNSEEN:
            k, new = _decide(d, fmt, seg)
            kind[seg.key] = k
            added = added or new
        draft = seg.draft if k == FILE else kept.get(seg.key) if k == KEPT else None
        if draft is not None and seg.target and draft != seg.target:
            hits.append(i)
    d.differs[hits] = True
    if added:
        _save(sp, d)


_UNSEEN = object()


def _candidates(d: SegDrafts, fmt: str, segs: list[Segment], a: int, b: int) -> list[int]:
    """The segments of [a, b) that may have a draft (:func:`_candidate`), at comprehension speed."""
    r = range(a, min(b, len(segs)))
    kept = d.kept
    flag = row(fmt).draft_flag
    if flag is not None:
        return [i for i in r if segs[i].draft is not None or flag in segs[i].flags or segs[i].key in kept]
    if kept:
        return [i for i in r if segs[i].draft is not None or segs[i].key in kept]
    return [i for i in r if segs[i].draft is not None]


def may_have_draft(sp: SegmentPair, seg: Segment) -> bool:
    """:func:`_candidate` of ``seg`` in ``sp``."""
    d = sp.drafts
    return isinstance(d, SegDrafts) and _candidate(d, sp.index.format, seg)


def _candidate(d: SegDrafts, fmt: str, seg: Segment) -> bool:
    """Can ``seg`` have a draft (else it is not looked at: most segments of most files)?"""
    flag = row(fmt).draft_flag
    return seg.draft is not None or (flag is not None and flag in seg.flags) or seg.key in d.kept


def _target_is_draft(fmt: str, seg: Segment) -> bool:
    """The target itself is the MT draft (a fuzzy PO entry, an XLIFF 1.2 MT-qualified target)."""
    is_draft = row(fmt).target_is_draft
    return is_draft is not None and bool(is_draft(seg))


def _decide(d: SegDrafts, fmt: str, seg: Segment) -> tuple[Optional[str], bool]:
    """(kind, whether a new snapshot was taken)."""
    if d.pinned and seg.key in d.kept:  # bleuLs.setDraft's snapshot, or the file at a revision
        return KEPT, False
    if d.revision is not None:  # a key the revision did not have: the file's own MT draft, else none
        return (FILE if seg.draft is not None and not _target_is_draft(fmt, seg) else NONE), False
    target_draft = _target_is_draft(fmt, seg)
    if seg.draft is not None and not target_draft:
        return FILE, False
    if seg.key in d.kept:
        return KEPT, False
    if target_draft and seg.target:
        d.kept[seg.key] = seg.target
        return KEPT, True
    return NONE, False


def _save(sp: SegmentPair, d: SegDrafts) -> None:
    if d.revision is not None:  # (read from git each time: nothing kept)
        return
    lines = [MARK_SET if d.pinned else MARK]
    for k, v in d.kept.items():
        lines.append(k)
        lines.append(v)
    d.store.put(sp.path, lines)
    d.problem = d.store.problem


def set_to_current(sp: SegmentPair) -> str:
    """``bleuLs.setDraft``: every non-empty target becomes its segment's draft (kept per
    key in the cache folder, before the file's own MT drafts); a segment without a
    target keeps the draft it had from the file."""
    d = sp.drafts
    if not isinstance(d, SegDrafts):
        raise ValueError("the file is still being read: set the draft once it is open")
    if sp.frozen is not None:
        raise ValueError("the file is not well-formed now: set the draft once it is")
    if d.revision is not None:
        raise ValueError(f"the drafts of this file are its targets at {d.revision} (a [[pairs]] rule's "
                         "draft = \"git:REV\"); change the rule to change them")
    segs = sp.index.unshifted()
    d.kept = {s.key: s.target for s in segs if s.target}
    d.kind = {k: KEPT for k in d.kept}
    d.pinned, d.forgotten = True, False
    _reset(sp, d)
    _save(sp, d)
    n = len(d.kept)
    return f"draft set to the current targets ({n:,} {'segment' if n == 1 else 'segments'})"


def forget(sp: SegmentPair) -> str:
    """``bleuLs.forgetDraft``: drop the kept snapshot; no segment has a draft (not even
    the file's own MT drafts) until the file is opened again."""
    d = sp.drafts
    if not isinstance(d, SegDrafts):
        raise ValueError("the file is still being read: forget the draft once it is open")
    d.store.forget(sp.path)
    d.kept, d.kind = {}, {}
    d.pinned, d.forgotten = False, True
    _reset(sp, d)
    return "draft forgotten (none until the file is opened again)"


def _reset(sp: SegmentPair, d: SegDrafts) -> None:
    """Every segment's draft changed: what was made from the old ones goes."""
    d.effort.clear()
    d.pieces.clear()
    d.row_parts.clear()
    d.version += 1
    _resize(d, len(sp.index))
    _look(sp, d, 0, len(sp.index))


def draft_of(sp: SegmentPair, seg: Segment) -> Optional[str]:
    """The draft of ``seg`` (None: it has none)."""
    d = sp.drafts
    if not isinstance(d, SegDrafts):
        return seg.draft
    if d.forgotten:
        return None
    if seg.key not in d.kind:  # a key the edits made, or one that was no draft until now
        if not _candidate(d, sp.index.format, seg):
            return None
        d.kind[seg.key], new = _decide(d, sp.index.format, seg)
        if new:
            _save(sp, d)
    kind = d.kind[seg.key]
    if kind == FILE:
        return seg.draft
    if kind == KEPT:
        return d.kept.get(seg.key)
    return None


def effort(sp: SegmentPair, seg: Segment) -> Optional[dict]:
    """HTER of ``seg``'s target against its draft: score, num_edits, ref_length and the
    edit kinds (None: no draft, or a segment too long to align live)."""
    d = sp.drafts
    draft = draft_of(sp, seg)
    if draft is None or not isinstance(d, SegDrafts):
        return None
    target = seg.target
    got = d.effort.get(seg.key)
    if got is not None and got[0] == draft and got[1] == target:
        return got[2]
    rec = _count(d.metric, draft, target)
    d.effort[seg.key] = (draft, target, rec)
    return rec


def _count(metric: TerMetric, draft: str, target: str) -> Optional[dict]:
    if draft != target and max(len(draft.split()), len(target.split())) > MAX_ALIGN_WORDS:
        return None
    if draft == target:
        edits, ref_len, kinds = 0, len(metric.tokens(target)), (0, 0, 0, 0)
    else:
        (r,) = metric.alignments(draft, [target])
        edits, ref_len, kinds = r.edits, r.ref_len, (r.insertions, r.deletions, r.substitutions, r.shifts)
    score = metric.sentence_score([edits, ref_len * UNITS, 1])
    return {
        "score": score.score,
        "num_edits": edits,
        "ref_length": score.extra["ref_length"],
        **dict(zip(("insertions", "deletions", "substitutions", "shifts"), kinds)),
    }


def hint_part(sp: SegmentPair, seg: Segment, hs: HintSettings) -> Optional[str]:
    """``HTER 12.5`` after the scores of a segment whose target differs from its draft
    (of every segment with a draft when ``hints.hter`` is on)."""
    draft = draft_of(sp, seg)
    if draft is None or not seg.target or (draft == seg.target and not hs.hter):
        return None
    rec = effort(sp, seg)
    if rec is None:
        return None
    try:
        return hs.hter_format.format(hter=rec["score"])
    except Exception:  # a bad template in the settings
        return HintSettings().hter_format.format(hter=rec["score"])


def row_part(sp: SegmentPair, r: int, hs: HintSettings) -> Optional[str]:
    """:func:`hint_part` of row ``r``'s segment (a row of one segment).  While the buffer is
    malformed the rows are the last good reading's: the part shown then for the same text stays."""
    d = sp.drafts
    if not isinstance(d, SegDrafts) or sp.row_he[r] - sp.row_hs[r] != 1 or sp.model is None:
        return None
    text = sp.model.hyp[r]
    if sp.frozen is not None:
        got = d.row_parts.get(r)
        return got[1] if got is not None and got[0] == text else None
    part = hint_part(sp, sp.index.segment(int(sp.row_hs[r])), hs)
    if len(d.row_parts) >= ROW_PARTS:
        d.row_parts.clear()
    d.row_parts[r] = (text, part)
    return part


def hover_parts(sp: SegmentPair, seg: Segment) -> list[str]:
    """The hover's draft section: nothing while the target is its draft; the draft alone
    while the target is empty; else HTER with its edits, the draft and the word diff."""
    draft = draft_of(sp, seg)
    if draft is None or draft == seg.target:
        return []
    label = f"**Draft** at {_esc(d.revision)}:" if isinstance(d := sp.drafts, SegDrafts) and d.revision else "**Draft:**"
    if not seg.target:
        return [f"{label} {_esc(draft)}"]
    rec = effort(sp, seg)
    if rec is None:
        return ["_Too long to align with its draft while you edit (over 2,000 words): no HTER for this segment._",
                f"{label} {_esc(draft)}"]
    edits = (
        f"{rec['num_edits']} edits: {rec['insertions']} ins, {rec['deletions']} del, "
        f"{rec['substitutions']} sub, {rec['shifts']} shifts · {rec['ref_length']:g} words"
    )
    return [
        f"**HTER {rec['score']:.2f}** vs draft ({edits})",
        f"{label} {_esc(draft) if draft.strip() else '_(empty)_'}",
        f"**Changes:** {diff_markdown(draft, seg.target)}",
    ]


def _esc(text: str) -> str:
    for ch in "\\`*_~[]":
        text = text.replace(ch, "\\" + ch)
    return text
