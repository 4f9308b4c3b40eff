"""One line's unknown words (qa/spelling/check.py) over a dictionary made here, so that what
is known is plain: a misspelling is found at its columns, and every case the check leaves out
is left out; the compound rule (dictionary.py); the sentences when there is no dictionary."""

from __future__ import annotations

import pytest

from bleu_ls.qa.spelling import dictionary as D
from bleu_ls.qa.spelling.check import unknown_words

EN = D.Dictionary("en", frozenset(
    "the file is saved in your folder we send it to did didn't not see button said open and "
    "with name this mail address at".split()))
DE = D.Dictionary("de", frozenset(
    "die datei ist in ihrem ordner gespeichert übersetzung fehler dampf schiff donau haus tür "
    "sagte ein im text und geht's".split()))


def words_of(text: str, d: D.Dictionary, source=None) -> list:
    return [(u.word, u.start, u.end) for u in unknown_words(text, source, d)]


def test_a_misspelling_is_found_at_its_columns():
    text = "The file is saevd in your foldr."
    assert words_of(text, EN) == [("saevd", 12, 17), ("foldr", 26, 31)]
    assert text[12:17] == "saevd" and text[26:31] == "foldr"
    assert words_of("Die Datei ist im Odrner gespeichert.", DE) == [("Odrner", 17, 23)]


def test_german_nouns_are_checked_though_capitalised():
    # German writes nouns with a capital: a capitalised word inside a sentence is checked there
    assert words_of("Die Datai ist gespeichert.", DE) == [("Datai", 4, 9)]


def test_a_name_inside_an_english_sentence_is_left_out_not_at_its_start():
    assert words_of("The file is saved in Pittsburgh.", EN) == []
    assert words_of("Pittsburgh is the folder.", EN) == [("Pittsburgh", 0, 10)]


def test_what_is_never_a_spelling_question_is_left_out():
    cases = {
        "numbers and words with digits": "The file is saved in 2024 as mp3 and x86.",
        "placeholders": "The file %s is saved in {folderName} and %(nme)s and $HOMEDIR.",
        "inline tags": "The <bx id='1'/>file is <b class='qwx'>saved</b>.",
        "URLs": "Open https://exmaple.org/pth?q=zzz and www.exmpl.com with the button.",
        "e-mail": "Send it to jdoe@exmaple.org.",
        "inline code": "The ``fiel`` is saved in :file:`foldr` and `cnfg`.",
        "capitals and inner capitals": "The NASA file is saved in your iCloud and McDonaldz folder.",
        "short words": "The file is ok at km.",
        "an apostrophe the dictionary knows whole": "We didn't see the button.",
        "a name in English": "Open the file, said Hermione.",
    }
    for why, text in cases.items():
        assert words_of(text, EN) == [], why


def test_the_source_lines_words_are_left_out():
    text = "Open the Kubernetes file with kubectl."
    assert [w for w, _a, _b in words_of(text, EN)] == ["kubectl"]
    assert words_of(text, EN, "Open the Kubernetes file with kubectl.") == []
    # case aside, and masked like the target: a word only inside the source's code does not count
    assert words_of("Open kubectl.", EN, "Run ``kubectl``") == [("kubectl", 5, 12)]
    assert words_of("Open kubectl.", EN, "Run KUBECTL") == []


def test_a_sentence_start_is_checked_in_english():
    # a capitalised word that starts a sentence is not taken for a name
    assert words_of("Saevd. Teh file is saved.", EN) == [("Saevd", 0, 5), ("Teh", 7, 10)]
    assert words_of("“Foldr” is open.", EN) == [("Foldr", 1, 6)]


def test_hyphenated_words_are_checked_part_by_part():
    assert words_of("Die Datei-Ordner sagte.", DE) == []
    assert words_of("Die Datei-Ordnr sagte.", DE) == [("Ordnr", 10, 15)]


def test_compounds_of_two_or_three_known_words_with_a_linking_element():
    d = DE
    assert d.known("übersetzungsfehler")  # übersetzung + s + fehler
    assert d.known("donaudampfschiff")  # three words
    assert d.known("haustür")
    assert not d.known("haustüx")
    assert not d.known("übersetzungxfehler")  # "x" is no linking element
    assert not d.known("hausschiffdampftür")  # four words: more than the rule takes
    assert not d.known("imim")  # parts of at least three letters
    off = D.Dictionary("de", DE.words, compounds=False)
    assert not off.known("übersetzungsfehler") and off.known("fehler")
    assert words_of("Ein Übersetzungsfehler im Text.", DE) == []
    assert words_of("Ein Übersetzungsfehler im Text.", off) == [("Übersetzungsfehler", 4, 22)]
    # English does not compound
    assert not EN.known("filefolder")


def test_no_dictionary_is_one_sentence(monkeypatch):
    got = D.dictionary(None)
    assert got.dictionary is None and "set diagnostics.spelling.language" in got.problem
    monkeypatch.setattr(D, "_languages", lambda: None)
    D._LOADED.clear()
    got = D.dictionary("de")
    assert got.dictionary is None
    assert got.problem == ("no dictionary is installed: the spelling check needs pyspellchecker "
                           "(pip install 'bleu-ls[spelling]')")
    monkeypatch.setattr(D, "_languages", lambda: ["de", "en"])
    got = D.dictionary("ja-JP")
    assert got.problem == "no dictionary for “ja” in pyspellchecker (it has de, en)"
    got = D.dictionary("de-AT", reader=lambda lang: frozenset({"haus"}))
    assert got.dictionary is not None and got.dictionary.language == "de" and "haus" in got.dictionary
    D._LOADED.clear()


def test_the_installed_word_lists(tmp_path, monkeypatch):
    pytest.importorskip("spellchecker")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    D._LOADED.clear()
    de = D.dictionary("de").dictionary
    en = D.dictionary("en-US").dictionary
    assert de is not None and en is not None
    assert [u.word for u in unknown_words("Das ist ein Feheler im Text.", None, de)] == ["Feheler"]
    assert [u.word for u in unknown_words("I did not recieve the letter.", None, en)] == ["recieve"]
    assert unknown_words("Die Übersetzung enthält keinen Fehler.", None, de) == ()


def test_the_word_list_is_the_packages_read_once_then_from_the_cache(tmp_path, monkeypatch):
    spellchecker = pytest.importorskip("spellchecker")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    oracle = set(spellchecker.SpellChecker(language="de").word_frequency.dictionary)
    first = D._read("de")
    assert set(first) == oracle
    [cached] = (tmp_path / "bleu-ls").glob("spelling-de-*.marshal")
    second = D._read("de")
    assert isinstance(second, set) and second == oracle
    cached.write_bytes(b"not a cache")  # damaged: read from the wheel again, and written again
    assert set(D._read("de")) == oracle
    assert isinstance(D._read("de"), set)
