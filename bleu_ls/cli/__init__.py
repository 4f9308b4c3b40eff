"""The ``bleu-ls`` command: ``score``, ``check``, ``report``, ``serve`` and ``health``."""

from __future__ import annotations

import sys
from typing import Optional, Sequence

USAGE = """usage: bleu-ls {score,check,compare,effort,report,serve,health} ...

  score HYP REF [REF ...]   per-line and corpus BLEU / chrF / TER, as sacrebleu or NLTK compute them
  compare BASE HYP REF...   paired significance test of HYP against BASE (sacrebleu's PairedTest)
  effort DRAFT POSTEDIT     post-editing effort: per-line and corpus HTER and word edits
  check PATH [PATH ...]     pair files and print diagnostics (for CI jobs and a quick look)
  report HYP [HYP ...] --ref REF [REF ...]
                            a self-contained HTML report on one or more systems
  serve [--stdio|--tcp]     run the language server
  health [FOLDER]           what this installation can do (Python, optional tokenizers and models, settings)

Run 'bleu-ls COMMAND --help' for a command's options.
"""


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0 if args else 2
    if args[0] == "--version":
        from .. import __version__

        print(f"bleu-ls {__version__}")
        return 0
    command, rest = args[0], args[1:]
    if command == "score":
        from .score import main as run
    elif command == "compare":
        from .compare import main as run
    elif command == "effort":
        from .effort import main as run
    elif command == "check":
        from .check import main as run
    elif command == "report":
        from .report import main as run
    elif command == "serve":
        from ..server.main import main as run
    elif command == "health":
        from .health import main as run
    else:
        print(f"bleu-ls: unknown command {command!r}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    return run(rest)
