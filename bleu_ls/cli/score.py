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
from functools import partial
from typing import Any, Iterable, Iterator, Optional, Protocol, Sequence

from ..engine import InputError, Metric, PairModel, Score, TokenizerUnavailable, build_metrics
from ..engine.significance import Estimate
from .inputs import LineCounts, read_inputs
from .metric_args import UsageError, add_jobs_argument, add_metric_arguments, check_jobs, settings_from_args
from .output import Chunked
from ..formats.rows import SegmentRows

#: In the text report, lines in the weakest share of the document are marked.
WEAKEST_SHARE = 0.10

#: what a reference with another line count is told
LINE_COUNTS = LineCounts("every reference must have one line per hypothesis line")


# -- output -------------------------------------------------------------------
class Writer(Protocol):
    """Where a report is written (``output.Chunked`` over stdout, a ``StringIO``)."""

    def write(self, text: str, /) -> object: ...


def _score(model: PairModel, key: str, i: int) -> Score:
    """The score of paired line ``i`` (``i < model.n_paired``, ``key`` one of its metrics: never None)."""
    score = model.line_score(key, i)
    assert score is not None, (key, i)
    return score


def metric_report(
    model: PairModel,
    key: str,
    confidence: Optional[dict] = None,
    rows: Optional["SegmentRows"] = None,
    *,
    lines: bool = True,
) -> dict[str, Any]:
    """The JSON record of one metric: signature, corpus, lines (``lines=False``:
    the ``lines`` entry is left out, see :func:`line_records`)."""
    metric = model.metrics[key]
    corpus = model.corpus(key).as_dict()
    signature = metric.signature(model.n_refs, sentence=False)
    if confidence:
        est, signature = confidence[key], confidence["signature"](signature)
        corpus.update(mean=est.mean, ci=est.ci)
    report = {
        "metric": metric.name,
        "signature": signature,
        "line_signature": metric.signature(model.n_refs, sentence=True),
        "corpus": corpus,
    }
    if lines:
        report["lines"] = list(line_records(model, key, rows))
    if rows is not None:
        report["unpaired"] = rows.unpaired_json()
    return report


def line_records(model: PairModel, key: str, rows: Optional["SegmentRows"] = None) -> Iterator[dict[str, Any]]:
    """The JSON record of each paired line, in order."""
    return _records(model.metrics[key], model.stats_array(key), 0, rows)


def _records(metric: Metric, stats: Any, first: int, rows: Optional["SegmentRows"] = None) -> Iterator[dict[str, Any]]:
    """The JSON records of the statistics rows ``stats`` of lines ``first``, ``first + 1``…"""
    score, record = metric.sentence_score, metric.line_record
    for i, row in enumerate(stats.tolist(), first):
        # where it is (segment files: the key and the line of its target
        # start), then the metric's record of it (``Metric.line_record``)
        where = {"line": i + 1} if rows is None else rows.record(i)
        yield {**where, **record(score(row))}


# -- JSON, fast ---------------------------------------------------------------
#
# ``json.dump(..., indent=1)`` runs the pure-Python encoder (the C one is only
# used without indent) and writes a few characters per call: at 100,000 BLEU
# lines it took longer than the scoring.  The line records all have the same
# shape (keys; numbers and lists of numbers), so each shape is one ``%``
# template, filled with the ``repr`` of the numbers (what ``json`` writes for
# an int or a finite float).  The text is the same, byte for byte, as
# ``json.dump(doc, ensure_ascii=False, indent=1)``; a record of any other shape
# (strings, None, non-finite floats, nested objects) goes through ``json``.

