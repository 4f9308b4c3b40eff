from bleu_ls.postedit import changed_spans, unmatched_spans, word_diff


def test_changed_words_of_a_post_edit():
    draft = "Der Hund bellt laut im Garten ."
    line = "Der große Hund bellte im Garten ."
    spans = changed_spans(draft, line)
    assert [line[s:e] for s, e in spans] == ["große", "bellte"]


def test_columns_are_code_points_with_astral_characters():
    line = "\U0001F600 neu alt"
    (s, e), = changed_spans("\U0001F600 alt", line)
    assert line[s:e] == "neu" and s == 2


def test_no_change_no_span_and_a_new_line_is_all_changed():
    assert changed_spans("a b c", "a  b c") == []
    line = "ganz neu"
    assert [line[s:e] for s, e in changed_spans("", line)] == ["ganz neu"]


def test_word_diff_runs():
    assert word_diff("a b c d", "a x c") == [("=", "a"), ("-", "b"), ("+", "x"), ("=", "c"), ("-", "d")]


def test_unmatched_words_clip_and_ignore_edge_punctuation():
    line = "Das Haus, das Haus das Haus."
    spans = unmatched_spans(line, ["Das Haus ist das Haus"])
    # "Haus," and "Haus" match the two reference "Haus"; the third does not.
    # "Das" and "das" match once each; the second "das" does not.
    assert [line[s:e] for s, e in spans] == ["das", "Haus."]


def test_unmatched_best_reference_and_case():
    line = "the Cat sat"
    assert [line[s:e] for s, e in unmatched_spans(line, ["a dog sat", "the cat sat"])] == ["Cat"]
    assert unmatched_spans(line, ["the cat sat"], lowercase=True) == []
    assert unmatched_spans("", ["x"]) == []
