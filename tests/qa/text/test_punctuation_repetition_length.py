"""Brackets, quotes, end punctuation, repetition and length wording on crafted lines."""

from bleu_ls.qa.text.length import length_issue
from bleu_ls.qa.text.punctuation import check_brackets, check_end_punctuation, end_mark
from bleu_ls.qa.text.repetition import check_repetition


def test_unclosed_bracket_flagged():
    issue = check_brackets("He said (quietly) yes.", "Er sagte (leise ja.")
    assert issue is not None and issue.data["unbalanced"] == ["()"]


def test_balanced_in_other_quote_styles_is_fine():
    assert check_brackets('He said "yes".', "Er sagte „ja“.") is None
    assert check_brackets('He said "yes".', "Il a dit «\u00a0oui\u00a0».") is None
    assert check_brackets('He said "yes".', "彼は「はい」と言った。") is None


def test_odd_quotes_flagged_unless_source_or_reference_is_odd_too():
    assert check_brackets('He said "yes".', "Er sagte „ja.") is not None
    assert check_brackets('He said "yes.', "Er sagte „ja.") is None
    assert check_brackets('He said "yes".', "Er sagte „ja.", ["Er sagte „ja."]) is None


def test_end_marks_across_scripts():
    assert end_mark("Why?") == end_mark("\u0644\u0645\u0627\u0630\u0627\u061f") == end_mark("为什么？") == "question mark"
    assert end_mark("你好。") == end_mark("Hallo.") == end_mark("\u0928\u092e\u0938\u094d\u0924\u0947\u0964") == "full stop"
    assert end_mark("Wait...") == end_mark("Warte\u2026") == "ellipsis"
    assert end_mark('He said "yes."') == "full stop"
    assert end_mark("no mark") is None and end_mark("") is None


def test_end_punctuation_differs():
    issue = check_end_punctuation("Why?", "Warum.")
    assert issue is not None and issue.data == {"source": "question mark", "line": "full stop"}
    assert check_end_punctuation("Wait...", "Warte!").message == "The source ends with an ellipsis, this line with an exclamation mark."
    assert check_end_punctuation("Why?", "Warum?“") is None
    assert check_end_punctuation("Why?", "Warum.", ["Weshalb."]) is None  # the reference ends the same way
    assert check_end_punctuation("", "Warum.") is None


def test_repetition_is_case_insensitive_against_the_reference():
    hyp = "Ding , Ding , Ding , Ding".split()
    assert check_repetition(hyp, ["ding , ding , ding , ding".split()]) is None
    issue = check_repetition(hyp, ["Ding .".split()])
    assert issue is not None and issue.data["phrase"] == "ding ,"


def test_repetition_never_reports_a_phrase_starting_with_punctuation():
    hyp = "Ja , ja , ja , ja , ja".split()
    issue = check_repetition(hyp, [["Ja", "."]])
    assert issue is not None and issue.data["phrase"][0] not in ",."


def test_repetition_true_and_false_positives():
    assert check_repetition("thank you thank you thank you thank you".split(), [["danke"]]).data["count"] == 4
    assert check_repetition("a b c d e f".split(), [["x"]]) is None
    assert check_repetition("sehr sehr sehr gut".split(), ["sehr sehr sehr gut".split()]) is None
    assert check_repetition(list("哈哈哈哈"), [list("好")]) is not None


def test_length_wording_blames_no_one_without_a_source():
    issue = length_issue(3, 14, 0.5, 2.0)
    assert issue is not None and "one of the two" in issue.message and "look at this line" not in issue.message
    assert length_issue(10, 12, 0.5, 2.0) is None


def test_length_wording_uses_the_source_when_known():
    # the reference is the terse one: the line's length is close to the source's
    issue = length_issue(20, 6, 0.5, 2.0, src_len=19)
    assert issue is not None and "the reference may be the one" in issue.message
    issue = length_issue(5, 20, 0.5, 2.0, src_len=19)
    assert issue is not None and "look at this line" in issue.message
