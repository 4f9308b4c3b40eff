"""The analyser: the rule table and one loop over it.

A rule is a function ``rule(ctx, check) -> findings`` of the shared
:class:`~.context.LineContext` and its own settings (``diagnostics.<code>``);
a new check is one function in the module of its family and one row in
:data:`RULES`.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from itertools import compress, count
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence

import numpy as np

from ..engine import common_splice
from ..settings import Settings
from . import file_rules, length_rules, qe_rules, score_rules, source_rules, text_rules
from .context import LineContext
from .findings import Finding
from .incremental import DELTA, DOC, FULL_SHARE, LINE, FindingStore, Inputs, diff_into, dirty_lines, drop_range, group
from .memo import LineMemo, Splice
from ..checks import alignment
from ..checks.language import LanguageIdentifier
from ..checks.qe import Adequacy


class Rule(NamedTuple):
    code: str
    check: Callable[[LineContext, Any], Iterable[Finding]]
    #: also run on a pair with no paired line
    file_level: bool = False
    #: how it is run after an edit (see :mod:`.incremental`): "line" rules
    #: report on the lines in ``ctx.scope``; "doc" rules on the whole
    #: document every pass; "delta" rules return (findings by line, changed lines)
    kind: str = DOC
    #: "line" rules: what every line's verdict depends on besides the line
    #: (when it changes, the rule reports on every line again)
    params: Optional[Callable[[LineContext, Any], Any]] = None


RULES: tuple[Rule, ...] = (
    Rule("empty-hypothesis", text_rules.empty_hypothesis, kind=LINE),
    Rule("repetition", text_rules.repetition, kind=LINE),
    Rule("untranslated", text_rules.untranslated, kind=LINE),
    Rule("low-score", score_rules.low_score, kind=LINE),
    Rule("outlier", score_rules.outlier, kind=DELTA),
    Rule("length-ratio", length_rules.length_ratio, kind=LINE, params=length_rules.length_params),
    Rule("line-count-mismatch", file_rules.line_count_mismatch, file_level=True),
    Rule("number-mismatch", source_rules.number_mismatch, kind=LINE),
    Rule("markup-mismatch", source_rules.markup_mismatch, kind=LINE),
    Rule("unbalanced", source_rules.unbalanced, kind=LINE),
    Rule("end-punctuation", source_rules.end_punctuation, kind=LINE),
    Rule("wrong-language", source_rules.wrong_language, kind=LINE, params=source_rules.language_params),
    Rule("misaligned", source_rules.misaligned),
    Rule("adequacy", qe_rules.adequacy),
)


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

    def __init__(self, settings: Optional[Settings] = None, cache_limit: int = 20000, adequacy=None) -> None:
        self.settings = settings or Settings()
        #: where the adequacy rule's values come from (``line_values``, ``error``):
        #: None = encoded here, synchronously (``bleu-ls check``); the server
        #: passes its worker process (checks.qe_background.BackgroundAdequacy)
        self._adequacy = adequacy
        self.cache_limit = cache_limit
        self.tokens: Callable[[str], list] = str.split
        self._text_key: Any = None
        self._findings_key: Any = None
        #: the previous pass's hypothesis lines and, once found, how this
        #: pass's lines differ from them (shared by the memos)
        self._last_hyp: Optional[list] = None
        self._splice: Optional[Splice] = None
        #: held for a whole pass: a server may run one in a worker thread
        self.lock = threading.Lock()
        #: (the previous pass's hypothesis lines, how this pass's differ)
        self._hyp_splice: Optional[tuple] = None
        #: the findings of the previous pass by rule and by line, what it read,
        #: and the lines the last pass changed (None: any)
        self.store = FindingStore()
        self._inputs: Optional[Inputs] = None
        self._params: dict = {}
        self.rule_state: dict = {}
        self.changed: Optional[set] = None
        #: passes run (a reader of ``changed`` checks it saw every one)
        self.passes = 0
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
        # the checks of bleu_ls.checks: memoised by the text they read
        self.source_facts = LineMemo(text_rules.skipping_long(source_rules.line_issues, cap, ()), limit)
        self.lean = LineMemo(text_rules.skipping_long(alignment.lean, cap, None), limit)
        self.chrf_memo: dict = {}
        self._windows: dict = {}
        self._source: Optional[list] = None
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
        found = self.languages_memo.values(hyp, self._splice_for(self.languages_memo, hyp))
        self.languages_memo.trim(hyp, len(hyp))
        return found

    def adequacy_model(self) -> Adequacy:
        model = self._adequacy
        if model is None:
            model = self._adequacy = Adequacy()
        return model

    def source_issues(self, hyp: list, source: list, refs: list) -> list:
        """Per line: the per-line source checks' issues ((code, Issue), ...)."""
        return self._by_window("source", hyp, (source, refs), self.source_facts, 0,
                               lambda i: (hyp[i], source[i], *[r[i] for r in refs]))

    def leanings(self, hyp: list, ref: list) -> list:
        """Per line: its leaning against the reference (checks.alignment)."""
        values = self._by_window("lean", hyp, ref, self.lean, alignment.REACH,
                                 lambda i: alignment.window_key(hyp, ref, i))
        alignment.forget_bags()  # they served this pass's windows (~6 MB kept otherwise)
        return values

    def source_tokens(self, source: list) -> int:
        """Tokens in the source lines (remembered while the source is unchanged)."""
        last = self._windows.get("source-tokens")
        if last is None or last[0] != source:
            last = self._windows["source-tokens"] = (source, sum(map(self.token_count.__getitem__, source)))
        return last[1]

    def _by_window(self, slot: str, hyp: list, others: Any, memo: LineMemo, pad: int, key_of) -> list:
        """``memo[key_of(i)]`` for every line; when ``others`` (the source or
        reference lines) are unchanged and the line count is the same, only
        the lines within ``pad`` of the edit are looked up again."""
        last = self._windows.get(slot)
        n = len(hyp)
        if last is not None and len(last[0]) == n and last[1] == others:
            known = self._hyp_splice
            start, end_old, _new = known[1] if known is not None and known[0] is last[0] else common_splice(last[0], hyp)
            lo, hi = max(0, start - pad), min(n, end_old + pad)
            values = last[2]  # changed in place: only this analyser holds it
            values[lo:hi] = [memo[key_of(i)] for i in range(lo, hi)]
            marked = last[3]
            marked[bisect_left(marked, lo) : bisect_left(marked, hi)] = [i for i in range(lo, hi) if values[i]]
        else:
            keys = [key_of(i) for i in range(n)]
            values = [memo[k] for k in keys]
            memo.trim(keys, n)
            marked = list(compress(count(), values))
        self._windows[slot] = (hyp, others, values, marked)
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
        the previous pass's (found once per pass); else None."""
        if not memo.follows(self._last_hyp):
            return None
        if self._splice is None:
            self._splice = common_splice(self._last_hyp, hyp)
        return self._splice

    def line_facts(self, hyp: list) -> list:
        info = self.facts.values(hyp, self._splice_for(self.facts, hyp))
        self.facts.trim(hyp, len(hyp))
        return info

    def normalised(self, hyp: list, source: list) -> tuple[list, list]:
        if source != self._source:
            self._source = source
            self._source_norm = list(map(self.norm.__getitem__, source))
        hyp_norm = self.norm.values(hyp, self._splice_for(self.norm, hyp))
        self.norm.trim([*hyp, *source], 2 * len(hyp))
        return hyp_norm, self._source_norm

    def token_counts(self, hyp: list, refs: Sequence[Sequence[str]], n: int) -> tuple[np.ndarray, np.ndarray]:
        """(hypothesis tokens, closest reference tokens) per paired line, counted."""
        count = self.token_count.__getitem__
        hl = np.fromiter(map(count, hyp), dtype=np.int64, count=n)
        ref_lens = [np.fromiter(map(count, r[:n]), dtype=np.int64, count=n) for r in refs]
        self.token_count.trim([*hyp, *(x for r in refs for x in r[:n])], (1 + len(refs)) * n)
        return hl, length_rules.closest_lengths(hl, ref_lens)

    # -- the pass --------------------------------------------------------------
    def unanalysed(self, model) -> int:
        """How many of ``model``'s lines the next :meth:`analyse` works out
        afresh (every line on the first pass and after a settings change
        that drops the per-line memos; else the lines changed since the
        previous pass).  The server runs a pass with many such lines in a
        worker thread first."""
        hyp = model.hyp
        if self._last_hyp is None or self._text_key != self._text_key_of(model):
            return len(hyp)
        start, end_old, new = common_splice(self._last_hyp, hyp)
        return len(new)

    def _text_key_of(self, model) -> tuple:
        """What the per-line memos depend on (they are dropped when it changes)."""
        s = self.settings
        metrics = model.metrics
        tok_metric = metrics.get("bleu") or metrics.get("chrf")
        sig = None if tok_metric is None else tok_metric.signature(1)
        return (repr(s.diagnostics.repetition), s.bleu.lowercase, sig, s.max_line_bytes)

    def _prepare(self, model) -> None:
        """Forget what depends on settings that changed."""
        s = self.settings
        d = s.diagnostics
        metrics = model.metrics
        tok_metric = metrics.get("bleu") or metrics.get("chrf")
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
        n = ctx.n
        key = (id(model), tuple((k, id(m)) for k, m in model.metrics.items()), self._findings_key, self._text_key)
        last = self._inputs
        inputs = Inputs(n, ctx.hyp, [_copy(r, n, last.refs[k] if last is not None and k < len(last.refs) else None)
                                     for k, r in enumerate(ctx.refs)],
                        None if source is None else _copy(source, n, last.source if last is not None else None), key)
        ctx.ref_lines, ctx.source_lines = inputs.refs, inputs.source
        self._inputs = inputs
        scope, hyp_splice = dirty_lines(last, inputs)
        if scope is not None and (scope[1] - scope[0]) > FULL_SHARE * max(n, 1):
            scope = None
        self._splice = None
        if hyp_splice is not None and last.hyp is self._last_hyp:
            self._splice = hyp_splice  # the memos' splice, found once
        self._hyp_splice = (last.hyp, hyp_splice) if hyp_splice is not None else None
        try:
            if scope is None:
                self._full(ctx)
            else:
                self._incremental(ctx, scope)
        except BaseException:
            self._inputs = None  # the next pass starts over
            raise
        if n:
            self.previous_findings = ctx.kept
        if any(m.follows(ctx.hyp) for m in (self.facts, self.norm, getattr(self, "languages_memo", self.facts))):
            self._last_hyp = ctx.hyp
        return True

    def _active(self, ctx: LineContext, rule: Rule) -> Any:
        if not (ctx.n or rule.file_level):
            return None
        return ctx.check(rule.code)

    def _full(self, ctx: LineContext) -> None:
        results = []
        self._params = {}
        for rule in RULES:
            c = self._active(ctx, rule)
            if c is None:
                continue
            if rule.params is not None:
                self._params[rule.code] = rule.params(ctx, c)
            if rule.kind == DELTA:
                by_line, _changed = rule.check(ctx, c)
                found = [f for i in sorted(by_line) for f in by_line[i]]
            else:
                found = list(rule.check(ctx, c))
            results.append((rule.code, found))
        self.store.full(results)
        self.changed = None

    def _incremental(self, ctx: LineContext, scope: tuple[int, int]) -> None:
        store, changed = self.store, set()
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
                continue
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
                    new = group(rule.check(ctx, c))
                finally:
                    ctx.scope = None
                if rscope is None:
                    changed.update(old or ())
                    changed.update(new)
                    by_code[code] = new
                else:
                    drop_range(old, lo, hi)
                    old.update(new)
            elif rule.kind == DELTA:
                by_line, moved = rule.check(ctx, c)
                if moved is None:
                    changed.update(old or ())
                    changed.update(by_line)
                else:
                    changed.update(moved)
                by_code[code] = by_line
            else:
                new = group(rule.check(ctx, c))
                diff_into(old, new, changed)
                by_code[code] = new
        self.changed = store.settle(changed, scope)


def _copy(lines: Sequence[str], n: int, previous: Optional[list]) -> list:
    """``list(lines[:n])``; the previous pass's copy when the lines equal it
    (compared at C speed, mostly by identity), so unchanged references cost
    no copy."""
    if previous is not None and len(previous) == n and len(lines) == n and previous == lines:
        return previous
    return list(lines[:n])


def analyse(model, settings: Settings, source: Optional[Sequence[str]] = None, names: Optional[dict] = None) -> list[Finding]:
    """All findings for one pair, without a cache (see :class:`Analyzer`)."""
    return Analyzer(settings).analyse(model, source, names)
