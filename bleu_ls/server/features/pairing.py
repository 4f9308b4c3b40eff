"""Pairing an open document with its reference(s) and source, and keeping
the pair model in step with them (open buffers first, else the disk)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ...engine import InputError, PairModel
from ...pairing import PairSpec, find_pair, is_hypothesis_like, path_allowed
from ..workspace import Pair, metrics_for, path_key, read_lines_from

if TYPE_CHECKING:
    from ..server import BleuLanguageServer

log = logging.getLogger(__name__)

#: Files with more lines than this are scored lazily: visible lines first,
#: the rest in the background (with work-done progress).
LAZY_LINES = 500


def resolve_spec(ls: "BleuLanguageServer", pair: Pair) -> Optional[PairSpec]:
    manual = ls.manual_pairs.get(path_key(pair.path))
    if manual is not None:
        return manual
    root = ls.root_for(pair.path)
    try:
        return find_pair(pair.path, ls.settings, root)
    except Exception as exc:  # a broken rule must not take the document down
        pair.problems.append(f"pairing failed: {exc}")
        return None


def effective_settings(ls: "BleuLanguageServer", spec: Optional[PairSpec]):
    problems: list[str] = []
    settings = ls.settings
    if spec is not None and spec.options:
        settings = settings.merged(spec.options, problems)
        problems = [f"pair options: {p}" for p in problems]
        problems += [f"pair options: {p}" for p in settings.validate()]
    metrics = metrics_for(settings, problems)
    return settings, metrics, problems


def _read(ls: "BleuLanguageServer", path: Path, root: Optional[Path], pair: Pair, what: str) -> Optional[list[str]]:
    manual = pair.spec is not None and pair.spec.origin == "command"
    if not manual and not path_allowed(path, root, pair.settings):
        pair.problems.append(
            f"{what} {path} is outside the workspace; name it with an absolute path in a pairing rule to allow it"
        )
        return None
    try:
        lines = read_lines_from(path, ls.open_paths())
    except InputError as exc:
        pair.problems.append(f"{what}: {exc}")
        return None
    ls.watcher.seen(path)
    return lines


def build(ls: "BleuLanguageServer", pair: Pair, *, keep_model: bool = True) -> None:
    """(Re)pair ``pair`` and bring its model up to date.

    A model whose metrics and reference count are unchanged is updated by
    diff (only changed lines are rescored); otherwise it is rebuilt.
    """
    pair.problems = []
    root = ls.root_for(pair.path)
    spec = resolve_spec(ls, pair)
    pair.spec = spec
    try:
        pair.hypothesis_like = spec is not None or is_hypothesis_like(pair.path, ls.settings, root)
    except Exception:
        pair.hypothesis_like = spec is not None
    settings, metrics, problems = effective_settings(ls, spec)
    old_settings = pair.settings
    pair.settings = settings
    pair.settings_problems = problems
    if spec is None:
        _drop_model(pair)
        return
    refs: list[list[str]] = []
    for k, ref in enumerate(spec.references):
        what = "reference" if len(spec.references) == 1 else f"reference {k + 1}"
        lines = _read(ls, ref, root, pair, what)
        if lines is not None:
            refs.append(lines)
    pair.source_lines = None
    if spec.source is not None:
        pair.source_lines = _read(ls, spec.source, root, pair, "source")
    if len(refs) != len(spec.references) or not refs:
        if not spec.references:
            pair.problems.append("the pairing rule names no reference file")
        _drop_model(pair)
        return
    doc = ls.docs.get(pair.uri)
    hyp = doc.engine_lines() if doc is not None else []
    model = pair.model
    same_metrics = (
        model is not None
        and keep_model
        and old_settings.bleu == settings.bleu
        and old_settings.chrf == settings.chrf
        and model.n_refs == len(refs)
    )
    if same_metrics:
        model.set_hyp(hyp)
        model.set_refs(refs)
    else:
        lazy = max(len(hyp), *(len(r) for r in refs)) > LAZY_LINES
        pair.model = PairModel(metrics, hyp, refs, lazy=lazy)
        pair.baseline = None
        pair.baseline_lines = {}
    pair.diag_cache = None


def _drop_model(pair: Pair) -> None:
    if pair.bg_task is not None:
        pair.bg_task.cancel()
        pair.bg_task = None
    pair.model = None
    pair.source_lines = None
    pair.baseline = None
    pair.baseline_lines = {}
    pair.diag_cache = None


def reload_file(ls: "BleuLanguageServer", pair: Pair, path: Path) -> bool:
    """A reference or source of ``pair`` changed (disk, or buffer closed)."""
    key = path_key(path)
    spec = pair.spec
    if spec is None:
        return False
    if pair.model is None or pair.problems:
        build(ls, pair)
        return True
    root = ls.root_for(pair.path)
    for k, ref in enumerate(spec.references):
        if path_key(ref) == key:
            what = "reference" if len(spec.references) == 1 else f"reference {k + 1}"
            lines = _read(ls, ref, root, pair, what)
            if lines is None:
                _drop_model(pair)
            else:
                pair.model.set_ref(k, lines)
            return True
    if spec.source is not None and path_key(spec.source) == key:
        pair.source_lines = _read(ls, spec.source, root, pair, "source")
        pair.diag_cache = None
        return True
    return False


def pair_with(ls: "BleuLanguageServer", uri: str, refs: list[str], source: Optional[str] = None) -> PairSpec:
    """The ``bleuLs.pairWith`` command: pair ``uri`` with reference file(s)."""
    from pygls.uris import to_fs_path

    hyp = Path(to_fs_path(uri) or uri)
    ref_paths = [Path(to_fs_path(r) or r) if "://" in r else Path(r) for r in refs]
    src = None
    if source:
        src = Path(to_fs_path(source) or source) if "://" in source else Path(source)
    spec = PairSpec(hyp, ref_paths, src, {}, "command")
    ls.manual_pairs[path_key(hyp)] = spec
    return spec
