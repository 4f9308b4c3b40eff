"""A pair's diagnostics kept per line, for replies that cost the edit.

The analyser (:class:`bleu_ls.analysis.Analyzer`) keeps its findings by
line and says which lines a pass changed; here each line's findings are
filtered by the ignore store and encoded as LSP JSON once, and kept until
that line's findings change.  A pull reply joins the kept texts (C speed);
the ``resultId`` changes only when a line's text did, so a pull after an
edit that moved no diagnostic answers *unchanged*.  Diagnostic objects (for
code lenses, code actions, pushed diagnostics) are made per line on demand.

The reply's body is joined from blocks of ``BLOCK`` document lines, each
block's items joined once and kept until one of its lines changes: a full
reply after a one-line edit re-joins one block and concatenates the others
(a few hundred strings), not every item of the document.

Order of the items: the problems said on line 1 (reference, settings,
unpaired), then the analysis by line, then the comparison with another
system — as the findings were always listed.
"""

from __future__ import annotations

import itertools
import json
import uuid
from bisect import bisect_left
from itertools import chain, compress
from typing import TYPE_CHECKING, Any, Callable, Optional

from lsprotocol import types

from ..analysis import Finding
from .render import SEVERITY, SOURCE, to_diagnostic

if TYPE_CHECKING:
    from ..ignore import IgnoreStore
    from .document import LineDocument
    from .state import Pair

#: This server process's token in every diagnostics resultId.
_RUN = uuid.uuid4().hex[:8]
_IDS = itertools.count(1)
_dumps = json.JSONEncoder(separators=(",", ":")).encode
#: Body lines per pre-joined block of the reply.
BLOCK = 256


def encode_diagnostic(doc: Optional["LineDocument"], f: Finding) -> str:
    """The JSON text of ``to_diagnostic(doc, f)`` as the protocol encodes it
    (same keys in the same order), without building lsprotocol objects."""
    n = doc.line_count if doc is not None else 1
    line = max(0, min(f.line, n - 1))
    if doc is not None:
        text = doc.line(line)
        start = doc.column(line, f.start_col or 0)
        end = doc.column(line, len(text) if f.end_col is None else f.end_col)
    else:
        start = end = 0
    out: dict[str, Any] = {
        "range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": max(start, end)}},
        "message": f.message,
        "severity": int(SEVERITY.get(str(f.severity).lower(), types.DiagnosticSeverity.Warning)),
        "code": f.code,
        "source": SOURCE,
    }
    if f.data:
        out["data"] = f.data
    return _dumps(out)


