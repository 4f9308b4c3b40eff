"""The workspace settings the server uses, lowest precedence first: the
defaults, ``bleu-ls.toml`` at the workspace root, ``initializationOptions``
(either the settings object itself or ``{"bleuLs": {...}}``), the ``bleuLs``
section of ``workspace/configuration``.  Pair rules (``pairs``) from every
layer are kept, the client's first.  A pair's own ``options`` lay over the
result for that pair (:mod:`bleu_ls.config.pair_options`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ...config.workspace import load_workspace_config, resolve_paths
from ...config.settings import Settings

SECTION = "bleuLs"


def unwrap_section(data: Any) -> Any:
    """Accept ``{"bleuLs": {...}}`` as well as the settings object itself."""
    if isinstance(data, dict) and SECTION in data:
        return data[SECTION]
    return data


def assemble_settings(root: Optional[Path], init_options: Any, client: Any) -> tuple[Settings, list[str]]:
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
    layer = unwrap_section(client) if client is not None else unwrap_section(init_options)
    if layer not in (None, {}):
        if isinstance(layer, dict) and root is not None:  # the editor's paths: relative to the workspace folder
            layer = resolve_paths({**layer, "terms": dict(layer["terms"])} if isinstance(layer.get("terms"), dict)
                                  else layer, root)
        settings = settings.merged(layer, problems)
        if isinstance(layer, dict) and "pairs" in layer:
            client_rules = list(settings.pairs)
    settings.pairs = client_rules + toml_rules
    problems += [f"setting {p}" for p in settings.validate()]
    return settings, problems
