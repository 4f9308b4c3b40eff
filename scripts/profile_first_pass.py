"""Where the first analysis of a large document with a source paired spends its time.

Builds the 100,000-line document of tests/qa/analysis/test_analysis.py (four TED en-de
systems repeated, lines made unique by a counter, the source paired), runs
the default rules (but adequacy) once under cProfile and prints the CPU time and the top
functions.  ``--no-profile`` prints only the CPU time (no profiler overhead).

    PYTHONPATH=. .venv/bin/python scripts/profile_first_pass.py [--lines 100000] [--top 25] [--no-profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_ls.qa.analysis import Analyzer  # noqa: E402
from bleu_ls.engine import PairModel, build_metrics, read_lines  # noqa: E402
from bleu_ls.config.settings import Settings  # noqa: E402

MQM = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"


def document(n: int):
    ref = read_lines(str(MQM / "ref.txt"))
    src = read_lines(str(MQM / "src.txt"))
    hyps = [read_lines(str(MQM / f"{s}.hyp")) for s in ("Nemo", "UEdin", "Online-W", "HuaweiTSC")]
    tag = [("" if i // 529 < 4 else f" {i // 529}") for i in range(n)]
    hyp = [hyps[(i // 529) % 4][i % 529] + tag[i] for i in range(n)]
    refs = [ref[i % 529] + tag[i] for i in range(n)]
    source = [src[i % 529] for i in range(n)]
    return hyp, refs, source


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args(argv)
    hyp, refs, source = document(args.lines)
    # adequacy off: the server computes it in a worker process (scripts/qe_loop_cost.py)
    s = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": False}}})
    model = PairModel(build_metrics(s), hyp, [refs])
    analyzer = Analyzer(s)
    analyzer.language_identifier(s.diagnostics.wrong_language.min_letters).load()  # model load is not the pass
    prof = None if args.no_profile else cProfile.Profile()
    t0 = time.process_time()
    if prof:
        prof.enable()
    found = analyzer.analyse(model, source)
    if prof:
        prof.disable()
    cpu = time.process_time() - t0
    print(f"{args.lines:,} lines, {len(found):,} findings: first pass {cpu:.2f} s CPU"
          + ("" if prof is None else " (under cProfile)"))
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
