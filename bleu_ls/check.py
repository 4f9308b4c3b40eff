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
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from .analysis import Analyzer, Finding, at_or_above, unpaired_findings
from .engine import InputError, PairModel, TokenizerUnavailable, build_metrics, read_lines
from .pairing import CONFIG_NAME, find_pair, find_workspace_root, is_hypothesis_like, load_workspace_config
from .settings import SEVERITIES, Settings

from .score import UsageError, add_metric_arguments, settings_from_args  # the shared metric flags

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"}


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
    return p


class _Run:
    def __init__(self, args: argparse.Namespace, out, err) -> None:
        self.args = args
        self.out = out
        self.err = err
        self.bad_input = False
        self.failed = False
        self.reports: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self._settings_cache: dict[Optional[Path], tuple[Settings, Optional[Path]]] = {}
        self._warned: set[str] = set()

    # -- messages ------------------------------------------------------------
    def error(self, text: str) -> None:
        self.bad_input = True
        self.errors.append(text)
        print(f"bleu-ls check: error: {text}", file=self.err)

    def warn(self, text: str) -> None:
        if text in self._warned:
            return
        self._warned.add(text)
        print(f"bleu-ls check: warning: {text}", file=self.err)

    # -- settings --------------------------------------------------------------
    def settings_for(self, path: Path) -> tuple[Settings, Optional[Path]]:
        """(settings, workspace root) for a hypothesis file or folder."""
        args = self.args
        if args.no_config:
            root = None
        elif args.config:
            root = Path(args.config).absolute().parent
        else:
            root = find_workspace_root(path)
        key = root
        if key in self._settings_cache:
            return self._settings_cache[key]
        data: dict = {}
        if args.config and not args.no_config:
            cfg = Path(args.config)
            if not cfg.is_file():
                raise InputError(f"{cfg}: no such file")
            data, problems = _load_config_file(cfg)
            for p in problems:
                raise InputError(p)
        elif root is not None:
            data, problems = load_workspace_config(root)
            for p in problems:
                raise InputError(p)
        problems: list[str] = []
        base = Settings.from_dict(data, problems)
        for p in problems:
            self.warn(f"{(root / CONFIG_NAME) if root else 'settings'}: {p}")
        settings = settings_from_args(args, base)
        if root is None:
            root = Path.cwd()
        self._settings_cache[key] = (settings, root)
        return settings, root

    # -- one path ------------------------------------------------------------
    def collect(self, arg: str) -> list[tuple[Path, bool]]:
        """Hypothesis files under ``arg``: (path, given explicitly)."""
        p = Path(arg)
        if not p.exists():
            self.error(f"{arg}: no such file or folder")
            return []
        if p.is_file():
            return [(p, True)]
        settings, root = self.settings_for(p)
        found = []
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
            for name in sorted(filenames):
                f = Path(dirpath) / name
                if is_hypothesis_like(f, settings, root):
                    found.append((f, False))
        if not found:
            self.warn(
                f"{arg}: no hypothesis files found (looked for NAME.hyp, NAME.mt, NAME.hyp.XX "
                f"and the [[pairs]] rules of {CONFIG_NAME})"
            )
        return found

    def check_file(self, hyp: Path) -> None:
        try:
            settings, root = self.settings_for(hyp)
        except (InputError, UsageError, ValueError) as exc:
            self.error(str(exc))
            return
        shown = _display(hyp)
        spec = find_pair(hyp, settings, root)
        if spec is None:
            findings = unpaired_findings(hyp.name, settings, command_title=None)
            self.emit(shown, findings, None, {"hypothesis": shown, "references": [], "paired": False})
            return
        missing = spec.missing()
        if missing:
            for m in missing:
                what = "is a folder, not a file" if m.is_dir() else "not found"
                self.error(f"{shown}: reference {_display(m)} {what} (named by a [[pairs]] rule in {CONFIG_NAME})")
            return
        if spec.options:
            problems: list[str] = []
            settings = settings.merged(spec.options, problems)
            for p in problems:
                self.warn(f"{shown}: pair options: {p}")
            problems = settings.validate()
            if problems:
                self.error(f"{shown}: pair options: " + "; ".join(problems))
                return
        try:
            metrics = build_metrics(settings)
        except (TokenizerUnavailable, ValueError) as exc:
            self.error(str(exc))
            return
        if not metrics:
            self.error("no metric selected")
            return
        try:
            hyp_lines = read_lines(str(hyp))
            ref_lines = [read_lines(str(r)) for r in spec.references]
        except InputError as exc:
            self.error(str(exc))
            return
        source = None
        if spec.source is not None and spec.source.is_file():
            try:
                source = read_lines(str(spec.source))
            except InputError as exc:
                self.warn(f"{exc} (source not used)")
        from_lines = getattr(PairModel, "from_lines", None)
        model = from_lines(metrics, hyp_lines, ref_lines) if from_lines else PairModel(metrics, hyp_lines, ref_lines)
        names = {
            "hypothesis": hyp.name,
            "references": [r.name for r in spec.references],
            "source": spec.source.name if spec.source else None,
        }
        findings = Analyzer(settings).analyse(model, source, names)
        corpus = {}
        for key, metric in metrics.items():
            score = model.corpus(key)
            corpus[key] = {
                "name": metric.name,
                "score": score.score,
                "signature": metric.signature(model.n_refs),
            }
        info = {
            "hypothesis": shown,
            "references": [_display(r) for r in spec.references],
            "source": _display(spec.source) if spec.source else None,
            "origin": spec.origin,
            "paired": True,
            "lines": model.n_paired,
            "corpus": corpus,
        }
        self.emit(shown, findings, info, info)

    # -- output ----------------------------------------------------------------
    def emit(self, shown: str, findings: list[Finding], summary: Optional[dict], info: dict) -> None:
        fail_on = self.args.fail_on
        for f in findings:
            if fail_on != "never" and at_or_above(f.severity, fail_on):
                self.failed = True
        if self.args.format == "json":
            rec = dict(info)
            rec["diagnostics"] = [
                {
                    "line": f.line + 1,
                    "column": f.start_col + 1,
                    "endColumn": None if f.end_col is None else f.end_col + 1,
                    "severity": f.severity,
                    "code": f.code,
                    "message": f.message,
                    "data": f.data,
                }
                for f in findings
            ]
            self.reports.append(rec)
            return
        w = self.out.write
        for f in findings:
            w(f"{shown}:{f.line + 1}:{f.start_col + 1}: {f.severity}: {f.message} [{f.code}]\n")
        if summary is not None:
            parts = []
            for c in summary["corpus"].values():
                value = "n/a" if c["score"] is None else f"{c['score']:.2f}"
                parts.append(f"{c['name']} {value}")
            n = summary["lines"]
            parts.append(f"{n:,} line{'s' if n != 1 else ''}")
            parts.extend(c["signature"] for c in summary["corpus"].values())
            refs = ", ".join(summary["references"])
            w(f"{shown}: " + " \u00b7 ".join(parts) + f"  (against {refs})\n")


