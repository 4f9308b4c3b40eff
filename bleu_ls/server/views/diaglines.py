"""A pair's diagnostics kept per line, for replies that cost the edit.

The analyser (:class:`bleu_ls.qa.analysis.Analyzer`) keeps its findings by
line and says which lines a pass changed; here each line's findings are
filtered by the ignore store and kept with a fingerprint of their LSP JSON
(the hash of the encoded texts) until that line's findings change.  The JSON
texts themselves are kept only for the lines whose items a reply carried
(with a cap, a few thousand of a file's hundreds of thousands; encoded again
on demand otherwise).  A pull reply joins the kept texts (C speed); the
``resultId`` changes only when a line's fingerprint did, so a pull after an
edit that moved no diagnostic answers *unchanged*.  Diagnostic objects (for
code lenses, code actions, pushed diagnostics) are made per line on demand.

The reply's body is joined from blocks of ``BLOCK`` document lines, each
block's items joined once and kept until one of its lines changes: a full
reply after a one-line edit re-joins one block and concatenates the others
(a few hundred strings), not every item of the document.

Order of the items: the problems said on line 1 (reference, settings,
unpaired), then the analysis by line, then the comparison with another
system — as the findings were always listed.

With a cap (setting ``maxProblems``, N > 0) and more than N items, the reply
carries what an editor showing at most N per file keeps — VS Code's rule
(extHostDiagnostics.ts): the errors in the order received, then the
warnings, then information, then hints, up to N — less one, plus our note at
line 1 saying how many were not sent (VS Code then never adds its own
marker).  Each block keeps, per severity, its count (from the findings: no
encoding) and, once a reply reached it, its joined text, so a capped reply
after a one-line edit joins a few hundred strings and encodes only what it
sends.  The ``resultId`` follows the items sent: an edit changing only a
finding that is not sent answers *unchanged*.  The note gives the count of
all problems to three significant digits ("at least 23,400"), so a finding
appearing or going among those not sent changes the reply only when the
count crosses such a step: a typed word in a file of 100,000 flagged lines
answers *unchanged*, not 1,000 items again.  `bleu-ls check`, Show Report
and the status bar count exactly.
"""

from __future__ import annotations

import itertools
import json
from array import array
import uuid
from bisect import bisect_left
from itertools import chain, compress
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional

import numpy as np
from lsprotocol import types

from ...qa.analysis import Finding, placed
from ...qa.findings import DenseLines, Lines
from .render import SEVERITY, SOURCE, to_diagnostic

if TYPE_CHECKING:
    from ...qa.ignore import IgnoreStore
    from ..documents.document import LineDocument
    from ..roles import PairRole as Pair  # what it uses of a pair

#: This server process's token in every diagnostics resultId.
_RUN = uuid.uuid4().hex[:8]
_IDS = itertools.count(1)
_dumps = json.JSONEncoder(separators=(",", ":")).encode
#: Body lines per pre-joined block of the reply.
BLOCK = 256
#: The code of the note sent in place of the findings over the cap.
NOT_SENT = "not-sent"
#: The fingerprint of a line whose findings the ignore store all hides.
_NONE = 0


def severity_of(f: Finding) -> int:
    """The LSP severity (1 error … 4 hint) ``f`` is sent with."""
    return int(SEVERITY.get(str(f.severity).lower(), types.DiagnosticSeverity.Warning))


def encode_diagnostic(doc: Optional["LineDocument"], f: Finding, at: Optional[int] = None) -> str:
    """The JSON text of ``to_diagnostic(doc, f)`` as the protocol encodes it
    (same keys in the same order), without building lsprotocol objects;
    ``at``: the line it is on, where the analysis store keeps ``f`` under a
    line not its own (:func:`~bleu_ls.qa.analysis.incremental.placed`)."""
    n = doc.line_count if doc is not None else 1
    line = max(0, min(f.line if at is None else at, n - 1))
    if doc is not None:
        text = doc.line(line)
        start = doc.column(line, f.start_col or 0)
        end = doc.column(line, len(text) if f.end_col is None else f.end_col)
    else:
        start = end = 0
    out: dict[str, Any] = {
        "range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": max(start, end)}},
        "message": f.message,
        "severity": severity_of(f),
        "code": f.code,
        "source": SOURCE,
    }
    if f.data:
        out["data"] = f.data
    return _dumps(out)


