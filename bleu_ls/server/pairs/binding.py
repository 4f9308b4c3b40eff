"""Binding an open document to its reference(s) and source, and keeping the
pair model in step with them (open buffers first, else the disk).

Functions of the :class:`~bleu_ls.server.pairs.manager.PairManager` and one
:class:`~bleu_ls.server.pairs.manager.Pair`; the manager calls them from its
lifecycle hooks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from ...engine import InputError, Metric, PairModel
from ...config.pairing import PairSpec, find_pair, find_source, is_hypothesis_like, path_allowed
from ...qa.analysis.unreferenced import Unreferenced
from ...config.pair_options import metrics_or_defaults, pair_settings
from ...config.settings import Settings
from ..postedit import drafts
from ..documents.files import path_key, read_lines_from

if TYPE_CHECKING:
    from ..documents.document import LineDocument, Splice
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)

#: Files with more lines than this are scored lazily: visible lines first,
#: the rest in the background (with work-done progress).
LAZY_LINES = 500


def resolve_spec(manager: "PairManager", pair: "Pair") -> Optional[PairSpec]:
    manual = manager.manual_pairs.get(path_key(pair.path))
    if manual is not None:
        return manual
    root = manager.root_for(pair.path)
    try:
        return find_pair(pair.path, manager.settings, root)
    except Exception as exc:  # a broken rule must not take the document down
        pair.problems.append(f"pairing failed: {exc}")
        return None


def effective_settings(manager: "PairManager", spec: Optional[PairSpec]) -> tuple[Settings, dict[str, Metric], list[str]]:
    """(settings, metrics, problems) for a pair: bad options are reported and
    the rest kept; metrics that cannot be built fall back to the defaults."""
    merged = pair_settings(manager.settings, spec)
    problems = [f"pair options: {p}" for p in (*merged.warnings, *merged.invalid)]
    metrics = metrics_or_defaults(merged.settings, problems)
    return merged.settings, metrics, problems


@dataclass
class Prepared:
    """Files read beforehand (in slices, off the first-hint path) for one
    :func:`build`: lines or the reading error by path key, and right-stripped
    copies of the hypothesis and of each reference for the new model."""

    files: dict[Path, Union[list[str], InputError]] = field(default_factory=dict)
    norm: dict[Path, list[str]] = field(default_factory=dict)
    hyp: Optional[list[str]] = None
    #: the document's lines to pair (not stripped) when not its current
    #: lines: the text as opened, edits made meanwhile spliced in after
    lines: Optional[list[str]] = None


def allowed(path: Path, root: Optional[Path], pair: "Pair", what: str) -> bool:
    """May ``pair`` read ``path``?  (When not, the problem is said.)"""
    manual = pair.spec is not None and pair.spec.origin == "command"
    if not manual and not path_allowed(path, root, pair.settings):
        pair.problems.append(
            f"{what} {path} is outside the workspace; name it with an absolute path in a pairing rule to allow it"
        )
        return False
    return True


def _read(
    manager: "PairManager", path: Path, root: Optional[Path], pair: "Pair", what: str, prepared: Optional[Prepared] = None
) -> Optional[list[str]]:
    if not allowed(path, root, pair, what):
        return None
    try:
        read = prepared.files.get(path_key(path)) if prepared is not None else None
        if isinstance(read, InputError):
            raise read
        lines = read if read is not None else read_lines_from(path, manager.open_paths())
    except InputError as exc:
        pair.problems.append(f"{what}: {exc}")
        return None
    manager.watcher.seen(path)
    return lines


def ref_label(spec: PairSpec, k: int) -> str:
    return "reference" if len(spec.references) == 1 else f"reference {k + 1}"


def build(manager: "PairManager", pair: "Pair", *, keep_model: bool = True, prepared: Optional[Prepared] = None) -> None:
    """(Re)pair ``pair`` and bring its model up to date.

    A model whose metrics and reference count are unchanged is updated by
    diff (only changed lines are rescored); otherwise it is rebuilt.
    """
    pair.problems = []
    root = manager.root_for(pair.path)
    spec = resolve_spec(manager, pair)
    pair.spec = spec
    try:
        pair.hypothesis_like = spec is not None or is_hypothesis_like(pair.path, manager.settings, root)
    except Exception:
        pair.hypothesis_like = spec is not None
    settings, metrics, problems = effective_settings(manager, spec)
    old_settings = pair.settings
    pair.settings = settings
    pair.settings_problems = problems
    if spec is None:
        drop_model(pair)
        _bind_alone(manager, pair, root, metrics, prepared)
        return
    refs: list[list[str]] = []
    for k, ref in enumerate(spec.references):
        lines = _read(manager, ref, root, pair, ref_label(spec, k), prepared)
        if lines is not None:
            refs.append(lines)
    pair.source_lines = None
    if spec.source is not None:
        pair.source_lines = _read(manager, spec.source, root, pair, "source", prepared)
    if len(refs) != len(spec.references) or not refs:
        if not spec.references:
            pair.problems.append("the pairing rule names no reference file")
        drop_model(pair)
        return
    doc = manager.docs.get(pair.uri)
    if prepared is not None and prepared.lines is not None:
        hyp = prepared.lines
    else:
        hyp = doc.engine_lines() if doc is not None else []
    model = pair.model
    cap = settings.max_line_bytes or None  # scored off the event loop above it
    if (  # the same metrics and reference count: the model is updated by diff
        model is not None
        and keep_model
        and old_settings.bleu == settings.bleu
        and old_settings.chrf == settings.chrf
        and old_settings.ter == settings.ter
        and model.n_refs == len(refs)
    ):
        model.long_line_bytes = cap
        model.set_hyp(hyp)
        model.set_refs(refs)
    else:
        lazy = max(len(hyp), *(len(r) for r in refs)) > LAZY_LINES
        ready = _prepared_lines(prepared, spec, hyp, refs)
        if ready is not None:
            pair.model = PairModel(metrics, ready[0], ready[1], lazy=lazy, normalized=True,
                                   defer_slow=True, long_line_bytes=cap)
        else:
            pair.model = PairModel(metrics, hyp, refs, lazy=lazy, defer_slow=True, long_line_bytes=cap)
        pair.baseline = None
        pair.baseline_lines = {}
    pair.diag_cache = None


def _prepared_lines(
    prepared: Optional[Prepared], spec: PairSpec, hyp: list[str], refs: list[list[str]]
) -> Optional[tuple[list[str], list[list[str]]]]:
    """The prepared right-stripped (hypothesis, references) when they are
    the lines being paired, else None (they are stripped here then)."""
    if prepared is None or prepared.hyp is None or len(prepared.hyp) != len(hyp):
        return None
    out: list[list[str]] = []
    seen: set[Path] = set()
    for ref, lines in zip(spec.references, refs):
        key = path_key(ref)
        norm = prepared.norm.get(key)
        if norm is None or len(norm) != len(lines) or prepared.files.get(key) is not lines:
            return None
        out.append(list(norm) if key in seen else norm)  # a file named twice: two lists
        seen.add(key)
    return prepared.hyp, out


def _bind_alone(manager: "PairManager", pair: "Pair", root: Optional[Path], metrics: dict[str, Metric],
                prepared: Optional[Prepared]) -> None:
    """A file nothing pairs with a reference, with a source (``NAME.src`` beside ``NAME.hyp``, or
    a ``[[pairs]]`` rule's ``source``): its lines kept for the rule table, as ``bleu-ls check``
    reads a line file alone (every rule that does not need a reference)."""
    try:
        source = find_source(pair.path, manager.settings, root)
    except Exception:  # a broken rule: said by the pairing
        return
    if source is None:
        return
    lines = _read(manager, source, root, pair, "source", prepared)
    if lines is None:
        return
    doc = manager.docs.get(pair.uri)
    if prepared is not None and prepared.lines is not None:
        hyp = prepared.lines
    else:
        hyp = doc.engine_lines() if doc is not None else []
    pair.alone = Unreferenced(metrics, hyp)  # (the metrics for their tokenizer only: nothing is scored)
    pair.alone_source = source
    pair.source_lines = lines


def drop_model(pair: "Pair") -> None:
    if pair.bg_task is not None:
        pair.bg_task.cancel()
        pair.bg_task = None
    pair.model = None
    pair.alone = None
    pair.alone_source = None
    pair.source_lines = None
    pair.baseline = None
    pair.baseline_lines = {}
    pair.diag_cache = None


def reload_file(manager: "PairManager", pair: "Pair", path: Path) -> bool:
    """A reference or source of ``pair`` changed (disk, or buffer closed)."""
    key = path_key(path)
    spec = pair.spec
    if spec is None:
        if pair.alone is not None and pair.alone_source is not None and path_key(pair.alone_source) == key:
            lines = _read(manager, path, manager.root_for(pair.path), pair, "source")
            if lines is None:
                drop_model(pair)
            else:
                pair.source_lines = lines
                pair.diag_cache = None
            return True
        return False
    if pair.model is None or pair.problems:
        build(manager, pair)
        return True
    root = manager.root_for(pair.path)
    for k, ref in enumerate(spec.references):
        if path_key(ref) == key:
            lines = _read(manager, ref, root, pair, ref_label(spec, k))
            if lines is None:
                drop_model(pair)
            else:
                pair.model.set_ref(k, lines)
            return True
    if spec.source is not None and path_key(spec.source) == key:
        pair.source_lines = _read(manager, spec.source, root, pair, "source")
        pair.diag_cache = None
        return True
    return False


def splice_own(pair: "Pair", doc: "LineDocument", splice: "Splice", *, resync: bool = True) -> bool:
    """The pair's own document was edited (``splice``: lines [start, end)
    became ``splice.lines``): the model, the draft's line partners and the
    HTER rows follow.  A model out of step (should not happen) is set to the
    document's lines (``resync``) and False is returned."""
    ok = True
    if pair.alone is not None:  # a file alone: the rule table's lines
        pair.alone.splice_hyp(splice.start, splice.end, splice.lines)
    if pair.model is not None:
        try:
            pair.model.splice_hyp(splice.start, splice.end, splice.lines)
        except Exception:
            log.exception("splice failed; resynchronising %s", pair.uri)
            ok = False
            if resync:
                pair.model.set_hyp(doc.engine_lines())
    drafts.splice(pair, splice.start, splice.end, splice.lines)
    return ok


def splice_dependent(pair: "Pair", k: Optional[int], doc: "LineDocument", splice: "Splice") -> None:
    """An open reference (``k``) or source (None) of ``pair`` was edited."""
    if pair.model is None:
        if k is None and pair.alone is not None:  # the source of a file alone
            pair.source_lines = doc.engine_lines()
            pair.diag_cache = None
        return
    if k is None:
        pair.source_lines = doc.engine_lines()
        pair.diag_cache = None
    elif k < pair.model.n_refs:
        try:
            pair.model.splice_ref(k, splice.start, splice.end, splice.lines)
        except Exception:
            log.exception("reference splice failed; resynchronising %s", pair.uri)
            pair.model.set_ref(k, doc.engine_lines())
