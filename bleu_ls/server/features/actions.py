"""Code actions on bleu-ls diagnostics: ignore and accept.

``textDocument/codeAction`` offers, for each bleu-ls diagnostic in the
range, quick fixes that run ``bleuLs.ignore``:

``bleuLs.ignore``  (uri, kind, line [, code]) add an entry to ``.bleu-ls/ignore.json``
                   at the workspace root (kind: "code", "line", "reviewed", "off"),
                   then send the diagnostics again

Running the command is the only time the server writes the file (see
:mod:`bleu_ls.qa.ignore` for its shape).

In a segment file (PO, XLIFF) the actions are the unit's state instead: "Mark
as translated" / "Mark as final" (XLIFF), "Remove fuzzy" (PO), each an edit
of the open document (:meth:`~bleu_ls.server.segdocs.docs.SegmentDocs.code_actions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types

from ...qa.ignore import IGNORABLE, RELATIVE
from ..views.render import SOURCE

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

IGNORE = "bleuLs.ignore"
QUICKFIX = types.CodeActionKind.QuickFix


class IgnoreError(Exception):
    pass


def _wants_quickfix(only) -> bool:
    """Does a code-action request's ``only`` filter let quick fixes through?"""
    return not only or any(getattr(k, "value", k) in ("", "quickfix") for k in only)


def _titles(code: str) -> list[tuple[str, str]]:
    """(kind, title) of the actions offered on one diagnostic."""
    return [
        ("code", f"Ignore {code} on this line"),
        ("line", "Ignore this line"),
        ("reviewed", "Mark line as reviewed"),
        ("off", f"Turn {code} off for the workspace"),
    ]


def actions_for(uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    """The quick fixes for the bleu-ls diagnostics among ``diagnostics``;
    an action that does the same thing for two diagnostics is offered once."""
    out: list[types.CodeAction] = []
    seen: dict[tuple, types.CodeAction] = {}
    for d in diagnostics:
        code = d.code if isinstance(d.code, str) else None
        if d.source != SOURCE or code not in IGNORABLE:
            continue
        line = d.range.start.line
        for kind, title in _titles(code):
            # a workspace switch is one action for all lines; the rest are per line
            key = (kind, code) if kind == "off" else (kind, line, code if kind == "code" else None)
            action = seen.get(key)
            if action is not None:
                cast("list[types.Diagnostic]", action.diagnostics).append(d)  # the list made below
                continue
            args: list[Any] = [uri, kind, line] + ([code] if kind in ("code", "off") else [])
            action = types.CodeAction(
                title=title,
                kind=QUICKFIX,
                diagnostics=[d],
                command=types.Command(title=title, command=IGNORE, arguments=args),
            )
            seen[key] = action
            out.append(action)
    return out


def register(server, manager: "PairManager") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[QUICKFIX]),
    )
    async def _code_action(ls, params: types.CodeActionParams):
        if not _wants_quickfix(params.context.only):
            return None
        uri = params.text_document.uri
        if uri in manager.segment_docs.docs:  # a segment format: its state actions (server/segdocs/)
            return manager.segment_docs.code_actions(uri, params.range) or None
        await manager.wait_opened(uri)  # a large document: built in the background first
        pair = manager.pair_for(uri)
        if pair is None:
            return None
        diags = [d for d in params.context.diagnostics or [] if d.source == SOURCE]
        if not diags:  # a client that sends no context: the server's own, in the range
            # The analysis needs every line scored.  VS Code asks for actions
            # at every cursor move, with no diagnostics in the context where
            # it shows none: while a large file is still being scored and
            # analysed (tens of seconds at 100k lines) there is nothing to
            # offer yet, and a reply held that long helps no one.
            if not manager.publisher.findings_soon(pair):
                return None
            await manager.wait_analysed(pair)
            if manager.pair_for(uri) is not pair:
                return None
            first, last = params.range.start.line, params.range.end.line
            diags = [d for d in manager.diagnostics(pair)[0] if first <= d.range.start.line <= last]
        return actions_for(uri, diags) or None

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
