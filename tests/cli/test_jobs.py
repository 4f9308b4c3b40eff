"""`--jobs N` / `-j N` of `check`, `report`, `compare` and `effort` (`score`'s
own in test_score_jobs.py): the output is the same, byte for byte, with one
worker process, with two, and without the option; the pool really starts (a
spy on multiprocessing's ``Pool``) with the number of processes asked for;
``--jobs 0`` is refused with one sentence; the five commands share one option."""

from __future__ import annotations

import datetime
import io
import multiprocessing.context
from pathlib import Path

import pytest

from benchmarks.corpus import Corpus
from bleu_ls.cli import check as check_cmd
from bleu_ls.cli import compare as compare_cmd
from bleu_ls.cli import effort as effort_cmd
from bleu_ls.cli import report as report_cmd
from bleu_ls.cli import score as score_cmd
from bleu_ls.engine import batch
from bleu_ls.report import build

#: lines of the scored files: enough for the engine to start its pool by default
N = batch.PARALLEL_MIN_LINES


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """a.hyp / a.ref (the `check` convention), b.hyp a second system (every third
    line's words reversed, every fifth line empty); the lines short (12 tokens
    at most) so that each command runs in about a second."""
    refs, hyps = Corpus(13).pairs(N)
    refs = [" ".join(r.split()[:12]) for r in refs]
    hyps = [" ".join(h.split()[:12]) for h in hyps]
    other = ["" if i % 5 == 4 else " ".join(reversed(h.split())) if i % 3 == 0 else h for i, h in enumerate(hyps)]
    d = tmp_path_factory.mktemp("jobs")
    _write(d / "a.ref", refs)
    _write(d / "a.hyp", hyps)
    _write(d / "b.hyp", other)
    return d


@pytest.fixture
def pools(monkeypatch) -> list[int]:
    """The number of processes of every pool started (fork, forkserver or spawn)."""
    started: list[int] = []
    real = multiprocessing.context.BaseContext.Pool

    def spy(self, processes=None, *args, **kwargs):
        started.append(processes)
        return real(self, processes, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.context.BaseContext, "Pool", spy)
    return started


@pytest.fixture
def fixed_clock(monkeypatch) -> None:
    """The report's "Made … on <time>" at one instant, so that two runs can be compared byte for byte."""

    class Clock:
        timezone = datetime.timezone

        class datetime:
            @staticmethod
            def now(tz=None):
                return datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=tz)

    monkeypatch.setattr(build, "datetime", Clock)




