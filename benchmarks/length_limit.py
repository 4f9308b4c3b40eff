"""What the length limits cost: a 100k-unit XLIFF 1.2 read (``read_xliff``) and its format
checks run (``findings_for``, what ``bleu-ls check`` and the server run), the units plain and
with ``maxwidth``/``size-unit="char"`` on each; with ``--check``, one ``bleu-ls check`` of each
file too (adequacy off: it dominates and does not read limits).

Run from the repository to measure (``PYTHONPATH`` says which tree is measured, so the
same command in a copy of the benchmarks gives the before and the after)::

    PYTHONPATH=. python -m benchmarks.length_limit [N] [REPEAT] [--check]

Prints, per file, the median CPU seconds (``time.process_time``: the machine may be shared) of
REPEAT reads and of REPEAT check passes.  ``--ab OTHER`` alternates the runs with the tree at
``OTHER`` (one read and one pass per child process, REPEAT times each, interleaved so that a
busy machine weighs on both alike) and prints both medians.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from .corpus import CACHE
from .segments_xliff import W


def xlf(n: int, seed: int, limits: bool) -> str:
    rng = random.Random(seed)
    attr = ' maxwidth="60" size-unit="char"' if limits else ""
    units = "\n".join(
        f'      <trans-unit id="u{i}"{attr}>\n        <source>{" ".join(rng.choice(W) for _ in range(8))}</source>\n'
        f'        <target>{" ".join(rng.choice(W) for _ in range(8))}</target>\n      </trans-unit>'
        for i in range(n))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '  <file original="app" source-language="en" target-language="de" datatype="plaintext">\n    <body>\n'
            f"{units}\n    </body>\n  </file>\n</xliff>\n")


def main(n: int = 100_000, repeat: int = 5, check: bool = False) -> None:
    from bleu_ls.config.settings import Settings
    from bleu_ls.formats.xliff import read_xliff
    from bleu_ls.qa.formats.format_checks import findings_for

    ws = CACHE / f"length-limit-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    settings = Settings()
    for limits in (False, True):
        path = ws / f"{'limits' if limits else 'plain'}.xlf"
        if not path.exists():
            path.write_text(xlf(n, 1, limits), encoding="utf-8")
        data = path.read_bytes()
        reads, checks = [], []
        for _ in range(repeat):
            t = time.process_time()
            doc = read_xliff(data, str(path))
            reads.append(time.process_time() - t)
            t = time.process_time()
            found = findings_for(doc, settings)
            checks.append(time.process_time() - t)
        line = (f"{path.name}: read median {statistics.median(reads):.3f} s, format checks median "
                f"{statistics.median(checks):.3f} s ({len(doc.segments)} segments, {len(found)} findings; reads "
                f"{' '.join(f'{x:.3f}' for x in reads)}; checks {' '.join(f'{x:.3f}' for x in checks)})")
        if check:
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as cfg:
                cfg.write("[diagnostics.adequacy]\nenabled = false\n")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "bleu_ls", "check", "--config", cfg.name, str(path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ), check=False)
            line += f"; bleu-ls check {time.perf_counter() - t:.1f} s"
            os.unlink(cfg.name)
        print(line, flush=True)


#: one read and one pass of the format checks of the file ``sys.argv[1]``: their CPU seconds (run
#: in a fresh process whose ``PYTHONPATH`` is the tree measured, from a neutral directory)
ONE = """
import sys, time
from bleu_ls.config.settings import Settings
from bleu_ls.formats.xliff import read_xliff
from bleu_ls.qa.formats.format_checks import findings_for
data = open(sys.argv[1], "rb").read()
t = time.process_time()
doc = read_xliff(data, sys.argv[1])
r = time.process_time() - t
t = time.process_time()
findings_for(doc, Settings())
print(r, time.process_time() - t)
"""


def ab(other: str, n: int, repeat: int) -> None:
    """The runs of this tree (``PYTHONPATH``) and of ``other`` interleaved, in fresh processes."""
    here = os.path.abspath(os.environ.get("PYTHONPATH", "."))
    ws = CACHE / f"length-limit-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    for limits in (False, True):
        path = ws / f"{'limits' if limits else 'plain'}.xlf"
        if not path.exists():
            path.write_text(xlf(n, 1, limits), encoding="utf-8")
        got: dict = {"this": ([], []), "other": ([], [])}
        for _ in range(repeat):
            for name, tree in (("other", other), ("this", here)):
                env = dict(os.environ, PYTHONPATH=tree)
                out = subprocess.run([sys.executable, "-c", ONE, str(path)], env=env, capture_output=True, text=True,
                                     check=True, cwd=tempfile.gettempdir())
                r, c = map(float, out.stdout.split())
                got[name][0].append(r)
                got[name][1].append(c)
        for label, f in (("median", statistics.median), ("min", min)):
            m = {k: (f(v[0]), f(v[1])) for k, v in got.items()}
            print(f"{path.name}: read {m['other'][0]:.3f} -> {m['this'][0]:.3f} s CPU "
                  f"({m['this'][0] / m['other'][0]:.3f}x), format checks {m['other'][1]:.3f} -> {m['this'][1]:.3f} s CPU "
                  f"({m['this'][1] / m['other'][1]:.3f}x); {label} of {repeat} alternated runs", flush=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--ab" in sys.argv:
        other = sys.argv[sys.argv.index("--ab") + 1]
        args.remove(other)
        ab(other, *(int(a) for a in args[:2]))
    else:
        main(*(int(a) for a in args[:2]), check="--check" in sys.argv)
