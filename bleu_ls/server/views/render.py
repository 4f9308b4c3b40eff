"""How scores and findings look in the editor: hint labels, tooltips, the
hover text, the corpus lens and record, the report, LSP diagnostics.

Pure functions of a pair (and its document); every feature renders through
this module, none through another feature.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from typing import TYPE_CHECKING, Any, Mapping, Optional, Protocol, Sequence

from lsprotocol import types

from ...engine import Metric, PairModel, Score
from ...qa.analysis import Finding
from ...config.settings import HintSettings
from ..postedit import compare
from .effort_render import effort_hover, effort_lens, effort_record, effort_tooltip, paired_note, tests_for

if TYPE_CHECKING:
    from ..documents.document import LineDocument
    from ..roles import PairRole as Pair  # what it uses of a pair

SOURCE = "bleu-ls"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
#: What a hover says where a line's findings go while the file's first check runs.
CHECKING = "_Checking the file: this line's findings show here once the check is done._"
#: At most this many missing reference n-grams in a hover.
MAX_MISSING = 12
_DEFAULT_HINTS = HintSettings()


class LineScores(Protocol):
    """What a line's label and breakdown read: a pair model, or the preview
    of a large document being opened (:class:`~..pairs.opening.Preview`)."""

    @property
    def metrics(self) -> Mapping[str, Metric]: ...

    def line_score(self, key: str, i: int) -> Optional[Score]: ...

    def line_value(self, key: str, i: int) -> Optional[float]: ...


def fmt(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


# -- one line ----------------------------------------------------------------
def label_for(model: LineScores, i: int, hs: HintSettings) -> Optional[str]:
    """The inlay hint label of line ``i`` (the settings' templates)."""
    parts: list[str] = []
    for key, metric in model.metrics.items():
        value = model.line_value(key, i)
        template = getattr(hs, f"{key}_format", None) or _DEFAULT_HINTS.bleu_format
        default = getattr(_DEFAULT_HINTS, f"{key}_format")
        if value is None or (isinstance(value, float) and math.isnan(value)):
            parts.append(f"{metric.short} n/a")
            continue
        try:
            parts.append(template.format(**{key: value}))
        except Exception:  # a bad template in the settings
            parts.append(default.format(**{key: value}))
    return " · ".join(parts) if parts else None


#: A change smaller than this shows as ±0.00: it is no change to show.
NO_CHANGE = 0.005


def shown_delta(d: Optional[float]) -> Optional[float]:
    """``d`` when it is a change worth showing (not None, not ±0.00)."""
    return d if d is not None and abs(d) >= NO_CHANGE else None


def line_delta(pair: "Pair", key: str, i: int) -> Optional[float]:
    base = pair.baseline_lines.get(key)
    model = pair.model
    if base is None or model is None or i >= len(base):
        return None
    now, then = model.line_value(key, i), float(base[i])
    if now is None or math.isnan(then):
        return None
    return now - then


#: at most this many rendered rows kept per pair (then started again): a
#: screenful of lines, scrolled, and Neovim's whole-buffer ranges
RENDER_CACHE = 2048


class RenderedHints:
    """Inlay hint label and tooltip per statistics rows
    (``PairModel.row_keys``) of one model under one set of metrics and hint
    settings: an edit re-renders the edited line only, not the 60 lines of
    the range around it.  Kept on the pair (``Pair.hint_cache``)."""

    __slots__ = ("model", "metrics", "hs", "text")

    def __init__(self, model: PairModel, hs: HintSettings) -> None:
        self.model, self.metrics, self.hs = model, tuple(model.metrics.values()), hs
        self.text: dict[bytes, list[Optional[str]]] = {}  # [label, tooltip or None: not made yet]

    @classmethod
    def of(cls, pair: "Pair", model: PairModel, hs: HintSettings) -> "RenderedHints":
        """The pair's cache for ``model`` and ``hs`` (a new one when either changed)."""
        r = pair.hint_cache
        if r is None or r.model is not model or r.hs is not hs or r.metrics != tuple(model.metrics.values()):
            r = pair.hint_cache = cls(model, hs)
        return r

    def get(self, key: bytes, model: PairModel, i: int, tooltip: bool) -> list[Optional[str]]:
        """[label, tooltip] of line ``i`` whose rows are ``key`` (the tooltip
        is made only when asked for: None otherwise)."""
        got = self.text.get(key)
        if got is None:
            if len(self.text) >= RENDER_CACHE:
                self.text.clear()
            got = self.text[key] = [label_for(model, i, self.hs), None]
        if tooltip and got[1] is None:
            got[1] = breakdown_of(model, i)
        return got


def breakdown(pair: "Pair", i: int) -> str:
    """A compact breakdown (inlay hint tooltip)."""
    model = pair.model
    assert model is not None, "a hint's tooltip: the pair has its model"
    return breakdown_of(model, i)


def breakdown_of(model: LineScores, i: int) -> str:
    """The breakdown of line ``i`` of ``model`` (a pair model, or anything
    with its ``metrics`` and ``line_score``)."""
    out = []
    for key, metric in model.metrics.items():
        s = model.line_score(key, i)
        if s is None:
            continue
        if metric.ngram_precisions:
            prec = " / ".join(fmt(p, 1) for p in s.precisions)
            out.append(
                f"**{metric.name} {fmt(s.score)}** — precisions {prec} · BP {fmt(s.bp, 3)} · "
                f"hyp {s.sys_len} / ref {s.ref_len} tokens"
            )
        else:
            out.append(f"**{metric.name} {fmt(s.score)}**")
        if s.error:
            out.append(f"({s.error})")
    return "  \n".join(out)


def missing_ngrams(metric: Metric, hyp: str, refs: list[str], max_n: int = 2) -> list[str]:
    """Reference n-grams (n ≤ max_n) the hypothesis line lacks, as BLEU clips them."""
    h = metric.tokens(hyp)
    rs = [metric.tokens(r) for r in refs]
    out: list[str] = []
    for n in range(1, max_n + 1):
        hc = Counter(tuple(h[j : j + n]) for j in range(len(h) - n + 1))
        rc: Counter[tuple[str, ...]] = Counter()
        for r in rs:
            c = Counter(tuple(r[j : j + n]) for j in range(len(r) - n + 1))
            for g, k in c.items():
                rc[g] = max(rc[g], k)
        for g, k in rc.items():
            if k > hc.get(g, 0):
                out.append(" ".join(g))
    return out


def _score_parts(pair: "Pair", model: PairModel, key: str, metric: Metric, s: Score, i: int) -> list[str]:
    d = shown_delta(line_delta(pair, key, i))
    delta = f" (Δ {d:+.2f} since open)" if d is not None else ""
    parts = [f"**{metric.name} {fmt(s.score)}**{delta}"]
    if s.error:
        parts.append(f"_{s.error}_")
    if metric.ngram_precisions:
        # a fenced block, not a Markdown table: aligned in every editor
        # (Neovim's hover shows tables as raw pipes)
        rows = ["n  matches  precision"]
        for n, (c, t) in enumerate(zip(s.counts, s.totals), start=1):
            p = s.precisions[n - 1] if n - 1 < len(s.precisions) else None
            rows.append(f"{n}  {f'{c} / {t}':>7}  {fmt(p, 1):>9}{_smoothed(metric, c, t, p)}")
        parts.append("```text\n" + "\n".join(rows) + "\n```")
        parts.append(f"BP {fmt(s.bp, 4)} · hypothesis {s.sys_len} tokens · reference {s.ref_len} tokens")
    elif s.extra:
        extras = ", ".join(
            f"{k} {v if not isinstance(v, float) else fmt(v)}"
            for k, v in s.extra.items()
            if not isinstance(v, (list, dict))
        )
        if extras:
            parts.append(extras)
    parts.append(f"`{metric.signature(model.n_refs, sentence=True)}`")
    return parts


def _smoothed(metric: Metric, c: int, t: int, p: Optional[float]) -> str:
    """Say when a precision is not matches / total: the smoothing made it."""
    if p is None or t <= 0 or abs(p - 100.0 * c / t) < 1e-9:
        return ""
    how = getattr(metric, "smooth", "") or "smoothing"
    return f"  smoothed ({how}){': no match' if c == 0 else ''}"


def hover_text(pair: "Pair", i: int, findings: Optional[Sequence[Finding]] = None, checking: bool = False) -> Optional[str]:
    """The hover of line ``i`` in the order a translator reads it: the line's
    score and findings in plain words (``findings``: what the diagnostics of
    the line say; ``checking``: not known yet, the file's first check is
    under way, and the hover says so where they go), the reference(s) and
    the source, the draft and the changes once the line was edited, the
    reference words the line misses; then, under a rule, the numbers (the
    n-gram table, the signature)."""
    model = pair.model
    effort = effort_hover(pair, i)
    said = [f"- {_one_line(f.message)}" for f in findings or () if getattr(f, "message", "")]
    if checking:
        said.append(CHECKING)
    if model is None or not 0 <= i < model.n_paired:
        head = [f"**Line {i + 1:,}**"] + (["\n".join(said)] if said else [])
        return "\n\n".join(head + ([effort] if effort else [])) if effort or said else None
    long, scored = model.is_long(i), bool(model.scored_mask(i, i + 1).all())
    pending = not scored and model.is_heavy(i)  # never scored on the event loop
    scores, numbers = [], []
    if not pending:
        for key, metric in model.metrics.items():
            s = model.line_score(key, i)
            if s is not None:
                got = _score_parts(pair, model, key, metric, s, i)
                scores.append(got[0])
                numbers += got[1:]
    parts = [f"**Line {i + 1:,}**" + (" · " + " · ".join(scores) if scores else "")]
    if pending:
        parts.append(pending_sentence(model, i))
    elif long:
        parts.append(f"_This line is over the {_size(model.long_line_bytes)} line-length cap: it is scored in the background, "
                     "not live, and the text checks (loops, language, numbers, markup) do not read it._")
    if said:
        parts.append("\n".join(said))
    refs = model.ref_lines(i)
    for k, r in enumerate(refs):
        name = "Reference" if len(refs) == 1 else f"Reference {k + 1}"
        parts.append(f"**{name}:** {_quote(r)}")
    if pair.source_lines is not None and i < len(pair.source_lines):
        parts.append(f"**Source:** {_quote(pair.source_lines[i])}")
    if effort:
        parts.append(effort)
    # the reference n-grams as BLEU counts them (else as the first metric does)
    metric = next((m for m in model.metrics.values() if m.ngram_precisions), None) or next(iter(model.metrics.values()))
    missing = [] if long else [m for m in missing_ngrams(metric, model.hyp[i], refs) if not _punctuation(m)]
    if missing:
        shown = ", ".join(f"`{m}`" for m in missing[:MAX_MISSING])
        more = f" (+{len(missing) - MAX_MISSING} more)" if len(missing) > MAX_MISSING else ""
        parts.append(f"**Missing reference n-grams:** {shown}{more}")
    if numbers:
        parts.append("---")
        parts += numbers
    return "\n\n".join(parts)


def _one_line(text: str) -> str:
    """A finding's message as one Markdown list item's text."""
    return " ".join(str(text).split()).replace("*", "\\*").replace("_", "\\_")


def _punctuation(gram: str) -> bool:
    """An n-gram of punctuation and symbols only (``,``, ``" .``): nothing a
    translator would add to match the reference."""
    return all(unicodedata.category(ch)[0] in "PS" for ch in gram if not ch.isspace())


def pending_sentence(model: PairModel, i: int) -> str:
    """The hover's one sentence for a heavy line whose score is not known yet."""
    if model.is_long(i):
        return (
            f"_This line is over the {_size(model.long_line_bytes)} line-length cap: it is scored in the "
            "background, not live, and its score shows once known._"
        )
    return "_This line is being scored in the background; its score shows once known._"


def _size(n: Optional[int]) -> str:
    if not n:
        return "0 B"
    for unit, k in (("MB", 1_000_000), ("KB", 1_000)):
        if n >= k:
            return f"{n / k:g} {unit}"
    return f"{n:,} B"


#: A quoted line in the hover is cut at this many characters.
MAX_QUOTE = 2000


def _quote(text: str) -> str:
    if len(text) > MAX_QUOTE:
        text = text[:MAX_QUOTE] + " …"
    text = text.replace("`", "\\`").replace("*", "\\*").replace("_", "\\_")
    return text if text.strip() else "_(empty)_"


# -- the corpus -----------------------------------------------------------------
def corpus_delta(pair: "Pair", key: str) -> Optional[float]:
    if pair.model is None or not pair.baseline:
        return None
    then = pair.baseline.get(key)
    now = pair.model.corpus(key).score
    if then is None or now is None:
        return None
    return now - then


def lens_title(pair: "Pair", flagged: Optional[int] = None) -> str:
    """The corpus line; ``flagged``: bleuLs/corpusScore's count ("97 flagged lines", as the tooltip)."""
    model = pair.model
    parts = []
    if model is not None:
        for key, metric in model.metrics.items():
            s = model.corpus(key)
            text = f"{metric.short} {s.score:.2f}" if s.score is not None else f"{metric.short} n/a"
            parts.append(text + paired_note(pair, key))
        parts.append(f"{model.n_paired:,} lines")
        if flagged is not None:
            parts.append(f"{flagged:,} flagged {'line' if flagged == 1 else 'lines'}")
        d = shown_delta(corpus_delta(pair, next(iter(model.metrics))))
        if d is not None and not paired_note(pair, next(iter(model.metrics))):
            parts.append(f"Δ {d:+.2f} since open")
    effort = effort_lens(pair)
    if effort:
        parts.append(effort)
    other = compare.lens_part(pair)
    if other:
        parts.append(other)
    return " · ".join(parts)


def signatures(pair: "Pair") -> str:
    model = pair.model
    lines = [m.signature(model.n_refs) for m in model.metrics.values()] if model is not None else []
    return "\n".join(lines + effort_tooltip(pair))


def corpus_record(pair: "Pair") -> dict[str, Any]:
    """Per metric: {signature, corpus (Score.as_dict()), delta, confidence,
    paired}; BLEU also at top level; ``effort`` against the draft."""
    model = pair.model
    if model is None:
        return {"uri": pair.uri, "metrics": {}, **effort_record(pair)}
    metrics: dict[str, Any] = {}
    for key, metric in model.metrics.items():
        tests = tests_for(pair, key)
        metrics[key] = {
            "metric": metric.name,
            "signature": metric.signature(model.n_refs),
            "corpus": model.corpus(key).as_dict(),
            "delta": corpus_delta(pair, key),
            "confidence": tests.get("confidence"),
            "paired": tests.get("paired"),
        }
    first = metrics[next(iter(metrics))]
    return {
        "uri": pair.uri,
        "signature": first["signature"],
        "corpus": first["corpus"],
        "delta": first["delta"],
        "lines": model.n_paired,
        "hypothesisLines": model.n_hyp,
        "referenceLines": [len(r) for r in model.refs],
        "metrics": metrics,
        "flagged": len(pair.flagged),
        "ignored": pair.ignored,
        "reviewed": pair.reviewed,
        **effort_record(pair),
        **compare.record(pair),
    }


#: Severities Problems lists (VS Code lists no hints there: they show in the text only).
LISTED = (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Information)
_SEVERITY_WORD = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def finding_counts(diags: list[types.Diagnostic]) -> dict[str, Any]:
    """The counts every view shows, from the diagnostics sent (computed once,
    here): ``problems`` (all), ``listed`` (the ones Problems lists: errors,
    warnings, information) and ``byCode``: per code ``{code, count, lines,
    severity}`` in order of first appearance (a list: codes are no names)."""
    by: dict[str, dict[str, Any]] = {}
    lines: dict[str, set] = {}
    listed = 0
    for d in diags:
        code = str(d.code)
        sev = int(d.severity or types.DiagnosticSeverity.Error)
        rec = by.get(code)
        if rec is None:
            rec = by[code] = {"code": code, "count": 0, "lines": 0, "severity": _SEVERITY_WORD.get(sev, "hint")}
            lines[code] = set()
        rec["count"] += 1
        lines[code].add(d.range.start.line)
        if sev in LISTED:
            listed += 1
    for code, rec in by.items():
        rec["lines"] = len(lines[code])
    return {"problems": len(diags), "listed": listed, "byCode": list(by.values())}


def value_cell(x: Optional[float]) -> str:
    """A score in a report or TSV cell (empty when there is none)."""
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def report_text(pair: "Pair", diags: list[types.Diagnostic]) -> str:
    """The per-line report: scores, the codes flagged on each line, the text."""
    model = pair.model
    assert model is not None, "a paired file (the report command asks for one)"
    codes: dict[int, list[str]] = {}
    for d in diags:
        codes.setdefault(d.range.start.line, []).append(str(d.code))
    keys = list(model.metrics)
    lines = [f"{pair.path.name}: {lens_title(pair)}"]
    lines += [m.signature(model.n_refs) for m in model.metrics.values()]
    lines.append("")
    lines.append("\t".join(["line", *(model.metrics[k].name for k in keys), "flags", "hypothesis"]))
    for i in range(model.n_hyp):
        vals = [value_cell(model.line_value(k, i)) for k in keys]
        lines.append("\t".join([str(i + 1), *vals, ",".join(codes.get(i, [])), model.hyp[i]]))
    return "\n".join(lines) + "\n"


# -- findings ------------------------------------------------------------------
def to_diagnostic(doc: Optional["LineDocument"], f: Finding) -> types.Diagnostic:
    """A finding as an LSP diagnostic (columns in the document's encoding)."""
    n = doc.line_count if doc is not None else 1
    line = max(0, min(f.line, n - 1))
    text = doc.line(line) if doc is not None else ""
    start = doc.column(line, f.start_col or 0) if doc is not None else 0
    end_idx = len(text) if f.end_col is None else f.end_col
    end = doc.column(line, end_idx) if doc is not None else 0
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=line, character=start),
            end=types.Position(line=line, character=max(start, end)),
        ),
        message=f.message,
        severity=SEVERITY.get(str(f.severity).lower(), types.DiagnosticSeverity.Warning),
        code=f.code,
        source=SOURCE,
        data=f.data or None,
    )


#: the spelling check's "Add to dictionary" (the command: server/features/commands.py)
ADD_TO_DICTIONARY = "bleuLs.addToDictionary"


def dictionary_action(uri: str, word: str, diagnostics: Optional[list] = None) -> types.CodeAction:
    """The quick fix of a ``spelling`` finding: ``word`` added to the user's word list (a command:
    the server writes the file only when the user picks it)."""
    title = f"Add “{word}” to the dictionary"
    return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=diagnostics,
                            command=types.Command(title=title, command=ADD_TO_DICTIONARY, arguments=[uri, word]))
