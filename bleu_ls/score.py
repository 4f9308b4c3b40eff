"""``bleu-ls score HYP REF [REF ...]``: per-line and corpus scores of one pair.

Files are read as sacrebleu's command line reads them (UTF-8, split on
``\\n``, each line right-stripped, a final newline adds no line).  Files
with segments (gettext PO, XLIFF, TMX, subtitles) are read into segments and
paired by key (``segments.match``); each row is then a segment.  Every
bad input ends with one clear sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from typing import Any, Optional, Sequence

from .engine import InputError, PairModel, Score, TokenizerUnavailable, build_metrics, read_lines
from .engine.bleu import SMOOTH_DEFAULTS
from .segments.match import align
from .segments.read import read_documents
from .segments.rows import SegmentRows, segment_rows
from .settings import BLEU_SMOOTHING, METRICS, NLTK_SMOOTHING, PRESETS, TOKENIZERS, Settings

#: In the text report, lines in the weakest share of the document are marked.
WEAKEST_SHARE = 0.10


#: Flags whose value is the value of the BleuSettings / ChrfSettings field of the same name.
BLEU_VALUE_FLAGS = ("preset", "tokenize", "smooth", "smooth_value", "max_order")
CHRF_VALUE_FLAGS = ("char_order", "word_order", "beta")


class UsageError(Exception):
    """A bad option value, reported like argparse's own errors."""


# -- options shared with `bleu-ls check` --------------------------------------
def _or(names: Sequence[str]) -> str:
    return "|".join(names)


def add_metric_arguments(parser: argparse.ArgumentParser) -> None:
    """The metric flags of `score` and `check` (defaults None: unset).

    Choices come from settings.py (which takes the engine's names) and the
    defaults named in the help texts from ``Settings()``.
    """
    d = Settings()
    b, c = d.bleu, d.chrf
    nltk_default = dataclasses.replace(b, preset=PRESETS[1]).resolved_smooth()
    enabled = [key for key in METRICS if getattr(d, key).enabled]
    g = parser.add_argument_group("metric")
    g.add_argument(
        "--metric", "-m", nargs="+", choices=METRICS, default=None,
        help=f"metric(s) to compute (default: {' '.join(enabled)})",
    )
    g.add_argument(
        "--preset", choices=PRESETS, default=None,
        help="BLEU as sacrebleu computes it (default), as NLTK 3.10's sentence_bleu/corpus_bleu, "
        "or as NLTK 3.2.2-3.2.5's default",
    )
    g.add_argument(
        "--tokenize", "-tok", choices=TOKENIZERS, default=None, help=f"sacrebleu tokenizer (default: {b.tokenize})"
    )
    g.add_argument(
        "--smooth", "-s", choices=BLEU_SMOOTHING + NLTK_SMOOTHING, default=None,
        help=f"smoothing: {_or(BLEU_SMOOTHING)} (default {b.resolved_smooth()}); with --preset {PRESETS[1]}: "
        f"{NLTK_SMOOTHING[0]}..{NLTK_SMOOTHING[-1][-1]} (default {nltk_default})",
    )
    valued = [f"{name} (default {value:g})" for name, value in SMOOTH_DEFAULTS.items() if value is not None]
    g.add_argument("--smooth-value", type=float, default=None, help=f"value for {' and '.join(valued)}")
    g.add_argument("--max-order", type=int, default=None, help=f"maximum n-gram order (default {b.max_order})")
    g.add_argument(
        "--weights", nargs="+", default=None,
        help="NLTK presets: n-gram weights, e.g. --weights 0.5 0.5 or --weights 0.5,0.5 (default uniform)",
    )
    g.add_argument("--lowercase", "-lc", action="store_true", default=None, help="case-insensitive scores")
    g.add_argument(
        "--no-effective-order", action="store_true", default=None,
        help="per-line BLEU without effective order (sacrebleu's sentence_bleu uses it)",
    )
    g.add_argument("--char-order", type=int, default=None, help=f"chrF character n-gram order (default {c.char_order})")
    g.add_argument(
        "--word-order", type=int, default=None, help=f"chrF word n-gram order (default {c.word_order}; 2 gives chrF++)"
    )
    g.add_argument("--beta", type=int, default=None, help=f"chrF beta (default {c.beta})")
    g.add_argument("--eps-smoothing", action="store_true", default=None, help="chrF: epsilon smoothing as chrF++.py")
    g.add_argument("--ter-normalized", action="store_true", default=None, help="TER: tercom's normalization")
    g.add_argument("--ter-no-punct", action="store_true", default=None, help="TER: remove punctuation")
    g.add_argument("--ter-asian-support", action="store_true", default=None, help="TER: split CJK characters")
    g.add_argument("--ter-case-sensitive", action="store_true", default=None, help="TER: do not lowercase")


