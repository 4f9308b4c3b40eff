"""The rule table's checks on a segment document with no reference: the same
findings as ``bleu-ls check FILE`` (numbers, markup, brackets and quotes, end
punctuation, wrong language, untranslated targets, ``adequacy`` against the
file's own sources), beside the format checks of :mod:`.checks`.

Kept per document (:class:`SegRules`, ``sp.rules``): the file's lines as
``check`` reads a file alone (:func:`~bleu_ls.qa.analysis.unreferenced.segment_lines`:
one line per segment), an :class:`~bleu_ls.qa.analysis.Analyzer` over them and
the findings per segment.  An edit splices the segments it touched into the
lines (their edit log tells the analyser which lines to work out again); the
rules that rank a line against the document (``adequacy``) hold their findings
while the user types and catch up :data:`RERANK_IDLE` seconds after the last
edit.  The first pass over a large file runs in a worker thread on a copy of
the lines (requests are answered meanwhile), and the pass on the loop then
finds the per-line work memoised."""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ...qa.analysis import Analyzer
from ...qa.analysis.unreferenced import Unreferenced, segment_languages, segment_lines
from ...engine import build_metrics
from ...formats.table import row
from ...formats.read import read_prefix
from ..background import pools
from ...qa.findings import Finding
from .state import SegmentPair, loop_running

log = logging.getLogger(__name__)

#: a pass with more lines than this to work out afresh runs in a worker thread first
THREAD_LINES = 2000
#: the ranked rules wait this long after the last edit (as in line files)
RERANK_IDLE = 1.0


@dataclass
class SegRules:
    model: Unreferenced
    source: Optional[list[str]]
    analyzer: Analyzer
    names: dict
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
    """Give ``sp`` its rules when it has no reference (None when it has one: a
    pair's rows are scored, and their rule-table checks are not run here yet)."""
    if sp.ref is not None or not settings.diagnostics.enabled:
        sp.rules = None
        return
    segs = sp.index.unshifted()
    hyp, source = segment_lines(segs)
    source_language, target_language = declared(sp)
    names: dict[str, Any] = {"hypothesis": sp.path.name, "path": str(sp.path), "references": [], "source": None,
                             "target_language": target_language, "source_language": source_language,
                             "line_languages": segment_languages(segs)}
    try:
        metrics = build_metrics(settings)  # (their tokenizer only)
    except Exception:  # a tokenizer whose extra is missing: the settings' message says it
        metrics = {}
    sp.rules = SegRules(Unreferenced(metrics, hyp), source, Analyzer(settings, adequacy=adequacy), names)


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
    if r.analyzer.unanalysed(r.model) > THREAD_LINES and loop_running():
        copy, source, names, analyzer = r.model.copy(), r.source, dict(r.names), r.analyzer

        def run() -> None:
            with analyzer.lock:
                analyzer.analyse_lines(copy, source, names)

        async def first_pass() -> None:
            try:
                await pools.run(run)
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
    lines = set(r.found) | set(final) if whole else set(analyzer.changed or ())
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


def _segment_findings(sp: SegmentPair, i: int, found) -> list[Finding]:
    """The analyser's findings of line ``i`` as findings of segment ``i`` (spans in the file)."""
    if not found or i >= len(sp.index):
        return []
    seg = sp.index.segment(i)
    out = []
    for f in found:
        if f.code == "markup-mismatch" and _placeholders_own(sp.index.format, seg, f):
            continue  # PO: placeholders-missing / -extra say it by the entry's format
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
    """The items a finding names are all placeholders of the entry's own format flag (the format's row says how; PO)."""
    placeholders_own = row(fmt).placeholders_own
    if placeholders_own is None:
        return False
    items = [*f.data.get("lost", ()), *f.data.get("added", ())]
    return bool(items) and placeholders_own(seg, items)

