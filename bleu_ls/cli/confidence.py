"""The bootstrap fields of a signature and the corpus bootstrap of ``bleu-ls score
--confidence``; ``bleu-ls compare`` signs its paired test the same way."""

from __future__ import annotations

from typing import Any, Optional

from ..engine import PairModel
from ..engine.significance import confidence, default_seed


def _seed_text(seed: Optional[int]) -> str:
    return str(seed).lower()


def signed(signature: str, test: str, n: int, seed: Optional[int]) -> str:
    """``signature`` with sacrebleu's test fields after ``nrefs`` (``bs:1000|seed:12345``)."""
    head, _, rest = signature.partition("|")
    return f"{head}|{test}:{n}|seed:{_seed_text(seed)}|{rest}"


def corpus_confidence(model: PairModel, n: int) -> dict[str, Any]:
    """Per metric key the corpus Estimate, and under "signature" the signature rewriter."""
    seed = default_seed()
    out: dict[str, Any] = {key: confidence(m, model.stats_array(key), n) for key, m in model.metrics.items()}
    out["signature"] = lambda sig: signed(sig, "bs", n, seed)
    return out