_NUMBER = (int, float)
_NOT_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _template(record: dict, level: int, cell: str = "%s") -> Optional[tuple[str, tuple]]:
    """(``%`` template, shape) of a record of numbers and lists of numbers
    written at ``level``, ``cell`` in the place of each number; None for any
    other record."""
    pad, inner, deep = " " * level, " " * (level + 1), " " * (level + 2)
    parts, shape = [], []
    for k, v in record.items():
        head = (inner + json.dumps(k, ensure_ascii=False) + ": ").replace("%", "%%")
        if type(v) in _NUMBER:
            parts.append(head + cell)
            shape.append((k, -1))
        elif type(v) is list and v and all(type(x) in _NUMBER for x in v):
            parts.append(head + "[\n" + ",\n".join([deep + cell] * len(v)) + "\n" + inner + "]")
            shape.append((k, len(v)))
        else:
            return None
    if not parts:
        return None
    return (pad + "{\n" + ",\n".join(parts) + "\n" + pad + "}", tuple(shape))


def _shape(record: dict) -> tuple:
    return tuple((k, len(v) if type(v) is list else -1) for k, v in record.items())


def encode_records(records: Iterable[dict], level: int, block: int = 2048) -> Iterator[str]:
    """The items of a JSON list of ``records`` written at ``level`` as
    ``json.dump(indent=1)`` writes them, joined by ``,\n``, in pieces of
    ``block`` records (the text of ``[`` and ``]`` is the caller's)."""
    templates: dict[tuple, Optional[str]] = {}
    pad = "\n" + " " * level
    done: list[str] = []
    first = True
    for rec in records:
        shape = _shape(rec)
        tpl = templates.get(shape, "")
        if tpl == "":
            made = _template(rec, level)
            tpl = templates[shape] = made[0] if made is not None and made[1] == shape else None
        text = None
        if tpl is not None:
            values: list = []
            for v in rec.values():
                if type(v) is list:
                    values += v
                else:
                    values.append(v)
            if all(type(x) in _NUMBER for x in values):
                cells = list(map(repr, values))
                if not all(c[-1].isdigit() for c in cells):
                    cells = [_NOT_FINITE.get(c, c) for c in cells]
                text = tpl % tuple(cells)
        if text is None:
            text = " " * level + json.dumps(rec, ensure_ascii=False, indent=1).replace("\n", pad)
        done.append(text if first else ",\n" + text)
        first = False
        if len(done) >= block:
            yield "".join(done)
            done = []
    if done:
        yield "".join(done)


