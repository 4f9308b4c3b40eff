"""The table of metrics: which there are, in display order, and making the
enabled ones from a settings object.

One row per metric key and settings section.  A row lists the classes that
compute that metric, one per group of its section's presets: BLEU's row
holds sacrebleu's BLEU and the NLTK presets (one key, one section, chosen by
``preset``).  Everything else about a metric is said by its class (see
``base.Metric``); a new metric is a module with its class and a row here.

Settings arrive duck-typed: ``build_metrics`` reads ``settings.<section>``
for each row, and a class reads the fields of its section's protocol, so
the engine imports nothing from the layers above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Metric
from .bleu import BleuMetric
from .chrf import ChrfMetric
from .nltk_bleu import NltkBleuMetric
from .ter import TerMetric


@dataclass(frozen=True)
class MetricRow:
    """One metric of the table: the classes computing it, by preset."""

    classes: tuple[type[Metric], ...]

    @property
    def first(self) -> type[Metric]:
        return self.classes[0]

    @property
    def key(self) -> str:
        return self.first.key

    @property
    def section(self) -> str:
        return self.first.section

    @property
    def short(self) -> str:
        return self.first.short

    @property
    def higher_is_better(self) -> bool:
        return self.first.higher_is_better

    @property
    def presets(self) -> tuple[str, ...]:
        """Its section's presets, the default first (empty: no preset)."""
        return tuple(p for cls in self.classes for p in cls.presets)

    def build(self, section: Any) -> Metric:
        """The metric of one settings section (its ``preset`` picks the class)."""
        if not self.presets:
            return self.first.from_section(section)
        preset = section.preset
        for cls in self.classes:
            if preset in cls.presets:
                return cls.from_section(section)
        raise ValueError(f"unknown preset {preset!r}")


#: The metrics, in display order (the first is the one lines are ranked by
#: when nothing else is said).
TABLE: tuple[MetricRow, ...] = (
    MetricRow((BleuMetric, NltkBleuMetric)),
    MetricRow((ChrfMetric,)),
    MetricRow((TerMetric,)),
)

#: The metric keys, in display order.
KEYS: tuple[str, ...] = tuple(row.key for row in TABLE)


def build_metrics(settings: Any) -> dict[str, Metric]:
    """The enabled metrics, keyed by ``Metric.key``, in display order.

    ``settings``: anything with a section per row (``settings.bleu``…), each
    with ``enabled`` and the fields its metric reads; a section it lacks
    counts as switched off."""
    out: dict[str, Metric] = {}
    for row in TABLE:
        section = getattr(settings, row.section, None)
        if section is not None and section.enabled:
            out[row.key] = row.build(section)
    return out
