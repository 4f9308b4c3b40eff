"""``bleu-ls report HYP [HYP ...] --ref REF [REF ...] [-o report.html]``.

Roles are given by flags: every positional file is a system's hypothesis
(the first is the baseline of the paired test), references follow --ref,
the source --src, a post-editing draft --draft.  Bad input ends with one
sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from ..engine import InputError, PairModel, TokenizerUnavailable, build_metrics
from .inputs import LineCounts, read_line_files, read_segments
from ..formats.rows import SegmentRows
from ..config.workspace import CONFIG_NAME, find_workspace_root, load_workspace_config
from .metric_args import UsageError, add_jobs_argument, add_metric_arguments, check_jobs, settings_from_args
from ..config.settings import Settings
from ..report.inputs import Options, ReportInput, System

#: what line files of unequal length are told
LINE_COUNTS = LineCounts(
    "every file must have one line per segment", each="{name} has {n}", sentence="line counts differ ({counts}); {rule}"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls report",
        description="Write one self-contained HTML report (no network needed, printable) on one or more "
        "systems' hypotheses against the same reference(s): corpus scores with 95% intervals and the paired "
        "test against the first system, score distributions, scores by reference length, the weakest lines, "
        "the lines where systems differ most, missed n-grams and flagged lines.",
        epilog="Example: bleu-ls report sysA.hyp sysB.hyp --ref ref.de --src src.en -o report.html",
    )
    p.add_argument("hypotheses", nargs="+", metavar="HYP", help="hypothesis file of each system; the first is the baseline")
    p.add_argument("--ref", "-r", nargs="+", action="extend", required=True, metavar="REF",
                   help="reference file(s), line-aligned with every hypothesis")
    p.add_argument("--src", metavar="SRC", default=None, help="source file, shown beside the lines")
    p.add_argument("--draft", metavar="DRAFT", default=None,
                   help="the draft the hypotheses were post-edited from: changed words are marked")
    p.add_argument("--name", "-n", nargs="+", action="extend", default=None, metavar="NAME",
                   help="display name of each system, in the order of the HYP files (default: file names)")
    p.add_argument("--output", "-o", default="report.html", metavar="FILE",
                   help="where to write the report (default: report.html; '-' for standard output)")
    p.add_argument("--title", default=None, help="the report's title")
    add_metric_arguments(p)
    g = p.add_argument_group("significance")
    g.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for intervals and the paired test (default 1000, as sacrebleu; 0: none)")
    g.add_argument("--seed", type=int, default=None,
                   help="random seed (default: sacrebleu's, SACREBLEU_SEED or 12345)")
    p.add_argument("--top", type=int, default=10, metavar="K", help="lines per line-level list (default 10)")
    p.add_argument("--config", metavar="FILE", default=None,
                   help=f"settings file (diagnostic thresholds) instead of the nearest {CONFIG_NAME}")
    p.add_argument("--no-config", action="store_true", help=f"ignore {CONFIG_NAME} files")
    add_jobs_argument(p, terms=True)
    return p


def _names(args: argparse.Namespace) -> list[str]:
    if args.name is not None:
        if len(args.name) != len(args.hypotheses):
            raise UsageError(f"--name gives {len(args.name)} names for {len(args.hypotheses)} hypothesis files")
        return list(args.name)
    names = [Path(h).name for h in args.hypotheses]
    stems = [Path(h).stem for h in args.hypotheses]
    if len(set(stems)) == len(stems):
        return stems
    return names if len(set(names)) == len(names) else list(args.hypotheses)


def _title(names: list[str]) -> str:
    if len(names) <= 3:
        return "bleu-ls report: " + ", ".join(names)
    return f"bleu-ls report: {len(names)} systems against {names[0]}"


def _settings(args: argparse.Namespace) -> Settings:
    data: dict = {}
    if args.config and not args.no_config:
        cfg = Path(args.config)
        if not cfg.is_file():
            raise InputError(f"{cfg}: no such file")
        root = cfg.absolute().parent
        if cfg.name != CONFIG_NAME:
            raise UsageError(f"--config must name a {CONFIG_NAME} file")
        data, problems = load_workspace_config(root)
    elif not args.no_config:
        found = find_workspace_root(Path(args.hypotheses[0]))
        data, problems = load_workspace_config(found) if found is not None else ({}, [])
    else:
        problems = []
    if problems:
        raise UsageError(problems[0])
    unknown: list[str] = []
    base = Settings.from_dict(data, unknown)
    for p in unknown:
        print(f"bleu-ls report: warning: {CONFIG_NAME}: {p}", file=sys.stderr)
    return settings_from_args(args, base)


#: the texts read: hypotheses, references (each a list of lines), the source and the draft
Texts = tuple[list[list[str]], list[list[str]], Optional[list[str]], Optional[list[str]]]


def _read_segments(args: argparse.Namespace) -> Optional[tuple[Texts, SegmentRows]]:
    """Segment files (PO, XLIFF…): the rows every file shares, paired by key with the first
    hypothesis' segments; None for line files.  The source is the files' own."""
    paths = [*args.hypotheses, *args.ref, *([args.draft] if args.draft else [])]
    paired = read_segments(paths)
    if paired is None:
        return None
    if args.src:
        raise InputError(f"{args.src}: segment files carry their own source; --src is for line files")
    segs = [paired.docs[0].segments[i] for i in paired.alignment.rows]
    n_h = len(args.hypotheses)
    texts = paired.texts
    hyps = texts[:n_h]
    refs = texts[n_h : n_h + len(args.ref)]
    draft = texts[-1] if args.draft else None
    src = [s.source or "" for s in segs] if segs and all(s.source is not None for s in segs) else None
    rows = paired.rows
    for sentence in rows.text_lines(other_role="matching"):
        print(f"bleu-ls report: {sentence}", file=sys.stderr)
    return (hyps, refs, src, draft), rows


def _read(args: argparse.Namespace) -> Texts:
    texts = read_line_files([*args.hypotheses, *args.ref, *(f for f in (args.src, args.draft) if f)], LINE_COUNTS)
    n_h, n_r = len(args.hypotheses), len(args.ref)
    hyps, refs, rest = texts[:n_h], texts[n_h : n_h + n_r], texts[n_h + n_r :]
    src = rest.pop(0) if args.src else None
    draft = rest.pop(0) if args.draft else None
    return hyps, refs, src, draft


def _check_output(args: argparse.Namespace) -> None:
    if args.output == "-":
        return
    out = Path(args.output)
    if out.is_dir():
        raise InputError(f"{out} is a folder; give a file name with -o")
    inputs = [*args.hypotheses, *args.ref, *(f for f in (args.src, args.draft) if f)]
    for f in inputs:
        if out.exists() and Path(f).exists() and os.path.samefile(f, out):
            raise InputError(f"{out} is an input file; bleu-ls never writes to its inputs")
    if not out.absolute().parent.is_dir():
        raise InputError(f"{out.parent}: no such folder for the report")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.bootstrap < 0 or args.top < 1:
            raise UsageError("--bootstrap must be ≥ 0 and --top ≥ 1")
        workers = check_jobs(args)
        names = _names(args)
        settings = _settings(args)
        metrics = build_metrics(settings)
        if not metrics:
            raise UsageError("no metric selected")
        _check_output(args)
        segmented = _read_segments(args)
        rows: Optional[SegmentRows] = None
        if segmented is not None:
            (hyps, refs, src, draft), rows = segmented
        else:
            hyps, refs, src, draft = _read(args)
    except (UsageError, TokenizerUnavailable, ValueError) as exc:
        parser.print_usage(sys.stderr)
        print(f"bleu-ls report: error: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"bleu-ls report: error: {exc}", file=sys.stderr)
        return 2
    systems = [
        System(name, PairModel.from_lines(metrics, h, refs, workers=workers), path)
        for name, h, path in zip(names, hyps, args.hypotheses)
    ]
    inp = ReportInput(
        systems, list(args.ref), src, args.src, draft, args.draft, settings,
        title=args.title or _title(names),
        options=Options(bootstrap=args.bootstrap, seed=args.seed, top_lines=args.top),
        line_numbers=rows.lines if rows is not None else None,
        keys=rows.keys if rows is not None else None,
        workers=workers,
    )
    from ..report.render import render_report

    html, _data = render_report(inp)
    if args.output == "-":
        try:
            sys.stdout.write(html)
            sys.stdout.flush()
        except BrokenPipeError:  # `bleu-ls report … -o - | head`
            sys.stdout = open(os.devnull, "w")
        return 0
    try:
        Path(args.output).write_text(html, encoding="utf-8")
    except OSError as exc:
        print(f"bleu-ls report: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"bleu-ls report: wrote {args.output} ({len(html.encode()) / 1e6:.1f} MB)", file=sys.stderr)
    return 0
