"""The term scan of a full pass in worker processes (``Analyzer(workers=…)``, what ``bleu-ls
check`` runs): the findings are those of the scan in the analyser's own process, line for line
and in the same order; the lines really were scanned elsewhere; a failed pool or too few lines
leave the scan to the analyser's process; an incremental pass after it stays exact."""

from __future__ import annotations

import os
import random
import sys

import pytest

from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.analysis import Analyzer, term_rules
from bleu_ls.qa.terms import batch
from bleu_ls.qa.terms.index import TermIndex

from bleu_ls.qa.terms import load

from .test_term_rules_incremental import CODES, GLOSSARY, SOURCES, TARGETS, _settings

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the workers are forked (Linux)")


@pytest.fixture
def glossary(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text(GLOSSARY, encoding="utf-8")
    yield path
    load.forget()


def _pair(seed: int, n: int):
    rng = random.Random(seed)
    # every line distinct (a counter), one in 50 over the line cap the settings give below
    hyp = [f"{rng.choice(TARGETS)} {i}" for i in range(n)]
    src = [f"{rng.choice(SOURCES)} {i}" for i in range(n - 7)]  # a source shorter than the target
    for i in range(0, n, 50):
        hyp[i] = "Datei " * 60
    return hyp, src


def _analyse(settings, hyp, src, workers):
    model = PairModel.from_lines(build_metrics(settings), hyp, [list(hyp)], workers=1)
    analyzer = Analyzer(settings, workers=workers)
    return analyzer, model, analyzer.analyse(model, src, {"source_language": "en", "target_language": "de"})


class _Counted:
    """Counts the lines :meth:`TermIndex.scan` looks at in this process."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = TermIndex.scan

        def scan(index, source, target, severity=None):
            self.calls += 1
            return real(index, source, target, severity)

        monkeypatch.setattr(TermIndex, "scan", scan)


def _big_settings(path):
    s = _settings(path, languages=True)
    s.max_line_bytes = 200  # the repeated "Datei" lines are over it: not read, in either process
    return s


def test_findings_equal_the_scan_in_this_process(glossary, monkeypatch):
    """5,000 line pairs, two and three processes against one: the same findings (every code
    present); with workers, this process scanned no line."""
    s = _big_settings(glossary)
    hyp, src = _pair(1, 5000)
    _a, _m, alone = _analyse(s, hyp, src, 1)
    terms = [f for f in alone if f.code in CODES]
    assert {f.code for f in terms} == set(CODES)
    assert not any(f.line % 50 == 0 for f in terms)  # (the lines over the cap have none)
    counted = _Counted(monkeypatch)
    for workers in (2, 3):
        counted.calls = 0
        _a, _m, got = _analyse(s, hyp, src, workers)
        assert got == alone
        assert counted.calls == 0  # every line was scanned in a worker (a fork keeps the class as it was)


def test_an_edit_after_the_scan_stays_exact(glossary):
    """The memo the workers filled serves the next pass: an edited line's findings are worked
    out again and equal a fresh analysis."""
    s = _big_settings(glossary)
    hyp, src = _pair(2, 4500)
    analyzer, model, _first = _analyse(s, hyp, src, 2)
    model.splice_hyp(10, 11, ["Speichern Sie die Datei im Ordner."])
    got = analyzer.analyse(model, src, {"source_language": "en", "target_language": "de"})
    assert analyzer.changed is not None  # (an incremental pass)
    fresh = Analyzer(s).analyse(model, list(src), {"source_language": "en", "target_language": "de"})
    assert got == fresh


def test_a_failed_pool_scans_here(glossary, monkeypatch):
    """A worker that fails: the lines are scanned in this process, the same findings."""
    s = _big_settings(glossary)
    hyp, src = _pair(3, 4200)
    _a, _m, alone = _analyse(s, hyp, src, 1)

    here = os.getpid()
    real = TermIndex.scan
    calls = []

    def scan(index, source, target, severity=None):
        if os.getpid() != here:
            raise RuntimeError("a worker failed")
        calls.append(target)
        return real(index, source, target, severity)

    monkeypatch.setattr(TermIndex, "scan", scan)
    _a, _m, got = _analyse(s, hyp, src, 2)
    assert got == alone
    assert len(calls) == 4200 - 4200 // 50  # every line under the cap, here
    assert batch._JOB is None  # (the job is let go)


def test_how_many_processes():
    """One per core less this process's; none below ``MIN_LINES`` or with one worker."""
    assert term_rules.batch_processes(1, 100_000) == 0
    assert term_rules.batch_processes(4, 100_000) == 3
    assert term_rules.batch_processes(4, batch.MIN_LINES - 1) == 0
    assert term_rules.batch_processes(None, batch.MIN_LINES - 1) == 0


def test_few_lines_start_no_worker(glossary, monkeypatch):
    """Below ``MIN_LINES`` no process is started."""
    s = _big_settings(glossary)
    hyp, src = _pair(4, 300)
    started = []
    monkeypatch.setattr(batch, "ProcessPoolExecutor", lambda *a, **k: started.append(a))
    _a, _m, got = _analyse(s, hyp, src, 2)
    assert not started
    assert any(f.code in CODES for f in got)
