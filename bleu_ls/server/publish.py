"""What the manager sends unasked: diagnostics pushed (debounced) to
clients without pull support, and refresh requests (inlay hints, code
lenses, pulled diagnostics) after a change the editor cannot see.

Also the diagnostics themselves: :mod:`bleu_ls.analysis` findings of a pair
as LSP objects, cached by the pair's state.  The ``resultId`` is a hash of
the diagnostics, so a pull after a change that altered no diagnostic also
answers *unchanged*.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from ..analysis import Analyzer, Finding, internal_error, problem_findings, unpaired_findings
from ..ignore import IgnoreStore, find_store_root
from ..pairstep import pair_names
from . import compare
from .render import to_diagnostic

if TYPE_CHECKING:
    from .pairs import Pair, PairManager

log = logging.getLogger(__name__)

#: This server process's token in every diagnostics resultId.
_RUN = uuid.uuid4().hex[:8]
#: Pause before a refresh request, to coalesce a burst of changes into one.
REFRESH_DELAY = 0.03
#: An analysis that has more lines than this to work out afresh (the first
#: pass over a large file, a settings change, a large paste) runs in a
#: worker thread on a copy of the model first, so that the event loop keeps
#: answering; the pass on the loop then finds the per-line work memoised.
THREAD_LINES = 2000


class Publisher:
    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        self._refresh_task: Optional[asyncio.Task] = None
        #: the ignore store of each workspace root (read again when it changes on disk)
        self._stores: dict = {}

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
        return analyzer

    async def settle(self, pair: "Pair") -> None:
        """Before the pair's findings are read: when the next analysis has
        many lines to work out afresh, run it in a worker thread over a copy
        of the model (requests keep being answered meanwhile)."""
        task = pair.settle_task
        if task is None or task.done():
            model = pair.model
            if model is None or len(model.hyp) <= THREAD_LINES:
                return
            analyzer = self._analyzer(pair)
            if analyzer.unanalysed(model) <= THREAD_LINES:
                return
            copy = model.copy()
            source = list(pair.source_lines) if pair.source_lines is not None else None
            names = pair_names(pair.path, pair.spec)

            def run() -> None:
                with analyzer.lock:
                    analyzer.analyse(copy, source, names)

            task = pair.settle_task = asyncio.ensure_future(asyncio.to_thread(run))
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
            return out
        analyzer = self._analyzer(pair)
        try:
            with analyzer.lock:
                out += analyzer.analyse(pair.model, pair.source_lines, pair_names(pair.path, pair.spec))
            out += compare.findings(pair)
        except Exception as exc:  # never let a rule take the server down
            log.exception("analysis failed")
            out.append(internal_error(exc))
        return out

    def compute(self, pair: "Pair") -> tuple[list[types.Diagnostic], str]:
        """Diagnostics of the pair's current state and their result id (cached)."""
        model = pair.model
        doc = self.manager.docs.get(pair.uri)
        store = self.ignore_store(pair)
        key = (
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
        cached = pair.diag_cache
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        memo = pair.diag_memo
        fresh: dict = {}
        diags = []
        for f in self.findings(pair):
            text = doc.line(f.line) if doc is not None else ""
            fkey = (f.line, f.code, f.severity, f.message, f.start_col, f.end_col, text)
            d = memo.get(fkey)
            if d is None:
                d = to_diagnostic(doc, f)
            fresh[fkey] = d
            diags.append(d)
        pair.diag_memo = fresh
        pair.flagged = sorted({d.range.start.line for d in diags})
        # Python's hash of the finding keys (C speed: ~2 ms for 10k keys,
        # where a sha1 of their reprs took ~30-60 ms), prefixed with a
        # token of this server process, so that an id from another run of
        # the server never matches.
        rid = f"{_RUN}-{hash(tuple(fresh)) & 0xFFFFFFFFFFFFFFFF:016x}"
        pair.diag_cache = (key, diags, rid)
        pair.diag_keys = list(fresh)
        return diags, rid

    def encoded(self, pair: "Pair") -> tuple[list[str], str]:
        """:meth:`compute` as the JSON text of each diagnostic; a diagnostic
        unchanged since the last reply (same line, text and finding) re-uses
        its text instead of being unstructured and encoded again."""
        diags, rid = self.compute(pair)
        if pair.diag_json_rid == rid:
            return pair.diag_json_items, rid
        encode = self.manager.client.protocol.encode
        old = pair.diag_json
        fresh = {}
        for k, d in zip(pair.diag_keys, diags):
            text = old.get(k)
            fresh[k] = text if text is not None else encode(d)
        pair.diag_json = fresh
        pair.diag_json_items = list(fresh.values())
        pair.diag_json_rid = rid
        return pair.diag_json_items, rid

    # -- push ----------------------------------------------------------------
    def clear(self, uri: str) -> None:
        """A document stopped being a pair: take its pushed diagnostics away."""
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
            diags, _rid = self.compute(pair)
            doc = manager.docs.get(pair.uri)
            manager.client.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=pair.uri, diagnostics=diags, version=doc.version if doc else None)
            )
            if not pair.push_dirty:
                return

    # -- refresh requests ------------------------------------------------------
    def schedule_refresh(self) -> None:
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.ensure_future(self._refresh())

    async def _refresh(self) -> None:
        await asyncio.sleep(REFRESH_DELAY)
        manager, client = self.manager, self.manager.client
        try:
            if manager.workspace_cap("inlay_hint"):
                client.workspace_inlay_hint_refresh(None)
            if manager.workspace_cap("code_lens"):
                client.workspace_code_lens_refresh(None)
            if manager.workspace_cap("semantic_tokens"):
                client.workspace_semantic_tokens_refresh(None)
            if manager.pull_diagnostics and manager.workspace_cap("diagnostics"):
                client.workspace_diagnostic_refresh(None)
        except Exception as exc:
            log.warning("refresh request failed: %s", exc)