def _display(p: Path) -> str:
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return str(p)
    return str(p) if rel.startswith("..") else rel


def _load_config_file(path: Path) -> tuple[dict, list[str]]:
    """Load an explicit --config file (any name) the way bleu-ls.toml is loaded."""
    import tempfile

    from . import pairing

    with tempfile.TemporaryDirectory() as tmp:
        try:
            data = path.read_bytes()
        except OSError as exc:
            return {}, [f"{path}: cannot read: {exc.strerror or exc}"]
        (Path(tmp) / CONFIG_NAME).write_bytes(data)
        cfg, problems = pairing.load_workspace_config(Path(tmp))
    return cfg, [p.replace(str(Path(tmp) / CONFIG_NAME), str(path)) for p in problems]


def main(argv: Optional[Sequence[str]] = None, out=None, err=None) -> int:
    try:
        return _main(argv, out, err)
    except BrokenPipeError:  # `bleu-ls check … | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


def _main(argv: Optional[Sequence[str]], out, err) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    run = _Run(args, out, err)
    # validate the flags once, before touching files
    try:
        settings_from_args(args, Settings())
    except (UsageError, ValueError) as exc:
        parser.print_usage(err)
        print(f"bleu-ls check: error: {exc}", file=err)
        return 2
    seen: set[Path] = set()
    for arg in args.paths:
        try:
            files = run.collect(arg)
        except (InputError, UsageError, ValueError) as exc:
            run.error(str(exc))
            continue
        for f, _explicit in files:
            key = f.resolve()
            if key in seen:
                continue
            seen.add(key)
            run.check_file(f)
    if args.format == "json":
        json.dump({"pairs": run.reports, "errors": run.errors}, out, indent=2, ensure_ascii=False)
        out.write("\n")
    out.flush()
    if run.bad_input:
        return 2
    return 1 if run.failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