def _weights(values: Sequence[str]) -> list[float]:
    out: list[float] = []
    for v in values:
        for part in v.replace(",", " ").split():
            try:
                out.append(float(part))
            except ValueError:
                raise UsageError(f"--weights: {part!r} is not a number") from None
    return out


def settings_from_args(args: argparse.Namespace, base: Optional[Settings] = None) -> Settings:
    """``base`` (default settings, or a bleu-ls.toml's) with the given flags laid over it."""
    s = dataclasses.replace(base) if base is not None else Settings()
    bleu = dataclasses.replace(s.bleu)
    chrf = dataclasses.replace(s.chrf)
    if args.metric is not None:
        bleu.enabled = "bleu" in args.metric
        chrf.enabled = "chrf" in args.metric
        s.ter = dataclasses.replace(s.ter, enabled="ter" in args.metric)
    for flag in ("normalized", "no_punct", "asian_support", "case_sensitive"):
        if getattr(args, f"ter_{flag}", None):
            s.ter = dataclasses.replace(s.ter, **{flag: True})
    # flags named after a settings field: the value replaces the field's
    for section, names in ((bleu, BLEU_VALUE_FLAGS), (chrf, CHRF_VALUE_FLAGS)):
        for name in names:
            value = getattr(args, name)
            if value is not None:
                setattr(section, name, value)
    if args.weights is not None:
        bleu.weights = _weights(args.weights)
    if args.lowercase:
        bleu.lowercase = chrf.lowercase = True
    if args.no_effective_order:
        bleu.effective_order = False
    if args.eps_smoothing:
        chrf.eps_smoothing = True
    if bleu.preset != PRESETS[0] and args.tokenize is not None:
        raise UsageError(f"--tokenize does not apply to --preset {bleu.preset} (NLTK splits on whitespace)")
    if bleu.preset == PRESETS[0] and args.weights is not None:
        raise UsageError("--weights applies to the NLTK presets only (sacrebleu weighs orders uniformly)")
    if bleu.weights is not None and args.max_order is not None and len(bleu.weights) != bleu.max_order:
        raise UsageError(f"--weights gives {len(bleu.weights)} weights but --max-order is {bleu.max_order}")
    s.bleu, s.chrf = bleu, chrf
    problems = s.validate()
    if problems:
        raise UsageError("; ".join(problems))
    return s


# -- output -------------------------------------------------------------------
def _line_record(i: int, score: Score, rows: Optional["SegmentRows"] = None) -> dict[str, Any]:
    """One line of the JSON report: BLEU lines carry the breakdown, chrF lines the score.

    Segment files (``rows``): the segment's key and the line of its target start."""
    where = {"line": i + 1} if rows is None else rows.record(i)
    if score.metric.startswith("chrF"):
        return {**where, "score": score.score}
    return {**where, **score.as_dict()}


