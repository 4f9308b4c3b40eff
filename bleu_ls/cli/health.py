"""``bleu-ls health``: what this installation of the server can do.

The version, the Python it runs on, the optional tokenizers (the ``ja`` and
``ko`` extras), the language identifier and the sentence encoder (each
loaded, as the server would load it) and the settings that apply in a
folder: its ``bleu-ls.toml`` with, laid over it, the editor's settings
given with ``--settings`` (JSON), each problem in one sentence.

Editors call it to explain a setup (Neovim's ``:checkhealth bleu_ls`` reads
``--format json``); run by hand it prints one line per item.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any, Optional, Sequence

#: optional tokenizers: name -> the extra that installs what it needs
OPTIONAL_TOKENIZERS = {"ja-mecab": "ja", "ko-mecab": "ko"}


def _tokenizer(name: str, extra: str) -> dict:
    from ..engine.tokenizers import get_tokenizer

    try:
        get_tokenizer(name)
    except Exception:  # sacrebleu says RuntimeError, ours TokenizerUnavailable
        return {"ok": False, "message": f"not installed (pip install 'bleu-ls[{extra}]')"}
    return {"ok": True, "message": "loads"}


def _timed(load) -> dict:
    t0 = time.perf_counter()
    ok, error = load()
    return {"ok": ok, "message": error or "loads", "seconds": round(time.perf_counter() - t0, 3)}


def _language_identifier() -> tuple[bool, Optional[str]]:
    from ..qa.text.language import LanguageIdentifier

    lid = LanguageIdentifier()
    return lid.load(), lid.error


def _sentence_encoder() -> tuple[bool, Optional[str]]:
    from ..qa.adequacy.qe import Adequacy

    enc = Adequacy()
    return enc.load(), enc.error


def _config(folder: Path, editor_settings: Any) -> dict:
    """The settings of ``folder``: the nearest bleu-ls.toml, then the editor's
    settings over it (as the server lays them), and every problem found."""
    from ..engine.table import TABLE
    from ..config.settings import Settings
    from ..config.workspace import CONFIG_NAME, find_workspace_root, load_workspace_config

    problems: list[str] = []
    root = find_workspace_root(folder)
    toml: dict = {}
    if root is not None:
        toml, file_problems = load_workspace_config(root)
        problems += file_problems
    settings = Settings().merged(toml, problems)
    layer = editor_settings
    if isinstance(layer, dict) and isinstance(layer.get("bleuLs"), dict):
        layer = layer["bleuLs"]
    if layer not in (None, {}):
        settings = settings.merged(layer, problems)
    problems += [f"setting {p}" for p in settings.validate()]
    # the first metric of the table is listed whatever its section says (as
    # before the table: the server scores it when no metric is switched on)
    metrics = [row.short for row in TABLE if row is TABLE[0] or getattr(settings, row.section).enabled]
    return {
        "file": str(root / CONFIG_NAME) if root is not None else None,
        "editorSettings": layer not in (None, {}),
        "metrics": metrics,
        "tokenize": settings.bleu.tokenize,
        "problems": problems,
    }


def collect(folder: Path, editor_settings: Any = None) -> dict:
    from .. import __version__

    tokenizers = {name: _tokenizer(name, extra) for name, extra in OPTIONAL_TOKENIZERS.items()}
    config = _config(folder, editor_settings)
    chosen = tokenizers.get(config["tokenize"])
    if chosen is not None and not chosen["ok"]:
        config["problems"].append(f"bleu.tokenize is {config['tokenize']}, whose tokenizer is {chosen['message']}")
    return {
        "version": __version__,
        "python": {"version": platform.python_version(), "executable": sys.executable},
        "tokenizers": tokenizers,
        "languageIdentifier": _timed(_language_identifier),
        "sentenceEncoder": _timed(_sentence_encoder),
        "config": config,
    }


def render(report: dict) -> str:
    def mark(ok: bool) -> str:
        return "ok  " if ok else "--  "

    py = report["python"]
    cfg = report["config"]
    lines = [
        f"ok  bleu-ls {report['version']}",
        f"ok  Python {py['version']} ({py['executable']})",
    ]
    for name, t in report["tokenizers"].items():
        lines.append(f"{mark(t['ok'])}tokenizer {name}: {t['message']}")
    for key, label in (("languageIdentifier", "language identifier"), ("sentenceEncoder", "sentence encoder")):
        item = report[key]
        lines.append(f"{mark(item['ok'])}{label}: {item['message']} ({item['seconds']:.2f} s)")
    where = cfg["file"] or "no bleu-ls.toml (defaults)"
    lines.append(f"{mark(not cfg['problems'])}settings: {where}; metrics {', '.join(cfg['metrics'])}; tokenize {cfg['tokenize']}")
    lines += [f"--  {p}" for p in cfg["problems"]]
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="bleu-ls health", description=__doc__.split("\n\n")[0])
    p.add_argument("folder", nargs="?", default=".", help="the folder whose settings to read (default: here)")
    p.add_argument("--settings", metavar="JSON", help="the editor's bleuLs settings, laid over bleu-ls.toml")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    args = p.parse_args(argv)
    editor_settings = None
    if args.settings:
        try:
            editor_settings = json.loads(args.settings)
        except ValueError as exc:
            print(f"bleu-ls health: --settings is not JSON ({exc})", file=sys.stderr)
            return 2
    report = collect(Path(args.folder), editor_settings)
    if args.format == "json":
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(render(report), end="")
    return 0
