"""The first pass's shortcuts change no finding.

The source checks skip lines without a digit (numbers) or without a bracket
or double quote (unbalanced) by a C-speed search, remember the numbers of a
text, and the shifted-stretch comparison visits only the words two lines
share.  Here each shortcut is switched off (the search that always matches,
the caches emptied, the plain overlap formula) and every finding, on every
system of the shared data with its source and on crafted lines, must be the
same with and without them.
"""

import re
from collections import Counter

import pytest

from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.text import alignment, numbers, punctuation
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

from .adequacy.test_language_alignment_qe import DATA, needs_data

CRAFTED_SOURCE = [
    "It costs 1,500 dollars (about 1.400 euros).",
    "Call me at 10 or at 11:30.",
    "He said \u201chello\u201d [twice].",
    "Click {0} to open <b>3 files</b> at https://example.org/p2.",
    "\u4ef7\u683c\u662f\u0031\u0032\u0033\u5143\u3002",
    "\u0627\u0644\u0633\u0639\u0631 \u0661\u0662\u0663 \u062f\u0648\u0644\u0627\u0631.",
    "No digits and no brackets here.",
    "Ten times (10x) more.",
    "\u300c\u5f15\u7528\u300d\u3068\u8a00\u3063\u305f\u3002",
    "The year 2024 ended.",
]
CRAFTED_HYP = [
    "Es kostet 1.500 Dollar (etwa 1,400 Euro.",
    "Ruf mich um 10 oder um 11.30 an.",
    "Er sagte \u201eHallo\u201c [zweimal.",
    "Klicken Sie auf {0}, um <b>3 Dateien</b> zu \u00f6ffnen: https://example.org/p2.",
    "\u4ef7\u683c\u662f\u0031\u0032\u0034\u5143\u3002",
    "\u0627\u0644\u0633\u0639\u0631 \u0661\u0662\u0663 \u062f\u0648\u0644\u0627\u0631.",
    "Keine Ziffern, keine Klammern.",
    "Zehnmal (10x) mehr.",
    "\u300c\u5f15\u7528\u3068\u8a00\u3063\u305f\u3002",
    "Das Jahr 2025 endete.",
]
CRAFTED_REF = list(CRAFTED_HYP)
CRAFTED_REF[4] = "\u4ef7\u683c\u662f\u0031\u0032\u0033\u5143\u3002"
CRAFTED_REF[9] = "Das Jahr 2024 endete."
CRAFTED_REF[0] = "Es kostet 1.500 Dollar (etwa 1.400 Euro)."
CRAFTED_REF[2] = "Er sagte \u201eHallo\u201c [zweimal]."
CRAFTED_REF[8] = "\u300c\u5f15\u7528\u300d\u3068\u8a00\u3063\u305f\u3002"


def _plain_overlap(a: Counter, total_a: int, b: Counter, total_b: int) -> float:
    """The overlap as first written: every word of the smaller bag visited."""
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    common = sum(min(v, b[k]) for k, v in a.items() if k in b)
    return 2.0 * common / (sum(a.values()) + sum(b.values()))


def _findings(hyp, ref, src):
    settings = Settings.from_dict({"diagnostics": {"endPunctuation": {"enabled": True}}})
    model = PairModel(build_metrics(settings), hyp, [ref])
    return [(f.line, f.code, f.message, f.start_col, f.end_col) for f in Analyzer(settings).analyse(model, src)]


def _without_shortcuts(monkeypatch):
    always = re.compile("")
    monkeypatch.setattr(numbers, "_DIGIT_RE", always)
    monkeypatch.setattr(punctuation, "_BRACKET_RE", always)
    monkeypatch.setattr(numbers, "_numbers", numbers._numbers.__wrapped__)
    monkeypatch.setattr(numbers, "readings", numbers.readings.__wrapped__)
    monkeypatch.setattr(alignment, "_overlap", _plain_overlap)


def _documents():
    docs = [("crafted", CRAFTED_HYP, CRAFTED_REF, CRAFTED_SOURCE)]
    if (DATA / "src.txt").is_file():
        src = (DATA / "src.txt").read_text(encoding="utf-8").splitlines()
        ref = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
        for path in sorted(DATA.glob("*.hyp")):
            docs.append((path.name, path.read_text(encoding="utf-8").splitlines(), ref, src))
    return docs


def test_shortcuts_change_no_finding(monkeypatch):
    fast = {name: _findings(h, r, s) for name, h, r, s in _documents()}
    assert any(code == "number-mismatch" for _l, code, *_ in fast["crafted"])
    assert any(code == "unbalanced" for _l, code, *_ in fast["crafted"])
    _without_shortcuts(monkeypatch)
    for name, h, r, s in _documents():
        assert _findings(h, r, s) == fast[name], name


@needs_data
def test_the_shared_data_has_findings_to_compare():
    docs = _documents()
    assert len(docs) == 14
    assert sum(len(_findings(h, r, s)) for _n, h, r, s in docs[1:4]) > 0


@pytest.mark.parametrize("text", [*CRAFTED_SOURCE, *CRAFTED_HYP, "", "   ", "1.000,5 and 1,000.5", "\u0967\u0968\u0969",
                                  "有些冰超过十万年。", "140亿年过去了", "14 billion years, 2 Millionen"])
def test_number_and_bracket_shortcuts_agree_with_the_full_scan(text):
    full = list(numbers._numbers.__wrapped__(text))  # the scan without the digit search or the cache
    assert numbers.find_numbers(text) == full
    if numbers._DIGIT_RE.search(text) is None and numbers._CJK_DIGIT_RE.search(text) is None:
        assert full == []
    has_bracket = any(ch in text for pair in punctuation._PAIRS for ch in pair) or any(q in text for q in punctuation._QUOTES)
    assert (punctuation._BRACKET_RE.search(text) is not None) == has_bracket
