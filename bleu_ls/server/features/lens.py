"""The corpus score: a code lens on line 1 and the ``bleuLs/corpusScore``
request (polled by status items; answered once every line is scored)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

from ..segdocs import effort as segment_effort
from ..views.render import corpus_record, finding_counts, lens_title, signatures

if TYPE_CHECKING:
    from ..pairs.manager import PairManager

CORPUS_SCORE = "bleuLs/corpusScore"


async def code_lens(manager: "PairManager", params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    if uri in manager.segment_docs.docs:  # a segment format (server/segdocs/)
        lenses = await manager.segment_docs.lens(uri)
        _follow(manager, uri)  # (after it: a large file's drafts are bound once the whole is read)
        return lenses
    await manager.wait_opened(uri)  # a large document: built in the background first
    pair = manager.pair_for(uri)
    if pair is None or (pair.model is None and pair.effort is None and not pair.draft_problem):
        return []
    await manager.wait_scored(pair)  # the effort is not waited for: the lens says it is counting
    if pair.model is None and pair.effort is None and not pair.draft_problem:
        return []
    return [
        types.CodeLens(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            command=types.Command(
                title=lens_title(pair, flagged_count(manager, pair)),
                command="bleuLs.showReport" if pair.model is not None else "",
                arguments=[uri],
                tooltip=signatures(pair),
            ),
        )
    ]


def _follow(manager: "PairManager", uri: str) -> None:
    """A segment document's paired test against its drafts refreshes the lens when it lands."""
    sp = manager.segment_docs.docs.get(uri)
    if sp is not None:  # (closed meanwhile: nothing to follow)
        segment_effort.follow(sp, lambda: manager.publisher.schedule_refresh(("code_lens",)))


def flagged_count(manager: "PairManager", pair) -> int:
    """The lines that carry a diagnostic of this version (the diagnostics
    sent, kept per line; no Diagnostic objects made): the one count the lens
    and bleuLs/corpusScore show."""
    manager.publisher.update(pair)
    return len(pair.flagged)


async def corpus_score(manager: "PairManager", params: Any) -> Optional[dict[str, Any]]:
    td = params.get("textDocument") if isinstance(params, dict) else getattr(params, "textDocument", None)
    uri = td.get("uri") if isinstance(td, dict) else getattr(td, "uri", None)
    if uri in manager.segment_docs.docs:  # a segment format (server/segdocs/)
        record = await manager.segment_docs.corpus(uri)
        _follow(manager, uri)
        return record
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


def register(server, manager: "PairManager") -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def _lens(ls, params: types.CodeLensParams):
        return await code_lens(manager, params)

    @server.feature(CORPUS_SCORE)
    async def _corpus(ls, params):
        return await corpus_score(manager, params)
