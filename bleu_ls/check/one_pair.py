"""``bleu-ls check``: check one hypothesis file — pair it, lay the pair's
options over the settings (:mod:`bleu_ls.pairstep`, as the server does),
score it, run the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..analysis import Analyzer, unpaired_findings
from ..engine import InputError, PairModel, TokenizerUnavailable, build_metrics, read_lines
from ..pairing import PairSpec, find_pair
from ..workspace_config import CONFIG_NAME
from ..ignore import RELATIVE, IgnoreStore, find_store_root
from ..pairstep import pair_names, pair_settings
from ..settings import Settings
from .report import Report, display


def check_pair(hyp: Path, settings: Settings, root: Optional[Path], report: Report) -> None:
    """Check ``hyp`` and hand the outcome to ``report`` (an error when the
    pair cannot be checked)."""
    shown = display(hyp)
    spec = find_pair(hyp, settings, root)
    if spec is None:
        findings = unpaired_findings(hyp.name, settings, command_title=None)
        report.emit(shown, findings, None, {"hypothesis": shown, "references": [], "paired": False})
        return
    for m in spec.missing():
        what = "is a folder, not a file" if m.is_dir() else "not found"
        report.error(f"{shown}: reference {display(m)} {what} (named by a [[pairs]] rule in {CONFIG_NAME})")
    if spec.missing():
        return
    merged = pair_settings(settings, spec)
    for p in merged.warnings:
        report.warn(f"{shown}: pair options: {p}")
    if merged.invalid:
        report.error(f"{shown}: pair options: " + "; ".join(merged.invalid))
        return
    settings = merged.settings
    try:
        metrics = build_metrics(settings)
    except (TokenizerUnavailable, ValueError) as exc:
        report.error(str(exc))
        return
    if not metrics:
        report.error("no metric selected")
        return
    try:
        hyp_lines = read_lines(str(hyp))
        model = PairModel.from_lines(metrics, hyp_lines, [read_lines(str(r)) for r in spec.references])
    except InputError as exc:
        report.error(str(exc))
        return
    source = _source_lines(spec, report)
    findings = Analyzer(settings).analyse(model, source, pair_names(hyp, spec))
    findings = _unignored(hyp, hyp_lines, findings, report)
    info = _pair_info(shown, spec, model)
    report.emit(shown, findings, info, info)


def _unignored(hyp: Path, lines: list[str], findings: list, report: Report) -> list:
    """The findings the nearest ``.bleu-ls/ignore.json`` does not hide."""
    root = find_store_root(hyp)
    if root is None:
        return findings
    store = IgnoreStore.load(root)
    if store.problem is not None:
        report.warn(store.problem.replace(RELATIVE, display(store.path), 1))
        return findings
    text = lambda i: lines[i] if 0 <= i < len(lines) else ""  # noqa: E731
    return store.filter(hyp, findings, text).findings


def _source_lines(spec: PairSpec, report: Report) -> Optional[list[str]]:
    if spec.source is None or not spec.source.is_file():
        return None
    try:
        return read_lines(str(spec.source))
    except InputError as exc:
        report.warn(f"{exc} (source not used)")
        return None


def _pair_info(shown: str, spec: PairSpec, model: PairModel) -> dict:
    corpus = {
        key: {"name": metric.name, "score": model.corpus(key).score, "signature": metric.signature(model.n_refs)}
        for key, metric in model.metrics.items()
    }
    return {
        "hypothesis": shown,
        "references": [display(r) for r in spec.references],
        "source": display(spec.source) if spec.source else None,
        "origin": spec.origin,
        "paired": True,
        "lines": model.n_paired,
        "corpus": corpus,
    }
