"""Settings assembly and the per-document pair state of the server.

Settings, lowest precedence first: the defaults, ``bleu-ls.toml`` at the
workspace root, ``initializationOptions`` (either the settings object itself
or ``{"bleuLs": {...}}``), the ``bleuLs`` section of ``workspace/configuration``.
Pair rules (``pairs``) from every layer are kept, the client's first.  A
pair's own ``options`` lay over the result for that pair.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np

from ..engine import InputError, PairModel, build_metrics, read_text, split_lsp_lines
from ..pairing import PairSpec, load_workspace_config
from ..settings import BleuSettings, ChrfSettings, Settings
from .document import LineDocument

log = logging.getLogger(__name__)

SECTION = "bleuLs"


def unwrap_section(data: Any) -> Any:
    """Accept ``{"bleuLs": {...}}`` as well as the settings object itself."""
    if isinstance(data, dict) and SECTION in data:
        return data[SECTION]
    return data


def assemble_settings(
    root: Optional[Path], init_options: Any, client: Any
) -> tuple[Settings, list[str]]:
    """The workspace settings and the problems found on the way (sentences)."""
    problems: list[str] = []
    toml: dict = {}
    if root is not None:
        toml, file_problems = load_workspace_config(root)
        problems += file_problems
    settings = Settings().merged(toml, problems)
    toml_rules = list(settings.pairs)
    client_rules: list = []
    # Once the client has answered workspace/configuration, its answer is the
    # whole truth: a setting removed there must not live on from the
    # initializationOptions sent at start-up.
    layers = (unwrap_section(client),) if client is not None else (unwrap_section(init_options),)
    for layer in layers:
        if layer in (None, {}):
            continue
        settings = settings.merged(layer, problems)
        if isinstance(layer, dict) and "pairs" in layer:
            client_rules = list(settings.pairs)
    settings.pairs = client_rules + toml_rules
    problems += [f"setting {p}" for p in settings.validate()]
    return settings, problems


def metrics_for(settings: Settings, problems: list[str]) -> dict:
    """``build_metrics`` that falls back to the defaults rather than failing."""
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


@dataclass
class Pair:
    """One open hypothesis document and what it is scored against."""

    uri: str
    path: Path
    hypothesis_like: bool = False
    spec: Optional[PairSpec] = None
    settings: Settings = field(default_factory=Settings)
    model: Optional[PairModel] = None
    source_lines: Optional[list[str]] = None
    #: reference/source problems in plain words (shown on line 1)
    problems: list[str] = field(default_factory=list)
    settings_problems: list[str] = field(default_factory=list)
    #: corpus scores and per-line scores when first fully scored
    baseline: Optional[dict[str, Optional[float]]] = None
    baseline_lines: dict[str, np.ndarray] = field(default_factory=dict)
    bg_task: Optional[asyncio.Task] = None
    push_task: Optional[asyncio.Task] = None
    push_dirty: bool = False
    diag_cache: Optional[tuple[Any, list, str]] = None
    #: Diagnostic objects by finding, reused across analyses
    diag_memo: dict = field(default_factory=dict)
    flagged: list[int] = field(default_factory=list)
    #: an inlay hint answer left lines out (still being scored): refresh when done
    hints_pending: bool = False

    @property
    def references(self) -> list[Path]:
        return list(self.spec.references) if self.spec else []

    @property
    def source(self) -> Optional[Path]:
        return self.spec.source if self.spec else None


def same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a.absolute() == b.absolute()


def read_lines_from(path: Path, open_docs: dict[Path, LineDocument]) -> list[str]:
    """A file's lines: the open buffer when there is one, else the disk file.

    Raises InputError with a sentence for the user.
    """
    key = _key(path)
    doc = open_docs.get(key)
    if doc is not None:
        return doc.engine_lines()
    if path.exists() and not path.is_file() and not path.is_dir():
        # opening a FIFO would block the whole server until someone writes to it
        raise InputError(f"{path}: not a regular file (a pipe, socket or device); expected a text file")
    return split_lsp_lines(read_text(str(path)))


def _key(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


path_key = _key

__all__ = [
    "InputError",
    "Pair",
    "assemble_settings",
    "metrics_for",
    "path_key",
    "read_lines_from",
    "same_path",
    "unwrap_section",
]
