"""Lines over the ``maxLineBytes`` cap are not read by the text checks
(qa/analysis/text_rules.py): the findings with the cap are those without it,
less the text checks' findings on the lines over the cap (differential:
the same analyser run without a cap)."""

from __future__ import annotations

import pytest

from bleu_ls.qa.analysis import Analyzer, analyse
from bleu_ls.qa.analysis.text_rules import over_cap
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

TEXT_CODES = {"empty-hypothesis", "repetition", "untranslated", "number-mismatch", "markup-mismatch",
              "unbalanced", "end-punctuation", "wrong-language"}
CAP = 300
LOOP = "the cat " * 60  # 480 bytes: over the cap
SOURCE_LONG = "Die Katze " + "sitzt auf der Matte und schläft, " * 12 + "12 Äpfel."


def settings(cap: int) -> Settings:
    on = {"enabled": True}
    diags = {k: on for k in ("repetition", "untranslated", "numberMismatch", "markupMismatch", "endPunctuation",
                             "emptyHypothesis", "lowScore")}
    diags.update({k: {"enabled": False} for k in ("outlier", "misaligned", "adequacy", "wrongLanguage", "lengthRatio")})
    return Settings.from_dict({"maxLineBytes": cap, "diagnostics": diags})


def pair():
    hyp = [
        "sehr sehr sehr sehr sehr gut",          # a loop under the cap
        LOOP.strip(),                             # a loop over the cap
        SOURCE_LONG,                              # untranslated, over the cap
        "the cat sat on the mat 13 <b>times",     # numbers and markup under the cap
        "the cat sat on the mat " * 15 + "13",    # a number mismatch over the cap
        "",                                       # empty
        "a short line",                           # its reference is over the cap
    ]
    refs = [["sehr gut", "the cat", "The cat sleeps on the mat, 12 apples.", "the cat sat on the mat 12 times",
             "the cat sat on the mat 12", "something", "a short line " + "x" * CAP]]
    src = ["sehr gut", "die Katze", SOURCE_LONG, "die Katze 12 Mal", "die Katze 12", "etwas", "eine kurze Zeile"]
    return hyp, refs, src


def findings(cap: int, hyp, refs, src):
    s = settings(cap)
    return analyse(PairModel(build_metrics(s), hyp, refs), s, src)


def key(f):
    return (f.line, f.code, f.message, f.start_col, f.end_col)


def test_lines_over_the_cap_lose_only_the_text_checks_findings():
    hyp, refs, src = pair()
    long = {i for i in range(len(hyp)) if over_cap(hyp[i], CAP) or any(over_cap(r[i], CAP) for r in refs)
            or over_cap(src[i], CAP)}
    assert long == {1, 2, 4, 6}
    free = findings(0, hyp, refs, src)
    capped = findings(CAP, hyp, refs, src)
    # without the cap the long lines have text findings (else this test shows nothing)
    assert {(f.line, f.code) for f in free if f.line in long and f.code in TEXT_CODES} >= {
        (1, "repetition"), (2, "untranslated"), (4, "number-mismatch")}
    want = [key(f) for f in free if not (f.line in long and f.code in TEXT_CODES)]
    assert [key(f) for f in capped] == want
    assert {(0, "repetition"), (3, "number-mismatch"), (5, "empty-hypothesis")} <= {(f.line, f.code) for f in capped}


def test_an_edit_across_the_cap_equals_a_fresh_analysis():
    hyp, refs, src = pair()
    s = settings(CAP)
    model = PairModel(build_metrics(s), hyp, refs)
    analyzer = Analyzer(s)
    analyzer.analyse(model, src)
    for i, text in ((0, LOOP.strip()), (1, "the cat the cat the cat the cat"), (2, "die Katze")):
        hyp[i] = text
        model.splice_hyp(i, i + 1, [text])
        got = [key(f) for f in analyzer.analyse(model, src)]
        assert got == [key(f) for f in findings(CAP, hyp, refs, src)]


@pytest.mark.parametrize("text,cap,over", [("a" * 300, 300, False), ("a" * 301, 300, True), ("ä" * 151, 300, True),
                                           ("ä" * 150, 300, False), ("x" * 10**6, 0, False)])
def test_over_cap_counts_utf8_bytes(text, cap, over):
    assert over_cap(text, cap) is over
