"""``bleu-ls check PATH…``: pair hypothesis files and print their diagnostics.

Paths are files or folders (folders are searched for hypothesis-like files:
``NAME.hyp``, ``NAME.mt``, ``NAME.hyp.de``… or a ``[[pairs]]`` rule's
glob).  Settings come from ``bleu-ls.toml`` in the nearest folder at or above
the path (else the current folder), with the metric flags laid over them.

Output, one line per diagnostic, as compilers print them::

    out/news.hyp:12:1: warning: BLEU 4.2 is under the threshold 10. [low-score]

then one summary line per pair (``BLEU 27.31 · 1,203 lines · signature``).
Exit status: 2 on bad input (missing or unreadable file, not UTF-8, bad
option), else 1 when a diagnostic at or above ``--fail-on`` was printed,
else 0.

Three steps: :mod:`.discover` (files and settings), :mod:`.one_pair`
(check one pair), :mod:`.report` (output and exit status).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from ...engine import InputError
from ..output import Chunked
from ...config.workspace import CONFIG_NAME
from ..metric_args import UsageError, add_jobs_argument, add_metric_arguments, check_jobs, settings_from_args  # the shared flags
from ...config.settings import SEVERITIES, Settings
from .discover import Discovery
from .across import Across
from .one_pair import check_pair
from .report import Report

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls check",
        description="Pair hypothesis files with their references and print per-line diagnostics "
        "(low scores, empty or untranslated lines, loops, length and line-count problems) "
        "and each pair's corpus score.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="hypothesis files or folders to search")
    add_metric_arguments(p)
    p.add_argument(
        "--fail-on",
        choices=(*SEVERITIES, "never"),
        default="warning",
        help="exit with status 1 when a diagnostic this severe or worse is found (default: warning)",
    )
    p.add_argument("--format", "-f", choices=("text", "json"), default="text", help="output format")
    p.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help=f"settings file to use instead of the nearest {CONFIG_NAME}",
    )
    p.add_argument("--no-config", action="store_true", help=f"ignore {CONFIG_NAME} files")
    p.add_argument(
        "--glossary",
        metavar="PATH",
        action="append",
        default=[],
        help="check terminology against this glossary (TBX, CSV/TSV with a header of language codes, "
        "or a .txt list of do-not-translate terms); repeatable, added to [terms] files",
    )
    add_jobs_argument(p, terms=True)
    return p


def main(argv: Optional[Sequence[str]] = None, out=None, err=None) -> int:
    try:
        return _main(argv, out or sys.stdout, err or sys.stderr)
    except BrokenPipeError:  # `bleu-ls check … | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


def _main(argv: Optional[Sequence[str]], out, err) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # validate the flags once, before touching files
    try:
        workers = check_jobs(args)
        settings_from_args(args, Settings())
    except (UsageError, ValueError) as exc:
        parser.print_usage(err)
        print(f"bleu-ls check: error: {exc}", file=err)
        return 2
    report = Report(args.format, args.fail_on, Chunked(out), err)
    discovery = Discovery(args, report)
    seen: set[Path] = set()
    across = Across()
    for arg in args.paths:
        try:
            files = discovery.collect(arg)
        except (InputError, UsageError, ValueError) as exc:
            report.error(str(exc))
            continue
        for hyp in files:
            key = hyp.resolve()
            if key in seen:
                continue
            seen.add(key)
            try:
                settings, root = discovery.settings_for(hyp)
            except (InputError, UsageError, ValueError) as exc:
                report.error(str(exc))
                continue
            check_pair(hyp, settings, root, report, across, workers=workers)
    for shown, findings in across.findings():
        report.late(shown, findings)
    return report.finish()
