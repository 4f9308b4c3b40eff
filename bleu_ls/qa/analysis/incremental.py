"""What makes a pass after an edit cost the edit: which lines changed since
the previous pass, and the findings kept per line between passes.

Rules come in three kinds (``Rule.kind`` in :mod:`.analyzer`):

``line``   a line's findings depend on that line's text (hypothesis,
           references, source) and score only, plus document-wide
           ``params`` when the rule has them: after an edit the rule reports
           on the changed lines only (``LineContext.scope``), every other
           line keeps its Finding objects; when its params change it reports
           on every line again.
``doc``    recomputed on every pass (cheap: vectorised, or few findings);
           compared with the previous pass's to find what moved.
``delta``  keeps its own state and says which lines it changed (``outlier``).

What changed since the previous pass is read from the model's edit log
(``PairModel.edits``: no copy of the lines is kept, nothing is diffed but
a source list that was replaced).  A pass whose inputs changed in many places (settings, metrics, another
model, a reference reloaded, a line inserted near the top: the pairing of
every later line changes) is a full pass, as before: every rule on every
line, then drop-shifted and the sort, so a full pass is the plain
definition the incremental one is checked against (tests/qa/analysis/test_analysis.py).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, insort
from itertools import chain
from operator import is_
from typing import Iterable, NamedTuple, Optional, Union

import numpy as np

from ...engine import common_splice
from ..findings import ByLine, DenseLines, Finding, Lines, dense_if_most, placed
from ..rules import CODES, LINE_PAIR_CODES, ORDER

#: A pass whose changed lines are more than this share of the document is a full pass.
FULL_SHARE = 0.5


class Seen(NamedTuple):
    """What a pass read, enough to learn from the model's edit log what
    changed before the next one (no copy of the lines is kept)."""

    #: what every line depends on besides its text (model, metrics, settings)
    key: tuple
    #: the model's version
    version: int
    #: paired lines, hypothesis lines, each reference's lines
    n: int
    n_hyp: int
    n_refs: tuple
    #: the source lines as given (a new list when they change: the server's
    #: is a new list after every edit of the source or reload) and their number
    source: Optional[list]
    n_source: int
    #: the pass's number
    pass_no: int


def compose(splices: Iterable[tuple[int, int, int]]) -> Optional[tuple[int, int, int]]:
    """Several splices (start, end, lines put in), applied one after the
    other, as one: (start, old end, new end) bounding every changed line."""
    out = None
    for s, e, m in splices:
        d = m - (e - s)
        if out is None:
            out = (s, e, s + m)
            continue
        start, end_old, end_new = out
        out = (min(start, s), end_old + max(0, e - end_new), max(end_new, e) + d)
    return out


def changes(old: Optional[Seen], new: Seen, model, source: Optional[list]) -> tuple[Optional[tuple[int, int]], Optional[tuple]]:
    """The paired lines [lo, hi) whose text (or pairing) may differ since the
    pass ``old`` ((0, 0) when none; None when every line must be looked at
    again), and how the paired hypothesis lines differ (start, old end, new
    lines), from the model's edit log."""
    if old is None or old.key != new.key or len(old.n_refs) != len(new.n_refs) or (old.source is None) != (source is None):
        return None, None
    edits = model.edits.since(old.version)
    if edits is None or model.version < old.version:
        return None, None
    by_target: dict = {}
    for _v, k, s, e, m in edits:
        by_target.setdefault(k, []).append((s, e, m))
    spans = {k: compose(v) for k, v in by_target.items()}
    lengths: list[tuple[Union[int, str, None], int, int]] = [(None, old.n_hyp, new.n_hyp), *((k, a, b) for k, (a, b) in enumerate(zip(old.n_refs, new.n_refs)))]
    for k, a, b in lengths:  # the log accounts for every line count (else the lists were changed behind it)
        span = spans.get(k)
        if a + (0 if span is None else span[2] - span[1]) != b:
            return None, None
    if source is not None and old.source is not None and source is not old.source:
        start, end_old, lines = common_splice(old.source, source)
        if start != end_old or lines:
            spans["source"] = (start, end_old, start + len(lines))
        lengths.append(("source", old.n_source, len(source)))
    elif source is not None and len(source) != old.n_source:
        return None, None  # the same list, changed in place
    n_old, n_new = old.n, new.n
    far = max(n_old, n_new)
    lo, hi = (min(n_old, n_new), far) if n_old != n_new else (n_new, 0)
    for k, a, b in lengths:
        span = spans.get(k)
        if span is None or span[0] >= far:
            continue
        lo = min(lo, span[0])
        # a line count that changes re-pairs every later line
        hi = max(hi, min(span[1], far) if a == b else far)
    hyp = spans.get(None)
    start = min(n_old, n_new, hyp[0] if hyp is not None else far)
    if hyp is not None and old.n_hyp == new.n_hyp and n_old == n_new:
        end_old = max(start, min(hyp[1], n_old))
        hyp_splice = (start, end_old, model.hyp[start:end_old])
    else:
        hyp_splice = (start, n_old, model.hyp[start:n_new])
    if lo >= hi:
        return (0, 0), hyp_splice
    return (lo, hi), hyp_splice


def kept(store: dict, name: str, n: int, passes: int, scope: Optional[tuple[int, int]], compute) -> np.ndarray:
    """A per-line array (lines on the last axis) kept in ``store`` from pass
    to pass: ``compute(lo, hi)`` gives the values of lines [lo, hi); after an
    edit (``scope``: the lines changed since pass ``passes - 1``) only those
    are computed again."""
    got = store.get(name)
    if got is not None and got[0] == passes - 1 and scope is not None and got[1].shape[-1] == n:
        arr = got[1]
        lo, hi = max(0, scope[0]), min(n, scope[1])
        if lo < hi:
            arr[..., lo:hi] = compute(lo, hi)
    elif got is not None and got[0] == passes and got[1].shape[-1] == n:
        arr = got[1]
    else:
        arr = compute(0, n)
    store[name] = (passes, arr)
    return arr