class FlaggedLines(Sequence):
    """The lines that carry a diagnostic, in order (the next / previous
    flagged line, the count in the code lens): listed when first read, not
    on the edit path (at 100k lines, ~2 ms of every edit that moved a
    diagnostic).  Made anew whenever the diagnostics move; until then the
    per-line findings it reads (``kept``) do not change."""

    def __init__(self, lines: Sequence[int], kept: "Lines", extra: list, line_count: Optional[int]) -> None:
        self._from: Optional[tuple] = (lines, kept, extra, line_count)
        self._list: list[int] = []

    def _lines(self) -> list[int]:
        if self._from is not None:
            lines, kept, extra, lc = self._from
            self._from = None
            clamp = (lambda i: max(0, min(i, lc - 1))) if lc is not None else (lambda i: 0)
            flagged = {clamp(f.line) for f in extra}
            held = kept.reader() if isinstance(kept, DenseLines) else kept.__getitem__  # (C-level either way)
            shown = list(compress(lines, map(held, lines)))
            last = bisect_left(shown, lc - 1) if lc is not None else 0
            flagged.update(shown[:last])
            flagged.update(map(clamp, shown[last:]))
            self._list = sorted(flagged)
        return self._list

    def __len__(self) -> int:
        return len(self._lines())

    def __getitem__(self, k):
        return self._lines()[k]

    def __iter__(self) -> Iterator[int]:
        return iter(self._lines())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, FlaggedLines)):
            return self._lines() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FlaggedLines({self._lines()!r})"


class LineSigs:
    """Body line -> the fingerprint of its diagnostics' JSON, for the lines a
    :class:`DiagnosticLines` keeps (its ``kept``): in an array, 8 bytes a line
    (a dict of int objects held about 80 bytes a flagged line, 8 MB at 100k)."""

    __slots__ = ("_a",)

    def __init__(self) -> None:
        self._a = np.zeros(0, dtype=np.int64)

    def __getitem__(self, i: int) -> int:
        return int(self._a[i])

    def __setitem__(self, i: int, sig: int) -> None:
        a = self._a
        if i >= len(a):
            grown = np.zeros(max(i + 1, 2 * len(a), 1024), dtype=np.int64)
            grown[: len(a)] = a
            self._a = a = grown
        a[i] = sig

    def same(self, other: "LineSigs", other_lines: "Lines", lines: "Lines") -> bool:
        """Do ``lines`` (the keys of this one's ``kept``) and ``other_lines`` name the same
        lines, with the same fingerprints?"""
        if other_lines.keys() != lines.keys():
            return False
        at = np.fromiter(lines, dtype=np.int64, count=len(lines))
        return bool(np.array_equal(self._a[at], other._a[at]))


