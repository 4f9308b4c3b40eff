"""Compare with another system: the open hypothesis against a second
system's output for the same source, on the same references
(``bleuLs.compareWith``).

The other system is a file, read once (or its open buffer); its lines pair
with the references by index, as the open document's do.  It gets its own
:class:`~bleu_ls.engine.PairModel` with the pair's metrics and references
(kept in step with reference edits before every use), so per line the
difference costs two cached scores.  What it adds:

* the hint: ``+12.4 vs B`` (the open file's score minus the other's);
* the diagnostic ``worse-than-other`` on lines at least
  ``compare.threshold`` below the other system;
* the lens and ``bleuLs/corpusScore``: sacrebleu's paired bootstrap test of
  the open text (the system) against the other file (the baseline), in one
  worker thread, debounced; a new edit supersedes it.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ...qa.analysis import Finding
from ...engine import PairModel
from ...engine.significance import paired_bs
from ..background import pools
from ..documents.files import read_lines_from

if TYPE_CHECKING:
    from ..roles import ManagerRole as PairManager, PairRole as Pair  # what it uses of them

log = logging.getLogger(__name__)

CODE = "worse-than-other"
RESAMPLES = 1000
DEBOUNCE_SECONDS = 0.4
DEBOUNCE_PER_LINE = 1 / 20000
DEBOUNCE_MAX = 5.0


@dataclass
class OtherSystem:
    path: Path
    lines: list[str]
    model: Optional[PairModel] = None
    #: by metric key: the paired test's record, for ``version`` of the pair's model
    result: dict = field(default_factory=dict)
    version: int = -1
    task: Optional[asyncio.Task] = None
    gen: int = 0

    @property
    def name(self) -> str:
        return self.path.name


def key_metric(model: PairModel) -> Optional[str]:
    """The metric differences are told in: the first where higher is better."""
    return next((k for k, m in model.metrics.items() if m.higher_is_better), None)


def attach(manager: "PairManager", pair: "Pair", path: Path) -> OtherSystem:
    """Compare ``pair`` with the file at ``path`` (raises InputError with a sentence)."""
    lines = read_lines_from(path, manager.open_paths())
    other = OtherSystem(path, lines)
    pair.compare = other
    sync(pair)
    return other


def detach(pair: "Pair") -> None:
    other = pair.compare
    if other is not None and other.task is not None:
        other.task.cancel()
    pair.compare = None


def sync(pair: "Pair") -> Optional[PairModel]:
    """The other system's model with the pair's metrics and current references."""
    other, model = pair.compare, pair.model
    if other is None or model is None:
        return None
    om = other.model
    if om is None or om.metrics.keys() != model.metrics.keys() or any(
        om.metrics[k] is not m for k, m in model.metrics.items()
    ) or om.n_refs != model.n_refs:
        other.model = PairModel.from_lines(model.metrics, other.lines, model.refs, workers=1 if len(other.lines) < 5000 else None)
    else:
        om.set_refs(model.refs)
    return other.model


def line_delta(pair: "Pair", i: int) -> Optional[float]:
    """This line's score minus the other system's (None: not comparable)."""
    other, model = pair.compare, pair.model
    if other is None or other.model is None or model is None:
        return None
    key = key_metric(model)
    if key is None or key not in other.model.metrics:
        return None
    mine, theirs = model.line_value(key, i), other.model.line_value(key, i)
    if mine is None or theirs is None:
        return None
    return mine - theirs


def hint_part(pair: "Pair", i: int) -> Optional[str]:
    if pair.compare is None or not pair.settings.compare.hint:
        return None
    d = line_delta(pair, i)
    return None if d is None else f"{d:+.1f} vs {pair.compare.name}"


def findings(pair: "Pair") -> list[Finding]:
    """``worse-than-other`` on lines at least ``compare.threshold`` below the other system."""
    other, model = pair.compare, pair.model
    if other is None or model is None:
        return []
    om = sync(pair)
    key = key_metric(model)
    if om is None or key is None:
        return []
    n = min(model.n_paired, om.n_paired)
    mine, theirs = model.values(key)[:n], om.values(key)[:n]
    c = pair.settings.compare
    with np.errstate(invalid="ignore"):
        worse = np.flatnonzero(mine - theirs <= -c.threshold)
    name = model.metrics[key].name
    out = []
    for i in worse.tolist():
        a, b = float(mine[i]), float(theirs[i])
        msg = f"{name} {a:.1f} here, {b:.1f} in {other.name}: {b - a:.1f} points worse than the other system."
        out.append(Finding(CODE, c.severity, msg, line=i, data={"mine": a, "other": b, "otherFile": str(other.path)}))
    return out


def _test(metrics: dict, base: dict, system: dict) -> dict:
    """In the worker thread: the paired bootstrap per metric (baseline: the other file)."""
    out: dict[str, Any] = {}
    for key, metric in metrics.items():
        n = min(len(base[key]), len(system[key]))
        b, (s,) = paired_bs(metric, base[key][:n], [system[key][:n]], RESAMPLES)
        out[key] = {
            "test": "paired bootstrap",
            "resamples": RESAMPLES,
            "baseline": {k: v for k, v in asdict(b).items() if k != "p_value"},
            "system": asdict(s),
            "delta": s.score - b.score,
        }
    return out


class CompareTests:
    """The debounced paired tests against the other system, one worker thread."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        self._pool: Optional[ThreadPoolExecutor] = None

    def schedule(self, pair: "Pair") -> None:
        other = pair.compare
        if other is None or pair.model is None:
            return
        if other.task is not None and not other.task.done():
            other.task.cancel()
        other.gen += 1
        other.task = asyncio.ensure_future(self._job(pair, other, other.gen))

    async def _job(self, pair: "Pair", other: OtherSystem, gen: int) -> None:
        model = pair.model
        lines = model.n_hyp if model is not None else 0
        await asyncio.sleep(min(DEBOUNCE_MAX, max(DEBOUNCE_SECONDS, lines * DEBOUNCE_PER_LINE)))
        await self.manager.wait_scored(pair)
        model = pair.model
        if model is None or pair.compare is not other or gen != other.gen:
            return
        om = sync(pair)
        if om is None or not model.n_paired:
            return
        metrics = dict(model.metrics)
        base = {k: np.array(om.stats_array(k)) for k in metrics}
        system = {k: np.array(model.stats_array(k)) for k in metrics}
        version = model.version
        if self._pool is None:
            self._pool = pools.executor("bleu-ls-compare")
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._pool, _test, metrics, base, system)
        except Exception:
            log.exception("the paired test against the other system failed")
            return
        if pair.compare is not other or gen != other.gen or pair.model is not model or model.version != version:
            return
        other.result, other.version = result, version
        self.manager.publisher.schedule_refresh()

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def current_result(pair: "Pair") -> dict:
    other = pair.compare
    if other is None or pair.model is None or other.version != pair.model.version:
        return {}
    return other.result


def lens_part(pair: "Pair") -> Optional[str]:
    """``vs B: Δ −1.23, p = 0.0400`` (the p-value once the test has run on this text)."""
    other, model = pair.compare, pair.model
    if other is None or model is None or other.model is None:
        return None
    key = key_metric(model)
    if key is None:
        return None
    mine, theirs = model.corpus(key).score, other.model.corpus(key).score
    if mine is None or theirs is None:
        return None
    text = f"vs {other.name}: Δ {mine - theirs:+.2f}"
    rec = current_result(pair).get(key)
    if rec:
        text += f", p = {rec['system']['p_value']:.4f}"
    return text


def record(pair: "Pair") -> dict:
    """The ``compare`` record of ``bleuLs/corpusScore``."""
    other, model = pair.compare, pair.model
    if other is None or model is None or other.model is None:
        return {}
    return {
        "compare": {
            "file": str(other.path),
            "name": other.name,
            "corpus": {k: other.model.corpus(k).score for k in other.model.metrics},
            "paired": current_result(pair) or None,
        }
    }
