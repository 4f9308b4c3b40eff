"""Opening a segment document: at once, or in two steps when it is large.

A PO, XLIFF, TMX, SRT or WebVTT file of :data:`LARGE_CHARS` characters or
more, opened while the event loop runs, is first read in part: its first
:data:`PREFIX_SEGMENTS` segments (:func:`~bleu_ls.formats.read.read_prefix`,
each exactly as the full read gives it) and the first
:data:`REF_PREFIX_SEGMENTS` of its reference, paired **by key only** (the full
pairing takes the key partner first, and keys are unique on both sides, so
every row found this way is the full pairing's row; a segment whose partner
would come from the fallback, or lies further in the reference, has no hint
yet).  Subtitles pair by time (:func:`timed_prefix_rows`): the time offset is
estimated from the two prefixes, and only the rows no cue still unread can
join are shown; when the whole file's offset differs from the prefix's, the
whole read's rows (put in place as below) correct those hints.  The first
hints are answered from that; the whole file and its reference are read and paired in a thread (:func:`full_pair`, the same work
as a small file's open) and put in place on the event loop, and the editor is
asked to refresh.  An edit while that runs is applied to the text, the prefix
read again (its hints stay right), and the whole read again from the edited
text once the running read ends: the end state is a fresh open of the edited
text.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Iterable, Optional

import numpy as np

from ...engine import PairModel, build_metrics
from ...formats.live.index import LiveIndex
from ...formats.live.whole import WholeIndex
from ...formats.match import pair_documents
from ...formats.model import SegmentDocument
from ...formats.read import read_prefix
from ...formats.table import row
from ...formats.subtitles import estimate_offset
from ...config.settings import Settings
from ..background import heap
from ..roles import ManagerRole
from .checks import configure, findings
from .rows import _rows, _set_rows, _texts, pair, read_reference, read_source
from .state import SegmentPair

#: files of at least this many characters open in two steps (about 10,000 XLIFF units)
LARGE_CHARS = 2_000_000
#: segments of the document read first (screenfuls of them: a small prefix is what makes the first hints quick)
PREFIX_SEGMENTS = 300
#: seconds between the first step and the thread's start (the editor's first hint request comes in them)
START_DELAY = 0.3
#: segments of the reference read first (more: its order may differ a little)
REF_PREFIX_SEGMENTS = 600


def two_step(fmt: str, text: str) -> bool:
    return row(fmt).prefix_reader is not None and len(text) >= LARGE_CHARS


def make_index(fmt: str, text: str) -> LiveIndex:
    """The live index of a whole text (the format's row names its factory)."""
    factory = row(fmt).live_index
    return factory(fmt, text) if factory is not None else WholeIndex(fmt, text)


def full_pair(uri: str, path: Path, fmt: str, text: str, version: Optional[int], manager: ManagerRole,
              open_docs: Iterable[SegmentPair]) -> SegmentPair:
    """The document read whole, its reference read and every segment paired (any thread)."""
    with heap.quiet(text.count("\n")):
        if row(fmt).timed:  # the reference's timing is read against the document's
            sp = SegmentPair(uri=uri, path=path, index=make_index(fmt, text), version=version)
            read_reference(sp, manager, open_docs)
        else:  # the reference first: the memory its full reading leaves (kept slim) is the document's then
            sp = SegmentPair(uri=uri, path=path, index=LiveIndex(fmt, "", reader=lambda _t: SegmentDocument(fmt, [])),
                             version=version)
            read_reference(sp, manager, open_docs)
            sp.index = make_index(fmt, text)
        read_source(sp, manager, open_docs)
        configure(sp, manager.settings)
        pair(sp, manager.settings)
        sp.good_problems = len(sp.index.problems)
        if len(text) >= LARGE_CHARS:  # the checks counted here too (in the thread of a two-step open)
            findings(sp)
    return sp


def prefix_index(fmt: str, text: str) -> tuple[LiveIndex, bool]:
    """An index of the whole text's lines and its first segments (no segment when they
    cannot be read alone); True when it has them."""
    doc = read_prefix(fmt, text, PREFIX_SEGMENTS)
    ok = doc is not None
    if doc is None:
        doc = SegmentDocument(format=fmt, segments=[])
    return LiveIndex(fmt, text, reader=lambda _t: doc), ok


def _no_fallback(*_args) -> list:
    return []


def prefix_rows(sp: SegmentPair, settings: Settings) -> None:
    """The rows of the prefix: its segments paired by key with the reference's first ones."""
    if sp.ref is None or not len(sp.index):
        sp.model = None
        sp.row_hs = sp.row_he = sp.row_anchor = np.zeros(0, np.int64)
        sp.row_refs = []
        sp.row_of = np.full(len(sp.index), -1, np.int64)
        return
    if row(sp.index.format).timed:
        hs, he, rr = timed_prefix_rows(sp)
    else:
        hyp_doc = SegmentDocument(format=sp.index.format, segments=sp.index.unshifted())
        partners = pair_documents(hyp_doc, sp.ref, fallback=_no_fallback).partners
        hs = [i for i, p in enumerate(partners) if p]
        rr = [sorted(p) for p in partners if p]
        he = [i + 1 for i in hs]
    _set_rows(sp, np.asarray(hs, np.int64), np.asarray(he, np.int64), rr)
    hyp, ref = _texts(sp, hs, he, rr)
    sp.model = PairModel(build_metrics(settings), hyp, [ref], lazy=True)


def _ms(seg, name: str) -> int:
    return int(seg.extra[name])


def timed_prefix_rows(sp: SegmentPair) -> tuple[list[int], list[int], list[list[int]]]:
    """The rows of a subtitle prefix: the time offset estimated from the first cues of both
    files, their cues paired by time (as the whole file's are), and the rows kept in file order
    up to the first one a cue not read yet could still join.

    The cues not read start after the last start read (in each file: a timing in time
    order), so a cue that ends before the *horizon* — the earlier of the two last starts
    read, the hypothesis' moved by the offset — overlaps nothing unread.  The rows shown end
    before the first row holding a cue that ends after it, and before the first hypothesis
    cue that does (a row after it could be joined to it through an unread cue).  The whole
    read pairs everything again with the whole files' offset: a prefix whose offset differs
    from it (a film whose first minutes are timed apart from the rest), or a timing out of
    time order, gets its hints corrected then."""
    assert sp.ref is not None
    segs, refs = sp.index.unshifted(), sp.ref.segments
    off = sp.offset_ms = estimate_offset(segs, refs) if refs else 0
    hs, he, rr = _rows(sp, segs, list(range(len(refs))))
    horizon = min(max(_ms(s, "start_ms") for s in segs) + off, max((_ms(s, "start_ms") for s in refs), default=0))
    first_open = next((i for i, s in enumerate(segs) if _ms(s, "end_ms") + off > horizon), len(segs))
    n = 0
    while n < len(hs) and he[n] <= first_open and all(_ms(refs[j], "end_ms") <= horizon for j in rr[n]):
        n += 1
    return hs[:n], he[:n], rr[:n]


def open_prefix(uri: str, path: Path, fmt: str, text: str, version: Optional[int], manager: ManagerRole,
                open_docs: Iterable[SegmentPair]) -> Optional[SegmentPair]:
    """The first step of a large file's open: None when it cannot be taken (the prefix or its
    reference's cannot be read alone, or there is no reference: open it at once then)."""
    index, ok = prefix_index(fmt, text)
    if not ok:
        return None
    sp = SegmentPair(uri=uri, path=path, index=index, version=version)
    configure(sp, manager.settings)
    read_reference(sp, manager, open_docs, prefix=REF_PREFIX_SEGMENTS)
    if sp.ref is None:
        return None
    prefix_rows(sp, manager.settings)
    return sp


def edit_prefix(sp: SegmentPair, start: int, end: int, new: str, settings: Settings) -> None:
    """An edit while the whole is read: the text edited, the prefix read and paired again."""
    text = sp.index.text
    sp.index, _ = prefix_index(sp.index.format, text[:start] + new + text[end:])
    configure(sp, settings)
    prefix_rows(sp, settings)


def snapshots(docs: Iterable[SegmentPair], sp: SegmentPair) -> list:
    """The other open documents as a thread may read them (a reference read from its buffer):
    their path and a copy of their segments now, not the live index the event loop edits."""
    out = []
    for d in docs:
        if d is sp or d.loading is not None:  # one still being read: its file is read instead
            continue
        doc = d.index.document()
        out.append(SimpleNamespace(path=d.path, index=SimpleNamespace(text=d.index.text, document=lambda doc=doc: doc)))
    return out


#: what stays of the first step's document when the full one is put in its place
KEPT = ("uri", "path", "version", "serial", "diagnostics", "push_task", "loading", "load_gen")


def install(sp: SegmentPair, full: SegmentPair) -> None:
    """Put the full reading in place of the prefix in ``sp`` (the object the server holds)."""
    for name in SegmentPair.__dataclass_fields__:
        if name not in KEPT:
            setattr(sp, name, getattr(full, name))
