"""The ranked rules held while the user types (``Analyzer.hold_ranks``): a
keystroke changes the findings of the line it changed only; the first pass
without the hold equals the full computation on the new text; an edit that
moves lines lets go of the hold at once.  Real WMT21 lines (skip without)."""

from __future__ import annotations

import pytest

from benchmarks.realpair import build, data_dir
from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.analysis.analyzer import RANKED
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

DATA = data_dir()
pytestmark = pytest.mark.skipif(DATA is None, reason="WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) not present")


def _pair(n):
    folder = build(n)

    def read(name):
        return (folder / name).read_text(encoding="utf-8").split("\n")[:n]

    return read("big.hyp"), read("big.ref"), read("big.src")


def _fresh(settings, hyp, ref, src):
    return Analyzer(settings).analyse(PairModel(build_metrics(settings), list(hyp), [ref]), src)


def _keyed(findings):
    return sorted((f.line, f.code, f.message) for f in findings)


@pytest.mark.parametrize("with_source", [False, True])
def test_held_ranks_move_only_the_edited_line_then_catch_up(with_source):
    n = 600 if with_source else 3000
    hyp, ref, src = _pair(n)
    src = src if with_source else None
    settings = Settings()
    model = PairModel(build_metrics(settings), list(hyp), [ref])
    a = Analyzer(settings)
    before = _keyed(a.analyse(model, src))
    assert any(code in RANKED for _l, code, _m in before)
    line = next(ln for ln, code, _m in before if code in RANKED)  # a ranked line, edited
    words = hyp[line].split()
    a.hold_ranks = True
    for j in range(6):
        text = " ".join(words[: max(1, len(words) - j)] + [f"neu{j}"])
        model.splice_hyp(line, line + 1, [text])
        now = _keyed(a.analyse(model, src))
        assert a.changed is not None  # an incremental pass
        others = [x for x in now if x[0] != line]
        assert others == [x for x in before if x[0] != line]  # nothing else moved
        assert not [x for x in now if x[0] == line and x[1] in RANKED]  # stale numbers gone
        assert a.held
    hyp2 = list(model.hyp)
    a.hold_ranks = False
    caught_up = _keyed(a.analyse(model, src))
    assert not a.held
    assert caught_up == _keyed(_fresh(settings, hyp2, ref, src))


def test_an_edit_that_moves_lines_lets_go_of_the_hold():
    hyp, ref, src = _pair(3000)
    settings = Settings()
    model = PairModel(build_metrics(settings), list(hyp), [ref])
    a = Analyzer(settings)
    a.analyse(model, None)
    a.hold_ranks = True
    model.splice_hyp(1500, 1501, ["ganz anders und viel kürzer"])
    a.analyse(model, None)
    assert a.held
    model.splice_hyp(10, 11, [])  # a line deleted: every later line pairs anew
    got = _keyed(a.analyse(model, None))
    assert not a.held
    assert got == _keyed(_fresh(settings, model.hyp, ref, None))
