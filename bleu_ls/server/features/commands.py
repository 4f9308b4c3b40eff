"""``workspace/executeCommand`` commands.

``bleuLs.pairWith``     (uri, [reference uri…] [, source uri]) pair a file at run time
``bleuLs.showReport``   (uri) the per-line report as text
``bleuLs.nextFlagged``  (uri, position [, "next"|"previous"]) the next flagged line, wrapping
                        (a segment file: the target start of the next segment that needs review)
``bleuLs.exportScores`` (uri [, "tsv"|"json"]) write NAME.scores.tsv/.json beside the file
``bleuLs.reportHtml``   (uri) the visual report of the open pair (``bleu-ls report``'s HTML)
``bleuLs.compareWith``  (uri, other system's file uri | null) compare with another system's output
``bleuLs.setDraft``     (uri) the current text becomes the draft (kept in the user's cache folder;
                        a segment file: each non-empty target the draft of its segment, by key)
``bleuLs.forgetDraft``  (uri) drop the kept draft (none until the file is opened again)
``bleuLs.addToGlossary`` (source term, target term [, status]) append the pair to the first CSV or
                        TSV glossary of ``terms.files`` (the only write into a glossary; the
                        user's action)
``bleuLs.addToDictionary`` (uri, word) append the word to the user's word list
                        ``.bleu-ls/words.txt`` of the document's workspace (the spelling check's;
                        the only write into it; the user's action)
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...engine import InputError
from ...formats.glossary.write import GlossaryWriteError, append_entry
from ...qa.spelling import wordlist
from ..documents.files import uri_path
from ..pairs.answers import next_flagged
from ..views.render import ADD_TO_DICTIONARY, corpus_record, report_text, value_cell

if TYPE_CHECKING:
    from ..pairs.manager import Pair, PairManager

PAIR_WITH = "bleuLs.pairWith"
SHOW_REPORT = "bleuLs.showReport"
NEXT_FLAGGED = "bleuLs.nextFlagged"
EXPORT_SCORES = "bleuLs.exportScores"
REPORT_HTML = "bleuLs.reportHtml"
COMPARE_WITH = "bleuLs.compareWith"
SET_DRAFT = "bleuLs.setDraft"
FORGET_DRAFT = "bleuLs.forgetDraft"
ADD_TO_GLOSSARY = "bleuLs.addToGlossary"


class CommandError(Exception):
    pass


def _uri(arg: Any) -> str:
    if isinstance(arg, dict):
        arg = arg.get("uri") or (arg.get("textDocument") or {}).get("uri")
    if not isinstance(arg, str) or not arg:
        raise CommandError("expected a document URI as the first argument")
    return arg


def _pair(manager: "PairManager", args: tuple) -> "Pair":
    if not args:
        raise CommandError("expected a document URI as the first argument")
    uri = _uri(args[0])
    pair = manager.pair_for(uri)
    if pair is None or pair.model is None:
        raise CommandError(f"{uri} is not an open, paired hypothesis file")
    return pair


__all__ = ["CommandError", "export", "next_flagged", "register", "report_input"]


def export(pair: "Pair", fmt: str) -> Path:
    model = pair.model
    assert model is not None  # (the command's pair is a scored one: _pair raises otherwise)
    fmt = (fmt or "tsv").lower()
    if fmt not in ("tsv", "json"):
        raise CommandError("format must be tsv or json")
    name = pair.path.name
    target = pair.path.with_name(f"{name}.scores.{fmt}")
    keys = list(model.metrics)
    if fmt == "json":
        rec = corpus_record(pair)
        rec["perLine"] = [
            {"line": i + 1, **{k: model.line_value(k, i) for k in keys}} for i in range(model.n_paired)
        ]
        body = json.dumps(rec, ensure_ascii=False, indent=1) + "\n"
    else:
        rows = ["\t".join(["line", *keys])]
        rows += [
            "\t".join([str(i + 1), *(value_cell(model.line_value(k, i)) for k in keys)]) for i in range(model.n_paired)
        ]
        rows.append("\t".join(["corpus", *(value_cell(model.corpus(k).score) for k in keys)]))
        body = "\n".join(rows) + "\n"
    target.write_text(body, encoding="utf-8")
    return target


def report_input(pair: "Pair", findings: list):
    """What ``bleu-ls report`` is made from, for the open pair as it is now:
    a copy of its model (so the report can be built in another thread while
    edits go on), cut to the paired lines."""
    from ...report import ReportInput, System

    assert pair.model is not None  # (the command's pair is a scored one)
    model = pair.model.copy()
    n = model.n_paired
    if model.n_hyp > n:
        model.splice_hyp(n, model.n_hyp, [])
    for k, ref in enumerate(model.refs):
        if len(ref) > n:
            model.splice_ref(k, n, len(ref), [])
    source = pair.source_lines[:n] if pair.source_lines is not None and len(pair.source_lines) >= n else None
    return ReportInput(
        systems=[System(pair.path.name, model, str(pair.path), [f for f in findings if f.line < n])],
        references=[p.name for p in pair.references],
        source=source,
        source_name=pair.source.name if source is not None and pair.source else None,
        settings=pair.settings,
        title=f"bleu-ls report: {pair.path.name}",
    )


def register(server, manager: "PairManager") -> None:
    @server.command(COMPARE_WITH)
    async def _compare_with(ls, *args):
        pair = _pair(manager, args)
        other = _uri(args[1]) if len(args) > 1 and args[1] else None
        try:
            attached = manager.compare_with(pair, other)
        except InputError as exc:
            raise CommandError(str(exc)) from None
        return {"compareWith": str(attached.path) if attached else None, "lines": len(attached.lines) if attached else 0}

    @server.command(REPORT_HTML)
    async def _report_html(ls, *args):
        from ...report import render_report

        pair = _pair(manager, args)
        await manager.wait_analysed(pair)
        inp = report_input(pair, manager.findings(pair))
        html, _data = await asyncio.get_running_loop().run_in_executor(None, render_report, inp)
        return html

    @server.command(PAIR_WITH)
    async def _pair_with(ls, *args):
        if len(args) < 2:
            raise CommandError("usage: bleuLs.pairWith(uri, [reference uri, …], [source uri])")
        uri = _uri(args[0])
        refs = args[1] if isinstance(args[1], list) else [args[1]]
        source = args[2] if len(args) > 2 and isinstance(args[2], str) else None
        spec, pair = manager.pair_with(uri, [str(r) for r in refs], source)
        return {
            "hypothesis": str(spec.hypothesis),
            "references": [str(p) for p in spec.references],
            "source": str(spec.source) if spec.source else None,
            "problems": list(pair.problems) if pair else [],
        }

    @server.command(SHOW_REPORT)
    async def _report(ls, *args):
        pair = _pair(manager, args)
        await manager.wait_analysed(pair)
        diags, _rid = manager.diagnostics(pair)
        return report_text(pair, diags)

    @server.command(NEXT_FLAGGED)
    async def _next(ls, *args):
        pos = args[1] if len(args) > 1 else {"line": 0, "character": 0}
        line = int(pos.get("line", 0)) if isinstance(pos, dict) else int(getattr(pos, "line", 0))
        direction = args[2] if len(args) > 2 and isinstance(args[2], str) else "next"
        if not args:
            raise CommandError("expected a document URI as the first argument")
        character = int(pos.get("character", 0)) if isinstance(pos, dict) else int(getattr(pos, "character", 0))
        uri = _uri(args[0])
        try:
            return await manager.answers(uri).next_review(uri, line, character, direction)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    @server.command(EXPORT_SCORES)
    async def _export(ls, *args):
        pair = _pair(manager, args)
        fmt = args[1] if len(args) > 1 and isinstance(args[1], str) else "tsv"
        await manager.wait_analysed(pair)
        return str(export(pair, fmt))

    @server.command(SET_DRAFT)
    async def _set_draft(ls, *args):
        uri = _uri(args[0] if args else None)
        try:
            return await manager.answers(uri).set_draft(uri)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    @server.command(FORGET_DRAFT)
    async def _forget_draft(ls, *args):
        uri = _uri(args[0] if args else None)
        try:
            return await manager.answers(uri).forget_draft(uri)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

    @server.command(ADD_TO_GLOSSARY)
    async def _add_to_glossary(ls, *args):
        if len(args) < 2 or not all(isinstance(a, str) for a in args[:2]):
            raise CommandError("usage: bleuLs.addToGlossary(source term, target term [, status])")
        status = args[2] if len(args) > 2 and isinstance(args[2], str) else ""
        files = [f for f in manager.settings.terms.files if f.lower().endswith((".csv", ".tsv"))]
        if not files:
            raise CommandError("no CSV or TSV glossary is set: add one to [terms] files in bleu-ls.toml "
                               "(a file with a header such as “en,de”)")
        target_language = manager.settings.terms.target_language or None
        try:
            said = append_entry(files[0], args[0], args[1], status, target_language)
        except GlossaryWriteError as exc:
            raise CommandError(str(exc)) from None
        manager.on_file_changed(Path(files[0]))  # every open file's terms checked again now
        return {"glossary": files[0], "message": said}

    @server.command(ADD_TO_DICTIONARY)
    async def _add_to_dictionary(ls, *args):
        if len(args) < 2 or not isinstance(args[1], str):
            raise CommandError("usage: bleuLs.addToDictionary(uri, word)")
        doc = uri_path(_uri(args[0]))
        root = manager.root_for(doc)
        path = wordlist.find(str(doc)) or (root if root is not None else doc.parent) / wordlist.RELATIVE
        try:
            said = wordlist.add_word(path, args[1])
        except wordlist.WordListError as exc:
            raise CommandError(str(exc)) from None
        manager.update_watch_list()
        manager.on_file_changed(path)  # the finding goes at once
        return {"wordList": str(path), "message": said}
