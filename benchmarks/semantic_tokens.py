"""Semantic tokens at scale: a full request over a cold cache, then a full
request after each one-line edit (which must compute that line only; timed
up to the JSON text that goes out), a delta request after each one-line
edit, and a 60-line range request.

Input: the synthetic corpus of :mod:`benchmarks.corpus` (N lines; hypothesis,
reference) with a draft that differs from the hypothesis on every third
line (its first word dropped), so both token kinds occur.

    python -m benchmarks.semantic_tokens 100000
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types

from benchmarks import corpus
from bleu_ls.postedit import DraftTrack
from bleu_ls.server.features.tokens import Tokens
from bleu_ls.server.pairs.manager import PairManager


class _Quiet:
    def text_document_publish_diagnostics(self, params) -> None:
        pass

    def window_show_message(self, params) -> None:
        pass


def _edit(manager: PairManager, uri: str, line: int, version: int) -> None:
    manager.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)),
                    text="neu ",
                )
            ],
        )
    )


async def _full(tokens, uri: str) -> tuple[str, str]:
    """A full answer as the JSON text that goes out, and its result id
    (the answer of servers before the per-line blocks is encoded here)."""
    if hasattr(tokens, "remember"):  # a list of integers, encoded as pygls would
        data = await tokens.full(uri)
        answer = tokens.remember(uri, data)
        return json.dumps({"resultId": answer.result_id, "data": data}, separators=(",", ":")), answer.result_id
    encoded = await tokens.full(uri)
    head = encoded.json[: encoded.json.index(",")]  # {"resultId":"N"
    return encoded.json, json.loads(head + "}")["resultId"]


async def run(n: int, edits: int = 20) -> dict:
    hyp_path, ref_path = corpus.ensure(n)
    hyp = hyp_path.read_text(encoding="utf-8").splitlines()[:n]
    ref = ref_path.read_text(encoding="utf-8").splitlines()[:n]
    draft = [" ".join(h.split()[1:]) if i % 3 == 0 else h for i, h in enumerate(hyp)]
    work = Path(tempfile.mkdtemp(prefix="bleu-ls-tokens-"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    (work / "bench.hyp").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (work / "bench.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    manager = PairManager(_Quiet())
    manager.roots = [work]
    manager.reload_settings()
    uri = (work / "bench.hyp").as_uri()
    manager.open(uri, "\n".join(hyp) + "\n", 1)
    pair = manager.pair_for(uri)
    pair.draft = DraftTrack(draft, hyp)
    tokens = Tokens(manager)
    t0 = time.perf_counter()
    body, rid = await _full(tokens, uri)
    cold = time.perf_counter() - t0
    fill = getattr(tokens, "filling", {}).get(uri)
    if fill is not None:  # a large file: the rest is computed in the background
        await fill
        body, rid = await _full(tokens, uri)
    cold_all = time.perf_counter() - t0
    cache = tokens.cache_for(pair)
    rnd = random.Random(7)
    warm = []
    for k in range(edits):
        _edit(manager, uri, rnd.randrange(n), k + 2)
        built = cache.built
        t0 = time.perf_counter()
        body, rid = await _full(tokens, uri)
        warm.append(time.perf_counter() - t0)
        assert cache.built == built + 1, "a one-line edit recomputed more than its line"
    deltas, sent = [], []
    for k in range(edits):
        _edit(manager, uri, rnd.randrange(n), edits + k + 2)
        t0 = time.perf_counter()
        answer = await tokens.delta(uri, rid)
        json.dumps(answer.edits[0].data if answer.edits else [])  # what goes out
        deltas.append(time.perf_counter() - t0)
        rid = answer.result_id
        sent.append(sum(len(e.data) for e in answer.edits))
    deltas.sort()
    t0 = time.perf_counter()
    tokens.data(uri, n // 2, n // 2 + 60)
    rng = time.perf_counter() - t0
    manager.shutdown()
    warm.sort()
    return {
        "lines": n,
        "tokens": body.count(",") // 5,
        "full_answer_mb": len(body) / 1e6,
        "cold_full_first_answer_s": cold,
        "cold_full_all_lines_s": cold_all,
        "full_after_edit_median_ms": 1000 * statistics.median(warm),
        "full_after_edit_max_ms": 1000 * warm[-1],
        "delta_after_edit_median_ms": 1000 * statistics.median(deltas),
        "delta_integers_sent_max": max(sent),
        "range_60_lines_ms": 1000 * rng,
    }


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    for key, value in asyncio.run(run(n)).items():
        print(f"{key}: {value:,.1f}" if isinstance(value, float) else f"{key}: {value:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
