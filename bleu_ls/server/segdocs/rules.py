"""The rule table's checks on a segment document: the same findings as
``bleu-ls check FILE`` (numbers, markup, brackets and quotes, end punctuation,
wrong language, untranslated targets, terminology, doubled words, the user's
rules, ``adequacy`` against the file's own sources; with a reference also the
rows that read it: low scores, outliers, length ratio, misalignment), beside
the format checks of :mod:`.checks`.

Kept per document (:class:`SegRules`, ``sp.rules``), an
:class:`~bleu_ls.qa.analysis.Analyzer` over the lines and the findings per
segment:

* a file alone: its lines as ``check`` reads a file alone
  (:func:`~bleu_ls.qa.analysis.unreferenced.segment_lines`: one line per
  segment);
* a file with a reference: the rows ``check`` scores
  (:func:`~bleu_ls.formats.match.align`): each paired row (a segment, or a group
  of cues) whose own text and reference text are both non-empty, its
  reference the first partner with text (cues: every partner's, joined), as a
  :class:`~bleu_ls.engine.PairModel` of its own (``rows``: each line's first
  segment, where its findings go, as ``check`` places them).

An edit splices the segments it touched into the lines (their edit log tells
the analyser which lines to work out again; with a reference, after the
document's rows are paired again, :func:`_sync`); the rules that rank a line
against the document (``adequacy``, ``outlier``) hold their findings while the
user types and catch up :data:`RERANK_IDLE` seconds after the last edit.  The
first pass over a large file runs in a worker thread on a copy of the lines
(requests are answered meanwhile), and the pass on the loop then finds the
per-line work memoised (and, with a reference, the copy's scores installed)."""

from __future__ import annotations

import asyncio
import logging
import math
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from ...qa.analysis import Analyzer
from ...qa.analysis.unreferenced import Unreferenced, segment_languages, segment_lines
from ...engine import PairModel, build_metrics, common_splice
from ...formats.table import row
from ...qa.formats.table import checks_of
from ...formats.read import read_prefix
from ..background import pools
from ...qa.findings import Finding
from .state import TIMED, SegmentPair, loop_running

log = logging.getLogger(__name__)

#: a pass with more lines than this to work out afresh runs in a worker thread first
THREAD_LINES = 2000
#: the ranked rules wait this long after the last edit (as in line files)
RERANK_IDLE = 1.0


@dataclass
class SegRules:
    model: Union[Unreferenced, PairModel]
    source: Optional[list[str]]
    analyzer: Analyzer
    names: dict
    #: with a reference: line -> the segment its findings go to (the row's first), and
    #: line -> the document's row (``sp.row_hs``…) it is; None: a file alone (line i is segment i)
    rows: Optional[list[int]] = None
    paired: list[int] = field(default_factory=list)
    #: with a reference: segments whose text changed since the lines were brought up to
    #: date, and whether the document's rows may have moved (every line compared then)
    touched: set[int] = field(default_factory=set)
    moved: bool = False
    #: segment -> its rule findings
    found: dict[int, list[Finding]] = field(default_factory=dict)
    #: the segments whose target is the source (``untranslated``): no ``target-same-as-source`` beside it
    untranslated: set[int] = field(default_factory=set)
    #: the findings are not those of the current lines (a pass is due)
    stale: bool = True
    #: every segment's findings made again at the next pass (segments moved, or a pass not seen)
    rebuild: bool = True
    passes_seen: int = 0
    task: Optional[asyncio.Future] = None
    typed_at: float = -math.inf
    rerank: Optional[asyncio.Task] = None


