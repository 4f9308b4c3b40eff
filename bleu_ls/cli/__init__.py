"""The ``bleu-ls`` command: a table of commands, each run by a module of its own.

A command's module is imported only when that command runs, so ``bleu-ls
--version`` and the usage text load nothing but this file.  Adding a command
is one row in :data:`COMMANDS` and one module with ``main(argv) -> int``.
"""

from __future__ import annotations

import importlib
import sys
from typing import NamedTuple, Optional, Sequence


class Command(NamedTuple):
    name: str
    #: the arguments as the usage text shows them
    synopsis: str
    #: one line: what the command does
    summary: str
    #: the module, relative to this package, whose ``main(argv)`` runs the command
    module: str


#: every command, in the order the usage text lists them
COMMANDS: tuple[Command, ...] = (
    Command("score", "HYP REF [REF ...]",
            "per-line and corpus BLEU / chrF / TER, as sacrebleu or NLTK compute them", ".score"),
    Command("compare", "BASE HYP REF...",
            "paired significance test of HYP against BASE (sacrebleu's PairedTest)", ".compare"),
    Command("effort", "DRAFT POSTEDIT", "post-editing effort: per-line and corpus HTER and word edits (--draft-rev REV: the draft from git)", ".effort"),
    Command("check", "PATH [PATH ...]", "pair files and print diagnostics (for CI jobs and a quick look)", ".check"),
    Command("report", "HYP [HYP ...] --ref REF [REF ...]",
            "a self-contained HTML report on one or more systems", ".report"),
    Command("serve", "[--stdio|--tcp]", "run the language server", ".serve"),
    Command("health", "[FOLDER]",
            "what this installation can do (Python, optional tokenizers and models, settings)", ".health"),
)

#: the usage line's first names, in the order it has always printed them; a command
#: not named here follows them in the table's order
USAGE_LINE_ORDER = ("score", "check", "compare", "effort", "report", "serve", "health")

#: where the summaries start; a longer synopsis puts its summary on the next line
SUMMARY_COLUMN = 28


def usage() -> str:
    """The usage text, made from :data:`COMMANDS`."""
    rows = []
    for c in COMMANDS:
        head = f"  {c.name} {c.synopsis}"
        if len(head) + 2 <= SUMMARY_COLUMN:
            rows.append(f"{head:<{SUMMARY_COLUMN}}{c.summary}")
        else:
            rows.append(f"{head}\n{'':<{SUMMARY_COLUMN}}{c.summary}")
    names = [*USAGE_LINE_ORDER, *(c.name for c in COMMANDS if c.name not in USAGE_LINE_ORDER)]
    return (
        f"usage: bleu-ls {{{','.join(names)}}} ...\n\n"
        + "\n".join(rows)
        + "\n\nRun 'bleu-ls COMMAND --help' for a command's options.\n"
    )


def find(name: str) -> Optional[Command]:
    return next((c for c in COMMANDS if c.name == name), None)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage(), end="")
        return 0 if args else 2
    if args[0] == "--version":
        from .. import __version__

        print(f"bleu-ls {__version__}")
        return 0
    command = find(args[0])
    if command is None:
        print(f"bleu-ls: unknown command {args[0]!r}\n\n{usage()}", end="", file=sys.stderr)
        return 2
    run = importlib.import_module(command.module, __name__).main
    return run(args[1:])
