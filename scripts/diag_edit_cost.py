"""Where an edit → diagnostics reply goes at N lines, in-process: the
benchmark's pull-after-every-edit edits (benchmarks/scale.py) replayed on a
pair model, each phase timed: the model splice, the analysis pass, bringing
the per-line JSON up to date (server/views/diaglines.py), joining the reply body,
and encoding it to bytes.  ``--profile`` prints cProfile's top entries of the
edits' passes.

    PYTHONPATH=. .venv/bin/python scripts/diag_edit_cost.py [--n 100000] [--edits 60] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # PYTHONPATH (another checkout) first


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--edits", type=int, default=60)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--rules", action="store_true", help="time each rule and step of the edits' passes")
    ap.add_argument("--max-problems", type=int, default=0, help="the setting maxProblems (VS Code: 1000)")
    ap.add_argument("--freeze", action="store_true", help="gc.freeze() after the first pass, as the server does for a large document")
    args = ap.parse_args()

    from benchmarks.run import _mutate, workspace
    from bleu_ls.qa.analysis import Analyzer
    from bleu_ls.engine import PairModel, build_metrics
    from bleu_ls.qa.ignore import IgnoreStore
    from bleu_ls.server.views.diaglines import DiagnosticLines
    from bleu_ls.server.documents.document import LineDocument
    from bleu_ls.server.pairs.state import Pair
    from bleu_ls.config.settings import Settings

    rule_time: dict = {}
    if args.rules:
        from bleu_ls.qa.analysis import analyzer as amod, incremental

        def timed(name, fn):
            def run(*a, **k):
                t = time.perf_counter()
                try:
                    out = fn(*a, **k)
                    return list(out) if name.startswith("rule ") and not isinstance(out, tuple) else out
                finally:
                    rule_time.setdefault(name, []).append(time.perf_counter() - t)
            return run

        amod.RULES = tuple(r._replace(check=timed("rule " + r.code, r.check)) for r in amod.RULES)
        for name in ("dirty_lines", "changes", "LineContext", "_copy"):  # (older checkouts: dirty_lines, _copy)
            if hasattr(amod, name):
                setattr(amod, name, timed(name, getattr(amod, name)))
        incremental.FindingStore.settle = timed("settle", incremental.FindingStore.settle)
    n = args.n
    ws, path, text = workspace(n)
    ref = (ws / "bench.ref").read_text(encoding="utf-8").split("\n")[:n]
    s = Settings()
    if args.max_problems:
        s = Settings.from_dict({"maxProblems": args.max_problems})
    doc = LineDocument(text)
    pair = Pair(uri=path.as_uri(), path=path, settings=s)
    pair.model = PairModel(build_metrics(s), doc.engine_lines()[:n], [ref])
    store = IgnoreStore.load(ws)
    analyzer = Analyzer(s)
    view = DiagnosticLines(("base",))
    t = time.perf_counter()
    analyzer.analyse_lines(pair.model, None, {})
    view.refresh(pair, store, doc, analyzer, [], [])
    items = view.items()
    first_body = view.body() if hasattr(view, "body") else None  # the first pull's reply (kept blocks built)
    import bleu_ls

    print("bleu_ls from", Path(bleu_ls.__file__).parent)
    print(f"first pass {time.perf_counter() - t:.2f} s, {len(items):,} items, "
          f"{sum(map(len, items)) / 2**20:.2f} MB; first reply {len(first_body or '') / 2**20:.2f} MB", flush=True)
    if args.freeze:
        import gc

        gc.freeze()
    rng = random.Random(11)
    lines = text.split("\n")
    w0 = max(0, n // 2 - 30)
    rows = []
    prof = cProfile.Profile() if args.profile else None
    rid = view.rid
    for _ in range(args.edits):
        i = w0 + rng.randrange(min(60, n - w0 - 1))
        lines[i] = _mutate(lines[i], rng)
        if prof:
            prof.enable()
        t0 = time.perf_counter()
        doc.edit(i, 0, i + 1, 0, lines[i] + "\n")
        pair.model.splice_hyp(i, i + 1, [lines[i]])
        t1 = time.perf_counter()
        analyzer.analyse_lines(pair.model, None, {})
        t2 = time.perf_counter()
        view.key = None
        view.refresh(pair, store, doc, analyzer, [], [])
        t3 = time.perf_counter()
        full = view.rid != rid
        rid = view.rid
        body = b""
        if full:
            joined = view.body() if hasattr(view, "body") else ",".join(view.items())  # (older checkouts: no blocks)
            body = '{"kind":"full","resultId":"' + rid + '","items":[' + joined + "]}"
        t4 = time.perf_counter()
        if full:
            body = body.encode("utf-8")
        t5 = time.perf_counter()
        if prof:
            prof.disable()
        rows.append((full, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, len(body)))
    fulls = [r for r in rows if r[0]]
    print(f"{len(fulls)}/{len(rows)} edits changed the reply")
    names = ["splice", "analyse", "refresh", "join", "encode"]
    for label, rs in (("all", rows), ("full replies", fulls)):
        if not rs:
            continue
        med = [sorted(r[k] for r in rs)[len(rs) // 2] * 1e3 for k in range(1, 6)]
        mx = [max(r[k] for r in rs) * 1e3 for k in range(1, 6)]
        print(label, "median ms:", " ".join(f"{a} {b:.2f}" for a, b in zip(names, med)))
        print(label, "max ms:   ", " ".join(f"{a} {b:.2f}" for a, b in zip(names, mx)))
    tot = sorted(sum(r[1:6]) for r in rows)
    print(f"edit → reply body (all phases) p50 {tot[len(tot) // 2] * 1e3:.2f} ms, p95 {tot[int(0.95 * (len(tot) - 1))] * 1e3:.2f} ms")
    if fulls:
        print(f"full body {fulls[0][6] / 2**20:.2f} MB")
    if rule_time:
        for name, ts in sorted(rule_time.items(), key=lambda kv: -sum(kv[1][-args.edits:])):
            ts = sorted(ts[-args.edits:])
            print(f"  {name:28s} median {ts[len(ts) // 2] * 1e3:6.2f} ms  max {ts[-1] * 1e3:6.2f} ms")
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
