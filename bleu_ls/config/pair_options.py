"""The per-pair step shared by the language server and ``bleu-ls check``:
lay a pairing rule's ``options`` over the settings, build the metrics, name
the files for the messages.

Each caller decides what a problem means: the server keeps going with the
defaults and shows a warning on line 1, ``check`` refuses the pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..engine import build_metrics
from .pairing import PairSpec
from .settings import BleuSettings, ChrfSettings, Settings


@dataclass
class PairSettings:
    """A pair's settings after its rule's options."""

    settings: Settings
    #: options that could not be read (the rest still apply)
    warnings: list[str] = field(default_factory=list)
    #: what the merged settings break (``Settings.validate``)
    invalid: list[str] = field(default_factory=list)


def pair_settings(base: Settings, spec: Optional[PairSpec]) -> PairSettings:
    """``base`` with ``spec.options`` laid over it, and what was wrong with them."""
    if spec is None or not spec.options:
        return PairSettings(base)
    warnings: list[str] = []
    settings = base.merged(spec.options, warnings)
    return PairSettings(settings, warnings, settings.validate())


def metrics_or_defaults(settings: Settings, problems: list[str]) -> dict:
    """``build_metrics`` that falls back to the defaults rather than failing
    (the server's way: a bad setting must not leave a file unscored)."""
    try:
        metrics = build_metrics(settings)
    except Exception as exc:  # unknown preset, tokenizer not installed…
        problems.append(f"cannot use these metric settings ({exc}); using the defaults")
        settings.bleu = BleuSettings()
        settings.chrf = ChrfSettings()
        metrics = build_metrics(settings)
    if not metrics:
        problems.append("both BLEU and chrF are switched off; scoring BLEU")
        settings.bleu.enabled = True
        metrics = build_metrics(settings)
    return metrics


def pair_names(hypothesis: Path, spec: Optional[PairSpec]) -> dict:
    """File names as the findings' messages say them."""
    return {
        "hypothesis": hypothesis.name,
        "path": str(Path(hypothesis).absolute()),  # (the user rules' ``files`` globs match it)
        "references": [r.name for r in spec.references] if spec else [],
        "source": spec.source.name if spec and spec.source else None,
    }