def bind(sp: SegmentPair, settings: Any, adequacy: Any) -> None:
    """Give ``sp`` its rules (None with the diagnostics off): over its lines alone, or
    over the rows paired with its reference when it has one (``sp.model`` made)."""
    if not settings.diagnostics.enabled:
        sp.rules = None
        return
    segs = sp.index.unshifted()
    source_language, target_language = declared(sp)
    names: dict[str, Any] = {"hypothesis": sp.path.name, "path": str(sp.path), "references": [], "source": None,
                             "target_language": target_language, "source_language": source_language,
                             "line_languages": segment_languages(segs)}
    try:
        metrics = build_metrics(settings)  # (with no reference, their tokenizer only)
    except Exception:  # a tokenizer whose extra is missing: the settings' message says it
        metrics = {}
    analyzer = Analyzer(settings, adequacy=adequacy)
    if sp.ref is None or sp.model is None:
        hyp, source = segment_lines(segs)
        sp.rules = SegRules(Unreferenced(metrics, hyp), source, analyzer, names)
        return
    names["references"] = [sp.ref_path.name] if sp.ref_path is not None else []
    rows, paired, hyp, ref, source = _check_rows(sp)
    names["line_languages"] = segment_languages([segs[i] for i in rows])
    sp.rules = SegRules(PairModel(metrics, hyp, [ref], lazy=True), source, analyzer, names, rows=rows, paired=paired)


def _row_texts(sp: SegmentPair, segs: list, r: int) -> tuple[str, str]:
    """Row ``r``'s own text and its reference text as ``check`` scores them (:func:`~bleu_ls.formats.match.align`):
    the row's targets joined; the first partner with text (cues: every partner's, joined)."""
    assert sp.ref is not None
    refs = sp.ref.segments
    own = " ".join(t for t in (segs[i].target for i in range(int(sp.row_hs[r]), int(sp.row_he[r]))) if t)
    js = sp.row_refs[r]
    if sp.index.format in TIMED:
        other = " ".join(t for t in (refs[j].target for j in js) if t)
    else:
        other = next((refs[j].target for j in js if refs[j].target), "")
    return own, other


def _check_rows(sp: SegmentPair) -> tuple[list[int], list[int], list[str], list[str], Optional[list[str]]]:
    """The lines ``check`` analyses of a file with a reference: of each row whose both sides
    have text, its first segment, the row, its text, its reference's and its source (the first
    segment's; None when a segment has none)."""
    segs = sp.index.unshifted()
    rows: list[int] = []
    paired: list[int] = []
    hyp: list[str] = []
    ref: list[str] = []
    for r in range(len(sp.row_hs)):
        own, other = _row_texts(sp, segs, r)
        if own and other:
            rows.append(int(sp.row_hs[r]))
            paired.append(r)
            hyp.append(own)
            ref.append(other)
    sources = [segs[i].source for i in rows]
    source = [s or "" for s in sources] if rows and all(s is not None for s in sources) else None
    return rows, paired, hyp, ref, source


def _sync(sp: SegmentPair) -> None:
    """With a reference: the lines brought up to the document's rows (after edits): a text
    edit of a segment splices its line; anything else compares every line and splices what
    differs (the analyser then works out those lines only)."""
    r = sp.rules
    if r is None or r.rows is None or not (r.touched or r.moved):
        return
    if sp.frozen is not None or sp.ref is None or len(sp.row_of) != len(sp.index):
        return  # malformed for now (the rows of the last good reading): once paired again
    model = r.model
    assert isinstance(model, PairModel)
    if not r.moved and _splice_touched(sp, r, model):
        r.touched.clear()
        return
    r.touched.clear()
    r.moved = False
    rows, paired, hyp, ref, source = _check_rows(sp)
    if rows != r.rows:
        r.rebuild = True  # lines moved to other segments: every segment's findings made again
    r.rows, r.paired = rows, paired
    new_hyp = [h.rstrip() for h in hyp]
    new_ref = [x.rstrip() for x in ref]
    before: Any = list(zip(model.hyp, model.refs[0]))
    after: Any = list(zip(new_hyp, new_ref))
    a, b, spliced = common_splice(before, after)  # (line pairs: a line whose reference changed is spliced too)
    lines: list[Any] = spliced
    if lines or b > a:
        model.splice_ref(0, a, b, [x for _h, x in lines])
        model.splice_hyp(a, b, [h for h, _x in lines])
    if source != r.source:
        r.source = source
    segs = sp.index.unshifted()
    if r.names.get("line_languages") is not None or (rows and segs[rows[0]].extra.get("lang")):
        r.names["line_languages"] = segment_languages([segs[i] for i in rows])


