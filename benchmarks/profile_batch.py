"""Where the time of batch scoring goes, phase by phase, in one process (one core):

    python -m benchmarks.profile_batch [LINES ...] [--metric bleu|chrf] [--repeat N]

For each size it generates (or reuses) the synthetic pair of
:mod:`benchmarks.corpus` and times, as ``bleu-ls score -m METRIC --format json``
does them: reading both files, tokenising (token / character ids), counting
the clipped n-gram matches (``ngrams.match_table``), the per-line scores
(``Metric.batch_scores``), the corpus score, and writing the JSON report
(to a null stream).  Medians of ``--repeat`` runs (default 3), in CPU seconds
of this process (steadier than wall time on a shared machine; the pass is one thread).
Interpreter start and imports are not in these figures (see the whole-process
rows of ``python -m benchmarks``).
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path

from . import corpus


class _Null(io.TextIOBase):
    def write(self, s: str) -> int:  # type: ignore[override]
        return len(s)


def _files(n: int) -> tuple[Path, Path]:
    return corpus.ensure(n)


def phases(n: int, metric_key: str) -> dict[str, float]:
    import numpy as np

    from bleu_ls.cli.output import Chunked
    from bleu_ls.cli.metric_args import settings_from_args
    from bleu_ls.cli.score import build_parser, render_json

    try:
        from bleu_ls.cli.score import json_level, render_chunk
    except ImportError:  # an older tree (A/B runs against a past commit)
        render_chunk = json_level = None  # type: ignore[assignment]
    from bleu_ls.engine import PairModel, build_metrics, read_lines
    from bleu_ls.engine.batch_stats import bleu_stats, chrf_stats
    from bleu_ls.engine.ngrams import bleu_token_ids, char_ids, chrf_word_ids, clear_caches, match_table
    from bleu_ls.engine.tokenizers import forget_words

    clear_caches()
    forget_words()
    hyp_path, ref_path = _files(n)
    metrics = build_metrics(settings_from_args(build_parser().parse_args([str(hyp_path), str(ref_path), "-m", metric_key])))
    metric = metrics[metric_key]
    out: dict[str, float] = {}
    t = time.process_time()
    hyp, ref = read_lines(str(hyp_path)), read_lines(str(ref_path))
    out["read"] = time.process_time() - t
    t = time.process_time()
    if metric_key == "bleu":
        sides = [bleu_token_ids(metric, hyp), bleu_token_ids(metric, ref)]
    else:
        sides = [char_ids(hyp, metric.lowercase, metric.whitespace), char_ids(ref, metric.lowercase, metric.whitespace)]
        words = [chrf_word_ids(hyp, metric.lowercase), chrf_word_ids(ref, metric.lowercase)] if metric.word_order else []
    out["tokenise"] = time.process_time() - t
    t = time.process_time()
    if metric_key == "bleu":
        match_table(sides, metric.max_order)
    else:
        match_table(sides, metric.char_order)
        if words:
            match_table(words, metric.word_order)
    out["count"] = time.process_time() - t
    # the rows themselves (the same tokenising and counting again, with the assembly)
    clear_caches()
    forget_words()
    t = time.process_time()
    stats = bleu_stats(metric, hyp, [ref]) if metric_key == "bleu" else chrf_stats(metric, hyp, [ref])
    out["stats rows (tokenise + count + assemble)"] = time.process_time() - t
    t = time.process_time()
    scores = metric.batch_scores(stats)
    out["line scores"] = time.process_time() - t
    t = time.process_time()
    metric.corpus_score(stats.sum(axis=0).tolist(), None)
    out["corpus score"] = time.process_time() - t
    model = PairModel(metrics, hyp, [ref], lazy=True)
    t = time.process_time()
    model.install({metric_key: (stats, scores)}, model.snapshot())
    out["install rows"] = time.process_time() - t
    if render_chunk is None:  # a tree from before the worker-made JSON: the whole report at once
        out["JSON text of the lines"] = 0.0
        t = time.process_time()
        sink = Chunked(_Null())  # type: ignore[arg-type]
        render_json(model, sink)
        sink.flush()
        out["write JSON (head, corpus, the lines' text)"] = time.process_time() - t
        return out
    t = time.process_time()
    text = render_chunk(json_level(1), metric_key, metric, stats, scores, 0)
    out["JSON text of the lines"] = time.process_time() - t
    t = time.process_time()
    sink = Chunked(_Null())  # type: ignore[arg-type]
    render_json(model, sink, chunks={metric_key: [text]})
    sink.flush()
    out["write JSON (head, corpus, the lines' text)"] = time.process_time() - t
    assert np.isfinite(scores).all()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.profile_batch")
    ap.add_argument("sizes", nargs="*", type=int, default=[100_000])
    ap.add_argument("--metric", "-m", choices=("bleu", "chrf"), default="bleu")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    for n in args.sizes:
        runs = [phases(n, args.metric) for _ in range(args.repeat)]
        print(f"{args.metric} at {n:,} lines (median of {args.repeat}, one process, CPU seconds)")
        for key in runs[0]:
            print(f"  {key:<42} {statistics.median(r[key] for r in runs):8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
