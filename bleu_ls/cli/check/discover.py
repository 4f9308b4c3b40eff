"""``bleu-ls check``: which files to check and with which settings.

Settings come from ``bleu-ls.toml`` in the nearest folder at or above the
path (else the current folder), or the ``--config`` file, with the metric
flags laid over them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Optional

from ...engine import InputError
from ...config.pairing import is_hypothesis_like, is_localization_target
from ...config.workspace import CONFIG_NAME, find_workspace_root, load_workspace_config
from ..metric_args import settings_from_args
from ...config.settings import Settings
from .report import Report

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"}


class Discovery:
    def __init__(self, args: argparse.Namespace, report: Report) -> None:
        self.args = args
        self.report = report
        self._settings: dict[Optional[Path], tuple[Settings, Path]] = {}

    def settings_for(self, path: Path) -> tuple[Settings, Path]:
        """(settings, workspace root) for a hypothesis file or folder.

        Raises InputError (UsageError, ValueError: a bad flag) with a sentence.
        """
        args = self.args
        if args.no_config:
            root = None
        elif args.config:
            root = Path(args.config).absolute().parent
        else:
            root = find_workspace_root(path)
        if root in self._settings:
            return self._settings[root]
        data = self._config_data(root)
        problems: list[str] = []
        base = Settings.from_dict(data, problems)
        for p in problems:
            self.report.warn(f"{(root / CONFIG_NAME) if root else 'settings'}: {p}")
        settings = settings_from_args(args, base)
        glossaries = getattr(args, "glossary", None) or []
        settings.terms.files = [*settings.terms.files, *(str(Path(g).expanduser().absolute()) for g in glossaries)]
        found = (settings, root if root is not None else Path.cwd())
        self._settings[root] = found
        return found

    def _config_data(self, root: Optional[Path]) -> dict:
        args = self.args
        data: dict = {}
        if args.config and not args.no_config:
            cfg = Path(args.config)
            if not cfg.is_file():
                raise InputError(f"{cfg}: no such file")
            data, problems = load_config_file(cfg)
        elif root is not None:
            data, problems = load_workspace_config(root)
        else:
            problems = []
        if problems:
            raise InputError(problems[0])
        return data

    def collect(self, arg: str) -> list[Path]:
        """Hypothesis files at or under ``arg``."""
        p = Path(arg)
        if not p.exists():
            self.report.error(f"{arg}: no such file or folder")
            return []
        if p.is_file():
            return [p]
        settings, root = self.settings_for(p)
        found = []
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
            for name in sorted(filenames):
                f = Path(dirpath) / name
                if is_hypothesis_like(f, settings, root) or is_localization_target(f, settings):
                    found.append(f)
        if not found:
            self.report.warn(
                f"{arg}: no hypothesis files found (looked for NAME.hyp, NAME.mt, NAME.hyp.XX, "
                f"localization files such as locales/de/NAME.json and the [[pairs]] rules of {CONFIG_NAME})"
            )
        return found


def load_config_file(path: Path) -> tuple[dict, list[str]]:
    """Load an explicit --config file (any name) the way bleu-ls.toml is loaded."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            data = path.read_bytes()
        except OSError as exc:
            return {}, [f"{path}: cannot read: {exc.strerror or exc}"]
        (Path(tmp) / CONFIG_NAME).write_bytes(data)
        cfg, problems = load_workspace_config(Path(tmp), base=path.absolute().parent)
    return cfg, [p.replace(str(Path(tmp) / CONFIG_NAME), str(path)) for p in problems]