def _splice_touched(sp: SegmentPair, r: SegRules, model: PairModel) -> bool:
    """The lines of the segments a text edit touched spliced; False when a line would come or
    go (a target emptied or filled: every line is compared then)."""
    segs = sp.index.unshifted()
    for i in sorted(r.touched):
        if i >= len(sp.row_of):
            return False
        row = int(sp.row_of[i])
        if row < 0:
            continue  # no partner: no line
        k = bisect_left(r.paired, row)
        present = k < len(r.paired) and r.paired[k] == row
        own, other = _row_texts(sp, segs, row)
        if bool(own and other) != present:
            return False
        if not present:
            continue
        if model.hyp[k] != own.rstrip():
            model.splice_hyp(k, k + 1, [own])
        if int(sp.row_hs[row]) == i:  # its first segment: the line's source
            src = segs[i].source
            if (src is None) != (r.source is None):
                return False
            if r.source is not None and r.source[k] != src:
                r.source = r.source[:k] + [src or ""] + r.source[k + 1 :]  # (a new list: compared by identity)
    return True


def declared(sp: SegmentPair) -> tuple[Optional[str], Optional[str]]:
    """The languages the file declares for its sources and targets (PO ``Language`` (the
    target's only), XLIFF source-language / srcLang and target-language / trgLang, TMX)."""
    index = sp.index
    field = row(index.format).header_language
    if field is not None:
        return None, getattr(index, "header", {}).get(field) or None
    try:
        head = read_prefix(index.format, index.text, 1)
    except Exception:
        return None, None
    return (head.source_lang, head.target_lang) if head is not None else (None, None)


# -- edits ---------------------------------------------------------------------------------------
def after_edit(sp: SegmentPair, change: Any, now: float) -> None:
    """Splice what ``change`` (the index's Change) touched into the lines."""
    r = sp.rules
    if r is None:
        return
    index = sp.index
    if change.kind == "none":
        if row(index.format).header_language is not None:  # a header edit may change it
            r.names["source_language"], r.names["target_language"] = declared(sp)
        return
    if r.rows is not None:  # with a reference: the lines follow the rows once paired again (_sync)
        if change.kind == "text":
            r.touched.add(change.start)
        else:
            r.moved = True
        r.stale = True
        r.typed_at = now
        return
    a = change.start
    b, count = (a + 1, 1) if change.kind == "text" else (change.end, change.count)
    segs = [index.segment(i) for i in range(a, a + count)]
    hyp, source = segment_lines(segs)
    if change.kind != "text" or r.model.hyp[a] != hyp[0]:
        r.model.splice_hyp(a, b, hyp)
    if r.source is not None and source is not None:
        if r.source[a:b] != source:  # a new list: the analyser compares the source by identity first
            r.source = r.source[:a] + source + r.source[b:]
    elif r.source is not None or source is not None:  # a segment gained or lost its source
        r.source = segment_lines(index.unshifted())[1]
    if change.kind != "text":
        r.rebuild = True
        if r.names.get("line_languages") is not None or (len(index) and index.segment(0).extra.get("lang")):
            r.names["line_languages"] = segment_languages(index.unshifted())  # (a multilingual TMX)
    r.stale = True
    r.typed_at = now


def typing(r: SegRules, now: float) -> bool:
    return now - r.typed_at < RERANK_IDLE


# -- the pass ------------------------------------------------------------------------------------
def findings(sp: SegmentPair, now: float, changed: Callable[[], None]) -> dict[int, list[Finding]]:
    """The rule findings per segment, brought up to date (a large first pass
    starts in a worker thread and ``changed`` is called when it is done: until
    then the last findings are answered)."""
    r = sp.rules
    if r is None:
        return {}
    if not r.stale:
        return r.found
    if r.task is not None and not r.task.done():
        return r.found
    _sync(sp)
    if r.analyzer.unanalysed(r.model) > THREAD_LINES and loop_running():
        model = r.model
        copy: Any = model.copy(follow=True) if isinstance(model, PairModel) else model.copy()
        source, names, analyzer = r.source, dict(r.names), r.analyzer

        def run() -> None:
            with analyzer.lock:
                analyzer.analyse_lines(copy, source, names)

        async def first_pass() -> None:
            try:
                await pools.run(run)
                if isinstance(copy, PairModel) and isinstance(model, PairModel):
                    # the copy's scores (counted in the thread) kept where its lines are still the model's
                    model.install({k: (copy.stats_array(k), copy.values(k)) for k in copy.metrics}, copy.snapshot())
            except Exception:  # the pass on the loop says what went wrong
                log.exception("analysis of %s in a worker thread failed", sp.uri)
            r.rebuild = True
            changed()

        r.task = asyncio.ensure_future(first_pass())
        return r.found
    analyse(sp, now)
    return r.found


