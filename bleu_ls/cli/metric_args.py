"""The metric flags shared by the commands (`score`, `check`, `compare`,
`report`): adding them to a parser and reading them into :class:`Settings`,
and :class:`UsageError` for a bad value; the worker-process flag ``--jobs``
of every command that scores many lines (those four and `effort`).
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Optional, Sequence

from ..engine.batch import MAX_DEFAULT_WORKERS, PARALLEL_MIN_LINES
from ..engine.bleu import SMOOTH_DEFAULTS
from ..engine.table import TABLE
from ..config.settings import BLEU_SMOOTHING, METRICS, NLTK_SMOOTHING, PRESETS, TOKENIZERS, Settings


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
    enabled = [row.key for row in TABLE if getattr(d, row.section).enabled]
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


# -- worker processes -----------------------------------------------------------
def add_jobs_argument(parser: argparse.ArgumentParser, terms: bool = False) -> None:
    """``--jobs N`` / ``-j N`` (default None: the engine's choice,
    ``batch.default_workers``: every CPU up to ``MAX_DEFAULT_WORKERS`` from
    ``PARALLEL_MIN_LINES`` lines on, else 1); read it with :func:`check_jobs`.
    ``terms``: the command runs the checks (the glossary's terms are looked
    for in the processes beside this one)."""
    work = "score chunks of the lines" + (" and look for a glossary's terms beside the other checks" if terms else "")
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N",
        help=f"worker processes that {work} (default: every CPU, at most {MAX_DEFAULT_WORKERS}, "
        f"for files of {PARALLEL_MIN_LINES:,} lines or more, else 1); the "
        + ("numbers and findings" if terms else "numbers") + " do not depend on it",
    )


def check_jobs(args: argparse.Namespace) -> Optional[int]:
    """The ``workers=`` of the engine's passes: ``--jobs`` as given (None when
    not given); a :class:`UsageError` for a number under 1."""
    jobs: Optional[int] = args.jobs
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return jobs


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
    if args.metric is not None:  # each metric's section (a copy) on or off
        for row in TABLE:
            setattr(s, row.section, dataclasses.replace(getattr(s, row.section), enabled=row.key in args.metric))
    bleu = dataclasses.replace(s.bleu)
    chrf = dataclasses.replace(s.chrf)
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
