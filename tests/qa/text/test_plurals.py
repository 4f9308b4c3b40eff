"""The plural categories of a language (CLDR, through Babel) and a translation's plural forms
compared with them: the categories the issue's examples and CLDR's charts name for German,
Russian, Arabic, Japanese, French and Welsh ordinals; millions-only categories not asked for."""

from __future__ import annotations

import pytest

from bleu_ls.qa.text.plurals import categories, compare, ordered, sentence

pytest.importorskip("babel")


@pytest.mark.parametrize("lang, every, needed", [
    ("de", {"one", "other"}, {"one", "other"}),
    ("ru", {"one", "few", "many", "other"}, {"one", "few", "many", "other"}),
    ("ar", {"zero", "one", "two", "few", "many", "other"}, {"zero", "one", "two", "few", "many", "other"}),
    ("ja", {"other"}, {"other"}),
    ("fr", {"one", "many", "other"}, {"one", "other"}),       # many: 1 000 000 de …
    ("pt-BR", {"one", "many", "other"}, {"one", "other"}),
    ("sr_Latn", {"one", "few", "other"}, {"one", "few", "other"}),
    ("de-CH", {"one", "other"}, {"one", "other"}),
])
def test_cardinal_categories(lang, every, needed):
    c = categories(lang)
    assert c is not None and c.all == every and c.needed == needed


def test_ordinal_categories_and_unknown_languages():
    assert categories("en", ordinal=True).all == {"one", "two", "few", "other"}   # 1st 2nd 3rd 4th
    assert categories("de", ordinal=True).all == {"other"}
    assert categories("qq") is None and categories("") is None and categories(None) is None


def test_compare_and_sentence():
    assert compare("ru", ["one", "other"]) == (["few", "many"], [])
    assert compare("de", ["zero", "one", "few", "other", "=0"]) == ([], ["zero", "few"])
    assert compare("fr", ["one", "other"]) == ([], [])
    assert compare("xx", ["one"]) is None
    assert ordered(["other", "few", "one", "zz"]) == ["one", "few", "other", "zz"]
    assert sentence(["few", "many"], [], "ru") == "Plural categories: no few/many form (ru needs them)."


def test_explicit_values_cover_their_numbers():
    # French `one` is 0 and 1: Angular's =0 / =1 leave it nothing to do
    assert compare("fr", ["=0", "=1", "other"]) == ([], [])
    assert compare("ru", ["=1", "other"]) == (["one", "few", "many"], [])  # 21, 31… are still `one`