def group(findings: Iterable[Finding]) -> dict:
    """Findings by line, each line's a tuple in the order given (a tuple: a list costs
    twice the memory, and a large file keeps one per flagged line and rule)."""
    out: dict = {}
    many = False
    for f in findings:
        got = out.get(f.line)
        if got is None:
            out[f.line] = (f,)
        elif type(got) is tuple:
            out[f.line], many = [*got, f], True
        else:
            got.append(f)
    if many:  # (a line of many findings grows as a list, then is kept as a tuple)
        for i, got in out.items():
            if type(got) is list:
                out[i] = tuple(got)
    return out


def drop_range(d: Lines, lo: int, hi: int) -> None:
    """Remove the keys in [lo, hi) from ``d``."""
    if hi - lo <= len(d):
        for i in range(lo, hi):
            d.pop(i, None)
    else:
        for i in [k for k in d if lo <= k < hi]:
            del d[i]


def diff_into(old: Optional[Lines], new: Lines, changed: set) -> None:
    """Add to ``changed`` the lines whose findings differ between two groupings."""
    old = old or {}
    for i, fs in new.items():
        if old.get(i) != fs:
            changed.add(i)
    changed.update(i for i in old if i not in new)


def spans_of(by_line: Optional[Lines]) -> list:
    """The (start, end) of every misaligned stretch."""
    if not by_line:
        return []
    return [(f.data["start"], f.data["end"]) for fs in by_line.values() for f in fs]


class FindingStore:
    """Every rule's findings by line, and the pass's findings by line (sorted
    lines, drop-shifted applied), kept between passes."""

    def __init__(self) -> None:
        #: code -> {line: (Finding, ...)} (a dict, or a list by line where most lines have some)
        self.by_code: dict[str, Lines] = {}
        #: line -> the line's findings in the order they are listed (idem)
        self.final: Lines = {}
        #: the lines of ``final``, sorted (an array: a list held an int object per flagged
        #: line besides its pointer, 3.6 MB at 100k lines)
        self.lines: array = array("i")
        self.spans: list = []

    def findings(self) -> list[Finding]:
        """Every finding, by line, each placed on its line (:func:`placed`)."""
        final = self.final
        return list(chain.from_iterable(placed(i, final[i]) for i in self.lines))

    def full(self, results: list[tuple[str, Union[list, ByLine, DenseLines]]], n: int = 0) -> None:
        """A full pass: ``results`` is (code, findings) in rule order, each rule's findings a
        list or already by line (:class:`ByLine`), each of the rule's own code.  A line's
        findings are listed in the order of the codes (:data:`~bleu_ls.qa.rules.ORDER`, as
        :meth:`settle` lists them), each rule's in the order it gave them;
        the line-pair ones inside misaligned stretches are left out (the stretch says it once).
        ``n``: the document's lines (a holder of most of them is kept as a list by line,
        :func:`~bleu_ls.qa.findings.dense_if_most`)."""
        by_code = self.by_code = {code: dense_if_most(fs if isinstance(fs, (ByLine, DenseLines)) else group(fs), n)
                                  for code, fs in results}
        self.spans = spans = spans_of(by_code.get("misaligned"))
        final: Lines = {}
        for code in sorted(by_code, key=ORDER.__getitem__):  # (a rule's findings are of its code)
            for i, fs in by_code[code].items():
                got = final.get(i)
                final[i] = fs if got is None else got + fs  # (a line one rule alone flags: that rule's tuple)
        if spans:
            for a, b in spans:
                for i in range(a, b + 1):
                    fs = final.get(i)
                    if fs is not None and any(f.code in LINE_PAIR_CODES for f in fs):
                        kept = tuple(f for f in fs if f.code not in LINE_PAIR_CODES)
                        owners = [d[i] for code, d in by_code.items() if code not in LINE_PAIR_CODES and i in d]
                        if kept:
                            final[i] = owners[0] if len(owners) == 1 else kept
                        else:
                            del final[i]
        self.final = final = dense_if_most(final, n)
        self.lines = array("i", final if isinstance(final, DenseLines) else sorted(final))  # (a list by line: in order)

    def settle(self, changed: set, scope: tuple[int, int]) -> set:
        """After an incremental pass: rebuild the lines in ``changed`` and in
        ``scope``; returns the lines whose findings may differ."""
        spans = spans_of(self.by_code.get("misaligned"))
        if spans != self.spans:
            for a, b in chain(self.spans, spans):
                changed.update(range(a, b + 1))
            self.spans = spans
        changed.update(range(*scope))
        lo, hi = scope
        dicts = [self.by_code[c] for c in CODES if c in self.by_code]
        final, lines = self.final, self.lines
        out = set()
        for i in changed:
            lst: list = []
            one = None  # the one rule's tuple, when a single rule flags the line
            for d in dicts:
                fs = d.get(i)
                if fs:
                    one = fs if not lst else None
                    lst.extend(fs)
            if lst and spans and any(a <= i <= b for a, b in spans):
                lst = [f for f in lst if f.code not in LINE_PAIR_CODES]
                one = None
            old = final.get(i)
            if lst:
                if old is None:
                    insort(lines, i)
                elif len(old) == len(lst) and all(map(is_, old, lst)) and not lo <= i < hi:
                    continue  # (an edited line's findings may be the same, their range not: its text changed)
                final[i] = one if one is not None else tuple(lst)
                out.add(i)
            elif old is not None:
                del final[i]
                del lines[bisect_left(lines, i)]
                out.add(i)
        return out
