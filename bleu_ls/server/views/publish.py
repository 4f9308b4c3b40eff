"""What the manager sends unasked: diagnostics pushed (debounced) to
clients without pull support, and refresh requests (inlay hints, code
lenses, pulled diagnostics) after a change the editor cannot see.

Also the diagnostics themselves: :mod:`bleu_ls.qa.analysis` findings of a pair
as LSP objects, cached by the pair's state.  They are kept per line
(:mod:`.diaglines`): after an edit only the lines whose findings changed
are filtered and encoded again, and the ``resultId`` changes only when a
diagnostic did, so a pull after a change that altered none answers
*unchanged*.

With the setting ``maxProblems`` (N > 0; the VS Code extension sends 1,000,
the most VS Code shows per file), pulled and pushed replies carry what an
editor showing N keeps, less one, and a note saying how many were not sent
(:meth:`.diaglines.DiagnosticLines.body`); code lenses, the status, hovers
and code actions read every finding.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types
from lsprotocol.converters import get_converter

from ...qa.analysis import Analyzer, Finding, internal_error, problem_findings, unpaired_findings
from ...qa.ignore import IgnoreStore, find_store_root
from ...config.pair_options import pair_names
from ..background import pools, heap, memory
from ..postedit import compare
from .diaglines import DiagnosticLines
from .pulled import PullFollower

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)
_CONVERTER = get_converter()

#: A full analysis of a document this long freezes the heap (gc.freeze).
FREEZE_LINES = 20000
#: Pause before a refresh request, to coalesce a burst of changes into one.
REFRESH_DELAY = 0.03
#: An analysis that has more lines than this to work out afresh (the first
#: pass over a large file, a settings change, a large paste) runs in a
#: worker thread on a copy of the model first, so that the event loop keeps
#: answering; the pass on the loop then finds the per-line work memoised.
THREAD_LINES = 2000
#: While a document was edited less than this many seconds ago, the rules
#: that rank a line against the whole document hold their findings
#: (``Analyzer.hold_ranks``); this long after the last edit they catch up and
#: the editor is told once (a push, or one diagnostics refresh).
RERANK_IDLE = 1.0
#: The refresh requests, by the client capability each needs.
REFRESH_KINDS = ("inlay_hint", "code_lens", "semantic_tokens", "diagnostics")



def analysis_names(pair: "Pair") -> dict:
    """The file names the findings' messages say (a file alone: its source's too, as ``check`` says it)."""
    names = pair_names(pair.path, pair.spec)
    if pair.alone is not None and pair.alone_source is not None:
        names["source"] = pair.alone_source.name
    return names

class Publisher:
    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        self._refresh_task: Optional[asyncio.Task] = None
        #: refresh kinds asked for and not sent yet; the request of each kind
        #: still unanswered (at most one outstanding per kind)
        self._refresh_wanted: set = set()
        self._refresh_out: dict = {}
        #: uri -> when it was last edited (loop time); uri -> its re-rank task
        self._typed: dict = {}
        self._rerank_tasks: dict = {}
        #: uri -> the large analysis a request asked for and did not wait for (analyse_soon)
        self._soon: dict = {}
        #: the ignore store of each workspace root (read again when it changes on disk)
        self._stores: dict = {}
        #: what a pulling editor holds; its refresh after a change (pulled.py)
        self.pulled = PullFollower(manager, self)

    # -- what is ignored -------------------------------------------------------
    def ignore_store(self, pair: "Pair") -> IgnoreStore:
        """The ``.bleu-ls/ignore.json`` of the pair's workspace folder; with no
        workspace folder (a single file), the nearest one at or above the file,
        else the file's own folder (where ``bleu-ls check`` looks too)."""
        root = self.manager.root_for(pair.path) or find_store_root(pair.path) or pair.path.parent
        store = self._stores.get(root)
        if store is None or store.stale():
            store = self._stores[root] = IgnoreStore.load(root)
        return store

    def republish(self) -> None:
        """The ignore store changed: send every pair's diagnostics again
        (pushed, or a refresh request for clients that pull)."""
        for other in list(self.manager.pairs.values()):
            other.diag_cache = None
            if not self.manager.pull_diagnostics:
                self.schedule_push(other)
        self.schedule_refresh()

    def _unignored(self, pair: "Pair", store: IgnoreStore, findings: list[Finding]) -> list[Finding]:
        if store.problem is not None:
            pair.ignored = pair.reviewed = 0
            return findings
        doc = self.manager.docs.get(pair.uri)
        text = doc.line if doc is not None else (lambda i: "")
        kept = store.filter(pair.path, findings, text)
        pair.ignored, pair.reviewed = kept.ignored, kept.reviewed
        return kept.findings

    # -- diagnostics ---------------------------------------------------------
    def findings(self, pair: "Pair") -> list[Finding]:
        """The pair's findings less those its workspace's ignore store hides."""
        store = self.ignore_store(pair)
        return self._unignored(pair, store, self._all_findings(pair, store))

    def _analyzer(self, pair: "Pair") -> Analyzer:
        analyzers = self.manager.analyzers
        analyzer = analyzers.get(pair.uri)
        if analyzer is None:
            analyzer = analyzers[pair.uri] = Analyzer(pair.settings, adequacy=self.manager.adequacy)
        analyzer.set_settings(pair.settings)
        analyzer.hold_ranks = self.typing(pair)
        return analyzer

    # -- ranks while typing ----------------------------------------------------
    def typing(self, pair: "Pair") -> bool:
        """Whether the pair's document was edited within RERANK_IDLE."""
        last = self._typed.get(pair.uri)
        if last is None:
            return False
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:
            return False
        return now - last < RERANK_IDLE

    def typed(self, pair: "Pair") -> None:
        """The user edited the pair's document: document-relative ranks wait
        until typing pauses (see RERANK_IDLE)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._typed[pair.uri] = loop.time()
        self.pulled.follow(pair)  # an editor that does not pull after each change: asked to when they changed
        task = self._rerank_tasks.get(pair.uri)
        if task is None or task.done():
            self._rerank_tasks[pair.uri] = asyncio.ensure_future(self._rerank(pair))

    async def _rerank(self, pair: "Pair") -> None:
        loop = asyncio.get_running_loop()
        while True:
            left = self._typed.get(pair.uri, 0.0) + RERANK_IDLE - loop.time()
            if left <= 0:
                break
            await asyncio.sleep(left + 0.005)
        self._typed.pop(pair.uri, None)
        analyzer = self.manager.analyzers.get(pair.uri)
        if analyzer is None or not analyzer.held or self.manager.pairs.get(pair.uri) is not pair:
            return
        view = pair.diag_cache
        if view is not None:
            view.key = None  # the same model version, other findings: read them again
        if not self.manager.pull_diagnostics:
            self.schedule_push(pair)
        self.schedule_refresh(("code_lens",))
        self.pulled.follow(pair)  # a diagnostics refresh only if they changed

    def findings_soon(self, pair: "Pair") -> bool:
        """Whether the pair's findings can be read without a long wait: no
        large stretch of lines left to score, no large analysis to run (or
        running) first.  A large file just opened is neither for a while."""
        model = pair.model
        if model is not None and model.stale_count() > THREAD_LINES:
            return False
        return not self.analysis_large(pair)

    def analysis_large(self, pair: "Pair") -> bool:
        """Whether reading the pair's findings now would wait for a large
        analysis: one running in a worker thread, or a pass with more than
        THREAD_LINES lines to work out afresh (the first pass over a large
        file; a file alone too), which :meth:`settle` runs in a worker thread
        and which must never run on the event loop for a request."""
        task = pair.settle_task
        if task is not None and not task.done():
            return True
        model: Any = pair.model if pair.model is not None else pair.alone
        if model is None or len(model.hyp) <= THREAD_LINES or not pair.settings.diagnostics.enabled:
            return False  # (diagnostics off: no pass to run)
        return self._analyzer(pair).unanalysed(model) > THREAD_LINES

    def analyse_soon(self, pair: "Pair") -> bool:
        """A request answered without the pair's findings (its analysis is
        large: :meth:`analysis_large`): run that analysis now in the
        background (once every line is scored, in a worker thread), read its
        findings, and ask the editor for code lenses again (the lens counts
        the flagged lines then; the next hover lists the line's findings).
        False when there is no event loop to run it on."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        task = self._soon.get(pair.uri)
        if task is None or task.done():
            self._soon[pair.uri] = asyncio.ensure_future(self._analyse_soon(pair))
        return True

    async def _analyse_soon(self, pair: "Pair") -> None:
        manager = self.manager
        await manager.wait_analysed(pair)
        if manager.pairs.get(pair.uri) is not pair or self.analysis_large(pair):
            return  # closed, or another large pass is due: the next request that needs it starts it
        self.update(pair)  # (from the memos the worker's pass left)
        self.schedule_refresh(("code_lens",))

    async def settle(self, pair: "Pair") -> None:
        """Before the pair's findings are read: when the next analysis has
        many lines to work out afresh, run it in a worker thread over a copy
        of the model (requests keep being answered meanwhile)."""
        task = pair.settle_task
        if task is None or task.done():
            model: Any = pair.model if pair.model is not None else pair.alone  # (a file alone: its lines)
            if model is None or len(model.hyp) <= THREAD_LINES:
                return
            analyzer = self._analyzer(pair)
            if analyzer.unanalysed(model) <= THREAD_LINES:
                return
            box = [model.copy(follow=True)]  # the pass on the loop then follows the copy's
            source = list(pair.source_lines) if pair.source_lines is not None else None
            names = analysis_names(pair)

            def run() -> None:
                copy = box.pop()
                with analyzer.lock, heap.quiet(len(copy.hyp)):
                    analyzer.analyse(copy, source, names)
                del copy  # the copy's lines and rows: freed before the heap is trimmed
                memory.release()  # what the pass freed in this thread's heap goes back to the system

            task = pair.settle_task = asyncio.ensure_future(pools.run(run))
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            raise
        except Exception:  # the pass on the loop says what went wrong
            log.exception("analysis in a worker thread failed")

    def _all_findings(self, pair: "Pair", store: IgnoreStore) -> list[Finding]:
        store_problems = [store.problem] if store.problem else []
        out = problem_findings(pair.problems, pair.settings_problems + store_problems)
        if pair.model is None:
            if pair.spec is None and pair.hypothesis_like:
                out += unpaired_findings(pair.path.name, pair.settings)
            if pair.alone is None:
                return out
        analyzer = self._analyzer(pair)
        try:
            with analyzer.lock:
                out += analyzer.analyse(pair.model if pair.model is not None else pair.alone, pair.source_lines,
                                        analysis_names(pair))
            if pair.model is not None:
                out += compare.findings(pair)
        except Exception as exc:  # never let a rule take the server down
            log.exception("analysis failed")
            out.append(internal_error(exc))
        return out

    def _key(self, pair: "Pair", store: IgnoreStore) -> tuple:
        model = pair.model if pair.model is not None else pair.alone
        doc = self.manager.docs.get(pair.uri)
        return (
            id(model),
            model.version if model is not None else None,
            id(pair.settings),
            tuple(pair.problems),
            tuple(pair.settings_problems),
            pair.hypothesis_like,
            doc.line_count if doc is not None else 0,
            id(pair.compare),
            store.revision,
        )

    def update(self, pair: "Pair") -> DiagnosticLines:
        """The pair's diagnostics, brought up to date: after an edit, only the
        lines whose findings changed are filtered and encoded again."""
        store = self.ignore_store(pair)
        key = self._key(pair, store)
        view = pair.diag_cache
        if view is not None and view.key == key:
            return view
        if view is None or view.base != key[:1] + key[2:6] + key[7:]:
            view = pair.diag_cache = DiagnosticLines(key[:1] + key[2:6] + key[7:])
        view.key = key
        doc = self.manager.docs.get(pair.uri)
        store_problems = [store.problem] if store.problem else []
        head = problem_findings(pair.problems, pair.settings_problems + store_problems)
        tail: list[Finding] = []
        analyzer = None
        if pair.model is None:
            if pair.spec is None and pair.hypothesis_like:
                head += unpaired_findings(pair.path.name, pair.settings)
            if pair.alone is not None:  # a file with its source alone: the rules that need no reference
                analyzer = self._analyzer(pair)
        else:
            analyzer = self._analyzer(pair)
            try:
                tail = compare.findings(pair)
            except Exception as exc:
                log.exception("analysis failed")
                tail = [internal_error(exc)]
        if analyzer is None:
            view.refresh(pair, store, doc, None, head, tail)
            return view
        with analyzer.lock:  # (a worker thread may be in a pass: see settle)
            try:
                if not analyzer.analyse_lines(pair.model if pair.model is not None else pair.alone, pair.source_lines,
                                              analysis_names(pair)):
                    analyzer = None
            except Exception as exc:  # never let a rule take the server down
                log.exception("analysis failed")
                analyzer, tail = None, [internal_error(exc)]
            view.refresh(pair, store, doc, analyzer, head, tail)
        if analyzer is not None and analyzer.changed is None and pair.model is not None and pair.model.n_paired >= FREEZE_LINES:
            # a large document fully analysed: what is on the heap now stays
            # (lines, rows, findings); full collections need not walk it
            gc.freeze()
        return view

    def compute(self, pair: "Pair") -> tuple[list[types.Diagnostic], Optional[str]]:
        """Diagnostics of the pair's current state and their result id (cached)."""
        view = self.update(pair)
        return view.diagnostics(self.manager.docs.get(pair.uri)), view.rid

    def encoded(self, pair: "Pair") -> tuple[list[str], Optional[str]]:
        """:meth:`compute` as the JSON text of each diagnostic (kept per line:
        only the lines whose findings changed are encoded again)."""
        view = self.update(pair)
        return view.items(), view.rid

    def encoded_body(self, pair: "Pair") -> tuple[str, Optional[str]]:
        """The items sent, joined: the JSON text of the items array's
        contents (joined from kept blocks of lines; with ``maxProblems``, the
        capped selection and the note) and the result id."""
        view = self.update(pair)
        return view.body(), view.rid

    # -- push ----------------------------------------------------------------
    def clear(self, uri: str) -> None:
        """A document stopped being a pair: take its pushed diagnostics away."""
        self.pulled.forget(uri)
        if not self.manager.pull_diagnostics:
            self.manager.client.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def schedule_push(self, pair: "Pair") -> None:
        if pair.push_task is not None and not pair.push_task.done():
            pair.push_dirty = True
            return
        pair.push_dirty = False
        pair.push_task = asyncio.ensure_future(self._push(pair))

    async def _push(self, pair: "Pair") -> None:
        delay = max(0, pair.settings.diagnostics.debounce_ms) / 1000.0
        manager = self.manager
        while True:
            pair.push_dirty = False
            await asyncio.sleep(delay)
            if pair.push_dirty:
                continue  # edits still arriving: wait for the newest version
            await manager.wait_analysed(pair)
            if pair.push_dirty:
                continue
            if pair.uri not in manager.pairs:
                return
            body, _rid = self.encoded_body(pair)
            doc = manager.docs.get(pair.uri)
            self._publish_encoded(pair.uri, body, doc.version if doc else None)
            if not pair.push_dirty:
                return

    def _publish_encoded(self, uri: str, body: str, version: Optional[int]) -> None:
        """``textDocument/publishDiagnostics`` from the kept JSON of the
        diagnostics (``body``: the items joined; no lsprotocol objects
        unstructured per push)."""
        client = self.manager.client
        protocol = getattr(client, "protocol", None)
        write = getattr(protocol, "_write_body", None)
        if write is None:  # not our protocol class: the plain way
            items = _CONVERTER.structure(json.loads("[" + body + "]"), list[types.Diagnostic])
            client.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version)
            )
            return
        params = '{"uri":' + json.dumps(uri)
        if version is not None:
            params += ',"version":' + json.dumps(version)
        write('{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":' + params
              + ',"diagnostics":[' + body + "]}}")

    # -- refresh requests ------------------------------------------------------
    def schedule_refresh(self, kinds: tuple = REFRESH_KINDS) -> None:
        """Ask the editor to request ``kinds`` again, soon (a burst of changes
        makes one request of each kind; a kind whose previous request is
        unanswered is sent once that answer comes)."""
        self._refresh_wanted.update(kinds)
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.ensure_future(self._refresh())

    async def _refresh(self) -> None:
        await asyncio.sleep(REFRESH_DELAY)
        self._send_refreshes()

    def _send_refreshes(self) -> None:
        manager, client = self.manager, self.manager.client
        senders = {
            "inlay_hint": "workspace_inlay_hint_refresh",
            "code_lens": "workspace_code_lens_refresh",
            "semantic_tokens": "workspace_semantic_tokens_refresh",
            "diagnostics": "workspace_diagnostic_refresh",
        }
        for kind in REFRESH_KINDS:
            if kind not in self._refresh_wanted:
                continue
            if not manager.workspace_cap(kind) or (kind == "diagnostics" and not manager.pull_diagnostics):
                self._refresh_wanted.discard(kind)
                continue
            out = self._refresh_out.get(kind)
            if out is not None and not out.done():
                continue  # sent when the outstanding one is answered
            self._refresh_wanted.discard(kind)
            try:
                fut = getattr(client, senders[kind])(None)
            except Exception as exc:
                log.warning("refresh request failed: %s", exc)
                continue
            if hasattr(fut, "add_done_callback"):
                self._refresh_out[kind] = fut
                fut.add_done_callback(self._refresh_answered)

    def _refresh_answered(self, _fut) -> None:
        if self._refresh_wanted and (self._refresh_task is None or self._refresh_task.done()):
            try:
                self._refresh_task = asyncio.ensure_future(self._refresh())
            except RuntimeError:  # no loop (shutting down)
                pass
