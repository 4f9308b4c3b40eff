"""Numbers and markup checks on crafted lines (true and false positives)."""

import pytest

from bleu_ls.qa.text.markup import check_markup, find_markup
from bleu_ls.qa.text.numbers import check_numbers, find_numbers, readings


@pytest.mark.parametrize(
    "text, value",
    [("1,000.5", "1000.5"), ("1.000,5", "1000.5"), ("1\u00a0000", "1000"), ("3.14159", "3.14159"), ("12,5", "12.5"),
     ("1.000.000", "1000000"), ("\u0663\u0664", "34"), ("\uff11\uff12", "12"), ("1'234'567", "1234567")],
)
def test_number_readings(text, value):
    (found,) = find_numbers(text)
    assert found[0] == text and value in found[3]


def test_ambiguous_separator_reads_both_ways():
    assert readings("1.000") == {"1", "1000"}
    assert readings("1,5") == {"1.5"}


def test_locale_separators_are_the_same_number():
    assert check_numbers("It costs 1,000.5 dollars.", "Es kostet 1.000,5 Dollar.") is None
    assert check_numbers("It weighs 1.000,5 kg.", "It weighs 1,000.5 kg.") is None


def test_changed_number_is_flagged_with_its_columns():
    hyp = "Es kostet 1.400 Dollar."
    issue = check_numbers("It costs 1,500 dollars.", hyp, ["Es kostet 1.500 Dollar."])
    assert issue is not None and "1,500" in issue.message and "1.400" in issue.message
    assert hyp[issue.start : issue.end] == "1.400"


def test_missing_number_flagged_unless_the_reference_spells_it_out():
    assert check_numbers("I have 12 cats.", "Ich habe Katzen.", ["Ich habe 12 Katzen."]) is not None
    assert check_numbers("I have 12 cats.", "Ich habe zwölf Katzen.", ["Ich habe zwölf Katzen."]) is None


def test_added_number_forgiven_when_the_reference_has_it():
    assert check_numbers("in the eighties", "in den 80ern", ["in den 80er Jahren"]) is None
    issue = check_numbers("in the eighties", "in den 80ern", ["in den achtziger Jahren"])
    assert issue is not None and issue.data["added"] == ["80"]


def test_cjk_and_rtl_lines_with_numbers():
    assert check_numbers("It has 3 parts.", "它有3个部分。") is None
    assert check_numbers("It has 3 parts.", "它有4个部分。") is not None
    assert check_numbers("It has 34 parts.", "\u0644\u0647 \u0663\u0664 \u062c\u0632\u0621\u0627") is None
    assert check_numbers("", "\u05e9\u05dc\u05d5\u05dd") is None


@pytest.mark.parametrize(
    "text, kind, value",
    [("Hello {0}!", "placeholder", "{0}"), ("Hi {{name}}", "placeholder", "{{name}}"), ("x %s y", "placeholder", "%s"),
     ("x %1$d y", "placeholder", "%1$d"), ("x %(user)s", "placeholder", "%(user)s"), ("${home}", "placeholder", "${home}"),
     ("a <b>b</b>", "tag", "<b>"), ('<x id="1"/>', "tag", '<x id="1"/>'),
     ("see https://example.org/a?b=1.", "URL", "https://example.org/a?b=1"),
     ("mail a.b@example.org now", "e-mail address", "a.b@example.org")],
)
def test_markup_is_found(text, kind, value):
    assert (kind, value) in [(k, v) for k, v, _s, _e in find_markup(text)]


def test_percent_in_prose_is_not_a_placeholder():
    assert find_markup("100% sure, 50 % der Leute, %der") == []


def test_lost_and_added_markup():
    issue = check_markup("Hello {0}, you have <b>mail</b>.", "Hallo, Sie haben <b>Post</b>.")
    assert issue is not None and issue.data == {"lost": ["{0}"], "added": []}
    issue = check_markup("Hello {0}.", "Hallo {1}.")
    assert issue is not None and issue.data == {"lost": ["{0}"], "added": ["{1}"]}
    hyp = "Hallo <i>x</i>."
    issue = check_markup("Hello x.", hyp)
    assert issue is not None and issue.start == hyp.index("<i>")


