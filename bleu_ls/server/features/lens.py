"""The corpus score: a code lens on line 1 and the ``bleuLs/corpusScore``
request (polled by status items; answered once every line is scored)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

if TYPE_CHECKING:
    from ..server import BleuLanguageServer
    from ..workspace import Pair

CORPUS_SCORE = "bleuLs/corpusScore"


def _short(key: str) -> str:
    return "BLEU" if key == "bleu" else "chrF"


def corpus_delta(pair: "Pair", key: str) -> Optional[float]:
    if pair.model is None or not pair.baseline:
        return None
    then = pair.baseline.get(key)
    now = pair.model.corpus(key).score
    if then is None or now is None:
        return None
    return now - then


def lens_title(pair: "Pair") -> str:
    model = pair.model
    parts = []
    for key in model.metrics:
        s = model.corpus(key)
        parts.append(f"{_short(key)} {s.score:.2f}" if s.score is not None else f"{_short(key)} n/a")
    parts.append(f"{model.n_paired:,} lines")
    first = next(iter(model.metrics))
    d = corpus_delta(pair, first)
    if d is not None:
        parts.append(f"Δ {d:+.2f} since open")
    return " · ".join(parts)


def signatures(pair: "Pair") -> str:
    model = pair.model
    return "\n".join(m.signature(model.n_refs) for m in model.metrics.values())


async def code_lens(ls: "BleuLanguageServer", params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    pair = ls.pair_for(uri)
    if pair is None or pair.model is None:
        return []
    await ls.wait_scored(pair)
    if pair.model is None:
        return []
    return [
        types.CodeLens(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            command=types.Command(
                title=lens_title(pair),
                command="bleuLs.showReport",
                arguments=[uri],
                tooltip=signatures(pair),
            ),
        )
    ]


def corpus_record(pair: "Pair") -> dict[str, Any]:
    """Per metric: {signature, corpus (Score.as_dict()), delta}; BLEU also at top level."""
    model = pair.model
    metrics: dict[str, Any] = {}
    for key, metric in model.metrics.items():
        metrics[key] = {
            "metric": metric.name,
            "signature": metric.signature(model.n_refs),
            "corpus": model.corpus(key).as_dict(),
            "delta": corpus_delta(pair, key),
        }
    first = metrics[next(iter(metrics))]
    return {
        "uri": pair.uri,
        "signature": first["signature"],
        "corpus": first["corpus"],
        "delta": first["delta"],
        "lines": model.n_paired,
        "hypothesisLines": model.n_hyp,
        "referenceLines": [len(r) for r in model.refs],
        "metrics": metrics,
        "flagged": len(pair.flagged),
    }


async def corpus_score(ls: "BleuLanguageServer", params: Any) -> Optional[dict[str, Any]]:
    td = params.get("textDocument") if isinstance(params, dict) else getattr(params, "textDocument", None)
    uri = td.get("uri") if isinstance(td, dict) else getattr(td, "uri", None)
    pair = ls.pair_for(uri) if uri else None
    if pair is None or pair.model is None:
        return None
    await ls.wait_scored(pair)
    if pair.model is None:
        return None
    return corpus_record(pair)


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def _lens(ls, params: types.CodeLensParams):
        return await code_lens(ls, params)

    @server.feature(CORPUS_SCORE)
    async def _corpus(ls, params):
        return await corpus_score(ls, params)
