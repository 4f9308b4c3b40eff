"""What the editor is shown of a line file (a hypothesis file paired with its
references, line by line): :class:`LineAnswers`, the line files' side of the
seam the features ask (:class:`~bleu_ls.server.roles.DocumentAnswers`; a
segment file's side is :class:`~bleu_ls.server.segdocs.docs.SegmentAnswers`).

The inlay hints are made in :mod:`.hints`, the semantic tokens in
:mod:`.tokens`; the hover, lens, corpus score, pulled diagnostics, quick fixes
(the edits of :mod:`bleu_ls.qa.fixes`, ``bleuLs.ignore``), the next flagged line and the draft commands here, from
the pair (:mod:`.state`) and the texts of :mod:`bleu_ls.server.views.render`.
The answers live in this room because the manager owns the line files
themselves (their documents and pairs): they ask it, typed by
:class:`~bleu_ls.server.roles.ManagerRole`, for the pair of a URI and for work.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Union, cast

from lsprotocol import types

from ...qa.analysis.spell_rules import CODE as SPELLING
from ...qa.ignore import IGNORABLE
from ...qa.fixes import FIXABLE, disjoint, fixes, plain_line
from ...qa.terms.load import document_terms
from ..documents.document import UTF16, from_units, to_units
from ..views.terms_render import completion_items, glossary_block
from ..views.render import SOURCE, breakdown_of, dictionary_action, corpus_record, finding_counts, hover_text, lens_title, signatures
from ..wire.protocol import Encoded, unchanged_report
from . import hints as line_hints
from .tokens import Tokens

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager  # what it uses of the manager
    from ..roles import PairRole as Pair
    from ..roles import Report

#: the command a quick fix runs (registered by features/actions.py)
IGNORE = "bleuLs.ignore"
QUICKFIX = types.CodeActionKind.QuickFix
FIX_ALL = types.CodeActionKind.SourceFixAll
#: said for a line of a huge document not read yet
NOT_READ = "_Still reading the files: this line's scores in a moment._"


class LineAnswers:
    """The answers of the line files (and of a URI that is no open document:
    "nothing", as each feature always said)."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        #: the semantic tokens' answers, with the last full answer per document (for deltas)
        self.tokens = Tokens(manager)

    # -- inlay hints -------------------------------------------------------------
    async def hints(self, params: types.InlayHintParams) -> Union[list[types.InlayHint], Encoded]:
        await line_hints.wait_for_heavy_lines(self.manager, params)
        return line_hints.inlay_hints_encoded(self.manager, params)

    def resolve_hint(self, hint: types.InlayHint) -> types.InlayHint:
        return line_hints.resolve(self.manager, hint)

    # -- hover -------------------------------------------------------------------
    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        manager = self.manager
        early = manager.peek(params.text_document.uri)
        if early is not None and early.preview is not None:
            text = _preview_hover(early, params.position.line)
            if text is not None:
                return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
            if not early.preview.wait_is_short():
                return None  # a line known to be unpaired: nothing to say (never build the pair for a hover)
        pair = manager.pair_for(params.text_document.uri)
        if pair is None or (pair.model is None and pair.alone is None and pair.effort is None and not pair.draft_problem):
            return None
        line = params.position.line
        found = manager.line_findings(pair, line)  # (None: the file's first check is under way)
        text = hover_text(pair, line, found, checking=found is None)
        block = _glossary(pair, line)
        if block:
            text = f"{text}\n\n{block}" if text else f"**Line {line + 1:,}**\n\n{block}"
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    # -- the corpus: lens and bleuLs/corpusScore ----------------------------------
    async def lens(self, uri: str) -> list[types.CodeLens]:
        manager = self.manager
        await manager.wait_opened(uri)  # a large document: built in the background first
        pair = manager.pair_for(uri)
        if pair is None or (pair.model is None and pair.effort is None and not pair.draft_problem):
            return []
        await manager.wait_scored(pair)  # the effort is not waited for: the lens says it is counting
        if pair.model is None and pair.effort is None and not pair.draft_problem:
            return []
        # the file's first check of a large file is not waited for either (nor
        # run here, on the event loop): the count of flagged lines comes with
        # the code lens refresh sent once it is done
        publisher = manager.publisher
        flagged = None if publisher.analysis_large(pair) and publisher.analyse_soon(pair) else flagged_count(manager, pair)
        return [
            types.CodeLens(
                range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
                command=types.Command(
                    title=lens_title(pair, flagged),
                    command="bleuLs.showReport" if pair.model is not None else "",
                    arguments=[uri],
                    tooltip=signatures(pair),
                ),
            )
        ]

    async def corpus(self, uri: str) -> Optional[dict[str, Any]]:
        manager = self.manager
        if uri:
            await manager.wait_opened(uri)
        pair = manager.pair_for(uri) if uri else None
        if pair is None or (pair.model is None and pair.effort is None):
            return None
        await manager.wait_analysed(pair)  # effort.pending says how many HTER rows are still to count
        if pair.model is None and pair.effort is None:
            return None
        # the diagnostics of this version (cached): flagged lines and problems, counted apart
        diags, _rid = manager.diagnostics(pair)
        record = corpus_record(pair)
        record["flagged"] = flagged_count(manager, pair)
        record.update(finding_counts(diags))  # problems, listed (in Problems), byCode
        return record

    # -- pulled diagnostics ----------------------------------------------------------
    async def diagnostics(self, params: types.DocumentDiagnosticParams) -> tuple["Report", Optional[str]]:
        manager = self.manager
        await manager.wait_opened(params.text_document.uri)  # a large document: built in the background first
        pair = manager.pair_for(params.text_document.uri)
        if pair is None:
            if params.previous_result_id == "none":
                return types.RelatedUnchangedDocumentDiagnosticReport(result_id="none"), None
            return types.RelatedFullDocumentDiagnosticReport(items=[], result_id="none"), None
        await manager.wait_analysed(pair)
        body, rid = manager.publisher.encoded_body(pair)
        if params.previous_result_id == rid:
            return unchanged_report(rid), rid
        return Encoded('{"kind":"full","resultId":' + json.dumps(rid) + ',"items":[' + body + "]}"), rid

    # -- semantic tokens ---------------------------------------------------------------
    async def tokens_full(self, uri: str) -> Encoded:
        return await self.tokens.full(uri)

    async def tokens_delta(self, uri: str, previous: str) -> Union[Encoded, types.SemanticTokensDelta]:
        return await self.tokens.delta(uri, previous)

    async def tokens_range(self, uri: str, start: int, end: int) -> types.SemanticTokens:
        return await self.tokens.lines(uri, start, end)

    # -- quick fixes: ignore a finding ---------------------------------------------------
    async def code_actions(self, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        manager = self.manager
        uri = params.text_document.uri
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
        texts = self._texts(pair)
        enc = manager.encoding
        out = actions_for(uri, diags, texts, enc) if _wants(params.context.only, QUICKFIX) else []
        fixable = [d for d in diags if d.code in FIXABLE]
        if fixable or _wants(params.context.only, FIX_ALL, strict=True):
            if manager.publisher.analysis_large(pair):  # (every finding of the file: a large pass, off the loop)
                await manager.wait_analysed(pair)
                if manager.pair_for(uri) is not pair:
                    return None
            everything = manager.diagnostics(pair)[0]
            if fixable and _wants(params.context.only, QUICKFIX):
                for code in dict.fromkeys(str(d.code) for d in fixable):
                    edits, n = all_fixes(everything, texts, {code}, enc)
                    if n > 1:
                        out.append(types.CodeAction(title=f"Fix all {code} in this file ({n})", kind=QUICKFIX,
                                                    edit=types.WorkspaceEdit(changes={uri: edits})))
            if _wants(params.context.only, FIX_ALL, strict=True):
                edits, n = all_fixes(everything, texts, FIXABLE, enc)
                if n:
                    out.append(types.CodeAction(title=f"Fix all bleu-ls findings that have a fix ({n})", kind=FIX_ALL,
                                                edit=types.WorkspaceEdit(changes={uri: edits})))
        return out or None

    def _texts(self, pair: "Pair") -> Callable[[int], Optional[tuple[str, Optional[str]]]]:
        """Line ``i``'s text in the open document and its source line (None: no such line)."""
        doc = self.manager.docs.get(pair.uri)
        sources = pair.source_lines

        def texts(i: int) -> Optional[tuple[str, Optional[str]]]:
            if doc is None or not 0 <= i < doc.line_count:
                return None
            return doc.line(i), (sources[i] if sources is not None and i < len(sources) else None)

        return texts

    def completion(self, params: types.CompletionParams) -> Optional[types.CompletionList]:
        pair = self.manager.pair_for(params.text_document.uri)
        if pair is None or not pair.settings.terms.files or pair.source_lines is None:
            return None
        i = params.position.line
        source = pair.source_lines[i] if i < len(pair.source_lines) else None
        items = completion_items(document_terms(pair.settings, {}), source)
        return types.CompletionList(is_incomplete=False, items=items) if items else None

    # -- commands ------------------------------------------------------------------------
    async def next_review(self, uri: str, line: int, character: int, direction: str) -> Optional[dict[str, Any]]:
        """The next flagged line (the character is not looked at: a line is flagged whole)."""
        manager = self.manager
        pair = manager.pair_for(uri)
        if pair is None or pair.model is None:
            raise ValueError(f"{uri} is not an open, paired hypothesis file")
        await manager.wait_analysed(pair)
        manager.diagnostics(pair)
        target = next_flagged(pair, line, direction)
        if target is None:
            return None
        return {"line": target, "character": 0}

    async def set_draft(self, uri: str) -> str:
        return self.manager.set_draft(self._hypothesis(uri))

    async def forget_draft(self, uri: str) -> str:
        return self.manager.forget_draft(self._hypothesis(uri))

    def _hypothesis(self, uri: str) -> "Pair":
        pair = self.manager.pair_for(uri)
        if pair is None:
            raise ValueError(f"{uri} is not an open hypothesis file")
        return pair


def _glossary(pair: "Pair", i: int) -> Optional[str]:
    """The glossary entries of line ``i`` (its source line and its text), when glossaries are set."""
    if not pair.settings.terms.files:
        return None
    source = pair.source_lines[i] if pair.source_lines is not None and i < len(pair.source_lines) else None
    model = pair.model
    target = model.hyp[i] if model is not None and i < len(model.hyp) else None
    return glossary_block(document_terms(pair.settings, {}), source, target)


def _preview_hover(pair: "Pair", i: int) -> Optional[str]:
    """The hover of a line of a huge document still being read: its scores
    only (the rest once the file is read), or that it is not read yet
    (building it now would keep every other request waiting for seconds)."""
    preview = pair.preview
    if preview is None or preview.wait_is_short():
        return None
    if not preview.known(i):
        return NOT_READ
    if preview.hyp(i) is None:
        return None
    return f"**Line {i + 1:,}**\n\n{breakdown_of(preview, i)}\n\n_(still reading the files: more here in a moment)_"


def flagged_count(manager: "PairManager", pair: "Pair") -> int:
    """The lines that carry a diagnostic of this version (the diagnostics
    sent, kept per line; no Diagnostic objects made): the one count the lens
    and bleuLs/corpusScore show."""
    manager.publisher.update(pair)
    return len(pair.flagged)


def next_flagged(pair: "Pair", line: int, direction: str = "next") -> Optional[int]:
    flagged = pair.flagged
    if not flagged:
        return None
    if direction == "previous":
        before = [x for x in flagged if x < line]
        return before[-1] if before else flagged[-1]
    after = [x for x in flagged if x > line]
    return after[0] if after else flagged[0]


def _titles(code: str) -> list[tuple[str, str]]:
    """(kind, title) of the actions offered on one diagnostic."""
    return [
        ("code", f"Ignore {code} on this line"),
        ("line", "Ignore this line"),
        ("reviewed", "Mark line as reviewed"),
        ("off", f"Turn {code} off for the workspace"),
    ]


def _wants(only, kind: str, strict: bool = False) -> bool:
    """Does a request's ``only`` let actions of ``kind`` through (``strict``: only when it names them or a
    kind above them: the fix of a whole file is not worked out at every move of the cursor)?"""
    if not only:
        return not strict
    return any(kind == k or kind.startswith(k + ".") for k in (str(getattr(k, "value", k)) for k in only))


def line_fixes(d: types.Diagnostic, texts: Callable[[int], Optional[tuple[str, Optional[str]]]],
               encoding: str = UTF16) -> list[tuple[str, list[types.TextEdit], bool]]:
    """The fixes of one diagnostic of a line file (:func:`~bleu_ls.qa.fixes.fixes` on its line and
    source line): (title, edits of the line, preferred); none where a new text would break the line."""
    code = d.code if isinstance(d.code, str) else None
    if d.source != SOURCE or code not in FIXABLE or d.range.start.line != d.range.end.line:
        return []
    i = d.range.start.line
    got = texts(i)
    if got is None:
        return []
    line, source = got
    at = (from_units(line, d.range.start.character, encoding), from_units(line, d.range.end.character, encoding))
    data = d.data if isinstance(d.data, Mapping) else None
    out = []
    for fx in fixes(code, data, line, source, at):
        if fx.markup or any(plain_line(t) is None for _a, _b, t in fx.edits):
            continue
        edits = [types.TextEdit(range=types.Range(start=types.Position(line=i, character=to_units(line, a, encoding)),
                                                  end=types.Position(line=i, character=to_units(line, b, encoding))),
                                new_text=t) for a, b, t in fx.edits]
        out.append((fx.title, edits, fx.preferred))
    return out


def all_fixes(diagnostics: list[types.Diagnostic], texts, codes, encoding: str = UTF16) -> tuple[list[types.TextEdit], int]:
    """The first fix of each diagnostic of ``codes``, as one list of edits (a fix touching another's left
    out), and how many diagnostics they fix."""
    per_line: dict[int, list[tuple[int, int, str]]] = {}
    edits: list[types.TextEdit] = []
    n = 0
    for d in diagnostics:
        if d.code not in codes:
            continue
        found = line_fixes(d, texts, encoding)
        if not found:
            continue
        mine = [(e.range.start.character, e.range.end.character, e.new_text) for e in found[0][1]]
        line = d.range.start.line
        taken = per_line.get(line, [])
        if not disjoint(taken + mine):
            continue
        per_line[line] = taken + mine
        edits += found[0][1]
        n += 1
    return edits, n


def actions_for(uri: str, diagnostics: list[types.Diagnostic],
                texts: Optional[Callable[[int], Optional[tuple[str, Optional[str]]]]] = None,
                encoding: str = UTF16) -> list[types.CodeAction]:
    """The quick fixes for the bleu-ls diagnostics among ``diagnostics``: the edits that fix a finding
    (:func:`line_fixes`, where ``texts`` gives a line's text and its source line; an edit of the open
    document: the user applies it), then the ignore actions; an action that does the same thing for
    two diagnostics is offered once."""
    out: list[types.CodeAction] = []
    seen: dict[tuple, types.CodeAction] = {}
    for d in diagnostics:
        code = d.code if isinstance(d.code, str) else None
        if d.source != SOURCE or code not in IGNORABLE:
            continue
        if texts is not None:
            for title, edits, preferred in line_fixes(d, texts, encoding):
                out.append(types.CodeAction(title=title, kind=QUICKFIX, diagnostics=[d], is_preferred=preferred or None,
                                            edit=types.WorkspaceEdit(changes={uri: edits})))
        word = d.data.get("word") if code == SPELLING and isinstance(d.data, Mapping) else None
        if isinstance(word, str) and ("dict", word) not in seen:  # the spelling check's "Add to dictionary"
            seen[("dict", word)] = fix = dictionary_action(uri, word, [d])
            out.append(fix)
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