def test_markup_kept_or_dropped_like_the_reference_is_fine():
    assert check_markup("Hello {0}, see <b>this</b>.", "Hallo {0}, siehe <b>das</b>.") is None
    assert check_markup("Hello <b>x</b>.", "Hallo x.", ["Hallo x."]) is None
    assert check_markup("Hello <b>x</b>.", "Hallo x.", ["Hallo <b>x</b>."]) is not None


def test_markup_in_cjk_and_rtl_lines():
    assert check_markup("Click {0} now", "\u0627\u0646\u0642\u0631 {0} \u0627\u0644\u0622\u0646") is None
    assert check_markup("Click <b>here</b>", "\u70b9\u51fb\u8fd9\u91cc") is not None


def test_number_spelled_out_in_the_line_is_fine():
    src = "anything from twice as common to 10 times as common"
    assert check_numbers(src, "von doppelt so häufig bis zehnmal so häufig", [src.replace("10", "10")]) is None
    assert check_numbers("almost 10 years ago", "vor fast zehn Jahren", ["vor beinah 10 Jahren"]) is None
    assert check_numbers("I have 3 cats.", "J'ai trois chats.", ["J'ai 3 chats."]) is None
    # a short number word counts only as a whole word: "un" is not in "une fonction"
    assert check_numbers("Call 1 function.", "Appelez une fonction.", ["Appelez 1 fonction."]) is not None
    assert check_numbers("It is 17 metres.", "Es ist zehn Meter.", ["Es ist 17 Meter."]) is not None


def test_number_word_inside_another_word_does_not_count():
    assert check_numbers("Open at 8.", "Offen in der Nacht.", ["Geöffnet um 8."]) is not None


def test_digits_inside_markup_are_not_numbers():
    assert find_numbers("Click {0} or see https://example.org/page2 and <h1>") == []
    assert check_numbers("Click {0} to open 3 files.", "Klicken Sie, um 3 Dateien zu öffnen.") is None


@pytest.mark.parametrize(
    "text, value",
    [("十万", "100000"), ("两百万", "2000000"), ("三十亿", "3000000000"), ("一万", "10000"),
     ("三亿五千万", "350000000"), ("二〇一九", "2019"), ("十二", "12"), ("一百零五", "105")],
)
def test_cjk_numeral_values(text, value):
    from bleu_ls.qa.text.numbers import cjk_value

    assert str(cjk_value(text)) == value


def test_cjk_numbers_and_scale_words():
    # digits with a multiplier are numbers; a scale word gives the full value
    (n,) = find_numbers("140亿年过去了")
    assert n[0] == "140亿" and n[3] == {"14000000000"} and len(n) == 4
    assert "14000000000" in find_numbers("14 billion years")[0][3]
    assert "2000000" in find_numbers("2 Millionen Menschen")[0][3]
    assert check_numbers("140亿年过去了", "14 billion years have passed", ["Fourteen billion years"]) is None
    assert check_numbers("有5万人", "There are 50,000 people", ["50,000 people"]) is None
    issue = check_numbers("有5万人", "There are 60,000 people", ["50,000 people"])
    assert issue is not None and issue.data == {"missing": ["5万"], "added": ["60,000"]}
    # full-width digits are digits
    assert check_numbers("有１２个", "There are 12", ["12"]) is None
    assert check_numbers("有１２个", "There are 13", ["12"]) is not None


def test_cjk_numerals_alone_excuse_but_are_never_missing():
    # 十万 = 100000: the line's 100000 is the source's number (the reference is wrong here)
    assert check_numbers("有些冰超过十万年。", "Some ice is over 100000 years old.", ["Some ice is more than ten thousand years."]) is None
    # 一 / 十 are words too (一起 "together", 十分 "very"): never reported missing
    assert check_numbers("我们一起去，十分高兴", "We go together, very happy", ["We 1 go 10"]) is None
    # nor added when the line is the Chinese one
    assert check_numbers("We go together", "我们一起去", ["我们一起去"]) is None
    # a line that gets the value wrong is still told, by its digits
    assert check_numbers("有些冰超过十万年。", "Some ice is over 200000 years old.", ["Some ice is over 100000 years old."]) is not None


def test_scaled_numbers_spelled_out():
    assert check_numbers("50万至上百万个部分", "half a million to a million parts", ["500000 to a million parts"]) is None
    assert check_numbers("It has 2,000,000 parts", "Es hat zwei Millionen Teile", ["2.000.000"]) is None
    assert check_numbers("It has 2,000,000 parts", "Es hat drei Millionen Teile", ["2.000.000"]) is not None
