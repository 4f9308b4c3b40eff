"""Code actions on bleu-ls diagnostics: ignore and accept.

``textDocument/codeAction`` offers, for each bleu-ls diagnostic in the
range, quick fixes that run ``bleuLs.ignore``:

``bleuLs.ignore``  (uri, kind, line [, code]) add an entry to ``.bleu-ls/ignore.json``
                   at the workspace root (kind: "code", "line", "reviewed", "off"),
                   then send the diagnostics again

Running the command is the only time the server writes the file (see
:mod:`bleu_ls.qa.ignore` for its shape).

The actions are the document's (``manager.answers(uri)``): the edits that fix a
finding (:mod:`bleu_ls.qa.fixes`; a ``quickfix`` each, "Fix all <code> in this
file", and a ``source.fixAll`` for the whole file when ``only`` asks for it), a
line file's ignore quick fixes (:mod:`bleu_ls.server.pairs.answers`); in a segment file
(PO, XLIFF) the unit's state instead: "Mark as translated" / "Mark as final"
(XLIFF), "Remove fuzzy" (PO), each an edit of the open document
(:mod:`bleu_ls.server.segdocs.actions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ...qa.ignore import RELATIVE
from ..pairs.answers import IGNORE, QUICKFIX, actions_for

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

__all__ = ["IGNORE", "IgnoreError", "actions_for", "register"]


class IgnoreError(Exception):
    pass


def _wants_quickfix(only) -> bool:
    """Does a code-action request's ``only`` filter let quick fixes or the fix of a whole file through?"""
    return not only or any(getattr(k, "value", k) in ("", "quickfix", "source", "source.fixAll") for k in only)


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[QUICKFIX, types.CodeActionKind.SourceFixAll]),
    )
    async def _code_action(ls, params: types.CodeActionParams):
        if not _wants_quickfix(params.context.only):
            return None
        return await manager.answers(params.text_document.uri).code_actions(params)

    @server.command(IGNORE)
    async def _ignore(ls, *args):
        if len(args) < 3 or not isinstance(args[0], str):
            raise IgnoreError("usage: bleuLs.ignore(uri, kind, line [, code])")
        pair = manager.pair_for(args[0])
        if pair is None:
            raise IgnoreError(f"{args[0]} is not an open hypothesis file")
        kind, code = str(args[1]), (str(args[3]) if len(args) > 3 and args[3] is not None else None)
        try:
            line = int(args[2])
        except (TypeError, ValueError):
            raise IgnoreError("the line must be a number") from None
        store = manager.publisher.ignore_store(pair)
        doc = manager.docs.get(pair.uri)
        if doc is None or not 0 <= line < doc.line_count:
            raise IgnoreError(f"line {line} is not a line of the document")
        try:
            store.add(pair.path, kind, doc.line(line), code)
            store.save()
        except (ValueError, OSError) as exc:
            raise IgnoreError(f"could not write {RELATIVE}: {exc}") from None
        manager.publisher.republish()
        return {"file": str(store.path), "kind": kind, "line": line, "code": code}
