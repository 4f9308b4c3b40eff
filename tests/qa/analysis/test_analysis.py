"""Diagnostics rules: each code on crafted lines, switches, the outlier rule,
the cache against a fresh recomputation, and the outlier default on real MQM data."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from bleu_ls.qa.analysis import (
    Analyzer,
    Finding,
    analyse,
    at_or_above,
    find_repetition,
    outlier_mask,
    tandem_runs,
    unpaired_findings,
)
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

REPO = Path(__file__).resolve().parents[3]
MQM = REPO / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"

GOOD = "the cat sat on the mat in the sun"


def S(**diag) -> Settings:
    """Settings with only the named diagnostics on (others off)."""
    base = {
        k: {"enabled": False}
        for k in (
            "lowScore",
            "outlier",
            "emptyHypothesis",
            "untranslated",
            "lengthRatio",
            "repetition",
            "doubledWord",
            "lineCountMismatch",
            "unpaired",
        )
    }
    for k, v in diag.items():
        base[k] = {"enabled": True, **v}
    return Settings.from_dict({"diagnostics": base})


def run(settings: Settings, hyp, refs, source=None, names=None):
    model = PairModel(build_metrics(settings), hyp, refs)
    return analyse(model, settings, source, names)


def codes(findings):
    return [(f.line, f.code) for f in findings]


# -- low-score ----------------------------------------------------------------
def test_low_score_against_sacrebleu():
    s = S(lowScore={"bleuThreshold": 30})
    hyp = [GOOD, "a dog ran far away", "the cat sat on a mat in the sun"]
    ref = [GOOD, "the cat sat on the mat in the sun today", GOOD]
    out = run(s, hyp, [ref])
    expected = [i for i, (h, r) in enumerate(zip(hyp, ref)) if sacrebleu.sentence_bleu(h, [r]).score < 30]
    assert [f.line for f in out] == expected and expected
    f = out[0]
    score = sacrebleu.sentence_bleu(hyp[f.line], [ref[f.line]]).score
    assert f.message == f"BLEU {score:.1f} is under the threshold 30."
    assert f.data["bleu"] == score
    assert f.severity == "hint"  # quiet by default (docs/diagnostics.md)


def test_low_score_chrf_and_empty_lines_skipped():
    s = S(lowScore={"bleuThreshold": 0, "chrfThreshold": 50}, emptyHypothesis={})
    s.chrf.enabled = True
    hyp = ["xyz qqq", "", GOOD]
    ref = [GOOD, GOOD, GOOD]
    out = run(s, hyp, [ref])
    assert codes(out) == [(0, "low-score"), (1, "empty-hypothesis")]
    chrf = sacrebleu.sentence_chrf(hyp[0], [ref[0]]).score
    assert out[0].message == f"chrF2 {chrf:.1f} is under the threshold 50."


# -- empty-hypothesis ---------------------------------------------------------
def test_empty_hypothesis():
    s = S(emptyHypothesis={})
    out = run(s, ["", "   ", "", GOOD], [[GOOD, GOOD, "", GOOD]])
    assert codes(out) == [(0, "empty-hypothesis"), (1, "empty-hypothesis")]
    assert out[0].severity == "error"


# -- untranslated ---------------------------------------------------------------
def test_untranslated():
    s = S(untranslated={})
    src = ["The cat sat on the mat.", "Google", "1234", "the  CAT sat on the mat.", "Hallo"]
    hyp = ["The cat sat on the mat.", "Google", "1234", "The cat sat on the mat.", "Hallo"]
    ref = ["Die Katze saß auf der Matte.", "Google", "1234", "Die Katze saß auf der Matte.", "Hallo"]
    out = run(s, hyp, [ref], source=src)
    # line 1: the reference keeps the name too; line 2: no letters; line 4: reference == source
    assert codes(out) == [(0, "untranslated"), (3, "untranslated")]
    assert run(s, hyp, [ref], source=None) == []


# -- length-ratio -------------------------------------------------------------
def test_length_ratio():
    s = S(lengthRatio={"minRatio": 0.5, "maxRatio": 2.0, "minTokens": 3})
    hyp = ["the cat", "a b c d e f g h i j", "one two", "x y"]
    ref = ["the cat sat on the mat", "a b c d", "one two three", "x"]
    out = run(s, hyp, [ref])
    assert codes(out) == [(0, "length-ratio"), (1, "length-ratio")]
    assert "2 tokens and its reference 6" in out[0].message and "leaves something out" in out[0].message
    assert "10 tokens and its reference 4" in out[1].message and "adds something" in out[1].message


def test_length_ratio_uses_closest_reference():
    s = S(lengthRatio={})
    out = run(s, ["a b"], [["a b c d e f g h"], ["a b c"]])
    assert out == []


def test_length_ratio_without_bleu_counts_tokens():
    s = S(lengthRatio={})
    s.bleu.enabled = False
    s.chrf.enabled = True
    out = run(s, ["the cat", "the cat sat"], [["the cat sat on the mat", "the cat sat"]])
    assert codes(out) == [(0, "length-ratio")]


# -- repetition ---------------------------------------------------------------
def test_tandem_runs():
    assert tandem_runs("a b a b a b c".split(), 4) == {("a", "b"): 3, ("b", "a"): 2}
    assert tandem_runs("x x x x".split(), 4) == {("x",): 4}
    assert tandem_runs("a b c a b c".split(), 2) == {}


def test_repetition():
    s = S(repetition={})
    hyp = [
        "thank you thank you thank you thank you",
        "the man and the woman and the child",  # spread out: not looping
        "very very very good",
        ", , , ,",
    ]
    ref = ["thank you very much", "der Mann", "very very very good", "x"]
    out = run(s, hyp, [ref])
    assert codes(out) == [(0, "repetition")]
    f = out[0]
    assert f.data == {"phrase": "thank you", "count": 4, "referenceCount": 1}
    assert (f.start_col, f.end_col) == (0, len(hyp[0]))
    assert "4 times in a row" in f.message


def test_repetition_verdict_follows_the_reference_across_passes():
    """One analyser over edits: the repetition verdict is remembered per
    (line, reference) and changes when the reference line does."""
    s = S(repetition={})
    hyp = ["thank you thank you thank you thank you", GOOD]
    model = PairModel(build_metrics(s), hyp, [["thank you very much", GOOD]])
    a = Analyzer(s)
    assert codes(a.analyse(model)) == [(0, "repetition")]
    model.splice_ref(0, 0, 1, ["thank you thank you thank you thank you"])
    assert codes(a.analyse(model)) == []
    model.splice_ref(0, 0, 1, ["thank you very much"])
    assert codes(a.analyse(model)) == [(0, "repetition")]
    model.splice_hyp(1, 2, ["very very very very very good"])
    assert codes(a.analyse(model)) == [(0, "repetition"), (1, "repetition")]


def test_repetition_factor():
    assert find_repetition("a a a b".split(), [["a", "a", "x"]], 4, 3, 2.0) is None
    assert find_repetition("a a a a b".split(), [["a", "a", "x"]], 4, 3, 2.0) == (("a",), 4, 2)


# -- line-count-mismatch ------------------------------------------------------
def test_line_count_mismatch():
    s = S(lineCountMismatch={})
    names = {"hypothesis": "x.hyp", "references": ["x.ref"]}
    out = run(s, [GOOD] * 5, [[GOOD] * 3], names=names)
    assert codes(out) == [(3, "line-count-mismatch")]
    assert "x.hyp has 5 lines but x.ref has 3" in out[0].message
    out = run(s, [GOOD] * 3, [[GOOD] * 5], names=names)
    assert codes(out) == [(2, "line-count-mismatch")] and "last 2 reference lines" in out[0].message
    assert run(s, [GOOD] * 3, [[GOOD] * 3]) == []


# -- unpaired -----------------------------------------------------------------
def test_unpaired():
    out = unpaired_findings("talk.hyp.de", Settings())
    assert len(out) == 1 and out[0].code == "unpaired" and out[0].line == 0
    assert "talk.ref.de" in out[0].message and "bleu-ls.toml" in out[0].message
    assert out[0].severity == "information"
    assert unpaired_findings("talk.hyp", S()) == []


# -- switches -----------------------------------------------------------------
def test_switches_and_severity():
    hyp = ["", "x y z", GOOD]
    ref = [GOOD, GOOD, GOOD]
    assert "low-score" not in {f.code for f in run(Settings(), hyp, [ref])}  # off by default: the hint shows the score
    on = Settings.from_dict({"diagnostics": {"lowScore": {"enabled": True}}})
    got = {f.code for f in run(on, hyp, [ref])}
    assert {"empty-hypothesis", "low-score"} <= got
    off = Settings.from_dict({"diagnostics": {"enabled": False}})
    assert run(off, hyp, [ref]) == []
    one_off = Settings.from_dict({"diagnostics": {"lowScore": {"enabled": False}}})
    assert "low-score" not in {f.code for f in run(one_off, hyp, [ref])}
    sev = Settings.from_dict({"diagnostics": {"lowScore": {"enabled": True, "severity": "hint"}}})
    assert {f.severity for f in run(sev, hyp, [ref]) if f.code == "low-score"} == {"hint"}


def test_at_or_above():
    assert at_or_above("error", "warning") and at_or_above("warning", "warning")
    assert not at_or_above("information", "warning") and not at_or_above("error", "never")


# -- outlier rule -------------------------------------------------------------
def test_outlier_bottom_percent():
    x = np.arange(100, dtype=float)
    assert np.flatnonzero(outlier_mask(x, "bottom-percent", 5)).tolist() == [0, 1, 2, 3, 4]
    x[7] = np.nan
    assert not outlier_mask(x, "bottom-percent", 5)[7]
    assert not outlier_mask(np.full(50, 40.0), "bottom-percent", 5).any()


def test_outlier_robust_z():
    rng = np.random.default_rng(0)
    x = rng.normal(50, 5, 1000)
    x[[3, 10]] = [5.0, 10.0]
    x[20] = 95.0  # high side: never an outlier
    flagged = set(np.flatnonzero(outlier_mask(x, "robust-z", 2.5)).tolist())
    assert {3, 10} <= flagged and 20 not in flagged
    # about the normal tail share: P(z < -2.5) = 0.6%
    assert len(flagged) < 20


def test_outlier_below_median():
    x = np.array([50.0] * 20 + [10.0, 35.0])
    assert np.flatnonzero(outlier_mask(x, "below-median", 20)).tolist() == [20]


def test_outlier_finding_min_lines_and_tokens():
    s = S(outlier={"rule": "bottom-percent", "value": 10, "minLines": 20, "minTokens": 3})
    hyp = [GOOD] * 18 + ["a dog", "dog barks loudly at night"]
    ref = [GOOD] * 18 + ["a cat", "the cat sat on the mat"]
    out = run(s, hyp, [ref])
    # line 18's reference is 2 tokens: not ranked; line 19 is the weakest ranked line
    assert codes(out) == [(19, "outlier")]
    assert "weakest 10%" in out[0].message
    assert run(s, hyp[:10], [ref[:10]]) == []  # under minLines


# -- the cache ----------------------------------------------------------------
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "thank", "you", "Haus", ""]
line_st = st.lists(st.sampled_from(WORDS), max_size=9).map(lambda ws: " ".join(ws))


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hyp=st.lists(line_st, min_size=0, max_size=30),
    ref=st.lists(line_st, min_size=0, max_size=30),
    src=st.lists(line_st, min_size=0, max_size=30),
    edits=st.lists(
        st.tuples(st.sampled_from(["hyp", "ref"]), st.integers(0, 40), st.integers(0, 3), st.lists(line_st, max_size=3)),
        max_size=8,
    ),
    chrf=st.booleans(),
)
def test_cached_analysis_equals_fresh(hyp, ref, src, edits, chrf):
    s = Settings.from_dict(
        {
            "chrf": {"enabled": chrf},
            "diagnostics": {"outlier": {"minLines": 3}, "repetition": {"minCount": 2}, "lowScore": {"enabled": True}},
        }
    )
    model = PairModel(build_metrics(s), hyp, [ref])
    a = Analyzer(s)
    names = {"hypothesis": "h", "references": ["r"]}
    assert a.analyse(model, src, names) == analyse(model, s, src, names)
    for target, start, length, lines in edits:
        if target == "hyp":
            start = min(start, model.n_hyp)
            model.splice_hyp(start, min(start + length, model.n_hyp), lines)
        else:
            start = min(start, len(model.refs[0]))
            model.splice_ref(0, start, min(start + length, len(model.refs[0])), lines)
        assert a.analyse(model, src, names) == analyse(model, s, src, names)


def test_settings_change_invalidates_cache():
    s = Settings.from_dict({"diagnostics": {"lowScore": {"enabled": True}}})
    model = PairModel(build_metrics(s), ["x y", GOOD], [[GOOD, GOOD]])
    a = Analyzer(s)
    assert {f.severity for f in a.analyse(model) if f.code == "low-score"} == {"hint"}
    a.set_settings(Settings.from_dict({"diagnostics": {"lowScore": {"enabled": True, "severity": "error"}}}))
    assert {f.severity for f in a.analyse(model) if f.code == "low-score"} == {"error"}


def test_finding_defaults():
    f = Finding("low-score", "warning", "m", line=3)
    assert f.start_col == 0 and f.end_col is None and f.data == {}


# -- real data ----------------------------------------------------------------
@pytest.mark.skipif(not (MQM / "ref.txt").is_file(), reason=f"WMT21 TED MQM data not found at {MQM}")
def test_outlier_default_finds_major_errors_on_real_data():
    sys.path.insert(0, str(REPO / "scripts"))
    import outlier_study

    from bleu_ls.qa.analysis import outlier_select
    from bleu_ls.config.settings import OutlierSettings

    systems = outlier_study.load_systems(MQM)
    default = OutlierSettings()
    r = outlier_study.evaluate(lambda b, f, rl: outlier_select(b if default.metric == "bleu" else f, rl, default), systems)
    assert 0.02 <= r["share"] <= 0.10
    assert r["lift"] > 1.0, r


# -- cost ---------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not (MQM / "ref.txt").is_file(), reason=f"WMT21 TED MQM data not found at {MQM}")
def test_reanalysis_of_100k_lines_costs_lookups_only():
    """Re-analysing 100,000 lines after a one-line edit: CPU time well under a second
    (about 50 ms measured); run with -s to see the figures."""
    import time

    from bleu_ls.engine import read_lines

    ref = read_lines(str(MQM / "ref.txt"))
    src = read_lines(str(MQM / "src.txt"))
    hyps = [read_lines(str(MQM / f"{s}.hyp")) for s in ("Nemo", "UEdin", "Online-W", "HuaweiTSC")]
    n = 100_000
    tag = [("" if i // 529 < 4 else f" {i // 529}") for i in range(n)]
    hyp = [hyps[(i // 529) % 4][i % 529] + tag[i] for i in range(n)]
    refs = [ref[i % 529] + tag[i] for i in range(n)]
    source = [src[i % 529] for i in range(n)]
    # adequacy off: its values come from the server's worker process, off this
    # pass (scripts/qe_loop_cost.py measures it); encoding 100k lines here would take minutes
    s = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": False}}})
    metrics = build_metrics(s)
    model = PairModel.from_lines(metrics, hyp, [refs]) if hasattr(PairModel, "from_lines") else PairModel(metrics, hyp, [refs])
    a = Analyzer(s)
    t0 = time.process_time()
    first = a.analyse(model, source)
    t_first = time.process_time() - t0
    t0 = time.process_time()
    again = a.analyse(model, source)
    t_again = time.process_time() - t0
    model.splice_hyp(500, 501, [hyp[500] + " thank you thank you thank you"])
    t0 = time.process_time()
    edited = a.analyse(model, source)
    t_edit = time.process_time() - t0
    print(
        f"\n100k lines, {len(first)} findings: first pass {t_first:.2f}s, unchanged {t_again * 1000:.0f}ms, "
        f"after a one-line edit {t_edit * 1000:.0f}ms (CPU)"
    )
    assert again == first
    assert edited == analyse(model, s, source)
    assert any(f.line == 500 and f.code == "repetition" for f in edited)
    # timings are printed, not asserted (shared machines); the counts above are the test
    print(f"re-analysis {t_again:.3f} s, after an edit {t_edit:.3f} s")


# -- the rule table and the memo by line text --------------------------------------
def test_every_code_but_unpaired_has_one_row_in_the_rule_table():
    from bleu_ls.qa.analysis import CODES, RULES

    codes = [r.code for r in RULES]
    assert sorted(codes) == sorted(c for c in CODES if c != "unpaired")


def test_a_rule_added_to_the_table_runs_in_analyse(monkeypatch):
    from bleu_ls.qa.analysis import analyzer as analyzer_module
    from bleu_ls.qa.analysis import Rule

    def every_line(ctx, c):
        return [Finding("untranslated", c.severity, "row added", line=i) for i in range(ctx.n)]

    monkeypatch.setattr(analyzer_module, "RULES", (Rule("untranslated", every_line),))
    m = build_metrics(Settings())
    model = PairModel(m, ["a b", "c d"], [["a b", "x y"]])
    got = analyse(model, Settings())
    assert [(f.line, f.message) for f in got] == [(0, "row added"), (1, "row added")]


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 3), st.lists(st.sampled_from("abc"), max_size=3)), max_size=8))
@hsettings(max_examples=80, deadline=None)
def test_line_memo_after_splices_equals_computing_every_line(edits):
    from bleu_ls.qa.analysis.memo import LineMemo

    calls = []

    def fn(line):
        calls.append(line)
        return line.upper()

    memo = LineMemo(fn, limit=4)
    lines = [f"line {i}" for i in range(30)]
    assert memo.values(lines) == [x.upper() for x in lines]
    for start, width, new in edits:
        start = min(start, len(lines))
        lines = lines[:start] + [f"new {x}" for x in new] + lines[start + width :]
        calls.clear()
        assert memo.values(lines) == [x.upper() for x in lines]
        assert len(calls) <= len(new)  # only new texts are computed
        memo.trim(lines, len(lines))


def test_repetition_quotes_the_phrase_as_the_line_writes_it():
    """Compared case-folded, quoted as written: “Sprachkurse und”, not “sprachkurse und”."""
    from bleu_ls.engine import PairModel, build_metrics
    from bleu_ls.qa.analysis import Analyzer
    from bleu_ls.config.settings import Settings

    s = Settings()
    hyp = ["Sie bietet Sprachkurse und Sprachkurse und Sprachkurse und Sprachkurse an."]
    ref = ["Sie bietet sprachkurse und Workshops an."]
    model = PairModel(build_metrics(s), hyp, [ref])
    found = [f for f in Analyzer(s).analyse(model, None) if f.code == "repetition"]
    assert len(found) == 1
    assert "“Sprachkurse und”" in found[0].message
    assert found[0].data["phrase"] == "Sprachkurse und"


# -- incremental analysis against from-scratch ------------------------------------
INC_WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "thank", "you", "Haus", "3", "4.5", "(", ")", "<b>", "</b>",
             "der", "Hund", "ist", "nicht", "hier", "."]
inc_line = st.lists(st.sampled_from(INC_WORDS), max_size=10).map(" ".join)
inc_loop = st.tuples(st.sampled_from(INC_WORDS[:10]), st.integers(3, 5)).map(lambda t: " ".join([t[0]] * t[1]))
inc_text = st.one_of(inc_line, inc_line, inc_loop)
inc_settings = st.fixed_dictionaries(
    {
        "chrf": st.booleans(),
        "rule": st.sampled_from(["bottom-percent", "robust-z", "below-median"]),
        "value": st.sampled_from([1.0, 10.0, 30.0]),
        "metric": st.sampled_from(["bleu", "chrf"]),
        "min_tokens": st.sampled_from([0, 3]),
        "misaligned": st.booleans(),
        "low": st.sampled_from([10.0, 40.0]),
        "language": st.booleans(),
    }
)


def _inc_settings(p: dict) -> Settings:
    return Settings.from_dict(
        {
            "chrf": {"enabled": p["chrf"]},
            "diagnostics": {
                "outlier": {"minLines": 3, "rule": p["rule"], "value": p["value"], "metric": p["metric"],
                            "minTokens": p["min_tokens"]},
                "repetition": {"minCount": 3},
                "lowScore": {"bleuThreshold": p["low"]},
                "misaligned": {"enabled": p["misaligned"], "minRun": 2},
                "endPunctuation": {"enabled": True},
                "wrongLanguage": {"enabled": p["language"], "minLetters": 6},
            },
        }
    )


inc_step = st.one_of(
    st.tuples(st.just("hyp"), st.integers(0, 40), st.integers(0, 2), st.lists(inc_text, max_size=3)),
    st.tuples(st.just("hyp1"), st.integers(0, 40), st.just(1), inc_text.map(lambda x: [x])),  # in place
    st.tuples(st.just("ref"), st.integers(0, 40), st.integers(0, 2), st.lists(inc_text, max_size=3)),
    st.tuples(st.just("src"), st.integers(0, 40), st.integers(0, 2), st.lists(inc_text, max_size=2)),
    st.tuples(st.just("settings"), inc_settings, st.just(0), st.just([])),
    st.tuples(st.just("source-off"), st.just(0), st.just(0), st.just([])),
)


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    hyp=st.lists(inc_text, min_size=0, max_size=40),
    ref=st.lists(inc_text, min_size=0, max_size=40),
    src=st.one_of(st.none(), st.lists(inc_text, min_size=0, max_size=40)),
    first=inc_settings,
    steps=st.lists(inc_step, max_size=12),
    share=st.sampled_from([None, 2.0]),
)
def test_incremental_analysis_equals_from_scratch(hyp, ref, src, first, steps, share):
    """After every step of a random edit script (in-place edits, inserted
    and deleted lines, reference and source edits, settings switched, the
    source dropped) the analyser kept across passes gives exactly the
    findings of a fresh ``analyse()`` — line, code, severity, message,
    columns, data — and every line whose findings differ from the previous
    pass's is among the lines it says it changed (what the server re-encodes).
    ``share`` 2.0: no pass falls back to a full one for touching many lines."""
    from bleu_ls.qa.analysis import analyzer as analyzer_module

    saved = analyzer_module.FULL_SHARE
    analyzer_module.FULL_SHARE = share or saved
    try:
        _incremental_script(hyp, ref, src, first, steps)
    finally:
        analyzer_module.FULL_SHARE = saved


def _incremental_script(hyp, ref, src, first, steps):
    s = _inc_settings(first)
    model = PairModel(build_metrics(s), hyp, [ref])
    a = Analyzer(s)
    names = {"hypothesis": "h", "references": ["r"]}
    source = src

    def by_line(findings):
        out: dict = {}
        for f in findings:
            out.setdefault(f.line, []).append(f)
        return out

    previous = by_line(a.analyse(model, source, names))
    assert a.changed is None
    for kind, at, width, lines in steps:
        if kind in ("hyp", "hyp1"):
            at = min(at, model.n_hyp)
            model.splice_hyp(at, min(at + width, model.n_hyp), lines)
        elif kind == "ref":
            at = min(at, len(model.refs[0]))
            model.splice_ref(0, at, min(at + width, len(model.refs[0])), lines)
        elif kind == "src":
            source = list(source or [])
            at = min(at, len(source))
            source[at : at + width] = lines
        elif kind == "settings":
            s = _inc_settings(at)
            a.set_settings(s)
            model.set_metrics(build_metrics(s))
        else:
            source = None
        got = a.analyse(model, source, names)
        assert got == analyse(model, s, source, names)
        now = by_line(got)
        if a.changed is not None:
            moved = {i for i in set(now) | set(previous) if now.get(i) != previous.get(i)}
            assert moved <= a.changed
        previous = now


def test_one_line_edit_changes_only_that_line_among_10k():
    """A one-line in-place edit in a 10,000-line document: the pass reports
    only lines near the edit as changed, and the findings equal a fresh pass."""
    s = Settings.from_dict({"diagnostics": {"wrongLanguage": {"enabled": False}}})
    hyp = [f"{GOOD} {i % 7}" if i % 5 else f"a dog {i}" for i in range(10_000)]
    ref = [f"{GOOD} {i % 7}" for i in range(10_000)]
    model = PairModel(build_metrics(s), hyp, [ref])
    a = Analyzer(s)
    a.analyse(model, None)
    model.splice_hyp(5_000, 5_001, ["thank you thank you thank you thank you"])
    got = a.analyse(model, None)
    assert got == analyse(model, s, None)
    assert a.changed is not None and 5_000 in a.changed
    assert all(f.line == 5_000 for f in got if f.code == "repetition")
    assert len(a.changed) < 100  # the outlier median may move: then every outlier line is in it