class DiagnosticLines:
    """The encoded diagnostics of one pair by line (see the module doc)."""

    def __init__(self, base: tuple) -> None:
        #: what a rebuild from scratch follows (model, settings, problems, store)
        self.base = base
        #: the full cache key of the last refresh
        self.key: Any = None
        self.rid: Optional[str] = None
        #: body line -> its kept findings (as the analysis store keeps them: a finding may
        #: be kept under a line not its own, placed when handed on) / the fingerprint of their JSON
        self.kept: Lines = {}
        self.sig = LineSigs()
        #: body line -> the JSON of its kept diagnostics, for the lines a reply read
        self.enc: dict[int, list[str]] = {}
        self.objs: dict[int, list[types.Diagnostic]] = {}
        #: body line -> findings hidden by the ignore store, line hidden as reviewed
        self.hidden: dict[int, tuple[int, bool]] = {}
        self.ignored = 0
        self.reviewed: set[int] = set()
        #: the body lines with findings, in order (an array, as the store's)
        self.lines: Sequence[int] = array("i")
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
        #: the document the kept findings were encoded against (texts made on demand)
        self._doc: Optional["LineDocument"] = None
        self._items: Optional[list[str]] = None
        #: block number -> the joined JSON of its lines' items ("" when none)
        self._blocks: dict[int, str] = {}
        #: block number -> [its items' count per severity (1..4), per severity
        #: the joined JSON (None until a reply reached it), the texts (idem)]
        self._sev: dict[int, list] = {}
        self._body: Optional[str] = None
        #: the items sent (``_body``, or the capped selection and the note)
        self._sent: Optional[str] = None
        #: the cap (setting maxProblems; 0: none), the file's name (for the note)
        self.cap = 0
        self.name = ""
        #: how many items the body lines hold
        self.n_body = 0

    # -- bringing it up to date ------------------------------------------------------
    def refresh(self, pair: "Pair", store: "IgnoreStore", doc, analyzer, head: list, tail: list) -> None:
        """Follow the analyser's last pass (``analyzer``: None when there is
        no analysis) and the problems (``head``) / comparison (``tail``) findings."""
        hide, filter_key = _filter_of(pair, store, doc)
        self.cap = max(0, getattr(pair.settings, "max_problems", 0) or 0)
        self.name = pair.path.name
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
        self._doc = doc
        old_sig, old_kept = self.sig, self.kept
        if full:
            self.sig, self.enc, self.objs, self.hidden = LineSigs(), {}, {}, {}
            # (as the store holds them: a list by line where most lines have findings)
            self.kept = DenseLines() if isinstance(final, DenseLines) else {}
            self._blocks, self._sev, self.n_body = {}, {}, 0
            self.ignored, self.reviewed = 0, set()
            todo: Any = final
        else:
            todo = set(analyzer.changed)
            # the last line's diagnostics are clamped to it; past the paired
            # lines the analysis does not follow the text: look again
            model = pair.model if pair.model is not None else pair.alone  # (a file alone: its lines)
            first = max(0, model.n_paired - 1) if model is not None else 0
            if lc != self.line_count:
                first = min(first, max(0, min(lc, self.line_count) - 1))
            todo.update(lines[bisect_left(lines, first):])
            todo.update(self.lines[bisect_left(self.lines, first):])  # the keys of self.kept
        self.analyzer = analyzer
        self.passes = analyzer.passes if analyzer is not None else -1
        self.filter_key, self.line_count = filter_key, lc
        moved = False
        for i in todo:
            if self._line(doc, i, final.get(i), hide):
                moved = True
        if full:
            moved = self.rid is None or not self.sig.same(old_sig, old_kept, self.kept)
        self.extra_ignored, self.extra_reviewed = 0, set()
        head_kept, head_enc = self._extra(doc, head, hide)
        tail_kept, tail_enc = self._extra(doc, tail, hide)
        if head_enc != self.head_enc or tail_enc != self.tail_enc:
            moved = True
        self.head_kept, self.tail_kept, self.head_enc, self.tail_enc = head_kept, tail_kept, head_enc, tail_enc
        self.lines = array("i", lines)
        if moved:
            self._items = self._body = None
            before, self._sent = self._sent, None
            # with a cap, a change among the items not sent leaves the reply as it was
            if not (self.cap and self.rid is not None and before is not None and self.body() == before):
                self.rid = f"{_RUN}-{next(_IDS)}"
            pair.flagged = FlaggedLines(self.lines, self.kept, head_kept + tail_kept, lc if doc is not None else None)
        pair.ignored = self.ignored + self.extra_ignored
        pair.reviewed = len(self.reviewed | self.extra_reviewed)

    def _line(self, doc, i: int, fs: Optional[list], hide) -> bool:
        """Bring body line ``i`` up to date; True when its diagnostics changed."""
        old = self.sig[i] if i in self.kept else None
        ign, rev = self.hidden.pop(i, (0, False))
        self.ignored -= ign
        self.reviewed.discard(i)
        self.objs.pop(i, None)
        if not fs:
            if old is not None:
                self.n_body -= len(self.kept[i])
                del self.kept[i]
                self.enc.pop(i, None)
                self._drop(i // BLOCK)
            return old is not None and old != _NONE
        if hide is not None:
            kept, ign, rev = hide(placed(i, fs))
            if ign or rev:
                self.hidden[i] = (ign, rev)
                self.ignored += ign
                if rev:
                    self.reviewed.add(i)
        else:
            kept = fs
        new = [encode_diagnostic(doc, f, i) for f in kept]
        sig = hash(tuple(new)) if new else _NONE
        self.n_body += len(kept) - len(self.kept.get(i, ()))
        self.sig[i] = sig
        self.kept[i] = kept
        if i in self.enc:
            self.enc[i] = new
        if sig != (_NONE if old is None else old):
            self._drop(i // BLOCK)
            return True
        return False

    def _drop(self, b: int) -> None:
        self._blocks.pop(b, None)
        self._sev.pop(b, None)

    def _enc(self, i: int) -> list[str]:
        """The JSON texts of body line ``i``'s diagnostics (encoded when first read)."""
        got = self.enc.get(i)
        if got is None:
            doc = self._doc
            got = self.enc[i] = [encode_diagnostic(doc, f, i) for f in self.kept[i]]
        return got

    def _extra(self, doc, findings: list, hide) -> tuple[list, list]:
        """The problems / comparison findings: filtered and encoded every time (few)."""
        if hide is None or not findings:
            return findings, [encode_diagnostic(doc, f) for f in findings]
        by_line: dict[int, list] = {}
        for f in findings:
            by_line.setdefault(f.line, []).append(f)
        keep: set[int] = set()
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
            self._items = [*self.head_enc, *chain.from_iterable(map(self._enc, self.lines)), *self.tail_enc]
        return self._items

    def body(self) -> str:
        """The items sent, joined (the ``items`` array's contents): all of
        them (:meth:`full_body`), or with a cap and more items than it, the
        selection an editor showing ``cap`` keeps, less one, and the note."""
        if self._sent is None:
            total = self.n_body + len(self.head_enc) + len(self.tail_enc)
            self._sent = self._capped(total) if 0 < self.cap < total else self.full_body()
        return self._sent

    def full_body(self) -> str:
        """``",".join(self.items())``, joined from the kept blocks (only the
        blocks whose lines changed are joined again)."""
        if self._body is None:
            parts = [",".join(self.head_enc)] if self.head_enc else []
            blocks, lines = self._blocks, self.lines
            for b, k, end in self._bounds():
                got = blocks.get(b)
                if got is None:
                    got = blocks[b] = ",".join(chain.from_iterable(map(self._enc, lines[k:end])))
                if got:
                    parts.append(got)
            if self.tail_enc:
                parts.append(",".join(self.tail_enc))
            self._body = ",".join(parts)
        return self._body

    def _bounds(self) -> list[tuple[int, int, int]]:
        """(block number, first, end) in :attr:`lines` of the blocks that hold items, in order
        (a block's lines are ``lines[first:end]``, sliced only where they are read), found in C
        over the array: a reply reads every block after each edit, and at 100,000 flagged lines
        a walk in Python took ~2 ms of it."""
        lines = self.lines
        if not len(lines):
            return []
        arr = np.asarray(lines)  # (an array of ints: read in place)
        of = arr // BLOCK
        cuts = (np.flatnonzero(of[1:] != of[:-1]) + 1).tolist()
        starts = [0, *cuts]
        return list(zip(of[starts].tolist(), starts, [*cuts, len(arr)]))

    def _block(self, b: int, k: int, end: int) -> list:
        """Block ``b``'s [count per severity, joined texts, texts] (counted from
        the findings of ``lines[k:end]``; the texts made when first read)."""
        got = self._sev.get(b)
        if got is None:
            counts = [0, 0, 0, 0]
            kept = self.kept
            for i in self.lines[k:end]:
                for f in kept[i]:
                    counts[severity_of(f) - 1] += 1
            got = self._sev[b] = [counts, [None] * 4, [None] * 4]
        return got

    def _texts(self, block: list, k: int, end: int, s: int) -> list[str]:
        """The JSON texts of the items of severity ``s + 1`` on ``lines[k:end]``, in order."""
        got = block[2][s]
        if got is None:
            kept, sev = self.kept, s + 1
            got = block[2][s] = [
                text for i in self.lines[k:end] if any(severity_of(f) == sev for f in kept[i])
                for f, text in zip(kept[i], self._enc(i)) if severity_of(f) == sev
            ]
        return got

    def _capped(self, total: int) -> str:
        """VS Code's rule (at most ``cap`` per file: the errors in the order
        received, then the warnings, the information, the hints) less one
        item, then the note; from the blocks' per-severity counts and texts."""
        blocks = [(self._block(b, k, end), k, end) for b, k, end in self._bounds()]
        head = _by_severity(zip(self.head_kept, self.head_enc))
        tail = _by_severity(zip(self.tail_kept, self.tail_enc))
        parts: list[str] = []
        room = self.cap - 1
        for s in range(4):
            if not room:
                break
            if head[s]:
                parts.append(",".join(head[s][:room]))
                room -= min(room, len(head[s]))
            for block, k, end in blocks:
                count = block[0][s]
                if not room:
                    break
                if not count:
                    continue
                if count <= room:
                    text = block[1][s]
                    if text is None:
                        text = block[1][s] = ",".join(self._texts(block, k, end, s))
                    parts.append(text)
                    room -= count
                else:  # the last, partial block
                    parts.append(",".join(self._texts(block, k, end, s)[:room]))
                    room = 0
            if room and tail[s]:
                parts.append(",".join(tail[s][:room]))
                room -= min(room, len(tail[s]))
        parts.append(self._note(total))
        return ",".join(parts)

    def _note(self, total: int) -> str:
        """Our Information diagnostic at line 1 about the items not sent."""
        return not_sent_note(total, self.cap, self.name, "errors and warnings first")

    def findings_at(self, i: int) -> list[Finding]:
        """The findings shown on line ``i`` (what its diagnostics say), in the
        order they are sent."""
        n = self.line_count if self.line_count > 0 else 1
        at = lambda f: max(0, min(f.line, n - 1)) == i  # noqa: E731
        return [*filter(at, self.head_kept), *placed(i, self.kept.get(i, ())), *filter(at, self.tail_kept)]

    def diagnostics(self, doc) -> list[types.Diagnostic]:
        """The diagnostics as lsprotocol objects (made per line when first asked for)."""
        objs, kept = self.objs, self.kept
        body = []
        for i in self.lines:
            got = objs.get(i)
            if got is None:
                got = objs[i] = [to_diagnostic(doc, f) for f in placed(i, kept[i])]
            body.append(got)
        head = [to_diagnostic(doc, f) for f in self.head_kept]
        tail = [to_diagnostic(doc, f) for f in self.tail_kept]
        return [*head, *chain.from_iterable(body), *tail]


def not_sent_note(total: int, cap: int, name: str, order: str) -> str:
    """The JSON of our Information diagnostic at line 1 of a reply cut to ``cap`` items
    (``cap - 1`` of ``total`` listed, chosen by ``order``): the count to three significant
    digits (see the module doc)."""
    message = (
        f"bleu-ls found at least {about(total):,} problems in this file; {cap - 1:,} of them are listed here "
        f"(at most {cap:,} are sent, {order}: setting maxProblems). "
        f"`bleu-ls check {name}` lists them all; Show Report counts them by kind; "
        "Next Flagged Line visits every flagged line."
    )
    at = {"line": 0, "character": 0}
    return _dumps({"range": {"start": at, "end": at}, "message": message, "severity": 3,
                   "code": NOT_SENT, "source": SOURCE})


def about(total: int) -> int:
    """``total`` rounded down to three significant digits (23,456 -> 23,400)."""
    step = 10 ** max(0, len(str(total)) - 3)
    return total - total % step


def _by_severity(pairs: Iterable[tuple[Finding, str]]) -> tuple[list[str], ...]:
    """The texts of (finding, text) pairs by severity: errors, warnings,
    information, hints; each in the order given."""
    out: tuple[list[str], ...] = ([], [], [], [])
    for f, text in pairs:
        out[severity_of(f) - 1].append(text)
    return out


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
