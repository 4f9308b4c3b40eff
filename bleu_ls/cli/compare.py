"""``bleu-ls compare BASELINE HYP REF [REF ...]``: is HYP's difference to BASELINE real?

The paired test of sacrebleu 2.6 (``PairedTest``), bootstrap resampling
(``--paired-bs``, the default: each system's mean and 95% interval and the
p-value) or approximate randomization (``--paired-ar``: the p-value), with
the same random numbers (seed 12345 or ``SACREBLEU_SEED``) and therefore the
same numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Optional, Sequence

from ..engine import InputError, TokenizerUnavailable, build_metrics
from ..engine.batch import first_pass
from .output import Chunked
from ..engine.significance import Estimate, default_seed, paired_ar, paired_bs
from .confidence import signed
from .inputs import LineCounts, read_inputs
from .metric_args import UsageError, add_jobs_argument, add_metric_arguments, check_jobs, settings_from_args
from ..formats.rows import SegmentRows


def _record(est: Estimate, system: bool) -> dict[str, Any]:
    rec: dict[str, Any] = {"score": est.score, "mean": est.mean, "ci": est.ci}
    if system:
        rec["p_value"] = est.p_value
    return rec


def _fmt_est(est: Estimate) -> str:
    text = f"{est.score:6.2f}"
    if est.mean is not None:
        text += f" (μ = {est.mean:.2f} ± {est.ci:.2f})"
    return text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls compare",
        description="Paired significance test of HYP against BASELINE on the same references, "
        "with sacrebleu 2.6's numbers (PairedTest).",
    )
    p.add_argument("baseline", help="the baseline system's output (e.g. the MT draft)")
    p.add_argument("hypothesis", help="the system compared with it (e.g. the post-edited text)")
    p.add_argument("references", nargs="+", help="reference file(s), line-aligned")
    add_metric_arguments(p)
    test = p.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling (default)")
    test.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    p.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--paired-ar-n", "-parn", type=int, default=10000, help="randomization trials (default 10000)")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text", help="output format")
    add_jobs_argument(p)
    return p


#: what a file with another line count than the baseline is told
LINE_COUNTS = LineCounts("every file must have one line per baseline line")


def _fail(parser: Optional[argparse.ArgumentParser], message: str) -> int:
    if parser is not None:
        parser.print_usage(sys.stderr)
    print(f"bleu-ls compare: error: {message}", file=sys.stderr)
    return 2


def run_test(metrics, base: list[str], hyp: list[str], refs: list[list[str]], ar: bool, n: int,
             workers: Optional[int] = None) -> dict[str, Any]:
    """Per metric key: (name, signature, baseline Estimate, system Estimate); both
    systems' lines scored on ``workers`` processes (None: the engine's choice)."""
    base_rows = first_pass(metrics, base, refs, workers=workers)
    hyp_rows = first_pass(metrics, hyp, refs, workers=workers)
    seed = default_seed()
    out: dict[str, Any] = {}
    for key, metric in metrics.items():
        fn = paired_ar if ar else paired_bs
        b, (s,) = fn(metric, base_rows[key][0], [hyp_rows[key][0]], n=n, seed=seed)
        signature = signed(metric.signature(len(refs)), "ar" if ar else "bs", n, seed)
        out[key] = (metric.name, signature, b, s)
    return out


def render(results: dict[str, Any], args, out, rows: Optional[SegmentRows] = None) -> None:
    if args.format == "json":
        doc = {
            key: {"name": name, "signature": sig, "baseline": _record(b, False), "system": _record(s, True)}
            for key, (name, sig, b, s) in results.items()
        }
        if rows is not None:
            doc["segments"] = {"scored": len(rows.keys), "unpaired": rows.unpaired_json()}
        json.dump(doc, out, ensure_ascii=False, indent=1)
        out.write("\n")
        return
    width = max(len(args.baseline), len(args.hypothesis), 8)
    for name, sig, b, s in results.values():
        out.write(f"{name}  {sig}\n")
        out.write(f"  baseline  {args.baseline:<{width}}  {_fmt_est(b)}\n")
        delta = s.score - b.score
        out.write(f"  system    {args.hypothesis:<{width}}  {_fmt_est(s)}  Δ {delta:+.2f}  p = {s.p_value:.4f}\n")
    if rows is not None:
        out.write(f"{len(rows.keys)} segments paired by key in every file\n")
        for sentence in rows.text_lines("baseline", "matching"):
            out.write(sentence + "\n")
    how = "lines are swapped at random between the two" if args.paired_ar else "the lines are resampled"
    out.write(
        f"p: how often a difference at least this large appears by chance when {how}\n"
        "(small: unlikely to be noise on these lines; not the probability that the system is better).\n"
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    n = args.paired_ar_n if args.paired_ar else args.paired_bs_n
    try:
        if n < 1:
            raise UsageError(f"the number of {'trials' if args.paired_ar else 'resamples'} must be at least 1, not {n}")
        workers = check_jobs(args)
        metrics = build_metrics(settings_from_args(args))
        if not metrics:
            raise UsageError("no metric selected")
    except (UsageError, TokenizerUnavailable, ValueError) as exc:
        return _fail(parser, str(exc))
    try:  # segments are paired by key with the baseline's
        inputs = read_inputs([args.baseline, args.hypothesis, *args.references], LINE_COUNTS)
    except InputError as exc:
        return _fail(None, str(exc))
    rows = inputs.rows
    base, hyp, *refs = inputs.texts
    if not base:
        what = "lines" if rows is None else "segments paired with the other files"
        return _fail(None, f"{args.baseline} has no {what} to compare")
    try:
        results = run_test(metrics, base, hyp, refs, args.paired_ar, n, workers)
    except ValueError as exc:
        return _fail(None, str(exc))
    try:
        out = Chunked(sys.stdout)
        render(results, args, out, rows)
        out.flush()
    except BrokenPipeError:
        return 0
    return 0
