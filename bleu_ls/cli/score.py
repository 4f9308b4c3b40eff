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

from ..engine import InputError, PairModel, Score, TokenizerUnavailable, build_metrics
from .inputs import LineCounts, read_inputs
from .metric_args import UsageError, add_metric_arguments, settings_from_args
from .output import Chunked
from ..segments.rows import SegmentRows

#: In the text report, lines in the weakest share of the document are marked.
WEAKEST_SHARE = 0.10

#: what a reference with another line count is told
LINE_COUNTS = LineCounts("every reference must have one line per hypothesis line")


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
    model = PairModel.from_lines(metrics, hyp, refs)
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
