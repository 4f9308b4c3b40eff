"""`bleu-ls` itself: the usage text made from the table of commands, each
command found through its row, nothing of a command loaded before it runs."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from bleu_ls.cli import COMMANDS, USAGE_LINE_ORDER, main, usage

#: the usage text as it was written out by hand before the table made it
WRITTEN = """usage: bleu-ls {score,check,compare,effort,report,serve,health} ...

  score HYP REF [REF ...]   per-line and corpus BLEU / chrF / TER, as sacrebleu or NLTK compute them
  compare BASE HYP REF...   paired significance test of HYP against BASE (sacrebleu's PairedTest)
  effort DRAFT POSTEDIT     post-editing effort: per-line and corpus HTER and word edits (--draft-rev REV: the draft from git)
  check PATH [PATH ...]     pair files and print diagnostics (for CI jobs and a quick look)
  report HYP [HYP ...] --ref REF [REF ...]
                            a self-contained HTML report on one or more systems
  serve [--stdio|--tcp]     run the language server
  health [FOLDER]           what this installation can do (Python, optional tokenizers and models, settings)

Run 'bleu-ls COMMAND --help' for a command's options.
"""


def test_usage_is_the_written_text() -> None:
    assert usage() == WRITTEN


def test_every_command_once_in_the_usage_line() -> None:
    names = [c.name for c in COMMANDS]
    assert len(set(names)) == len(names)
    assert set(USAGE_LINE_ORDER) <= set(names)  # no name of a command that is gone
    line = usage().splitlines()[0]
    assert line.startswith("usage: bleu-ls {") and line.endswith("} ...")
    assert sorted(line[len("usage: bleu-ls {") : -len("} ...")].split(",")) == sorted(names)


def test_a_new_row_is_in_the_usage(monkeypatch) -> None:
    import bleu_ls.cli as cli

    row = cli.Command("align", "HYP REF", "a command that does not exist", ".align")
    monkeypatch.setattr(cli, "COMMANDS", (*COMMANDS[:2], row, *COMMANDS[2:]))
    text = cli.usage()
    assert text.startswith("usage: bleu-ls {score,check,compare,effort,report,serve,health,align} ...\n\n")
    listed = [line.split()[0] for line in text.splitlines()[2:-2] if line.startswith("  ") and not line.startswith("   ")]
    assert listed == ["score", "compare", "align", "effort", "check", "report", "serve", "health"]
    assert "  align HYP REF             a command that does not exist\n" in text


def test_no_arguments_prints_usage_and_fails(capsys) -> None:
    assert main([]) == 2
    assert capsys.readouterr().out == WRITTEN
    assert main(["--help"]) == 0
    assert capsys.readouterr().out == WRITTEN


def test_unknown_command_names_it_then_the_usage(capsys) -> None:
    assert main(["scroe", "a", "b"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "bleu-ls: unknown command 'scroe'\n\n" + WRITTEN


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_each_row_runs_its_module(command, capsys) -> None:
    module = importlib.import_module(command.module, "bleu_ls.cli")
    assert callable(module.main)
    with pytest.raises(SystemExit) as stop:  # argparse's --help
        main([command.name, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: bleu-ls {command.name} ")


def test_version_loads_no_command() -> None:
    code = (
        "import sys\n"
        "from bleu_ls.cli import main\n"
        "assert main(['--version']) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith('bleu_ls.')))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    version_line, loaded = res.stdout.splitlines()
    assert version_line.startswith("bleu-ls ")
    assert loaded == "['bleu_ls.cli']"