def _fmt(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def corpus_line(metric: Metric, score: Score, signature: str, est: Optional[Estimate] = None) -> str:
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


def render_text(model: PairModel, out: Writer, confidence: Optional[dict[str, Any]] = None, rows: Optional["SegmentRows"] = None) -> None:
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
            row += text_cells(_score(model, k, i))
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


def render_tsv(model: PairModel, out: Writer, confidence: Optional[dict[str, Any]] = None, rows: Optional["SegmentRows"] = None) -> None:
    metrics = model.metrics
    cols = ["line"] if rows is None else ["line", "key"]
    for m in metrics.values():
        cols += m.tsv_columns()
    out.write("\t".join(cols) + "\n")
    cells = [(k, m.tsv_cells) for k, m in metrics.items()]
    for i in range(model.n_paired):
        row = [str(i + 1)] if rows is None else [str(rows.lines[i]), _tsv_cell(rows.keys[i])]
        for k, tsv_cells in cells:
            row += tsv_cells(_score(model, k, i))
        out.write("\t".join(row) + "\n")
    row = ["corpus"] if rows is None else ["corpus", ""]
    for k, m in metrics.items():
        row += m.tsv_cells(model.corpus(k))
    out.write("\t".join(row) + "\n")


def _tsv_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\x04", "\\x04").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def json_level(n_metrics: int) -> int:
    """The indent of the line records in the JSON report of ``n_metrics`` metrics."""
    return 2 if n_metrics == 1 else 3


def render_chunk(level: int, key: str, metric: Metric, stats: Any, scores: Any, first: int) -> str:
    """The JSON text of the line records of one chunk of the batch pass (line
    files), made in the worker process that counted it (``batch.first_pass_with``).

    A metric with ``line_record_values`` (BLEU, chrF) gives each line's numbers
    without a Score or a dict: they fill the template of the first line's
    record (checked against that record), a line with a number that is not
    finite goes through :func:`encode_records`."""
    values_of = getattr(metric, "line_record_values", None)
    if values_of is None or not len(stats):
        return "".join(encode_records(_records(metric, stats, first), level))
    head = next(_records(metric, stats[:1], first))
    made = _template(head, level, "%r")  # repr: what json writes of an int or a finite float
    flat: list = []
    for v in head.values():
        flat += v if type(v) is list else [v]
    values = values_of(stats, scores)
    first_values = next(values, None)
    if made is None or made[1] != _shape(head) or first_values is None or flat != [first + 1, *first_values]:
        return "".join(encode_records(_records(metric, stats, first), level))
    tpl = made[0]
    out = [tpl % tuple(flat)]
    for i, vals in enumerate(values, first + 2):
        try:
            ok = sum(vals) * 0.0 == 0.0  # every number finite (inf, nan: not 0.0)
        except OverflowError:
            ok = False
        if ok:
            out.append(tpl % ((i,) + vals))
        else:
            out.append("".join(encode_records(_records(metric, stats[i - first - 1 : i - first], i - 1), level)))
    return ",\n".join(out)


def render_json(
    model: PairModel,
    out: Writer,
    confidence: Optional[dict] = None,
    rows: Optional["SegmentRows"] = None,
    chunks: Optional[dict[str, list[str]]] = None,
) -> None:
    """The JSON report: ``json.dump(doc, ensure_ascii=False, indent=1)``'s text,
    the lines of each metric written by :func:`encode_records` — or, when the
    batch pass made them (``chunks``: per metric key, the text of each chunk,
    :func:`render_chunk`), taken from there."""
    keys = list(model.metrics)
    reports = {k: metric_report(model, k, confidence, rows, lines=False) for k in keys}
    marks = {k: f"@lines-{i}-{id(model)}@" for i, k in enumerate(keys)}
    for k in keys:  # "lines" in its place: after "corpus", before "unpaired"
        rep = reports[k]
        rest = {n: rep.pop(n) for n in list(rep) if n not in ("metric", "signature", "line_signature", "corpus")}
        rep["lines"] = marks[k]
        rep.update(rest)
    single = len(keys) == 1
    doc: Any = reports[keys[0]] if single else reports
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    level = json_level(len(keys))
    for k in keys:
        head, _, text = text.partition(json.dumps(marks[k]))
        out.write(head)
        if model.n_paired == 0:
            out.write("[]")
            continue
        out.write("[\n")
        pieces = (
            encode_records(line_records(model, k, rows), level)
            if chunks is None or not chunks.get(k)
            else _joined([c for c in chunks[k] if c])
        )
        for piece in pieces:
            out.write(piece)
        out.write("\n" + " " * (level - 1) + "]")
    out.write(text)
    out.write("\n")


def _joined(parts: list[str]) -> Iterator[str]:
    for i, part in enumerate(parts):
        yield part if i == 0 else ",\n" + part


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
    add_jobs_argument(p)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        workers = check_jobs(args)
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
    model = PairModel(metrics, hyp, refs, lazy=True)
    # JSON of line files: each worker writes the records of the lines it counted
    render = partial(render_chunk, json_level(len(metrics))) if args.format == "json" and rows is None else None
    chunks = model.full_pass(workers=workers, render=render)
    confidence = None
    if args.confidence and model.n_paired:
        from .confidence import corpus_confidence

        confidence = corpus_confidence(model, args.confidence_n)
    out = Chunked(sys.stdout)
    try:
        if args.format == "json":
            render_json(model, out, confidence, rows, chunks if render is not None else None)
        else:
            {"text": render_text, "tsv": render_tsv}[args.format](model, out, confidence, rows)
        out.flush()
    except BrokenPipeError:
        return 0
    return 0
