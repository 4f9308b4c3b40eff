"""The diagnostics rules, shared by the language server and ``bleu-ls check``.

Pure: takes a :class:`~bleu_ls.engine.PairModel` (and the source lines when
a source file is paired) and returns :class:`Finding` records.  Codes are
stable; each can be switched off and given a severity in the settings
(``diagnostics.<code>``):

``low-score``            the line's BLEU (chrF) is under the threshold
``outlier``              the line is far below this document's typical line
``empty-hypothesis``     the line is empty, the reference is not
``untranslated``         the line equals the source line
``length-ratio``         the line is much shorter/longer than the reference
``repetition``           a word or phrase repeats far more than in the reference
``line-count-mismatch``  hypothesis and reference have different line counts
``unpaired``             a hypothesis-like file with no reference

Cost.  What is vectorised over ``model.values()`` / the BLEU statistics
(low-score, outlier, length-ratio) costs array operations.  The checks that
read the text (empty, untranslated, repetition) are cached by line content
in :class:`Analyzer`, so re-analysing a 100k-line document after an edit
costs one dictionary lookup per line plus the edited lines.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import eq, is_not
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from .settings import Settings

CODES = (
    "low-score",
    "outlier",
    "empty-hypothesis",
    "untranslated",
    "length-ratio",
    "repetition",
    "line-count-mismatch",
    "unpaired",
)
#: settings.diagnostics attribute per code
SETTING_OF = {code: code.replace("-", "_") for code in CODES}
SEVERITY_RANK = {"error": 1, "warning": 2, "information": 3, "hint": 4}


@dataclass
class Finding:
    """One diagnostic: 0-based line, columns in code points."""

    line: int
    code: str
    severity: str
    message: str
    start_col: int = 0
    #: None = to the end of the line
    end_col: Optional[int] = None
    data: dict = field(default_factory=dict)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def _num(x: float) -> str:
    """A threshold as a person writes it: 10, 2.5, 0.25."""
    return f"{x:g}"


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _has_word(tokens: Iterable[str]) -> bool:
    return any(ch.isalnum() for t in tokens for ch in t)


def outlier_mask(values: np.ndarray, rule: str, value: float) -> np.ndarray:
    """Which of ``values`` are low outliers under ``rule`` (NaN never is).

    * ``robust-z``: (median - x) / (1.4826 * MAD) > value.  When more than
      half the values are equal (MAD = 0) the mean absolute deviation from
      the median (scaled by 1.2533) stands in; all equal: nothing flagged.
    * ``bottom-percent``: x <= the k-th smallest value, k = floor(n * value
      / 100) (at least 1); ties with that value are flagged too.
    * ``below-median``: x < median - value.

    Every rule flags only values strictly under the median, so a document
    whose lines all score the same has no outliers.
    """
    x = np.asarray(values, dtype=float)
    out = np.zeros(len(x), dtype=bool)
    ok = ~np.isnan(x)
    v = x[ok]
    if len(v) == 0:
        return out
    med = float(np.median(v))
    if rule == "robust-z":
        dev = np.abs(v - med)
        scale = 1.4826 * float(np.median(dev))
        if scale == 0:
            scale = 1.2533 * float(dev.mean())
        if scale == 0:
            return out
        flag = (med - v) / scale > value
    elif rule == "bottom-percent":
        k = max(1, int(math.floor(len(v) * value / 100.0)))
        k = min(k, len(v))
        t = float(np.partition(v, k - 1)[k - 1])
        flag = v <= t
    elif rule == "below-median":
        flag = v < med - value
    else:
        raise ValueError(f"unknown outlier rule {rule!r}")
    flag &= v < med
    out[ok] = flag
    return out


def tandem_runs(tokens: Sequence[str], max_n: int) -> dict[tuple[str, ...], int]:
    """Phrases repeated back to back: {phrase: longest run} for runs of 2 or more.

    A phrase is 1..max_n tokens; a phrase that is itself a repetition of a
    shorter one ("die die") is reported as the shorter one.
    """
    toks = list(tokens)
    n_tok = len(toks)
    runs: dict[tuple[str, ...], int] = {}
    for n in range(1, max_n + 1):
        i = 0
        while i + 2 * n <= n_tok:
            if toks[i] == toks[i + n] and toks[i : i + n] == toks[i + n : i + 2 * n]:
                gram = tuple(toks[i : i + n])
                run, j = 2, i + 2 * n
                while j + n <= n_tok and tuple(toks[j : j + n]) == gram:
                    run += 1
                    j += n
                if not any(n % k == 0 and gram == gram[:k] * (n // k) for k in range(1, n)):
                    if run > runs.get(gram, 0):
                        runs[gram] = run
                i += 1
            else:
                i += 1
    return runs


def find_repetition(
    hyp_tokens: Sequence[str], ref_tokens, max_n: int, min_count: int, factor: float
) -> Optional[tuple[tuple[str, ...], int, int]]:
    """A looping phrase: (phrase, times in a row in the hypothesis, count in the reference).

    Looping is a phrase (1..max_n tokens, with at least one letter or
    digit) repeated back to back at least ``min_count`` times, and at least
    ``factor`` times as often as the phrase occurs in the reference that has
    it most (absent counts as once).  "sehr, sehr, sehr" in both hypothesis
    and reference is not flagged; the same word three times spread over a
    long sentence is not looping and is not flagged either.  Among flagged
    phrases the one covering the most tokens wins.  ``ref_tokens`` is the
    references' token lists, or a function returning them (called only when
    the hypothesis has a candidate).
    """
    if len(hyp_tokens) < min_count:
        return None
    cands = [(g, r) for g, r in tandem_runs(hyp_tokens, max_n).items() if r >= min_count and _has_word(g)]
    if not cands:
        return None
    return pick_repetition(cands, ref_tokens() if callable(ref_tokens) else ref_tokens, factor)


def pick_repetition(
    cands: Iterable[tuple[tuple[str, ...], int]], ref_tokens: Sequence[Sequence[str]], factor: float
) -> Optional[tuple[tuple[str, ...], int, int]]:
    """Among looping candidates (phrase, run), the one that repeats at least
    ``factor`` times as often as in the references and covers the most tokens."""
    best: Optional[tuple[tuple[str, ...], int, int]] = None
    best_cover = 0
    for gram, run in cands:
        n = len(gram)
        r = max((Counter(zip(*[t[i:] for i in range(n)])).get(gram, 0) for t in ref_tokens), default=0)
        if run >= factor * max(r, 1):
            cover = run * n
            if cover > best_cover or (cover == best_cover and best is not None and n < len(best[0])):
                best, best_cover = (gram, run, r), cover
    return best


def _phrase_span(line: str, gram: Sequence[str], ignore_case: bool) -> tuple[int, Optional[int]]:
    """Columns from the phrase's first to its last occurrence, else the line."""
    try:
        rx = re.compile(r"\s*".join(re.escape(t) for t in gram), re.IGNORECASE if ignore_case else 0)
    except re.error:
        return 0, None
    spans = [m.span() for m in rx.finditer(line)]
    if len(spans) < 2:
        return 0, None
    return spans[0][0], spans[-1][1]


