"""The analyser: one loop over the rule table (:data:`~.rules.RULES`, in ``rules.py``).

A rule is a function ``rule(ctx, check) -> findings`` of the shared
:class:`~.context.LineContext` and its own settings (``diagnostics.<code>``);
a new check is one function in the module of its family and one row in
:data:`~.rules.RULES`.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from itertools import compress, count
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ...config.settings import Settings
from . import length_rules, source_rules, text_rules
from .context import LineContext
from ..findings import DenseLines, Finding, Lines, dense_if_most
from .incremental import FULL_SHARE, ByLine, FindingStore, Seen, changes, diff_into, drop_range, group, kept
from .memo import LineMemo, Splice, WindowValues
from ..rules import DELTA, LINE, RANKED, RULES, Rule
from ..text import alignment
from ..text.language import LanguageIdentifier
from ..adequacy.qe import Adequacy


class Analyzer:
    """Runs the rules over a pair model, caching what reads the text.

    Keep one per document (or pair) and call :meth:`analyse` after every
    change.  The expensive per-line work (tokenizing, looking for loops,
    normalising for the untranslated check) is memoised by line text, so a
    pass over unchanged lines costs C-level dictionary lookups, and lines
    that move (inserted lines above) are not recomputed either.  Memos are
    dropped when the settings change and trimmed to the document's lines
    when they grow past ``cache_limit`` and three times the document.
    """

    def __init__(self, settings: Optional[Settings] = None, cache_limit: int = 20000, adequacy=None,
                 workers: Optional[int] = 1) -> None:
        self.settings = settings or Settings()
        #: processes a full pass may use (a row's ``prefetch``: the term scan in worker
        #: processes); 1: this one alone (the server, which runs passes in a thread); None: one
        #: per core (``bleu-ls check``'s default, ``--jobs``)
        self.workers = workers
        #: where the adequacy rule's values come from (``line_values``, ``error``):
        #: None = encoded here, synchronously (``bleu-ls check``); the server
        #: passes its worker process (checks.qe_background.BackgroundAdequacy)
        self._adequacy = adequacy
        self.cache_limit = cache_limit
        self.tokens: Callable[[str], list] = str.split
        self._text_key: Any = None
        self._findings_key: Any = None
        #: how this pass's paired hypothesis lines differ from the previous
        #: pass's (None: not known); given to the memos that followed that pass
        self._splice: Optional[Splice] = None
        #: the lines [lo, hi) that changed since the previous pass (None: any)
        self._scope: Optional[tuple[int, int]] = None
        #: held for a whole pass: a server may run one in a worker thread
        self.lock = threading.Lock()
        #: the findings of the previous pass by rule and by line, what it read,
        #: and the lines the last pass changed (None: any)
        self.store = FindingStore()
        self._inputs: Optional[Seen] = None
        #: per-line arrays kept from pass to pass: name -> (pass number, array)
        self._kept: dict = {}
        self._n = 0
        self._params: dict = {}
        self.rule_state: dict = {}
        self.changed: Optional[set] = None
        #: passes run (a reader of ``changed`` checks it saw every one)
        self.passes = 0
        #: set by the caller: the RANKED rules wait (see RANKED); ``held``:
        #: code -> (lines changed since the rule last ran, that pass's number)
        self.hold_ranks = False
        self.held: dict = {}
        self._same_shape = False
        self._reset()

    def _reset(self) -> None:
        limit = self.cache_limit
        self.facts = LineMemo(self._line_facts, limit)
        cap = self.settings.max_line_bytes  # lines over it are not read (text_rules.over_cap)
        self.norm = LineMemo(text_rules.skipping_long(text_rules.normalise, cap, ""), limit)
        self.token_count = LineMemo(lambda line: len(self.tokens(line)), limit)
        self.stats = {"hyp_lines_computed": 0}
        #: repetition rule: (candidates, reference lines, factor) -> verdict
        self.repetition_verdicts: dict = {}
        # the checks of bleu_ls.qa.text: memoised by the text they read
        self.source_facts = WindowValues(text_rules.skipping_long(source_rules.line_issues, cap, ()), 0)
        self.lean = WindowValues(text_rules.skipping_long(alignment.lean, cap, None), alignment.REACH)
        self.chrf_memo: dict = {}
        self._windows: dict = {}
        self._source: Optional[Sequence[str]] = None
        self._source_norm: list = []
        self.previous_findings: dict = {}
        self._inputs = None

    def set_settings(self, settings: Settings) -> None:
        self.settings = settings

    # -- models the text checks load once (kept across resets) -------------------
    def language_identifier(self, min_letters: int) -> LanguageIdentifier:
        lid = self.__dict__.get("_lid")
        cap = self.settings.max_line_bytes or None
        if lid is None or lid.min_letters != min_letters or lid.max_bytes != cap:
            lid = self._lid = LanguageIdentifier(min_letters, cap)
            self.languages_memo = LineMemo(lid.identify, self.cache_limit)
        return lid

    def languages(self, hyp: list) -> list:
        """(language, probability) or None per line (identifier loaded first)."""
        found = self._memo_values(self.languages_memo, hyp)
        self.languages_memo.trim(hyp, len(hyp))
        return found

    def adequacy_model(self) -> Adequacy:
        model = self._adequacy
        if model is None:
            model = self._adequacy = Adequacy()
        return model

    def source_issues(self, hyp: list, source: Sequence[str], refs: list) -> list:
        """Per line: the per-line source checks' issues ((code, Finding), ...)
        (lines past the source's end: no source line to compare)."""
        ns = len(source)
        return self._by_window("source", (hyp, source, *refs), self.source_facts,
                               lambda i: (hyp[i], source[i] if i < ns else None, *[r[i] for r in refs]))

    def leanings(self, hyp: list, ref: list, n: int) -> list:
        """Per line: its leaning against the reference's first ``n`` lines (checks.alignment)."""
        values = self._by_window("lean", (hyp, ref), self.lean, lambda i: alignment.window_key(hyp, ref, i, n=n))
        alignment.forget_bags()  # they served this pass's windows (~6 MB kept otherwise)
        return values

    def source_tokens(self, source: Sequence[str], n: int) -> int:
        """Tokens in the source's first ``n`` lines (remembered while the
        source is the same list: a new one when it changes)."""
        last = self._windows.get("source-tokens")
        if last is None or last[0] is not source or last[1] != n:
            last = self._windows["source-tokens"] = (source, n, sum(map(self.token_count.__getitem__, source[:n])))
        return last[2]

    def _by_window(self, slot: str, columns: tuple, cache: WindowValues, key_of) -> list:
        """``cache``'s values of every paired line for this pass (after an
        edit, the windows around the changed lines are computed again; see
        :class:`~.memo.WindowValues`), and the lines whose value is true."""
        last = self._windows.get(slot)
        n = self._n
        if last is not None and last[0] == self.passes and last[1] == n:
            return last[2]
        follows = last is not None and last[0] == self.passes - 1
        values = cache.values(columns, n, key_of, self._scope if follows else None, self.passes, self.passes - 1)
        if follows and last is not None and cache.changed is not None and last[2] is values:
            lo, hi = cache.changed
            marked = last[3]
            marked[bisect_left(marked, lo) : bisect_left(marked, hi)] = [i for i in range(lo, hi) if values[i]]
        else:
            marked = list(compress(count(), values))
        self._windows[slot] = (self.passes, n, values, marked)
        return values

    def marked(self, slot: str) -> list:
        """The lines whose value is true in the last ``_by_window`` answer of ``slot``, in order."""
        return self._windows[slot][3]

    # -- per-line facts (memoised by text) ---------------------------------------
    def _line_facts(self, line: str):
        self.stats["hyp_lines_computed"] += 1
        return text_rules.line_facts(line, self.settings.diagnostics.repetition, self.tokens, self.settings.max_line_bytes)

    def _splice_for(self, memo: LineMemo, hyp: list) -> Optional[Splice]:
        """How ``hyp`` differs from the lines ``memo`` saw last, when those are
        the previous pass's; else None (every line looked up)."""
        if self._splice is None or not memo.follows(self.passes - 1):
            return None
        return self._splice

    def _memo_values(self, memo: LineMemo, hyp: list) -> list:
        splice = self._splice_for(memo, hyp)
        if splice is None:
            memo.forget()  # the lines it saw may be the model's list, changed in place since
        return memo.values(hyp, splice, self.passes)

    def line_facts(self, hyp: list) -> list:
        info = self._memo_values(self.facts, hyp)
        self.facts.trim(hyp, len(hyp))
        return info

    def normalised(self, hyp: list, source: Sequence[str]) -> tuple[list, list]:
        if source is not self._source:  # (a new list when the source changes)
            self._source = source
            self._source_norm = list(map(self.norm.__getitem__, source))
        hyp_norm = self._memo_values(self.norm, hyp)
        if self.norm.over(2 * len(hyp)):
            self.norm.trim([*hyp, *source], 2 * len(hyp))
        return hyp_norm, self._source_norm

    def token_counts(self, hyp: list, refs: Sequence[Sequence[str]], n: int) -> tuple[np.ndarray, np.ndarray]:
        """(hypothesis tokens, closest reference tokens) per paired line,
        counted (after an edit, on the changed lines only)."""
        count = self.token_count.__getitem__

        def counted(lo: int, hi: int) -> np.ndarray:
            hl = np.fromiter(map(count, hyp[lo:hi]), dtype=np.int64, count=hi - lo)
            ref_lens = [np.fromiter(map(count, r[lo:hi]), dtype=np.int64, count=hi - lo) for r in refs]
            return np.stack((hl, length_rules.closest_lengths(hl, ref_lens)))

        both = self.kept("lengths", n, counted)
        if self._scope is None:
            self.token_count.trim([*hyp[:n], *(x for r in refs for x in r[:n])], (1 + len(refs)) * n)
        return both[0], both[1]

    def kept(self, name: str, n: int, compute: Callable[[int, int], np.ndarray]) -> np.ndarray:
        """A per-line array kept from pass to pass (see ``incremental.kept``)."""
        return kept(self._kept, name, n, self.passes, self._scope, compute)

    # -- the pass --------------------------------------------------------------
    def unanalysed(self, model) -> int:
        """How many of ``model``'s lines the next :meth:`analyse` works out
        afresh (every line on the first pass and after a settings change
        that drops the per-line memos; else the lines changed since the
        previous pass).  The server runs a pass with many such lines in a
        worker thread first."""
        hyp = model.hyp
        seen = self._inputs
        if seen is None or self._text_key != self._text_key_of(model) or seen.key[0] is not model.lineage:
            return len(hyp)
        edits = model.edits.since(seen.version)
        if edits is None:
            return len(hyp)
        return sum(m for _v, k, _s, _e, m in edits if k is None)

    def _text_key_of(self, model) -> tuple:
        """What the per-line memos depend on (they are dropped when it changes)."""
        s = self.settings
        metrics = model.metrics
        tok_metric = next((m for m in metrics.values() if m.word_tokens), None)
        sig = None if tok_metric is None else tok_metric.signature(1)
        return (repr(s.diagnostics.repetition), s.bleu.lowercase, sig, s.max_line_bytes)

    def _prepare(self, model) -> None:
        """Forget what depends on settings that changed."""
        s = self.settings
        d = s.diagnostics
        metrics = model.metrics
        tok_metric = next((m for m in metrics.values() if m.word_tokens), None)
        self.tokens = tok_metric.tokens if tok_metric is not None else str.split
        text_key = self._text_key_of(model)
        if text_key != self._text_key:
            self._text_key = text_key
            self._reset()
        findings_key = (repr(d), tuple((k, m.name) for k, m in metrics.items()))
        if findings_key != self._findings_key:
            self._findings_key = findings_key
            self.previous_findings = {}
            self.rule_state = {}
            self._inputs = None

    def analyse(self, model, source: Optional[Sequence[str]] = None, names: Optional[dict] = None) -> list[Finding]:
        """All findings for the pair, sorted by line."""
        if not self.analyse_lines(model, source, names):
            return []
        return self.store.findings()

    def analyse_lines(self, model, source: Optional[Sequence[str]] = None, names: Optional[dict] = None) -> bool:
        """Analyse the pair; the findings by line are then in :attr:`store`
        (``final``, ``lines``) and the lines whose findings may have changed
        since the previous call in :attr:`changed` (None: any line).  False
        when diagnostics are off (no findings)."""
        if not self.settings.diagnostics.enabled:
            self.passes += 1
            self.store, self._inputs, self.changed = FindingStore(), None, None
            return False
        self.passes += 1
        self._prepare(model)
        ctx = LineContext(self, model, source, names or {})
        n = self._n = ctx.n
        key = (model.lineage, tuple((k, id(m)) for k, m in model.metrics.items()), self._findings_key, self._text_key)
        last = self._inputs
        seen = Seen(key, model.version, n, len(model.hyp), tuple(len(r) for r in model.refs),
                    source if source is None or isinstance(source, list) else list(source),
                    -1 if source is None else len(source), self.passes)
        scope, self._splice = changes(last, seen, model, seen.source)
        self._same_shape = (last is not None and last.n == seen.n and last.n_hyp == seen.n_hyp
                            and last.n_refs == seen.n_refs and last.n_source == seen.n_source)
        self._inputs = seen
        if scope is not None and (scope[1] - scope[0]) > FULL_SHARE * max(n, 1):
            scope = None
        self._scope = ctx.pass_scope = scope
        try:
            if scope is None:
                self._full(ctx)
            else:
                self._incremental(ctx, scope)
        except BaseException:
            self._inputs = None  # the next pass starts over
            raise
        if n:
            if self.held:  # the held rules' findings stay reusable for their next run
                old = self.previous_findings
                held = self.held
                for k, f in old.items():
                    if k[0] in held:
                        ctx.kept.setdefault(k, f)
            self.previous_findings = ctx.kept
        return True

    def _active(self, ctx: LineContext, rule: Rule) -> Any:
        if not (ctx.n or rule.file_level) or (rule.needs_reference and not ctx.refs):
            return None
        assert rule.attribute is not None, rule.code  # every analyser row has a settings row (qa/rules.py)
        return ctx.check(rule.attribute)

    def _full(self, ctx: LineContext) -> None:
        try:
            self._full_pass(ctx)
        finally:
            for close in ctx.closing:
                close()

    def _full_pass(self, ctx: LineContext) -> None:
        results: list[tuple[str, Union[list, ByLine, DenseLines]]] = []
        self._params = {}
        started = set()
        for rule in RULES:  # what the rows start before any rule runs
            if rule.prefetch is not None and rule.prefetch not in started and (c := self._active(ctx, rule)) is not None:
                started.add(rule.prefetch)
                rule.prefetch(ctx, c)
        for rule in RULES:
            c = self._active(ctx, rule)
            if c is None:
                continue
            if rule.params is not None:
                self._params[rule.code] = rule.params(ctx, c)
            check = _check_of(rule)
            found: Union[list, ByLine, DenseLines]
            if rule.kind == DELTA:
                by_line, _changed = check(ctx, c)
                found = [f for i in sorted(by_line) for f in by_line[i]]
            else:
                got = check(ctx, c)
                found = got if isinstance(got, (ByLine, DenseLines)) else list(got)
            results.append((rule.code, found))
        self.store.full(results, ctx.n)
        self.changed = None
        self.held = {}

    def _incremental(self, ctx: LineContext, scope: tuple[int, int]) -> None:
        store = self.store
        changed: set[int] = set()
        by_code = store.by_code
        lo, hi = scope
        for rule in RULES:
            code = rule.code
            c = self._active(ctx, rule)
            old = by_code.get(code)
            if c is None:
                if old:
                    changed.update(old)
                by_code.pop(code, None)
                self.held.pop(code, None)
                continue
            held = self.held.get(code)
            if code in RANKED and old is not None:
                if self.hold_ranks and self._same_shape and (held is not None or lo < hi):
                    # held: the edited lines' findings go, the rest stay
                    if lo < hi:
                        dropped = [i for i in old if lo <= i < hi] if len(old) < hi - lo else [i for i in range(lo, hi) if i in old]
                        if dropped:
                            old = by_code[code] = {i: fs for i, fs in old.items() if not lo <= i < hi}
                            changed.update(dropped)
                    if held is None:
                        self.held[code] = ((lo, hi), self.passes - 1)
                    else:
                        (a, b), since = held
                        self.held[code] = ((min(a, lo), max(b, hi)) if lo < hi else (a, b), since)
                    continue
                if held is not None:
                    del self.held[code]
                    if not self._same_shape:  # lines moved since: start the rule over
                        held = old = None
                        changed.update(by_code.pop(code, {}))
            if held is not None:
                (a, b), since = held
                if lo < hi:
                    a, b = min(a, lo), max(b, hi)
                # the rule catches up: the lines changed since it last ran
                ctx.pass_scope, ctx.previous_pass = (a, b), since
                changed.update(range(a, b))
            try:
                self._run_incremental(ctx, rule, c, code, old, scope, by_code, changed)
            finally:
                ctx.pass_scope, ctx.previous_pass = scope, self.passes - 1
        self.changed = store.settle(changed, scope)

    def _run_incremental(self, ctx: LineContext, rule: Rule, c: Any, code: str, old: Optional[Lines],
                         scope: tuple[int, int], by_code: dict, changed: set) -> None:
        lo, hi = scope
        check = _check_of(rule)
        if True:
            if rule.kind == LINE:
                rscope: Optional[tuple[int, int]] = scope
                if rule.params is not None:
                    p = rule.params(ctx, c)
                    if self._params.get(code, self) != p:
                        self._params[code], rscope = p, None
                if old is None:
                    rscope = None
                ctx.scope = rscope
                try:
                    got = check(ctx, c)
                    new = got if isinstance(got, (ByLine, DenseLines)) else group(got)
                finally:
                    ctx.scope = None
                if rscope is None:
                    changed.update(old or ())
                    changed.update(new)
                    by_code[code] = dense_if_most(new, ctx.n)
                else:
                    assert old is not None  # (rscope is None without old findings)
                    drop_range(old, lo, hi)
                    old.update(new)
            elif rule.kind == DELTA:
                by_line, moved = check(ctx, c)
                if moved is None:
                    changed.update(old or ())
                    changed.update(by_line)
                else:
                    changed.update(moved)
                by_code[code] = by_line
            else:
                got = check(ctx, c)
                new = got if isinstance(got, (ByLine, DenseLines)) else group(got)
                diff_into(old, new, changed)
                by_code[code] = new


def analyse(model, settings: Settings, source: Optional[Sequence[str]] = None, names: Optional[dict] = None) -> list[Finding]:
    """All findings for one pair, without a cache (see :class:`Analyzer`)."""
    return Analyzer(settings).analyse(model, source, names)


def _check_of(rule: Rule) -> Callable[[LineContext, Any], Any]:
    """The function of an analyser row (RULES holds only rows with one)."""
    assert rule.check is not None, rule.code
    return rule.check
