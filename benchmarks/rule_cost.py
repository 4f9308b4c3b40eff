"""The CPU seconds spent inside one row of the rule table over a whole analysis of the real pair's
targets with their sources (100,000 lines made distinct, :mod:`benchmarks.qa_checks_live`'s
workspace), in process: the row's function wrapped and timed alone (``time.process_time``), best
of R analyses.  For what a check itself costs, apart from reading, the other rules and output.

    PYTHONPATH=. python -m benchmarks.rule_cost CODE VARIANT [N] [R]
    PYTHONPATH=. python -m benchmarks.rule_cost rule rules          # the three example [[rules]]
    PYTHONPATH=. python -m benchmarks.rule_cost spelling spelling
"""

from __future__ import annotations

import sys
import time
import tomllib

from .qa_checks_live import VARIANTS, workspace


def main(argv: list[str]) -> int:
    import bleu_ls.qa.analysis.analyzer as analyzer_module
    from bleu_ls.config.settings import Settings
    from bleu_ls.qa.analysis.analyzer import Analyzer
    from bleu_ls.qa.analysis.unreferenced import Unreferenced

    code, variant = argv[0], argv[1]
    n = int(argv[2]) if len(argv) > 2 else 100_000
    repeat = int(argv[3]) if len(argv) > 3 else 3
    path = workspace("pair", variant, n)
    hyp = path.read_text(encoding="utf-8").splitlines()
    src = (path.parent / "big.src").read_text(encoding="utf-8").splitlines()
    spent = [0.0]
    rows = list(analyzer_module.RULES)
    for k, row in enumerate(rows):
        if row.code == code:
            real = row.check

            def timed(ctx, c, real=real):
                t = time.process_time()
                out = list(real(ctx, c))
                spent[0] += time.process_time() - t
                return out

            rows[k] = row._replace(check=timed)
    analyzer_module.RULES = tuple(rows)  # (the analyser's loop reads the module's RULES)
    settings = Settings.from_dict(tomllib.loads(VARIANTS[variant]))
    runs, found = [], 0
    for _ in range(repeat):
        spent[0] = 0.0
        found = len(Analyzer(settings).analyse(Unreferenced({}, hyp), src, {"hypothesis": path.name, "path": str(path)}))
        runs.append(spent[0])
    print(f"{code} ({variant}, {n:,} lines): {min(runs):.3f} s CPU in the rule, best of {repeat} "
          f"({' '.join(f'{x:.3f}' for x in runs)}); {found:,} findings of every rule")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
