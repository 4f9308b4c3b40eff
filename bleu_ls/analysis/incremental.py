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

A pass whose inputs changed in many places (settings, metrics, another
model, a reference reloaded, a line inserted near the top: the pairing of
every later line changes) is a full pass, as before: every rule on every
line, then drop-shifted and the sort, so a full pass is the plain
definition the incremental one is checked against (tests/test_analysis.py).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from itertools import chain
from operator import is_
from typing import Iterable, NamedTuple, Optional

from ..engine import common_splice
from .findings import CODES, ORDER, Finding
from .source_rules import LINE_PAIR_CODES, drop_shifted

LINE, DOC, DELTA = "line", "doc", "delta"

#: A pass whose changed lines are more than this share of the document is a full pass.
FULL_SHARE = 0.5


class Inputs(NamedTuple):
    """The text a pass read, line by line (copies: the model edits its lists in place)."""

    n: int
    hyp: list
    refs: list
    source: Optional[list]
    #: what every line depends on besides its text (model, metrics, settings)
    key: tuple


def dirty_lines(old: Optional[Inputs], new: Inputs) -> tuple[Optional[tuple[int, int]], Optional[tuple]]:
    """The lines [lo, hi) whose text (or pairing) differs between two passes
    ((0, 0) when none; None when every line must be looked at again), and
    how the hypothesis lines differ (``common_splice``), when known."""
    if old is None or old.key != new.key or len(old.refs) != len(new.refs) or (old.source is None) != (new.source is None):
        return None, None
    lo, hi = new.n, 0
    if old.n != new.n:
        lo, hi = min(old.n, new.n), max(old.n, new.n)
    far = max(old.n, new.n)
    pairs = [(old.hyp, new.hyp), *zip(old.refs, new.refs)]
    if new.source is not None:
        pairs.append((old.source, new.source))
    hyp_splice = None
    for a, b in pairs:
        if a is b or a == b:  # C speed: the lines are mostly the very same objects
            splice = (len(a), len(a), [])
        else:
            splice = common_splice(a, b)
        if hyp_splice is None:
            hyp_splice = splice
        start, end_old, lines = splice
        if start == end_old and not lines:
            continue
        lo = min(lo, start)
        # a line count that changes re-pairs every later line
        hi = max(hi, end_old if len(a) == len(b) else far)
    if lo >= hi:
        return (0, 0), hyp_splice
    return (lo, hi), hyp_splice


def group(findings: Iterable[Finding]) -> dict:
    """Findings by line, each line's in the order given."""
    out: dict = {}
    for f in findings:
        got = out.get(f.line)
        if got is None:
            out[f.line] = [f]
        else:
            got.append(f)
    return out


def drop_range(d: dict, lo: int, hi: int) -> None:
    """Remove the keys in [lo, hi) from ``d``."""
    if hi - lo <= len(d):
        for i in range(lo, hi):
            d.pop(i, None)
    else:
        for i in [k for k in d if lo <= k < hi]:
            del d[i]


def diff_into(old: Optional[dict], new: dict, changed: set) -> None:
    """Add to ``changed`` the lines whose findings differ between two groupings."""
    old = old or {}
    for i, fs in new.items():
        if old.get(i) != fs:
            changed.add(i)
    changed.update(i for i in old if i not in new)


def spans_of(by_line: Optional[dict]) -> list:
    """The (start, end) of every misaligned stretch."""
    if not by_line:
        return []
    return [(f.data["start"], f.data["end"]) for fs in by_line.values() for f in fs]


class FindingStore:
    """Every rule's findings by line, and the pass's findings by line (sorted
    lines, drop-shifted applied), kept between passes."""

    def __init__(self) -> None:
        #: code -> {line: [Finding, ...]}
        self.by_code: dict[str, dict] = {}
        #: line -> the line's findings in the order they are listed
        self.final: dict[int, list] = {}
        #: the lines of ``final``, sorted
        self.lines: list[int] = []
        self.spans: list = []

    def findings(self) -> list[Finding]:
        final = self.final
        return list(chain.from_iterable(map(final.__getitem__, self.lines)))

    def full(self, results: list[tuple[str, list]]) -> list[Finding]:
        """A full pass: ``results`` is (code, findings) in rule order."""
        findings = [f for _code, fs in results for f in fs]
        findings = drop_shifted(findings)
        findings.sort(key=lambda f: (f.line, ORDER[f.code]))
        self.by_code = {code: group(fs) for code, fs in results}
        self.final = group(findings)
        self.lines = list(self.final)
        self.spans = spans_of(self.by_code.get("misaligned"))
        return findings

    def settle(self, changed: set, scope: tuple[int, int]) -> set:
        """After an incremental pass: rebuild the lines in ``changed`` and in
        ``scope``; returns the lines whose findings may differ."""
        spans = spans_of(self.by_code.get("misaligned"))
        if spans != self.spans:
            for a, b in chain(self.spans, spans):
                changed.update(range(a, b + 1))
            self.spans = spans
        changed.update(range(*scope))
        dicts = [self.by_code[c] for c in CODES if c in self.by_code]
        final, lines = self.final, self.lines
        out = set()
        for i in changed:
            lst: list = []
            for d in dicts:
                fs = d.get(i)
                if fs:
                    lst.extend(fs)
            if lst and spans and any(a <= i <= b for a, b in spans):
                lst = [f for f in lst if f.code not in LINE_PAIR_CODES]
            old = final.get(i)
            if lst:
                if old is None:
                    insort(lines, i)
                elif len(old) == len(lst) and all(map(is_, old, lst)):
                    continue
                final[i] = lst
                out.add(i)
            elif old is not None:
                del final[i]
                del lines[bisect_left(lines, i)]
                out.add(i)
        return out
