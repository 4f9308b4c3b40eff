"""What a translator does in a segment document: set a segment's state (a
code action that edits the open document, never the file on disk) and walk
to the next segment that needs review."""

from __future__ import annotations

from typing import Any, Optional

from lsprotocol import types

from ...formats.model import Segment
from ...formats.states import TITLES, needs_review, state_edits
from ...formats.states import actions as state_actions
from ...qa.terms.index import replacements
from .checks import findings
from .state import SegmentPair, offset_at, position_at, range_of


def code_actions(sp: SegmentPair, uri: str, rng: types.Range, encoding: str) -> list[types.CodeAction]:
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
    out: list[types.CodeAction] = term_fixes(sp, uri, [first + k for k in range(len(segs))], a, b, encoding)
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


#: characters a quick fix never writes into a file's markup or quoting (the glossary's term is
#: written as it is: one needing an escape is not offered)
_NEEDS_ESCAPE = frozenset('<>&"\\\n\r')


def term_fixes(sp: SegmentPair, uri: str, segments: list[int], a: int, b: int, encoding: str) -> list[types.CodeAction]:
    """A glossary term in place of a forbidden or altered one, for the rule findings of
    ``segments`` that touch the range [a, b] of the file: an edit of the open document."""
    r = sp.rules
    if r is None:
        return []
    index, text = sp.index, sp.index.buf
    out: list[types.CodeAction] = []
    for i in segments:
        base = index.target_span(i)[0]
        for f in r.found.get(i, ()):
            if f.span is None:
                continue
            x, y = base + f.span[0], base + f.span[1]
            if y < a or x > b or text[x:y] != f.data.get("term"):
                continue  # (written with an escape in the file: not rewritten here)
            for k, new in enumerate(replacements(f.code, f.data)):
                if _NEEDS_ESCAPE.intersection(new):
                    continue
                doc_edit = types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=sp.version),
                    edits=[types.TextEdit(range=range_of(sp, x, y, encoding), new_text=new)])
                out.append(types.CodeAction(title=f"Replace with “{new}” (glossary)", kind=types.CodeActionKind.QuickFix,
                                            is_preferred=k == 0 or None,
                                            edit=types.WorkspaceEdit(document_changes=[doc_edit])))
    return out


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