def _check(files: Path, *jobs: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = check_cmd.main([str(files / "a.hyp"), "--no-config", "-m", "bleu", "chrf", *jobs], out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def _run(capsys, main, argv: list[str]) -> tuple[int, str, str]:
    rc = main(argv)
    got = capsys.readouterr()
    return rc, got.out, got.err


def _compare(capsys, files: Path, *jobs: str) -> tuple[int, str, str]:
    argv = [str(files / n) for n in ("a.hyp", "b.hyp", "a.ref")]
    return _run(capsys, compare_cmd.main, [*argv, "-m", "bleu", "chrf", "--format", "json", *jobs])


def _report(capsys, files: Path, *jobs: str) -> tuple[int, str, str]:
    argv = [str(files / "a.hyp"), str(files / "b.hyp"), "--ref", str(files / "a.ref"), "-o", "-", "--no-config"]
    return _run(capsys, report_cmd.main, [*argv, "-m", "bleu", "--bootstrap", "100", *jobs])


def _effort(capsys, files: Path, *jobs: str) -> tuple[int, str, str]:
    return _run(capsys, effort_cmd.main, [str(files / "a.hyp"), str(files / "a.ref"), "--format", "tsv", *jobs])


def _same_with_any_jobs(run, pools: list[int], passes: int) -> str:
    """``run(*jobs)`` without --jobs, with -j 1 and with --jobs 2: the same status
    and output; a pool per pass over the lines, of the processes asked for (by
    default the engine's choice for N lines on this machine: every CPU, none on
    one); the output."""
    default = batch.default_workers(N)
    rc, plain, err = run()
    assert pools == ([default] * passes if default > 1 else [])
    pools.clear()
    assert run("-j", "1") == (rc, plain, err)
    assert pools == []  # one process: no pool
    assert run("--jobs", "2") == (rc, plain, err)
    assert pools == [2] * passes
    return plain


def test_check(files, pools):
    out = _same_with_any_jobs(lambda *j: _check(files, *j), pools, 1)
    assert "a.hyp: BLEU " in out and f" · {N:,} lines · " in out


def test_check_with_a_glossary(files, pools, monkeypatch):
    """With a glossary: the same output (every term finding) with one process and with two,
    and with two the term scan ran in a worker process beside the checks."""
    from bleu_ls.qa.terms import batch as term_batch

    glossary = _forbidden_glossary(files)
    scans: list = []
    real = term_batch.start

    def spy(*args, **kwargs):
        got = real(*args, **kwargs)
        scans.append(got is not None)
        return got

    monkeypatch.setattr(term_batch, "start", spy)
    rc, alone, err = _check(files, "-j", "1", "--glossary", str(glossary))
    assert scans == [] and alone.count("term-forbidden") >= 20
    assert _check(files, "--jobs", "2", "--glossary", str(glossary)) == (rc, alone, err)
    assert scans == [True]


def test_check_of_two_files_through_a_pipe(files):
    """``bleu-ls check a.hyp b.hyp --glossary …`` as a process writing to a pipe (its output
    buffered): the worker processes of the second file's term scan, forked from it, do not
    write the first file's lines again."""
    import subprocess
    import sys

    glossary = _forbidden_glossary(files)

    def run(jobs: str) -> bytes:
        argv = [sys.executable, "-m", "bleu_ls", "check", str(files / "a.hyp"), str(files / "b.hyp"),
                "--no-config", "--glossary", str(glossary), "--fail-on", "never", "--jobs", jobs]
        got = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True, timeout=300)
        return got.stdout

    alone = run("1")
    assert alone.count(b"term-forbidden") >= 40 and b"a.hyp" in alone and b"b.hyp" in alone
    assert run("2") == alone


def _forbidden_glossary(files: Path) -> Path:
    """Three frequent words of a.hyp as forbidden target terms."""
    from collections import Counter

    words = Counter(w for w in (files / "a.hyp").read_text(encoding="utf-8").split() if len(w) > 4 and w.isalpha())
    glossary = files / "forbidden.csv"
    glossary.write_text("en,de,status\n" + "".join(f"x{k},{w},forbidden\n" for k, (w, _n) in enumerate(words.most_common(3))),
                        encoding="utf-8")
    return glossary


def test_compare(files, pools, capsys):
    out = _same_with_any_jobs(lambda *j: _compare(capsys, files, *j), pools, 2)
    assert '"p_value"' in out


def test_report(files, pools, capsys, fixed_clock):
    out = _same_with_any_jobs(lambda *j: _report(capsys, files, *j), pools, 2)
    assert out.startswith("<!DOCTYPE html>") and "2026-01-02T03:04:05+00:00" in out


def test_effort(files, pools, capsys):
    out = _same_with_any_jobs(lambda *j: _effort(capsys, files, *j), pools, 1)
    assert out.splitlines()[-1].startswith("corpus\t") and len(out.splitlines()) == N + 2


@pytest.mark.parametrize("jobs", ["0", "-3"])
@pytest.mark.parametrize("command", ["score", "check", "compare", "report", "effort"])
def test_jobs_under_one_is_one_sentence(files, capsys, command, jobs):
    a, b, ref = (str(files / n) for n in ("a.hyp", "b.hyp", "a.ref"))
    argv = {
        "score": [a, ref], "check": [a], "compare": [a, b, ref], "report": [a, "--ref", ref, "-o", "-"],
        "effort": [a, ref],
    }[command]
    main = {"score": score_cmd.main, "check": check_cmd.main, "compare": compare_cmd.main,
            "report": report_cmd.main, "effort": effort_cmd.main}[command]
    assert main([*argv, f"--jobs={jobs}"]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    lines = got.err.splitlines()
    assert lines[-1] == f"bleu-ls {command}: error: --jobs must be at least 1, not {jobs}"
    assert lines[0].startswith(f"usage: bleu-ls {command}") and "Traceback" not in got.err


def test_one_option_for_every_command():
    """The same flags, default and help in every command's parser."""
    def jobs_action(parser):
        (action,) = [a for a in parser._actions if a.dest == "jobs"]
        return action

    actions = {m.__name__: jobs_action(m.build_parser())
               for m in (score_cmd, check_cmd, compare_cmd, report_cmd, effort_cmd)}
    assert {tuple(a.option_strings) for a in actions.values()} == {("--jobs", "-j")}
    assert all(a.type is int and a.default is None for a in actions.values())
    for name, a in actions.items():
        assert f"for files of {N:,} lines or more" in a.help and f"at most {batch.MAX_DEFAULT_WORKERS}," in a.help
        # (the commands that run the checks say that the glossary's terms are looked for beside them)
        assert ("glossary" in a.help) == (name in (check_cmd.__name__, report_cmd.__name__)), name
