"""``bleu-ls score HYP REF [REF ...]``: per-line and corpus scores of one pair.

Files are read as sacrebleu's command line reads them (UTF-8, split on
``\\n``, each line right-stripped, a final newline adds no line).  Files
with segments (gettext PO, XLIFF, TMX, subtitles) are read into segments and
paired by key (``segments.match``); each row is then a segment.  Every
bad input ends with one clear sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any, Optional, Sequence

from ..engine.batch import PARALLEL_MIN_LINES
from ..engine import InputError, Metric, PairModel, Score, TokenizerUnavailable, build_metrics
from .inputs import LineCounts, read_inputs
from .metric_args import UsageError, add_metric_arguments, settings_from_args
from .output import Chunked
from ..segments.rows import SegmentRows

#: In the text report, lines in the weakest share of the document are marked.
WEAKEST_SHARE = 0.10

#: what a reference with another line count is told
LINE_COUNTS = LineCounts("every reference must have one line per hypothesis line")


# -- output -------------------------------------------------------------------
def _line_record(metric: Metric, i: int, score: Score, rows: Optional["SegmentRows"] = None) -> dict[str, Any]:
    """One line of the JSON report: where it is, then the metric's record of it
    (BLEU's breakdown, chrF's score alone…: ``Metric.line_record``).

    Segment files (``rows``): the segment's key and the line of its target start."""
    where = {"line": i + 1} if rows is None else rows.record(i)
    return {**where, **metric.line_record(score)}


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
    lines = [_line_record(metric, i, model.line_score(key, i), rows) for i in range(model.n_paired)]
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


def corpus_line(metric: Metric, score: Score, signature: str, est: Any = None) -> str:
    """The sacrebleu-style corpus line of one metric (``Metric.text_line``)."""
    value = _fmt(score.score)
    if est is not None and est.mean is not None:
        value += f" (μ = {est.mean:.2f} ± {est.ci:.2f})"
    return metric.text_line(score, value, signature)


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
    if not model.metrics[keys[0]].higher_is_better:  # an error rate (TER): more is worse
        first = [None if v is None else -v for v in first]
    weakest = _weakest(first)
    width = max(4, len(str(model.n_paired if rows is None else max(rows.lines, default=0))))
    head = f"{'line':>{width}}  " + "  ".join(f"{model.metrics[k].name:>7}" for k in keys)
    # the metrics with columns of their own after the scores (BLEU: BP, lengths)
    extra = [(k, model.metrics[k].text_cells) for k in keys if model.metrics[k].text_columns()]
    head += "".join(model.metrics[k].text_columns() for k, _ in extra)
    out.write(head + "  hypothesis\n")
    for i in range(model.n_paired):
        cells = "  ".join(f"{_fmt(values[k][i]):>7}" for k in keys)
        row = f"{i + 1 if rows is None else rows.lines[i]:>{width}}  {cells}"
        for k, text_cells in extra:
            row += text_cells(model.line_score(k, i))
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
        out.write(corpus_line(m, model.corpus(k), signature, est) + "\n")


def render_tsv(model: PairModel, out, confidence: Optional[dict] = None, rows: Optional["SegmentRows"] = None) -> None:
    metrics = model.metrics
    cols = ["line"] if rows is None else ["line", "key"]
    for m in metrics.values():
        cols += m.tsv_columns()
    out.write("\t".join(cols) + "\n")
    cells = [(k, m.tsv_cells) for k, m in metrics.items()]
    for i in range(model.n_paired):
        row = [str(i + 1)] if rows is None else [str(rows.lines[i]), _tsv_cell(rows.keys[i])]
        for k, tsv_cells in cells:
            row += tsv_cells(model.line_score(k, i))
        out.write("\t".join(row) + "\n")
    row = ["corpus"] if rows is None else ["corpus", ""]
    for k, m in metrics.items():
        row += m.tsv_cells(model.corpus(k))
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
    p.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N",
        help="worker processes that score chunks of the lines (default: every CPU for files of "
        f"{PARALLEL_MIN_LINES:,} lines or more, else 1); the numbers do not depend on it",
    )
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.jobs is not None and args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
        if args.confidence and args.confidence_n < 2:
            raise UsageError(f"--confidence-n must be at least 2, not {args.confidence_n}")
        settings = settings_from_args(args)
        metrics = build_metrics(settings)
        if not metrics:
            raise UsageError("no metric selected")
        inputs = read_inputs([args.hypothesis, *args.references], LINE_COUNTS)
    except (UsageError, TokenizerUnavailable, ValueError) as exc:
        parser.print_usage(sys.stderr)
        print(f"bleu-ls score: error: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"bleu-ls score: error: {exc}", file=sys.stderr)
        return 2
    rows = inputs.rows
    hyp, *refs = inputs.texts
    model = PairModel.from_lines(metrics, hyp, refs, workers=args.jobs)
    confidence = None
    if args.confidence and model.n_paired:
        from .confidence import corpus_confidence

        confidence = corpus_confidence(model, args.confidence_n)
    out = Chunked(sys.stdout)
    try:
        {"text": render_text, "json": render_json, "tsv": render_tsv}[args.format](model, out, confidence, rows)
        out.flush()
    except BrokenPipeError:
        return 0
    return 0
