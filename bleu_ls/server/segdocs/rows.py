"""The rows of a segment document's pair model: the reference read, each
hypothesis segment paired with its reference partners (subtitles: cues by
time, a row a group of cues; the other formats: by key), the texts of the
rows spliced into the model.  A structural edit of subtitles pairs again the
rows around it only (:func:`repair`); the other formats pair every segment
again, splicing the rows that differ (:func:`pair`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Mapping, Optional

import numpy as np

from ...engine import PairModel, build_metrics
from ...engine.text import InputError, read_text
from ...config.pairing import find_pair, find_source, path_allowed
from ...formats.live.index import READERS, LiveIndex
from ...formats.match import pair_documents
from ...formats.model import Segment, SegmentDocument
from ...formats.read import decode_file, family, partner_format, read_document, read_prefix
from ...formats.table import LINE_FILE, row
from ...formats.subtitles import estimate_offset, match_by_time
from ...config.settings import Settings
from ..roles import ManagerRole
from .state import TIMED, SegmentPair, segment_format


def read_source(sp: SegmentPair, manager: ManagerRole, open_docs: Iterable[SegmentPair]) -> None:
    """A key-value localization file (JSON, ARB…): its source-language file found (a rule's ``source``,
    else the format's convention) and read (from its open document when there is one), its live index
    paired with it by key; none found or unreadable: paired with none.  Other formats: nothing."""
    set_source = getattr(sp.index, "set_source", None)
    sp.source_path = sp.no_source = None
    if set_source is None or row(sp.index.format).source_files is None:
        return
    root = manager.root_for(sp.path)
    try:
        path = find_source(sp.path, manager.settings, root)
    except Exception as exc:  # a bad rule: as with no source
        path, sp.no_source = None, f"the pairing rules could not be read ({exc})"
    if path is None or not path_allowed(path, root, manager.settings):
        if path is not None:
            sp.no_source = f"the source-language file {path} is outside the workspace {root}"
        elif sp.no_source is None:
            sp.no_source = "no source-language file found for this file (its format's convention, or a [[pairs]] rule's source)"
        set_source(None)
        return
    open_src = next((d for d in open_docs if d.path == path), None)
    try:
        doc = open_src.index.document() if open_src is not None else read_document(str(path), sp.index.format)
    except (InputError, OSError) as exc:
        sp.no_source = f"{path.name} could not be read ({exc})"
        set_source(None)
        return
    sp.source_path = path
    set_source(doc, path.name)  # (a malformed source: the keys read before its problem)


def read_reference(sp: SegmentPair, manager: ManagerRole, open_docs: Iterable[SegmentPair], prefix: Optional[int] = None) -> None:
    """Find the reference of ``sp`` (the pairing rules) and read it (from its open document when there is one);
    with ``prefix``, about that many of its first segments only (:func:`~bleu_ls.formats.read.read_prefix`;
    ``sp.ref`` None and ``sp.no_ref`` None when they cannot be read alone)."""
    sp.ref, sp.ref_path = None, None
    root = manager.root_for(sp.path)
    try:
        spec = find_pair(sp.path, manager.settings, root)
    except Exception as exc:  # a bad rule: said, not raised
        sp.no_ref = f"the pairing rules could not be read ({exc})"
        return
    if spec is None or not spec.references:
        ext = sp.path.suffix
        sp.no_ref = f"no reference file pairs with this file (NAME.hyp{ext} beside NAME.ref{ext}, or a [[pairs]] rule)"
        return
    ref_path = spec.references[0]
    sp.ref_path = ref_path
    ref_format = segment_format(ref_path)
    if ref_format is None:  # a reference of the same extension as a file known by its path: read in its format
        partner = partner_format(sp.index.format, str(sp.path), LINE_FILE.name, str(ref_path))
        ref_format = partner if row(partner).segmented else None
    if ref_format is None or family(ref_format) != family(sp.index.format):
        sp.no_ref = f"the reference {ref_path.name} is not a file of the same format"
        return
    if not path_allowed(ref_path, root, manager.settings):
        sp.no_ref = f"the reference {ref_path} is outside the workspace"
        return
    open_ref = next((d for d in open_docs if d.path == ref_path), None)
    try:
        if prefix is not None:
            text = open_ref.index.text if open_ref is not None else decode_file(str(ref_path), ref_format)
            sp.ref = read_prefix(ref_format, text, prefix)
            sp.no_ref = None
            return
        if open_ref is not None:
            sp.ref = open_ref.index.document()
        elif sp.index.format in READERS:
            sp.ref = LiveIndex(sp.index.format, read_text(str(ref_path))).document()
        else:
            sp.ref = read_document(str(ref_path), ref_format)
    except InputError as exc:
        sp.no_ref = str(exc)
        return
    except OSError as exc:
        sp.no_ref = f"{ref_path.name} could not be read ({exc.strerror or exc})"
        return
    except Exception as exc:  # a reader's own sentence (a malformed file)
        sp.no_ref = f"{ref_path.name} could not be read ({exc})"
        return
    sp.no_ref = None
    if sp.index.format not in TIMED:
        sp.ref = slim(sp.ref)
        return
    sp.offset_ms = estimate_offset(sp.index.unshifted(), sp.ref.segments) if sp.ref.segments else 0
    starts = np.fromiter((int(s.extra["start_ms"]) for s in sp.ref.segments), np.int64, len(sp.ref.segments))  # type: ignore[call-overload]
    ends = np.fromiter((int(s.extra["end_ms"]) for s in sp.ref.segments), np.int64, len(sp.ref.segments))  # type: ignore[call-overload]
    sp.ref_order = np.argsort(starts, kind="stable")
    sp.ref_starts = starts[sp.ref_order]
    sp.ref_longest = int((ends - starts).max()) if len(starts) else 0


#: what the pairing and the answers read of a reference segment's ``extra`` (PO's fallback: msgctxt + msgid + plural form)
REF_EXTRA = ("msgctxt", "msgid", "plural_index")
_NO_EXTRA: Mapping[str, object] = MappingProxyType({})


def slim(doc: SegmentDocument) -> SegmentDocument:
    """A key-paired reference as the server keeps it: each segment's key, texts, span and
    line, and of its ``extra`` what the pairing reads (no runs, codes, notes or spans
    of its own: a 100k-unit XLIFF reference in about half the memory), and no text."""
    segs = []
    for s in doc.segments:
        e = s.extra
        extra = {k: e[k] for k in REF_EXTRA if k in e} if e else None
        segs.append(Segment(key=s.key, target=s.target, target_span=s.target_span, line=s.line, source=s.source,
                            extra=extra or _NO_EXTRA))
    return SegmentDocument(format=doc.format, segments=segs, source_lang=doc.source_lang, target_lang=doc.target_lang,
                           header=doc.header, problems=doc.problems)


def _rows(sp: SegmentPair, segs: list[Segment], refs: list[int], h0: int = 0) -> tuple[list[int], list[int], list[list[int]]]:
    """Rows of the cues ``segs`` (hypothesis cues h0, h0 + 1, …) against the reference cues ``refs``:
    (first cue, end cue, reference cues) of each, in file order.  A row is a run of
    hypothesis cues: groups whose cues interleave are one row."""
    assert sp.ref is not None
    if sp.index.format in TIMED:
        groups = match_by_time(segs, [sp.ref.segments[j] for j in refs], sp.offset_ms)
        spans = sorted((min(h) + h0, max(h) + h0 + 1, sorted(refs[j] for j in r)) for h, r in groups if h and r)
    else:  # by key (then the format's fallback: msgid, source text)
        hyp_doc = SegmentDocument(format=sp.index.format, segments=list(segs))
        ref_doc = SegmentDocument(format=sp.ref.format, segments=[sp.ref.segments[j] for j in refs])
        partners = pair_documents(hyp_doc, ref_doc).partners
        spans = [(i + h0, i + h0 + 1, sorted(refs[j] for j in p)) for i, p in enumerate(partners) if p]
    hs: list[int] = []
    he: list[int] = []
    rr: list[list[int]] = []
    for a, b, r in spans:
        if he and a < he[-1]:  # interleaved with the row before: one row
            he[-1] = max(he[-1], b)
            rr[-1] = sorted(rr[-1] + r)
        else:
            hs.append(a)
            he.append(b)
            rr.append(r)
    return hs, he, rr


def _texts(sp: SegmentPair, hs, he, rr) -> tuple[list[str], list[str]]:
    assert sp.ref is not None
    segs = sp.index.unshifted()
    refs = sp.ref.segments
    hyp = [" ".join(t for t in (segs[i].target for i in range(a, b)) if t) for a, b in zip(hs, he)]
    ref = [" ".join(t for t in (refs[j].target for j in r) if t) for r in rr]
    return hyp, ref


def _set_rows(sp: SegmentPair, hs: np.ndarray, he: np.ndarray, rr: list[list[int]]) -> None:
    assert sp.ref is not None
    n = len(sp.index)
    sp.row_hs, sp.row_he, sp.row_refs = hs, he, rr
    row_of = np.full(n, -1, np.int64)
    for r, (a, b) in enumerate(zip(hs.tolist(), he.tolist())):
        row_of[a:b] = r
    sp.row_of = row_of
    ref_row = np.full(len(sp.ref.segments), -1, np.int64)
    for r, js in enumerate(rr):
        ref_row[js] = r
    sp.ref_row = ref_row
    _counts(sp)


def _counts(sp: SegmentPair) -> None:
    sp.row_anchor = sp.row_he - 1
    sp.unpaired_hyp = int((sp.row_of < 0).sum())
    sp.unpaired_ref = int((sp.ref_row < 0).sum())


def pair(sp: SegmentPair, settings: Settings) -> None:
    """Pair every cue (again) and splice the model's rows that differ."""
    if sp.ref is None:
        sp.model = None
        sp.row_hs = sp.row_he = sp.row_anchor = np.zeros(0, np.int64)
        sp.row_refs = []
        sp.row_of = np.full(len(sp.index), -1, np.int64)
        sp.unpaired_hyp = len(sp.index)
        return
    segs = sp.index.unshifted()  # times and texts only: no offsets needed here
    hs, he, rr = _rows(sp, segs, list(range(len(sp.ref.segments))))
    _set_rows(sp, np.asarray(hs, np.int64), np.asarray(he, np.int64), rr)
    sp.keyed_rows = False
    if sp.index.format not in TIMED:  # every row a key's when the fallback had nothing to pair (repair_keyed)
        keys = _ref_keys(sp)
        n_key = sum(1 for s in segs if s.key in keys)
        sp.keyed_rows = not (len(segs) > n_key and len(sp.ref.segments) > n_key)
    hyp, ref = _texts(sp, hs, he, rr)
    model = sp.model
    if model is None:
        sp.model = PairModel(build_metrics(settings), hyp, [ref], lazy=True)
        return
    old_h, old_r = model.hyp, model.refs[0]
    n_old, n_new = len(old_h), len(hyp)
    a = 0
    while a < min(n_old, n_new) and old_h[a] == hyp[a] and old_r[a] == ref[a]:
        a += 1
    b = 0
    while b < min(n_old, n_new) - a and old_h[n_old - 1 - b] == hyp[n_new - 1 - b] and old_r[n_old - 1 - b] == ref[n_new - 1 - b]:
        b += 1
    if a == n_old == n_new:
        return
    model.splice_ref(0, a, n_old - b, ref[a : n_new - b])
    model.splice_hyp(a, n_old - b, hyp[a : n_new - b])


def repair(sp: SegmentPair, settings: Settings, a: int, b: int, count: int) -> None:
    """Cues [a, b) were replaced by ``count`` new ones: pair again the rows around them only."""
    if sp.ref is not None and sp.model is not None and sp.index.format not in TIMED and sp.keyed_rows:
        if repair_keyed(sp, a, b, count):
            return
    if sp.ref is None or sp.model is None or sp.index.format not in TIMED:
        pair(sp, settings)
        return
    ref_segs = sp.ref.segments
    segs = sp.index.unshifted()
    d = count - (b - a)
    # the reference cues the new cues' time may reach
    lo_c, hi_c = max(0, a - 1), min(len(segs), a + count + 1)
    cands: list[int] = []
    if hi_c > lo_c:
        t0 = min(int(segs[i].extra["start_ms"]) for i in range(lo_c, hi_c)) + sp.offset_ms  # type: ignore[call-overload]
        t1 = max(int(segs[i].extra["end_ms"]) for i in range(lo_c, hi_c)) + sp.offset_ms  # type: ignore[call-overload]
        k0 = int(np.searchsorted(sp.ref_starts, t0 - sp.ref_longest, "left"))
        k1 = int(np.searchsorted(sp.ref_starts, t1, "right"))
        cands = [int(j) for j in sp.ref_order[k0:k1] if int(ref_segs[int(j)].extra["end_ms"]) > t0]  # type: ignore[call-overload]
    touched = sp.row_of[max(0, a - 1) : min(len(sp.row_of), b + 1)]
    rows = {int(r) for r in touched if r >= 0}
    rows.update(int(sp.ref_row[j]) for j in cands if sp.ref_row[j] >= 0)
    if rows:
        r0, r1 = min(rows), max(rows) + 1
    else:
        r0 = r1 = int(np.searchsorted(sp.row_hs, a, "left"))
    h0 = min(a, int(sp.row_hs[r0])) if r0 < r1 else a
    h1 = max(b, int(sp.row_he[r1 - 1])) if r0 < r1 else b
    wrefs = sorted({j for r in range(r0, r1) for j in sp.row_refs[r]} | {j for j in cands if sp.ref_row[j] < 0 or r0 <= sp.ref_row[j] < r1})
    # cues out of time order around the window (a retimed cue moved past others): their
    # groups may reach rows outside it; pair every cue again then
    lo, hi = max(0, h0 - 1), min(len(segs), h1 + d + 1)
    starts = [int(segs[i].extra["start_ms"]) for i in range(lo, hi)]  # type: ignore[call-overload]
    if any(x > y for x, y in zip(starts, starts[1:])):
        pair(sp, settings)
        return
    hs, he, rr = _rows(sp, segs[h0 : h1 + d], wrefs, h0)
    drow = len(hs) - (r1 - r0)
    sp.row_hs = np.concatenate((sp.row_hs[:r0], np.asarray(hs, np.int64), sp.row_hs[r1:] + d))
    sp.row_he = np.concatenate((sp.row_he[:r0], np.asarray(he, np.int64), sp.row_he[r1:] + d))
    sp.row_refs[r0:r1] = rr
    mid = np.full(h1 + d - h0, -1, np.int64)
    for k, (x, y) in enumerate(zip(hs, he)):
        mid[x - h0 : y - h0] = r0 + k
    tail = sp.row_of[h1:]
    sp.row_of = np.concatenate((sp.row_of[:h0], mid, np.where(tail >= 0, tail + drow, -1)))
    ref_row = sp.ref_row
    for j in wrefs:
        ref_row[j] = -1
    if drow:
        later = ref_row >= r1
        ref_row[later] += drow
    for k, js in enumerate(rr):
        ref_row[js] = r0 + k
    _counts(sp)
    hyp, ref = _texts(sp, hs, he, rr)
    model = sp.model
    if model.hyp[r0:r1] != hyp or model.refs[0][r0:r1] != ref:
        model.splice_ref(0, r0, r1, ref)
        model.splice_hyp(r0, r1, hyp)


def _ref_keys(sp: SegmentPair) -> dict[str, int]:
    """Reference key -> its first segment (made once per reference read)."""
    assert sp.ref is not None
    if sp.ref_keys is None or sp.ref_keys[0] is not sp.ref:
        keys: dict[str, int] = {}
        for j, s in enumerate(sp.ref.segments):
            keys.setdefault(s.key, j)
        sp.ref_keys = (sp.ref, keys)
    return sp.ref_keys[1]


#: at most this many segments replaced are spliced by key alone
KEYED_WINDOW = 256


def repair_keyed(sp: SegmentPair, a: int, b: int, count: int) -> bool:
    """Segments [a, b) of a key-paired document were replaced by ``count`` new ones, and every
    row was a key's: splice the rows of the new segments by key alone when the whole pairing
    would be that too (after the edit no segment, or no reference segment, is left without its
    key's partner, so the fallback has nothing to pair); False when it would not (pair all then)."""
    assert sp.ref is not None and sp.model is not None
    if max(count, b - a) > KEYED_WINDOW:  # the whole file read again (PO, a reset): pair() splices what differs
        return False
    keys = _ref_keys(sp)
    segs = sp.index.unshifted()
    r0 = int(np.searchsorted(sp.row_hs, a, "left"))
    r1 = int(np.searchsorted(sp.row_hs, b, "left"))
    keyed = [(i, keys.get(segs[i].key)) for i in range(a, a + count)]
    new = [(i, j) for i, j in keyed if j is not None]
    n_key = len(sp.row_hs) - (r1 - r0) + len(new)
    if len(segs) > n_key and len(sp.ref.segments) > n_key:
        return False
    d = count - (b - a)
    drow = len(new) - (r1 - r0)
    hs = np.asarray([i for i, _ in new], np.int64)
    rr = [[j] for _, j in new]
    old_refs = [j for r in range(r0, r1) for j in sp.row_refs[r]]
    sp.row_hs = np.concatenate((sp.row_hs[:r0], hs, sp.row_hs[r1:] + d))
    sp.row_he = np.concatenate((sp.row_he[:r0], hs + 1, sp.row_he[r1:] + d))
    sp.row_refs[r0:r1] = rr
    mid = np.full(count, -1, np.int64)
    for k, i in enumerate(hs.tolist()):
        mid[i - a] = r0 + k
    tail = sp.row_of[b:]
    sp.row_of = np.concatenate((sp.row_of[:a], mid, np.where(tail >= 0, tail + drow, -1)))
    ref_row = sp.ref_row
    ref_row[old_refs] = -1
    if drow:
        ref_row[ref_row >= r1] += drow
    for k, js in enumerate(rr):
        ref_row[js] = r0 + k
    _counts(sp)
    hyp, ref = _texts(sp, hs.tolist(), (hs + 1).tolist(), rr)
    model = sp.model
    if model.hyp[r0:r1] != hyp or model.refs[0][r0:r1] != ref:
        model.splice_ref(0, r0, r1, ref)
        model.splice_hyp(r0, r1, hyp)
    return True
