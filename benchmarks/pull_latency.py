"""Edit → pulled diagnostics and edit → inlay hints in the real server, as Neovim asks for
them (a pull and a hint request after every edit): ``python -m benchmarks.pull_latency
[LINES] [--glossary] [--rounds N] [--ab TREE]``.

The pair is the real en→de MT pair with its source drawn to LINES distinct lines
(:mod:`benchmarks.realpair`, :func:`benchmarks.terms.distinct`); with ``--glossary``, the
10,000-entry glossary of :mod:`benchmarks.terms` in the workspace's ``[terms] files``.  60
one-line edits, each followed by a pull (with the previous resultId) and a hint request for
the 60 lines around, timed from the edit (:func:`benchmarks.terms.server_session`).  With
``--ab TREE`` the server of another checkout (``TREE``, e.g. a ``git worktree`` of an older
commit) runs in turn with this one, ``--rounds`` times each (A B A B …): compare the rows of
one run only, on a shared machine."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

from . import realpair, terms


def _row(label: str, r: dict) -> str:
    p = terms._p
    return (f"{label}: diagnostics p50 {p(r['diag_lat'], 0.5):.1f} ms, p95 {p(r['diag_lat'], 0.95):.1f} ms; "
            f"hints p50 {p(r['hint_lat'], 0.5):.1f} ms, p95 {p(r['hint_lat'], 0.95):.1f} ms; "
            f"hints answered first after {sum(h < d for h, d in zip(r['hint_lat'], r['diag_lat']))} of {len(r['diag_lat'])} edits; "
            f"{r['items']:,} diagnostics; RSS {r['rss'] / 2**20:.0f} MB")


def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    n = int(next((a for a in args if a.isdigit()), "20000"))
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 1
    other = Path(args[args.index("--ab") + 1]).resolve() if "--ab" in args else None
    data = realpair.data_dir()
    built = realpair.build(n)
    if data is None or built is None:
        print("the WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) are not on this machine: nothing measured")
        return 0
    folder = terms.distinct(built)
    glossary = terms.build_glossary(data, realpair.CACHE / f"terms-glossary-{terms.ENTRIES}.csv") if "--glossary" in args else None
    here = terms.ROOT
    trees = [("this tree", here)] + ([(f"{other}", other)] if other is not None else [])
    for k in range(rounds):
        for label, tree in trees:
            terms.ROOT = tree  # the server runs from the tree (python -m bleu_ls, cwd first on sys.path)
            old = os.environ.get("PYTHONPATH")
            os.environ["PYTHONPATH"] = str(tree)
            try:
                r = terms.server_session(folder, glossary)
            finally:
                terms.ROOT = here
                if old is None:
                    os.environ.pop("PYTHONPATH", None)
                else:
                    os.environ["PYTHONPATH"] = old
            load = os.getloadavg()[0]
            print(_row(f"round {k + 1}, {label} ({n:,} lines{', glossary' if glossary else ''}, load {load:.1f})", r), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
