"""The scoring engine: tokenizing (sacrebleu's tokenizers), n-gram statistics,
score-from-statistics for BLEU / chrF / the NLTK presets, and the incremental
pair model.  Imports nothing from pygls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Metric, Score
from .bleu import BleuMetric
from .chrf import ChrfMetric
from .nltk_bleu import NltkBleuMetric
from .pair import LineJob, PairModel, PairSnapshot, common_splice, common_tail
from .ter import TerMetric
from .text import InputError, read_lines, read_text, split_file_lines, split_lsp_lines, split_shared
from .tokenizers import TokenizerUnavailable

if TYPE_CHECKING:
    from ..settings import BleuSettings, ChrfSettings, Settings, TerSettings

__all__ = [
    "Metric",
    "Score",
    "BleuMetric",
    "ChrfMetric",
    "NltkBleuMetric",
    "TerMetric",
    "PairModel",
    "PairSnapshot",
    "LineJob",
    "common_splice",
    "common_tail",
    "InputError",
    "read_lines",
    "read_text",
    "split_file_lines",
    "split_lsp_lines",
    "split_shared",
    "TokenizerUnavailable",
    "bleu_metric",
    "chrf_metric",
    "ter_metric",
    "build_metrics",
]


def bleu_metric(s: "BleuSettings") -> Metric:
    """The BLEU metric the settings describe (sacrebleu or an NLTK preset)."""
    smooth = s.resolved_smooth()
    if s.preset == "sacrebleu":
        return BleuMetric(
            tokenize=s.tokenize,
            smooth=smooth,
            smooth_value=s.smooth_value,
            max_order=s.max_order,
            lowercase=s.lowercase,
            effective_order=s.effective_order,
        )
    if s.preset in ("nltk", "nltk-3.2"):
        weights = s.weights or [1.0 / s.max_order] * s.max_order
        return NltkBleuMetric(
            weights=weights,
            smooth=smooth,
            lowercase=s.lowercase,
            legacy=s.preset == "nltk-3.2",
        )
    raise ValueError(f"unknown preset {s.preset!r}")


def chrf_metric(s: "ChrfSettings") -> Metric:
    return ChrfMetric(
        char_order=s.char_order,
        word_order=s.word_order,
        beta=s.beta,
        lowercase=s.lowercase,
        whitespace=s.whitespace,
        eps_smoothing=s.eps_smoothing,
    )


def ter_metric(s: "TerSettings") -> Metric:
    return TerMetric(
        normalized=s.normalized,
        no_punct=s.no_punct,
        asian_support=s.asian_support,
        case_sensitive=s.case_sensitive,
    )


def build_metrics(settings: "Settings") -> dict[str, Metric]:
    """The enabled metrics, keyed "bleu" / "chrf" / "ter", in display order."""
    out: dict[str, Metric] = {}
    if settings.bleu.enabled:
        out["bleu"] = bleu_metric(settings.bleu)
    if settings.chrf.enabled:
        out["chrf"] = chrf_metric(settings.chrf)
    ter = getattr(settings, "ter", None)
    if ter is not None and ter.enabled:
        out["ter"] = ter_metric(ter)
    return out