def analyse(sp: SegmentPair, now: float) -> bool:
    """A pass on the current lines; True when some segment's findings changed."""
    r = sp.rules
    assert r is not None
    _sync(sp)
    analyzer = r.analyzer
    analyzer.hold_ranks = typing(r, now)
    with analyzer.lock:
        try:
            ok = analyzer.analyse_lines(r.model, r.source, r.names)
        except Exception:  # never let a rule take the server down
            log.exception("analysis of %s failed", sp.uri)
            ok = False
    r.stale = bool(analyzer.held)  # held ranks: a pass is due once typing pauses
    final = analyzer.store.final if ok else {}
    whole = r.rebuild or analyzer.changed is None or analyzer.passes != r.passes_seen + 1
    r.passes_seen, r.rebuild = analyzer.passes, False
    changed = analyzer.changed or ()
    rows = r.rows
    if rows is not None:  # with a reference: a line's findings go to its row's first segment (as check places them)
        if whole:
            final = _by_segment(final, rows)
        else:
            ks = [k for k in changed if 0 <= k < len(rows)]
            final, changed = {rows[k]: final[k] for k in ks if k in final}, {rows[k] for k in ks}
    lines = set(r.found) | set(final) if whole else set(changed)
    moved = False
    for i in lines:
        made = _segment_findings(sp, i, final.get(i) or ())
        if made:
            moved = moved or r.found.get(i) != made
            r.found[i] = made
        elif r.found.pop(i, None) is not None:
            moved = True
        if any(f.code == "untranslated" for f in made):
            r.untranslated.add(i)
        else:
            r.untranslated.discard(i)
    return moved or whole


def _by_segment(final: dict, rows: list[int]) -> dict:
    """The analyser's findings by line as findings by segment (a finding past the last line: the last's)."""
    out: dict[int, list] = {}
    if not rows:
        return out
    last = len(rows) - 1
    for k, found in final.items():
        out.setdefault(rows[min(max(k, 0), last)], []).extend(found)
    return out


def _segment_findings(sp: SegmentPair, i: int, found) -> list[Finding]:
    """The analyser's findings of line ``i`` as findings of segment ``i`` (spans in the file)."""
    if not found or i >= len(sp.index):
        return []
    seg = sp.index.segment(i)
    out = []
    for f in found:
        if f.code == "markup-mismatch" and _placeholders_own(sp.index.format, seg, f):
            continue  # placeholders-missing / -extra say it by the format's own syntax
        base = seg.target_span[0]
        n = len(seg.target)
        a = seg.file_offset(min(f.start_col, n)) - base
        b = seg.file_offset(min(f.end_col, n)) - base if f.end_col is not None else seg.target_span[1] - base
        # the columns in the target kept beside the span (what a quick fix of a glossary term reads)
        c0 = min(f.start_col, n)
        c1 = max(c0, min(f.end_col, n) if f.end_col is not None else n)
        out.append(Finding(f.code, f.severity, f.message, (a, max(a, b)), start_col=c0, end_col=c1, data=f.data))
    return out


def _placeholders_own(fmt: str, seg, f) -> bool:
    """The items a finding names are all placeholders of the format's own syntax (its check row says how)."""
    checks = checks_of(fmt)
    placeholders_own = checks.placeholders_own if checks is not None else None
    if placeholders_own is None:
        return False
    items = [*f.data.get("lost", ()), *f.data.get("added", ())]
    return bool(items) and placeholders_own(seg, items)

