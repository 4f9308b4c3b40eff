"""The scoring engine: tokenizing (sacrebleu's tokenizers), n-gram statistics,
score-from-statistics for BLEU / chrF / TER / the NLTK presets (one module
per metric over ``base.Metric``, listed in ``table.TABLE``), and the
incremental pair model.  Imports nothing from pygls, nor from the package's
layers above it."""

from __future__ import annotations

from .base import Metric, Score
from .bleu import BleuMetric
from .chrf import ChrfMetric
from .nltk_bleu import NltkBleuMetric
from .pair import LineJob, PairModel, PairSnapshot, common_splice, common_tail
from .table import KEYS, TABLE, MetricRow, build_metrics
from .ter import TerMetric
from .text import InputError, read_lines, read_text, split_file_lines, split_lsp_lines, split_shared
from .tokenizers import TokenizerUnavailable

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
    "TABLE",
    "KEYS",
    "MetricRow",
    "build_metrics",
]