def metric_report(
    model: PairModel, key: str, confidence: Optional[dict] = None, rows: Optional["SegmentRows"] = None
) -> dict[str, Any]:
    """The JSON record of one metric: signature, corpus, lines."""
    metric = model.metrics[key]
    corpus = model.corpus(key).as_dict()
    signature = metric.signature(model.n_refs, sentence=False)
    if confidence:
        est, signature = confidence[key], confidence["signature"](signature)
        corpus.update(mean=est.mean, ci=est.ci)
    lines = [_line_record(i, model.line_score(key, i), rows) for i in range(model.n_paired)]
    report = {
        "metric": metric.name,
        "signature": signature,
        "line_signature": metric.signature(model.n_refs, sentence=True),
        "corpus": corpus,
        "lines": lines,
    }
    if rows is not None:
        report["unpaired"] = rows.unpaired_json()
    return report


def _fmt(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def corpus_line(name: str, score: Score, signature: str, est: Any = None) -> str:
    value = _fmt(score.score)
    if est is not None and est.mean is not None:
        value += f" (μ = {est.mean:.2f} ± {est.ci:.2f})"
    if name.startswith("chrF") or name == "TER":
        return f"{name} = {value}  {signature}"
    prec = "/".join(f"{p:.1f}" for p in score.precisions)
    ratio = score.sys_len / score.ref_len if score.ref_len else 0
    return (
        f"{name} = {value} {prec} (BP = {score.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {score.sys_len} ref_len = {score.ref_len})  {signature}"
    )


def _weakest(values: list[Optional[float]]) -> set[int]:
    scored = sorted((v, i) for i, v in enumerate(values) if v is not None)
    if len(scored) < 2:
        return set()
    k = max(1, int(len(scored) * WEAKEST_SHARE))
    cut = scored[k - 1][0]
    return {i for v, i in scored if v <= cut}


def render_text(model: PairModel, out, confidence: Optional[dict] = None, rows: Optional["SegmentRows"] = None) -> None:
    keys = list(model.metrics)
    values = {k: [model.line_value(k, i) for i in range(model.n_paired)] for k in keys}
    first = values[keys[0]]
    if not getattr(model.metrics[keys[0]], "higher_is_better", True):  # TER: more is worse
        first = [None if v is None else -v for v in first]
    weakest = _weakest(first)
    width = max(4, len(str(model.n_paired if rows is None else max(rows.lines, default=0))))
    head = f"{'line':>{width}}  " + "  ".join(f"{model.metrics[k].name:>7}" for k in keys)
    if "bleu" in keys:
        head += f"  {'BP':>5}  {'hyp/ref':>9}"
    out.write(head + "  hypothesis\n")
    for i in range(model.n_paired):
        cells = "  ".join(f"{_fmt(values[k][i]):>7}" for k in keys)
        row = f"{i + 1 if rows is None else rows.lines[i]:>{width}}  {cells}"
        if "bleu" in keys:
            s = model.line_score("bleu", i)
            row += f"  {s.bp:5.3f}  {f'{s.sys_len}/{s.ref_len}':>9}"
        text = model.hyp[i]
        if len(text) > 60:
            text = text[:57] + "..."
        mark = "◀ " if i in weakest else "  "
        out.write(f"{row}  {mark}{text}\n")
    out.write("\n")
    if rows is not None:
        for sentence in rows.text_lines():
            out.write(sentence + "\n")
    if weakest:
        out.write(f"◀ marks the weakest {int(WEAKEST_SHARE * 100)}% of lines by {model.metrics[keys[0]].name}.\n")
    for k in keys:
        m = model.metrics[k]
        signature, est = m.signature(model.n_refs), None
        if confidence:
            signature, est = confidence["signature"](signature), confidence[k]
        out.write(corpus_line(m.name, model.corpus(k), signature, est) + "\n")


def render_tsv(model: PairModel, out, confidence: Optional[dict] = None, rows: Optional["SegmentRows"] = None) -> None:
    keys = list(model.metrics)
    cols = ["line"] if rows is None else ["line", "key"]
    for k in keys:
        cols.append(k)
        if k == "bleu":
            n = len(model.metrics[k].sentence_score([0] * model.metrics[k].width).precisions)
            cols += ["bp", "sys_len", "ref_len"] + [f"p{j}" for j in range(1, n + 1)]
    out.write("\t".join(cols) + "\n")

    def cells(s: Score, key: str) -> list[str]:
        row = [repr(s.score) if s.score is not None else "nan"]
        if key == "bleu":
            row += [repr(s.bp), str(s.sys_len), str(s.ref_len)] + [repr(p) for p in s.precisions]
        return row

    for i in range(model.n_paired):
        row = [str(i + 1)] if rows is None else [str(rows.lines[i]), _tsv_cell(rows.keys[i])]
        for k in keys:
            row += cells(model.line_score(k, i), k)
        out.write("\t".join(row) + "\n")
    row = ["corpus"] if rows is None else ["corpus", ""]
    for k in keys:
        row += cells(model.corpus(k), k)
    out.write("\t".join(row) + "\n")


def _tsv_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\x04", "\\x04").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def render_json(model: PairModel, out, confidence: Optional[dict] = None, rows: Optional["SegmentRows"] = None) -> None:
    reports = {k: metric_report(model, k, confidence, rows) for k in model.metrics}
    doc: Any = next(iter(reports.values())) if len(reports) == 1 else reports
    json.dump(doc, out, ensure_ascii=False, indent=1)
    out.write("\n")


# -- main ---------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls score",
        description="Per-line and corpus BLEU / chrF of a hypothesis file against reference file(s), "
        "identical to sacrebleu 2.6 (or NLTK with --preset).",
    )
    p.add_argument("hypothesis", help="hypothesis file, one segment per line")
    p.add_argument("references", nargs="+", help="reference file(s), line-aligned with the hypothesis")
    add_metric_arguments(p)
    p.add_argument("--format", "-f", choices=("text", "json", "tsv"), default="text", help="output format")
    p.add_argument("--confidence", "-ci", action="store_true", help="corpus bootstrap mean and 95%% interval, as sacrebleu")
    p.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples (default 1000)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.confidence and args.confidence_n < 2:
            raise UsageError(f"--confidence-n must be at least 2, not {args.confidence_n}")
        settings = settings_from_args(args)
        metrics = build_metrics(settings)
        if not metrics:
            raise UsageError("no metric selected")
        docs = read_documents([args.hypothesis, *args.references])
        if docs is None:
            hyp = read_lines(args.hypothesis)
            refs = [read_lines(r) for r in args.references]
    except (UsageError, TokenizerUnavailable, ValueError) as exc:
        parser.print_usage(sys.stderr)
        print(f"bleu-ls score: error: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"bleu-ls score: error: {exc}", file=sys.stderr)
        return 2
    rows = None
    if docs is not None:
        al = align(docs[0], docs[1:])
        rows = segment_rows(docs[0], docs[1:], args.references, al)
        hyp, refs = [docs[0].segments[i].target for i in al.rows], al.texts
    counts = [len(hyp)] + [len(r) for r in refs]
    if len(set(counts)) > 1:
        parts = [f"{args.hypothesis} has {len(hyp)} lines"] + [
            f"{name} has {len(r)} lines" for name, r in zip(args.references, refs)
        ]
        print(
            "bleu-ls score: error: line counts differ: " + ", ".join(parts)
            + "; every reference must have one line per hypothesis line",
            file=sys.stderr,
        )
        return 2
    model = PairModel.from_lines(metrics, hyp, refs)
    confidence = None
    if args.confidence and model.n_paired:
        from .compare import corpus_confidence

        confidence = corpus_confidence(model, args.confidence_n)
    out = sys.stdout
    try:
        {"text": render_text, "json": render_json, "tsv": render_tsv}[args.format](model, out, confidence, rows)
        out.flush()
    except BrokenPipeError:
        return 0
    return 0
