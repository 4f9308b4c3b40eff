"""What a translator does in a segment document: fix a finding (:func:`fix_actions`: the
edits of :mod:`bleu_ls.qa.fixes` made edits of the file's text, written with the format's
escapes), set a segment's state (each a code action that edits the open document, never
the file on disk) and walk to the next segment that needs review."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from lsprotocol import types

from ...formats.model import Segment
from ...formats.states import TITLES, needs_review, state_edits
from ...formats.states import actions as state_actions
from ...qa.findings import Finding
from ...qa.fixes import FIXABLE, Fix, disjoint, fixes, plain_line
from ...qa.formats.table import checks_of
from ...qa.analysis.spell_rules import CODE as SPELLING
from ..views.render import dictionary_action
from .checks import findings, with_findings
from .state import SegmentPair, offset_at, position_at, range_of


def code_actions(sp: SegmentPair, uri: str, rng: types.Range, encoding: str,
                 only: Optional[Sequence[Any]] = None) -> list[types.CodeAction]:
    """The state actions ("Mark as translated", "Mark as final", "Remove fuzzy") of the
    segments whose target the range touches (the cursor inside one: that one): each a
    WorkspaceEdit of the open document at its version, never written by the server."""
    if sp.frozen is not None or sp.index.problems:
        return []  # a malformed buffer: its offsets are not a fresh reading's
    index = sp.index
    a = offset_at(sp, rng.start.line, rng.start.character, encoding)
    b = max(a, offset_at(sp, rng.end.line, rng.end.character, encoding))
    first = index.at_offset(a)
    if first is None:  # the range starts between targets: the first target after it
        first = next((i for i in range(len(index)) if index.target_span(i)[0] >= a), None)
        if first is None:
            return []
    segs: list[Segment] = []
    i = first
    while i < len(index) and len(segs) < 100:
        s0, s1 = index.target_span(i)
        if s0 > b or (s1 < a):
            break
        segs.append(index.segment(i))
        i += 1
    text, fmt = index.buf, index.doc_format  # the text read in place; XLIFF 1.2 or 2 by its root, not its name
    out: list[types.CodeAction] = fix_actions(sp, uri, [first + k for k in range(len(segs))], a, b, encoding, only)
    if not _wants(only, QUICKFIX):
        return out
    for action in ("translated", "final", "remove-fuzzy"):
        edits: dict[tuple[int, int], str] = {}
        n = 0
        for seg in segs:
            if action not in state_actions(fmt, seg):
                continue
            found = state_edits(text, fmt, seg, action)
            if not found:
                continue
            n += 1
            for x, y, t in found:
                edits[(x, y)] = t
        if not edits:
            continue
        title = TITLES[action] + (f" ({n} segments)" if n > 1 else "")
        doc_edit = types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=sp.version),
            edits=[types.TextEdit(range=range_of(sp, x, y, encoding), new_text=t) for (x, y), t in sorted(edits.items())],
        )
        out.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix,
                                    edit=types.WorkspaceEdit(document_changes=[doc_edit])))
    return out


def fix_actions(sp: SegmentPair, uri: str, segments: list[int], a: int, b: int, encoding: str,
                only: Optional[Sequence[Any]] = None) -> list[types.CodeAction]:
    """The quick fixes of the findings of ``segments`` that touch the range [a, b] of the file
    (:func:`~bleu_ls.qa.fixes.fixes`: white space, end punctuation, a lost placeholder, a number,
    a doubled word, a glossary term), each an edit of the open document at its version; for a
    code with more than one finding in the file, "Fix all <code> in this file"; and, where the
    client asks for it (``only``: ``source.fixAll`` or ``source``), one ``source.fixAll`` action
    fixing every finding that has a fix."""
    out: list[types.CodeAction] = []
    if sp.frozen is not None or sp.index.problems:
        return out  # a malformed buffer: its offsets are not a fresh reading's
    if _wants(only, QUICKFIX):
        codes: list[str] = []
        for i in segments:
            base = sp.index.target_span(i)[0]
            for f in _fixable(sp, i):
                assert f.span is not None
                if base + f.span[1] < a or base + f.span[0] > b:
                    continue
                for fx, edits in _file_fixes(sp, i, f):
                    out.append(_action(sp, uri, fx.title, QUICKFIX, edits, encoding, fx.preferred or None))
                if f.code not in codes:
                    codes.append(f.code)
            out.extend(_dictionary_actions(sp, uri, i, base, a, b))
        for code in codes:
            edits, n = _all_fixes(sp, {code})
            if n > 1:
                out.append(_action(sp, uri, f"Fix all {code} in this file ({n})", QUICKFIX, edits, encoding))
    if _wants(only, FIX_ALL, strict=True):
        edits, n = _all_fixes(sp, FIXABLE)
        if n:
            out.append(_action(sp, uri, f"Fix all bleu-ls findings that have a fix ({n})", FIX_ALL, edits, encoding))
    return out


QUICKFIX = types.CodeActionKind.QuickFix


def _dictionary_actions(sp: SegmentPair, uri: str, i: int, base: int, a: int, b: int) -> list[types.CodeAction]:
    """"Add to dictionary" for each ``spelling`` finding of segment ``i`` touching [a, b]."""
    r = sp.rules
    out, seen = [], set()
    for f in (r.found.get(i, ()) if r is not None else ()):
        word = f.data.get("word") if f.code == SPELLING and isinstance(f.data, dict) else None
        if not isinstance(word, str) or word in seen or f.span is None:
            continue
        if base + f.span[1] < a or base + f.span[0] > b:
            continue
        seen.add(word)
        out.append(dictionary_action(uri, word))
    return out
FIX_ALL = types.CodeActionKind.SourceFixAll


def _wants(only: Optional[Sequence[Any]], kind: str, strict: bool = False) -> bool:
    """Does a request's ``only`` let actions of ``kind`` through (``strict``: only when it names them or a
    kind above them: a fix of the whole file is not worked out at every move of the cursor)?"""
    if not only:
        return not strict
    return any(kind == k or kind.startswith(k + ".") for k in (str(getattr(k, "value", k)) for k in only))


def _fixable(sp: SegmentPair, i: int) -> list[Finding]:
    """The findings of segment ``i`` that may have a fix: its format checks' and its rule table's."""
    qa = findings(sp)
    own = qa[i] if i < len(qa) else ()
    r = sp.rules
    more = r.found.get(i, ()) if r is not None else ()
    return [f for f in (*own, *more) if f.code in FIXABLE and f.span is not None]


def _file_fixes(sp: SegmentPair, i: int, f: Finding) -> list[tuple[Fix, list[tuple[int, int, str]]]]:
    """The fixes of finding ``f`` of segment ``i`` as edits of the file text [x, y) → new text: each
    target span the file spells as the target's text (not one with an escape or an inline code in
    it), each new text written as the format spells it (refused where it cannot be)."""
    index = sp.index
    seg = index.segment(i)
    text = index.buf
    write = _writer(index.doc_format)
    at = (f.start_col, f.end_col) if f.end_col is not None else None
    out = []
    for fx in fixes(f.code, f.data, seg.target, seg.source, at):
        edits: list[tuple[int, int, str]] = []
        for c0, c1, new in fx.edits:
            x, y = seg.file_offset(c0), seg.file_offset(c1)
            written = new if fx.markup else write(new)
            if text[x:y] != seg.target[c0:c1] or written is None:
                break
            edits.append((x, y, written))
        else:
            out.append((fx, edits))
    return out


def _writer(fmt: str):
    row = checks_of(fmt)
    return row.write if row is not None else plain_line


def _all_fixes(sp: SegmentPair, codes) -> tuple[list[tuple[int, int, str]], int]:
    """The first fix of every finding of ``codes`` in the file, its edits in file order (a fix whose
    edits would touch another's is left out), and how many findings they fix."""
    edits: list[tuple[int, int, str]] = []
    n = 0
    r = sp.rules
    segs = set(with_findings(sp)) | (set(r.found) if r is not None else set())
    for i in sorted(segs):
        if i >= len(sp.index):
            continue
        taken: list[tuple[int, int, str]] = []
        for f in _fixable(sp, i):
            if f.code not in codes:
                continue
            got = _file_fixes(sp, i, f)
            if got and disjoint(taken + got[0][1]):
                taken = sorted(taken + got[0][1])
                n += 1
        edits += taken
    return edits, n


def _action(sp: SegmentPair, uri: str, title: str, kind: str, edits: list[tuple[int, int, str]], encoding: str,
            preferred: Optional[bool] = None) -> types.CodeAction:
    doc_edit = types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=sp.version),
        edits=[types.TextEdit(range=range_of(sp, x, y, encoding), new_text=t) for x, y, t in edits])
    return types.CodeAction(title=title, kind=kind, is_preferred=preferred,
                            edit=types.WorkspaceEdit(document_changes=[doc_edit]))


def next_review(sp: SegmentPair, line: int, character: int, direction: str, encoding: str) -> Optional[dict[str, Any]]:
    """The start of the target of the next (previous) segment that needs review
    (:func:`~bleu_ls.formats.states.needs_review`) or has a finding, wrapping; None when none does."""
    index = sp.index
    offset = offset_at(sp, line, character, encoding)
    qa = findings(sp)
    fmt = index.doc_format
    segs = index.unshifted()
    wanted = [i for i in range(len(index)) if (i < len(qa) and qa[i]) or needs_review(fmt, segs[i])]
    if not wanted:
        return None
    if direction == "previous":
        before = [i for i in wanted if index.target_span(i)[1] < offset]
        k = before[-1] if before else wanted[-1]
    else:
        k = next((i for i in wanted if index.target_span(i)[0] > offset), wanted[0])
    pos = position_at(sp, index.target_span(k)[0], encoding)
    return {"line": pos.line, "character": pos.character, "key": index.segment(k).key}