# --------------------------------------------------------------------------
# the analyser
# --------------------------------------------------------------------------
class _Memo(dict):
    """A dict that computes a missing value with ``fn`` (lookups stay in C)."""

    __slots__ = ("fn",)

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key):
        value = self.fn(key)
        self[key] = value
        return value


#: hypothesis-line facts: an empty line; a plain line (nothing to report);
#: else a tuple of looping candidates ((phrase, run), ...)
_EMPTY = ("<empty>",)
_PLAIN = ("<plain>",)


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

    def __init__(self, settings: Optional[Settings] = None, cache_limit: int = 20000) -> None:
        self.settings = settings or Settings()
        self._key: Any = None
        self._dkey: Any = None
        self._cache_limit = cache_limit
        self._tokens = str.split
        self._reset()

    def _reset(self) -> None:
        self._hyp_memo = _Memo(self._hyp_info)
        self._norm_memo = _Memo(_norm)
        self._len_memo = _Memo(lambda line: len(self._tokens(line)))
        self.stats = {"hyp_lines_computed": 0}
        self._prev_hyp: Optional[list] = None
        self._prev_info: list = []
        self._prev_norm_hyp: Optional[list] = None
        self._prev_norm: list = []
        self._src_raw: Optional[list] = None
        self._src_norm: list = []
        self._finding_memo: dict = {}

    # -- settings ------------------------------------------------------------
    def set_settings(self, settings: Settings) -> None:
        self.settings = settings

    def _settings_key(self, tokens_key: Any) -> Any:
        s = self.settings
        return (repr(s.diagnostics.repetition), s.bleu.lowercase, tokens_key)

    def _check(self, code: str):
        d = self.settings.diagnostics
        c = getattr(d, SETTING_OF[code])
        return c if (d.enabled and c.enabled) else None

    # -- per-line facts (memoised by text) ---------------------------------------
    def _hyp_info(self, hyp: str):
        self.stats["hyp_lines_computed"] += 1
        if not hyp.strip():
            return _EMPTY
        c = self.settings.diagnostics.repetition
        if not c.enabled:
            return _PLAIN
        toks = self._tokens(hyp)
        if len(toks) < c.min_count:
            return _PLAIN
        cands = tuple(
            (g, r) for g, r in tandem_runs(toks, c.max_n).items() if r >= c.min_count and _has_word(g)
        )
        return cands or _PLAIN

    def _repetition(self, hyp: str, cands, refs: Sequence[str], c) -> Optional[Finding]:
        best = pick_repetition(cands, [self._tokens(r) for r in refs], c.factor)
        if best is None:
            return None
        gram, hc, rc = best
        phrase = " ".join(gram)
        where = "and not in the reference" if rc == 0 else f"but occurs only {_times(rc)} in the reference"
        start, end = _phrase_span(hyp, gram, self.settings.bleu.lowercase)
        return Finding(
            0,
            "repetition",
            c.severity,
            f"\u201c{phrase}\u201d repeats {hc} times in a row here {where}: the output may be looping.",
            start,
            end,
            {"phrase": phrase, "count": hc, "referenceCount": rc},
        )

    def _window_info(self, hyp_n: list) -> list:
        """Per-line hypothesis facts, recomputing only the changed window."""
        old = self._prev_hyp
        if old is not None:
            start, end_old, end_new = _changed_window(old, hyp_n)
            if end_old - start <= len(hyp_n) // 2:
                info = self._prev_info
                info = info[:start] + list(map(self._hyp_memo.__getitem__, hyp_n[start:end_new])) + info[end_old:]
                self._prev_hyp, self._prev_info = hyp_n, info
                return info
        info = list(map(self._hyp_memo.__getitem__, hyp_n))
        self._prev_hyp, self._prev_info = hyp_n, info
        return info

    def _window_norm(self, hyp_n: list) -> list:
        old = self._prev_norm_hyp
        get = self._norm_memo.__getitem__
        if old is not None:
            start, end_old, end_new = _changed_window(old, hyp_n)
            if end_old - start <= len(hyp_n) // 2:
                norm = self._prev_norm
                norm = norm[:start] + list(map(get, hyp_n[start:end_new])) + norm[end_old:]
                self._prev_norm_hyp, self._prev_norm = hyp_n, norm
                return norm
        norm = list(map(get, hyp_n))
        self._prev_norm_hyp, self._prev_norm = hyp_n, norm
        return norm

    def _trim(self, memo: _Memo, lines: Iterable[str], n: int) -> _Memo:
        if len(memo) <= max(self._cache_limit, 3 * n):
            return memo
        fresh = _Memo(memo.fn)
        for line in lines:
            if line in memo:
                fresh[line] = memo[line]
        return fresh

    # -- the pass --------------------------------------------------------------
    def analyse(
        self,
        model,
        source: Optional[Sequence[str]] = None,
        names: Optional[dict] = None,
    ) -> list[Finding]:
        """All findings for the pair, sorted by line."""
        s = self.settings
        d = s.diagnostics
        if not d.enabled:
            return []
        names = names or {}
        metrics = model.metrics
        tok_metric = metrics.get("bleu") or metrics.get("chrf")
        self._tokens = tok_metric.tokens if tok_metric is not None else str.split
        key = self._settings_key(None if tok_metric is None else tok_metric.signature(1))
        if key != self._key:
            self._key = key
            self._reset()
        dkey = (repr(d), tuple((k, m.name) for k, m in metrics.items()))
        if dkey != self._dkey:
            self._dkey = dkey
            self._finding_memo = {}
        n = model.n_paired
        refs = model.refs
        findings: list[Finding] = []
        if not n:
            c = self._check("line-count-mismatch")
            if c is not None:
                findings.extend(line_count_findings(model, c.severity, names))
            return findings
        hyp_n = model.hyp[:n]

        # empty lines and looping candidates (memoised by hypothesis text;
        # lines outside the edited window are taken from the previous pass)
        info = self._window_info(hyp_n)
        special = list(compress(count(), map(is_not, info, repeat(_PLAIN))))
        c_empty = self._check("empty-hypothesis")
        c_rep = self._check("repetition")
        for i in special:
            x = info[i]
            if x is _EMPTY:
                if c_empty is not None and any(r[i].strip() for r in refs):
                    findings.append(
                        Finding(
                            i,
                            "empty-hypothesis",
                            c_empty.severity,
                            "This line is empty but the reference has a translation here.",
                        )
                    )
            elif c_rep is not None:
                f = self._repetition(hyp_n[i], x, [r[i] for r in refs], c_rep)
                if f is not None:
                    f.line = i
                    findings.append(f)
        self._hyp_memo = self._trim(self._hyp_memo, hyp_n, n)

        # untranslated: normalised hypothesis == normalised source
        c = self._check("untranslated")
        if c is not None and source is not None:
            src_n = list(source[:n])
            get = self._norm_memo.__getitem__
            if src_n != self._src_raw:
                self._src_raw = src_n
                self._src_norm = list(map(get, src_n))
            hyp_norm = self._window_norm(hyp_n)
            same = list(compress(count(), map(eq, hyp_norm, self._src_norm)))
            for i in same:
                h = hyp_norm[i]
                if not h or not any(ch.isalpha() for ch in h):
                    continue
                if any(get(r[i]) == h for r in refs):
                    continue  # the reference keeps the source too (a name, a title)
                findings.append(
                    Finding(
                        i,
                        "untranslated",
                        c.severity,
                        "This line is the same as the source line: it looks untranslated.",
                    )
                )
            self._norm_memo = self._trim(self._norm_memo, [*hyp_n, *src_n], 2 * n)

        # token counts: from the BLEU statistics, else counted (memoised)
        stats = _stats_matrix(model, "bleu") if "bleu" in metrics else None
        if stats is not None:
            hl = stats[:, 0]
            rl = stats[:, 1]
        elif d.length_ratio.enabled or d.outlier.enabled:
            lg = self._len_memo.__getitem__
            hl = np.fromiter(map(lg, hyp_n), dtype=np.int64, count=n)
            ref_lens = [np.fromiter(map(lg, r[:n]), dtype=np.int64, count=n) for r in refs]
            if len(ref_lens) == 1:
                rl = ref_lens[0]
            else:
                # closest reference length, ties to the shorter (as BLEU)
                m = np.stack(ref_lens)
                diff = np.abs(m - hl) * (1 << 32) + m
                rl = m[np.argmin(diff, axis=0), np.arange(n)]
            self._len_memo = self._trim(self._len_memo, [*hyp_n, *(x for r in refs for x in r[:n])], (1 + len(refs)) * n)
        else:
            hl = rl = None
        if hl is not None:
            empty = hl == 0
        else:
            empty = np.fromiter((x is _EMPTY for x in info), dtype=bool, count=n)

        # low-score and outlier: vectorised; Finding objects are reused from
        # the previous pass when line and score are unchanged
        memo_old, memo = self._finding_memo, {}
        c = self._check("low-score")
        if c is not None:
            masks = {}
            vals_of = {}
            for mkey, thr in (("bleu", c.bleu_threshold), ("chrf", c.chrf_threshold)):
                if mkey in metrics:
                    vals_of[mkey] = v = model.values(mkey)
                    with np.errstate(invalid="ignore"):
                        masks[mkey] = (v < thr) & ~empty
            if masks:
                union = np.logical_or.reduce(list(masks.values()))
                idx = np.flatnonzero(union)
                cols = {k: np.where(masks[k], vals_of[k], np.nan)[idx].tolist() for k in masks}
                thr_of = {"bleu": c.bleu_threshold, "chrf": c.chrf_threshold}
                keys = list(masks)
                for j, i in enumerate(idx.tolist()):
                    vs = tuple(None if cols[k][j] != cols[k][j] else cols[k][j] for k in keys)
                    mk = ("low-score", i, vs)
                    f = memo_old.get(mk)
                    if f is None:
                        parts = [
                            f"{metrics[k].name} {v:.1f} is under the threshold {_num(thr_of[k])}"
                            for k, v in zip(keys, vs)
                            if v is not None
                        ]
                        data = {k: v for k, v in zip(keys, vs) if v is not None}
                        f = Finding(i, "low-score", c.severity, "; ".join(parts) + ".", 0, None, data)
                    memo[mk] = f
                    findings.append(f)

        c = self._check("outlier")
        if c is not None and n >= max(c.min_lines, 1):
            mkey = c.metric if c.metric in metrics else next(iter(metrics), None)
            if mkey is not None:
                vals = model.values(mkey)
                try:
                    mask = outlier_select(vals, rl, c) & ~empty
                except ValueError:
                    mask = np.zeros(n, dtype=bool)
                idx = np.flatnonzero(mask)
                if len(idx):
                    finite = vals[~np.isnan(vals)]
                    med = float(np.median(finite))
                    name = metrics[mkey].name
                    why = {
                        "bottom-percent": f"among the weakest {_num(c.value)}% of lines in this document",
                        "robust-z": "far below the typical line of this document",
                        "below-median": f"more than {_num(c.value)} points below this document's median",
                    }.get(c.rule, "an outlier")
                    for i, v in zip(idx.tolist(), vals[idx].tolist()):
                        mk = ("outlier", i, v, med)
                        f = memo_old.get(mk)
                        if f is None:
                            f = Finding(
                                i,
                                "outlier",
                                c.severity,
                                f"{name} {v:.1f} is {why} (median {med:.1f}).",
                                0,
                                None,
                                {"metric": mkey, "score": v, "median": med, "rule": c.rule},
                            )
                        memo[mk] = f
                        findings.append(f)
        self._finding_memo = memo

        # length-ratio
        c = self._check("length-ratio")
        if c is not None and hl is not None:
            hlf = hl.astype(float)
            rlf = rl.astype(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = hlf / rlf
                bad = (rlf >= max(c.min_tokens, 1)) & (hlf > 0) & ((ratio < c.min_ratio) | (ratio > c.max_ratio))
            for i in np.flatnonzero(bad).tolist():
                h, r, q = int(hl[i]), int(rl[i]), float(ratio[i])
                hint = "words may be missing" if q < c.min_ratio else "it may contain extra material"
                findings.append(
                    Finding(
                        i,
                        "length-ratio",
                        c.severity,
                        f"This line has {h} tokens, the reference {r} (ratio {q:.2f}, expected "
                        f"{_num(c.min_ratio)} to {_num(c.max_ratio)}): {hint}.",
                        0,
                        None,
                        {"hypothesisTokens": h, "referenceTokens": r, "ratio": q},
                    )
                )

        # line-count-mismatch
        c = self._check("line-count-mismatch")
        if c is not None:
            findings.extend(line_count_findings(model, c.severity, names))

        findings.sort(key=lambda f: (f.line, _ORDER[f.code]))
        return findings


def outlier_select(values: np.ndarray, ref_lens: Optional[np.ndarray], o) -> np.ndarray:
    """The outlier setting applied to a document: lines whose reference has
    fewer than ``o.min_tokens`` tokens are left out of the ranking, then
    :func:`outlier_mask` with ``o.rule`` / ``o.value``."""
    x = np.array(values, dtype=float)
    if ref_lens is not None and o.min_tokens > 0:
        x[np.asarray(ref_lens) < o.min_tokens] = np.nan
    return outlier_mask(x, o.rule, o.value)


_ORDER = {code: i for i, code in enumerate(CODES)}


def _changed_window(old: list, new: list) -> tuple[int, int, int]:
    """(start, end_old, end_new): old[:start] == new[:start] and
    old[end_old:] == new[end_new:], found by bisecting on list equality
    (element identity makes each comparison a fast C loop)."""
    lo, hi = 0, min(len(old), len(new))
    while lo < hi:  # longest common prefix
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    start = lo
    lo, hi = 0, min(len(old), len(new)) - start
    n_old, n_new = len(old), len(new)
    while lo < hi:  # longest common suffix not overlapping the prefix
        mid = (lo + hi + 1) // 2
        if old[n_old - mid : n_old - lo] == new[n_new - mid : n_new - lo]:
            lo = mid
        else:
            hi = mid - 1
    return start, n_old - lo, n_new - lo


def _stats_matrix(model, key: str) -> Optional[np.ndarray]:
    """Per-line statistics rows of the paired lines (BLEU: hyp_len, ref_len, …)."""
    getter = getattr(model, "stats_array", None)
    if callable(getter):
        return getter(key)
    model.refresh()
    st = getattr(model, "_stats", None)
    if st is None or key not in st:
        return None
    return st[key][: model.n_paired]


def line_count_findings(model, severity: str, names: Optional[dict] = None) -> list[Finding]:
    """One finding per reference whose line count differs from the hypothesis."""
    names = names or {}
    hyp_name = names.get("hypothesis") or "the hypothesis"
    ref_names = list(names.get("references") or [])
    n_hyp = model.n_hyp
    out = []
    for k, ref in enumerate(model.refs):
        n_ref = len(ref)
        if n_ref == n_hyp:
            continue
        rname = ref_names[k] if k < len(ref_names) else ("the reference" if model.n_refs == 1 else f"reference {k + 1}")
        if n_hyp > n_ref:
            line = n_ref
            tail = f"lines {n_ref + 1}\u2013{n_hyp} have no reference line and are not scored"
            if n_hyp == n_ref + 1:
                tail = f"line {n_hyp} has no reference line and is not scored"
        else:
            line = max(n_hyp - 1, 0)
            missing = n_ref - n_hyp
            tail = (
                f"the last {missing} reference line{'s are' if missing > 1 else ' is'} not scored; "
                "a line may be missing or merged"
            )
        out.append(
            Finding(
                line,
                "line-count-mismatch",
                severity,
                f"{hyp_name} has {n_hyp} line{'s' if n_hyp != 1 else ''} but {rname} has {n_ref}: {tail}.",
                0,
                None,
                {"hypothesisLines": n_hyp, "referenceLines": n_ref, "reference": k},
            )
        )
    return out


def unpaired_findings(
    hyp_name: str, settings: Settings, command_title: Optional[str] = "Pair with reference"
) -> list[Finding]:
    """The ``unpaired`` finding for a hypothesis-like file with no reference.

    ``command_title``: the editor command that pairs a file (None where
    there is no such command, as on the command line).
    """
    d = settings.diagnostics
    c = d.unpaired
    if not (d.enabled and c.enabled):
        return []
    from .pairing import convention_parts

    parts = convention_parts(hyp_name) if hyp_name else None
    if parts is not None:
        name, _marker, ext = parts
        ref = f"{name}.ref" + (f".{ext}" if ext else "")
        create = f"create {ref} next to it"
    else:
        create = "create a reference file named after it (NAME.hyp pairs with NAME.ref)"
    return [
        Finding(
            0,
            "unpaired",
            c.severity,
            f"No reference found for {hyp_name or 'this file'}, so nothing is scored. To pair it, {create}"
            + (
                f", add a [[pairs]] rule to bleu-ls.toml, or run the \u201c{command_title}\u201d command."
                if command_title
                else " or add a [[pairs]] rule to bleu-ls.toml."
            ),
            0,
            None,
            {},
        )
    ]


def analyse(
    model,
    settings: Settings,
    source: Optional[Sequence[str]] = None,
    names: Optional[dict] = None,
) -> list[Finding]:
    """All findings for one pair, without a cache (see :class:`Analyzer`)."""
    return Analyzer(settings).analyse(model, source, names)


def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)