class DiagnosticLines:
    """The encoded diagnostics of one pair by line (see the module doc)."""

    def __init__(self, base: tuple) -> None:
        #: what a rebuild from scratch follows (model, settings, problems, store)
        self.base = base
        #: the full cache key of the last refresh
        self.key: Any = None
        self.rid: Optional[str] = None
        #: body line -> JSON of its kept diagnostics / its kept findings
        self.enc: dict[int, list[str]] = {}
        self.kept: dict[int, list[Finding]] = {}
        self.objs: dict[int, list[types.Diagnostic]] = {}
        #: body line -> findings hidden by the ignore store, line hidden as reviewed
        self.hidden: dict[int, tuple[int, bool]] = {}
        self.ignored = 0
        self.reviewed: set[int] = set()
        self.lines: list[int] = []
        self.head_kept: list[Finding] = []
        self.tail_kept: list[Finding] = []
        self.extra_ignored = 0
        self.extra_reviewed: set[int] = set()
        self.head_enc: list[str] = []
        self.tail_enc: list[str] = []
        self.line_count = -1
        self.analyzer: Any = None
        self.passes = -1
        self.filter_key: Any = None
        self._items: Optional[list[str]] = None
        #: block number -> the joined JSON of its lines' items ("" when none)
        self._blocks: dict[int, str] = {}
        self._body: Optional[str] = None

    # -- bringing it up to date ------------------------------------------------------
    def refresh(self, pair: "Pair", store: "IgnoreStore", doc, analyzer, head: list, tail: list) -> None:
        """Follow the analyser's last pass (``analyzer``: None when there is
        no analysis) and the problems (``head``) / comparison (``tail``) findings."""
        hide, filter_key = _filter_of(pair, store, doc)
        lc = doc.line_count if doc is not None else 0
        final = analyzer.store.final if analyzer is not None else {}
        lines = analyzer.store.lines if analyzer is not None else []
        full = (
            self.rid is None
            or analyzer is None
            or analyzer is not self.analyzer
            or analyzer.changed is None
            or analyzer.passes != self.passes + 1
            or filter_key != self.filter_key
        )
        old_enc = None
        if full:
            old_enc = self.enc
            self.enc, self.kept, self.objs, self.hidden = {}, {}, {}, {}
            self._blocks = {}
            self.ignored, self.reviewed = 0, set()
            todo: Any = final
        else:
            todo = set(analyzer.changed)
            # the last line's diagnostics are clamped to it; past the paired
            # lines the analysis does not follow the text: look again
            first = max(0, pair.model.n_paired - 1) if pair.model is not None else 0
            if lc != self.line_count:
                first = min(first, max(0, min(lc, self.line_count) - 1))
            todo.update(lines[bisect_left(lines, first):])
            todo.update(self.lines[bisect_left(self.lines, first):])  # the keys of self.enc
        self.analyzer = analyzer
        self.passes = analyzer.passes if analyzer is not None else -1
        self.filter_key, self.line_count = filter_key, lc
        moved = False
        for i in todo:
            if self._line(doc, i, final.get(i), hide):
                moved = True
        if full:
            moved = self.rid is None or old_enc != self.enc
        self.extra_ignored, self.extra_reviewed = 0, set()
        head_kept, head_enc = self._extra(doc, head, hide)
        tail_kept, tail_enc = self._extra(doc, tail, hide)
        if head_enc != self.head_enc or tail_enc != self.tail_enc:
            moved = True
        self.head_kept, self.tail_kept, self.head_enc, self.tail_enc = head_kept, tail_kept, head_enc, tail_enc
        self.lines = list(lines)
        if moved:
            self.rid = f"{_RUN}-{next(_IDS)}"
            self._items = self._body = None
            clamp = (lambda i: max(0, min(i, lc - 1))) if doc is not None else (lambda i: 0)
            flagged = {clamp(f.line) for f in chain(head_kept, tail_kept)}
            enc = self.enc
            shown = list(compress(self.lines, map(enc.__getitem__, self.lines)))
            last = bisect_left(shown, lc - 1)
            flagged.update(shown[:last])
            flagged.update(map(clamp, shown[last:]))
            pair.flagged = sorted(flagged)
        pair.ignored = self.ignored + self.extra_ignored
        pair.reviewed = len(self.reviewed | self.extra_reviewed)

    def _line(self, doc, i: int, fs: Optional[list], hide) -> bool:
        """Bring body line ``i`` up to date; True when its diagnostics changed."""
        old = self.enc.get(i)
        ign, rev = self.hidden.pop(i, (0, False))
        self.ignored -= ign
        self.reviewed.discard(i)
        self.objs.pop(i, None)
        if not fs:
            if old is not None:
                del self.enc[i], self.kept[i]
                self._blocks.pop(i // BLOCK, None)
            return bool(old)
        if hide is not None:
            kept, ign, rev = hide(fs)
            if ign or rev:
                self.hidden[i] = (ign, rev)
                self.ignored += ign
                if rev:
                    self.reviewed.add(i)
        else:
            kept = fs
        new = [encode_diagnostic(doc, f) for f in kept]
        self.enc[i], self.kept[i] = new, kept
        if new != (old or []):
            self._blocks.pop(i // BLOCK, None)
            return True
        return False

    def _extra(self, doc, findings: list, hide) -> tuple[list, list]:
        """The problems / comparison findings: filtered and encoded every time (few)."""
        if hide is None or not findings:
            return findings, [encode_diagnostic(doc, f) for f in findings]
        by_line: dict[int, list] = {}
        for f in findings:
            by_line.setdefault(f.line, []).append(f)
        keep = set()
        for line, fs in by_line.items():
            kept, ign, rev = hide(fs)
            self.extra_ignored += ign
            if rev:
                self.extra_reviewed.add(line)
            keep.update(map(id, kept))
        kept_all = [f for f in findings if id(f) in keep]
        return kept_all, [encode_diagnostic(doc, f) for f in kept_all]

    # -- reading -----------------------------------------------------------------------
    def items(self) -> list[str]:
        """The JSON text of every diagnostic, in order."""
        if self._items is None:
            enc = self.enc
            self._items = [*self.head_enc, *chain.from_iterable(map(enc.__getitem__, self.lines)), *self.tail_enc]
        return self._items

    def body(self) -> str:
        """``",".join(self.items())``, joined from the kept blocks (only the
        blocks whose lines changed are joined again)."""
        if self._body is None:
            lines, enc, blocks = self.lines, self.enc, self._blocks
            parts = [",".join(self.head_enc)] if self.head_enc else []
            k, n = 0, len(lines)
            while k < n:
                b = lines[k] // BLOCK
                end = bisect_left(lines, (b + 1) * BLOCK, k)
                got = blocks.get(b)
                if got is None:
                    got = blocks[b] = ",".join(chain.from_iterable(map(enc.__getitem__, lines[k:end])))
                if got:
                    parts.append(got)
                k = end
            if self.tail_enc:
                parts.append(",".join(self.tail_enc))
            self._body = ",".join(parts)
        return self._body

    def diagnostics(self, doc) -> list[types.Diagnostic]:
        """The diagnostics as lsprotocol objects (made per line when first asked for)."""
        objs, kept = self.objs, self.kept
        body = []
        for i in self.lines:
            got = objs.get(i)
            if got is None:
                got = objs[i] = [to_diagnostic(doc, f) for f in kept[i]]
            body.append(got)
        head = [to_diagnostic(doc, f) for f in self.head_kept]
        tail = [to_diagnostic(doc, f) for f in self.tail_kept]
        return [*head, *chain.from_iterable(body), *tail]


def _filter_of(pair: "Pair", store: "IgnoreStore", doc) -> tuple[Optional[Callable], Any]:
    """The ignore store as a function of one line's findings -> (kept, ignored,
    reviewed), or None when it hides nothing of this file; and a key that
    changes with it."""
    if store.problem is not None:
        return None, ("problem", store.revision)
    entries = store.files.get(store.key_of(pair.path))
    if entries is None and not store.off:
        return None, ("none", store.revision)
    text = doc.line if doc is not None else (lambda i: "")

    def hide(findings: list) -> tuple[list, int, bool]:
        got = store.filter(pair.path, findings, text)
        return got.findings, got.ignored, bool(got.reviewed)

    return hide, ("store", store.revision)
