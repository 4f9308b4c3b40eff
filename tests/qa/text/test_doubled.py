"""doubled-word: the pure check (qa/text/doubled.py), the rule over a document
(qa/analysis/text_rules.py) and ``bleu-ls check`` on a PO file."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import polib
import pytest

from bleu_ls.cli.check import main as check_main
from bleu_ls.config.settings import Settings
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.analysis.unreferenced import Unreferenced
from bleu_ls.qa.text.doubled import ALLOWED, ALLOWED_ANY, allowed_for, check_doubled, doubles, pairs

FORMATS = Path(__file__).resolve().parents[2] / "data" / "formats"
RU = FORMATS / "po" / "allauth-ru-2025-03-27.po"


# -- the pure check -------------------------------------------------------------
@pytest.mark.parametrize("line, word, removed", [
    ("the the cat", "the", " the"),
    ("Das ist ist gut", "ist", " ist"),
    ("The the cat", "the", " the"),  # case-folded
    ("the <b>the</b> cat", "the", "the"),  # a tag between: the word alone (no space just before it) …
    ("see the <b>the </b>cat", "the", "the "),  # … or with the space just after it
    ("l'homme l'homme", "l'homme", " l'homme"),
    ("case  case", "case", "  case"),
    ("если вы вы забыли", "вы", " вы"),
    ("저는 저는 학생입니다", "저는", " 저는"),  # Korean writes spaces: checked
])
def test_a_doubled_word_and_what_a_fix_removes(line, word, removed):
    f = check_doubled(line, None, frozenset())
    assert f is not None and f.code == "doubled-word"
    a, b = f.data["remove"]
    assert (f.start_col, f.end_col) == (a, b)
    assert line[a:b] == removed
    assert f.data["word"].casefold() == word
    fixed = line[:a] + line[b:]
    assert not doubles(fixed)


@pytest.mark.parametrize("line", [
    "the<b>the</b>",  # no space: one word on the screen
    "{0} {0}", "%s %s", "%(name)s %(name)s",  # placeholders are not words
    "1 1", "10 10 points",  # numbers are not words
    "yes, yes", "the {0} the", "the. The",  # something between
    "谢谢 谢谢", "谢谢", "人々", "ありがとう ありがとう", "ค่อยๆ", "ดี ดี",  # scripts without spaces
    "see https://example.com/the the end",  # a URL's words are not words
    "thethe", "the other",
    "very very very good",  # three in a row: the repetition check's
])
def test_not_a_doubled_word(line):
    assert check_doubled(line, None, frozenset()) is None


def test_three_in_a_row_is_left_to_repetition_but_two_elsewhere_in_the_line_count():
    assert pairs("a a a b") == ()
    assert [d[0] for d in pairs("the the cat sat sat sat on the the mat")] == ["the", "the"]


def test_allowed_doubles_per_language():
    assert check_doubled("Kinder, die die Schule abbrechen", None, allowed_for("de")) is None
    assert check_doubled("Kinder, die die Schule abbrechen", None, allowed_for("ru")) is not None
    assert check_doubled("I know that that is true", None, allowed_for("en-GB")) is None
    assert check_doubled("nous nous levons", None, allowed_for("fr_FR")) is None
    assert check_doubled("nous nous levons", None, allowed_for("de")) is not None
    # no language known: every list's doubles are allowed
    assert allowed_for(None) == allowed_for("") == ALLOWED_ANY == frozenset().union(*ALLOWED.values())
    assert check_doubled("nous nous levons", None) is None
    assert check_doubled("Das ist ist gut", None) is not None


def test_a_double_the_source_or_a_reference_has_is_not_flagged():
    assert check_doubled("Bora Bora ist schön", "Bora Bora is nice", frozenset()) is None
    assert check_doubled("Bora Bora ist schön", "Bora is nice", frozenset()) is not None
    assert check_doubled("very very good", None, frozenset(), ["sehr sehr gut", "very very good"]) is None


def test_a_capitalised_double_inside_a_sentence_is_a_name():
    for line in ("Hier sehen wir Ylang Ylang, den Bestandteil", "a trip to Walla Walla"):
        assert check_doubled(line, None, frozenset()) is None
    # at the start of a sentence, or in capitals: flagged
    for line in ("Danke Danke.", "Gut. Danke Danke.", "THE THE END", "The The cat", "see A A"):
        assert check_doubled(line, None, frozenset()) is not None, line


def test_the_ru_catalogue_against_a_plain_reading():
    """Every msgstr of a real catalogue (polib reads it) with a word written twice
    (a plain regular expression finds them) is flagged, and no other."""
    oracle = re.compile(r"(?<!\w)([^\W\d_]+)\s+\1(?!\w)", re.IGNORECASE)
    entries = [e for e in polib.pofile(str(RU)) if e.msgstr]
    want = {e.msgstr for e in entries if oracle.search(e.msgstr)}
    got = {e.msgstr for e in entries if check_doubled(e.msgstr, e.msgid, allowed_for("ru"))}
    assert got == want and len(want) == 2
    assert any("вы вы забыли" in t for t in got) and any("и и т.д." in t for t in got)


# -- the rule over a document -----------------------------------------------------
def _settings(**row) -> Settings:
    off = {k: {"enabled": False} for k in ("adequacy", "wrongLanguage", "untranslated", "repetition")}
    return Settings.from_dict({"diagnostics": {**off, "doubledWord": {"enabled": True, **row}}})


def _found(settings: Settings, hyp, source=None, refs=None, names=None, analyzer=None):
    metrics = build_metrics(settings)
    model = PairModel(metrics, hyp, refs) if refs else Unreferenced(metrics, hyp)
    return [(f.line, f.start_col, f.end_col, f.severity) for f in (analyzer or Analyzer(settings)).analyse(model, source, names)
            if f.code == "doubled-word"]


def test_the_rule_reports_the_second_word_with_its_severity_and_language():
    hyp = ["the the cat", "die die Schule", "fine", "Bora Bora"]
    s = _settings()
    # no language known: every list's doubles allowed
    assert _found(s, hyp) == [(0, 3, 7, "information"), (3, 4, 9, "information")]
    # the file declares its language: the German list only (die die is German)
    assert _found(s, hyp, names={"target_language": "en-US"}) == [(0, 3, 7, "information"), (1, 3, 7, "information"),
                                                                  (3, 4, 9, "information")]
    # the setting's language wins, and the source excuses Bora Bora
    assert _found(_settings(language="de", severity="warning"), hyp, source=["a", "b", "c", "Bora Bora"],
                  names={"target_language": "en"}) == [(0, 3, 7, "warning")]
    assert _found(_settings(enabled=False), hyp) == []


def test_the_rule_after_edits_equals_a_fresh_pass():
    s = _settings()
    a = Analyzer(s)
    hyp = ["one line", "the the cat", "fine"] * 50
    model = Unreferenced(build_metrics(s), hyp)
    first = [(f.line, f.code) for f in a.analyse(model) if f.code == "doubled-word"]
    assert first == [(i, "doubled-word") for i in range(1, 150, 3)]
    model.splice_hyp(1, 2, ["the cat"])
    model.splice_hyp(5, 6, ["fine fine"])
    model.splice_hyp(7, 7, ["a a", "b"])
    got = [(f.line, f.start_col, f.end_col) for f in a.analyse(model) if f.code == "doubled-word"]
    fresh = [(f.line, f.start_col, f.end_col) for f in Analyzer(s).analyse(Unreferenced(build_metrics(s), list(model.hyp)))
             if f.code == "doubled-word"]
    assert got == fresh and (1, 3, 7) not in got and (5, 4, 9) in got and (7, 1, 3) in got


# -- bleu-ls check on a PO file ------------------------------------------------------
PO = r'''msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Children who drop out of school"
msgstr "Kinder, die die Schule abbrechen"

msgid "This is our idea"
msgstr "Dies ist ist unsere Vorstellung"

msgid "Save the file"
msgstr ""
"Die Datei "
"speichern speichern"
'''


def test_check_on_a_po_file_names_the_second_word_where_it_is_in_the_file(tmp_path):
    path = tmp_path / "de.po"
    path.write_text(PO, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--no-config"], out=out, err=err)
    assert rc == 0, err.getvalue()  # information: not a failure at the default --fail-on warning
    [pair] = json.loads(out.getvalue())["pairs"]
    got = [d for d in pair["diagnostics"] if d["code"] == "doubled-word"]
    lines = PO.split("\n")
    # "die die" is an allowed German double (the header says Language: de)
    want = []
    for word in ("ist", "speichern"):
        k = next(i for i, ln in enumerate(lines) if f"{word} {word}" in ln)
        col = lines[k].index(f"{word} {word}") + len(word)
        want.append((k + 1, col + 1, col + 1 + len(word) + 1, "information"))
    assert [(d["line"], d["column"], d["endColumn"], d["severity"]) for d in got] == want
    assert got[0]["message"] == "\u201cist ist\u201d: the same word twice in a row."
    # data["remove"]: columns of the segment's target (the text a fix takes out)
    target = "Dies ist ist unsere Vorstellung"
    a = target.index("ist ist") + len("ist")
    assert got[0]["data"] == {"word": "ist", "first": "ist", "remove": [a, a + len(" ist")], "count": 1}
