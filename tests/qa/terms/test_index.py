"""The term index's matching rules, each stated by a pair of lines that a translator would
judge the same way (docs/terminology.md, "Matching")."""

from __future__ import annotations

import pytest

from bleu_ls.formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, Concept, Glossary, Term
from bleu_ls.qa.terms.index import TermIndex, fixed_case, replacements
from bleu_ls.qa.terms.load import pick_languages


def _c(*terms: Term) -> Concept:
    return Concept(tuple(terms))


GLOSSARY = Glossary("terms.csv", ("en", "de"), [
    _c(Term("file", "en"), Term("Datei", "de"), Term("File", "de", FORBIDDEN)),
    _c(Term("email address", "en"), Term("E-Mail-Adresse", "de")),
    _c(Term("address", "en"), Term("Adresse", "de")),
    _c(Term("account", "en"), Term("Konto", "de"), Term("Benutzerkonto", "de", ADMITTED)),
    _c(Term("URL", "en"), Term("URL", "de")),
    _c(Term("iOS", "en", DO_NOT_TRANSLATE)),
    _c(Term("GitHub", "en", DO_NOT_TRANSLATE)),
    _c(Term("mail", "en"), Term("Mail", "de", FORBIDDEN), Term("Nachricht", "de")),
    _c(Term("apple", "en"), Term("Apfel", "de")),
    _c(Term("overview", "en"), Term("Übersicht", "de")),
], [], "en")


@pytest.fixture(scope="module")
def index() -> TermIndex:
    return TermIndex([GLOSSARY], "en", "de")


def codes(index: TermIndex, source, target) -> list[tuple[str, int, object]]:
    return [(f.code, f.start_col, f.end_col) for f in index.scan(source, target)]


@pytest.mark.parametrize("source,target,want", [
    # whole words: "file" is not in "profile"; the target has the term
    ("Open the profile.", "Öffnen Sie das Profil.", []),
    ("Open the file.", "Öffnen Sie die Datei.", []),
    # inflected forms on both sides
    ("Open the files.", "Öffnen Sie die Dateien.", []),
    # the term missing from the target
    ("Open the file.", "Öffnen Sie das Dokument.", [("term-missing", 0, None)]),
    # a compound of a compounding language holds the term
    ("Save the file name.", "Speichern Sie den Dateinamen.", []),
    # an admitted term is as good as the preferred one; an irregular plural of it too
    ("Your account", "Ihr Benutzerkonto", []),
    ("Your accounts", "Ihre Konten", []),
    # a multi-word term is one term: its inner "address" is not asked for on its own
    ("Your email address", "Ihre E-Mail-Adresse", []),
    ("Your email address", "Ihre Mailadresse", [("term-missing", 0, None)]),
    # a forbidden term, on its characters (and no term-missing beside it)
    ("Open the file.", "Öffnen Sie das File.", [("term-forbidden", 15, 19)]),
    # ... never half of a hyphenated word ("Mail" in "E-Mail")
    ("Send a mail.", "Senden Sie eine E-Mail.", [("term-missing", 0, None)]),
    # placeholders and inline tags are not text
    ("Open {file}.", "Öffnen Sie {file}.", []),
    ("Open <b>the file</b>.", "Öffnen Sie <b>das File</b>.", [("term-forbidden", 18, 22)]),
    # a term in capitals matches only as written (its plural too)
    ("Two URLs", "Zwei URLs", []),
    ("The url", "Die Adresse", []),
    # do-not-translate: kept as written; written otherwise: on its characters
    ("Log in with GitHub", "Mit GitHub anmelden", []),
    ("Log in with GitHub", "Mit Github anmelden", [("do-not-translate", 4, 10)]),
    ("Log in with GitHub", "Anmelden", [("do-not-translate", 0, None)]),
    ("Install it on iOS", "Auf iOS installieren", []),
    ("Install it on IOS devices", "Auf Geräten installieren", []),  # "IOS" is not the term "iOS"
    # an inflected form whose first letter takes an umlaut (the stem folds it: Äpfel, Apfel)
    ("Two apples", "Zwei Äpfel", []),
    ("One apple", "Ein Apfel", []),
    ("Two apples", "Zwei Birnen", [("term-missing", 0, None)]),
    # a term written with an umlaut, in its inflected forms and in capitals
    ("The overviews", "Die Übersichten", []),
    ("OVERVIEW", "ÜBERSICHT", []),
    ("The overview", "Die Zusammenfassung", [("term-missing", 0, None)]),
])
def test_matching(index, source, target, want):
    assert codes(index, source, target) == want


def test_without_a_source_only_forbidden_terms_are_looked_for(index):
    assert codes(index, None, "Das File ist offen.") == [("term-forbidden", 4, 8)]
    assert codes(index, None, "Die Datei ist offen.") == []


def test_a_script_without_spaces_matches_by_substring():
    g = Glossary("zh.csv", ("en", "zh"), [
        _c(Term("file", "en"), Term("文件", "zh"), Term("档案", "zh", FORBIDDEN)),
        _c(Term("GitHub", "en", DO_NOT_TRANSLATE)),
    ])
    ix = TermIndex([g], "en", "zh")
    assert codes(ix, "Open the file", "打开文件") == []
    assert codes(ix, "Open the file", "打开档案") == [("term-forbidden", 2, 4)]
    assert codes(ix, "Use GitHub", "使用GitHub登录") == []  # a spaced word inside unspaced text
    assert codes(ix, "Use GitHub", "使用Github登录") == [("do-not-translate", 2, 8)]


def test_the_quick_fix_keeps_a_capital_first_letter(index):
    [f] = index.scan("Open the file.", "Das File ist offen.")
    assert replacements(f.code, f.data) == ["Datei"]
    assert fixed_case("File", "datei") == "Datei" and fixed_case("file", "Datei") == "Datei"
    [d] = index.scan("Log in with GitHub", "Mit Github anmelden")
    assert replacements(d.code, d.data) == ["GitHub"]


def test_the_entries_of_a_segment_are_listed_once_each(index):
    found = index.entries("Open the file with GitHub", "Das File")
    assert [(w, p) for w, _c, p in found] == [("file", "terms.csv"), ("GitHub", "terms.csv")]
    assert [t for t, _w, _c in index.target_terms("Send the file to your email address")] == ["Datei", "E-Mail-Adresse"]


@pytest.mark.parametrize("languages,source,target,want", [
    (("en", "de"), None, None, ("en", "de", None)),             # two languages: no setting needed
    (("en", "de"), None, "de-DE", ("en", "de", None)),          # the file's target picks the pair
    (("en", "de"), "en-US", None, ("en", "de", None)),
    (("en", "de"), "fr", "de", (None, None, None)),             # another source language: not this glossary
    (("en", "de", "fr"), "en", "fr", ("en", "fr", None)),
    (("en", "de", "fr"), None, None, (None, None, "x.tbx: it has 3 languages (en, de, fr); set [terms] "
                                      "sourceLanguage and targetLanguage to say which pair to check")),
])
def test_the_language_pair(languages, source, target, want):
    assert pick_languages(Glossary("/p/x.tbx", languages, [_c(Term("a", languages[0]))]), source, target) == want


def test_code_in_documentation_markup_is_not_text():
    """reStructuredText roles and literals, Markdown code spans: the role's name and its code
    are not words of the sentence; the prose of a :term: or a :ref: with a label is."""
    g = Glossary("doc.csv", ("en", "fr"), [_c(Term("keyword", "en"), Term("mot clé", "fr")),
                                           _c(Term("index", "en"), Term("indice", "fr"))])
    ix = TermIndex([g], "en", "fr")
    assert codes(ix, "Use the :keyword:`try` statement", "Utilisez l'instruction ``try``") == []
    assert codes(ix, "Call ``index()`` or `index`", "Appelez ``index()``") == []
    assert codes(ix, "See :ref:`the index <library-index>`", "Voir :ref:`la table <library-index>`") == [("term-missing", 0, None)]
    assert codes(ix, "A :term:`keyword` here", "Un :term:`mot clé` ici") == []


def test_an_english_word_of_the_terms_stem_but_another_class_is_not_the_term():
    g = Glossary("doc.csv", ("en", "fr"), [_c(Term("interpreter", "en"), Term("interpréteur", "fr")),
                                           _c(Term("prompt", "en"), Term("invite", "fr")),
                                           _c(Term("raise", "en"), Term("lever", "fr"))])
    ix = TermIndex([g], "en", "fr")
    assert codes(ix, "The code is interpreted", "Le code est exécuté") == []
    assert codes(ix, "It stops promptly", "Il s'arrête aussitôt") == []
    assert codes(ix, "It raised an error", "Il a signalé une erreur") == [("term-missing", 0, None)]
    assert codes(ix, "The interpreters", "Les programmes") == [("term-missing", 0, None)]


def test_a_shorter_word_of_a_forbidden_terms_stem_is_not_the_forbidden_term():
    g = Glossary("doc.csv", ("en", "fr"), [_c(Term("typically", "en"), Term("généralement", "fr"),
                                              Term("typiquement", "fr", FORBIDDEN))])
    ix = TermIndex([g], "en", "fr")
    assert codes(ix, None, "Un cas typique") == []
    assert codes(ix, None, "Typiquement, on écrit") == [("term-forbidden", 0, 11)]


def test_lines_meeting_an_entry_alike_share_its_finding_and_lists():
    """What a finding says of a glossary entry is made once: two lines with the same term
    missing get the same finding (sentence, ``data`` and its lists one object each), a line
    writing the term otherwise its own sentence, and nothing a line meets changes another's."""
    ix = TermIndex([GLOSSARY], "en", "de")
    [a] = ix.scan("Open the file.", "Öffnen Sie das Dokument.")
    [b] = ix.scan("Close the file now.", "Schließen Sie jetzt das Dokument.")
    [c] = ix.scan("Open the files.", "Öffnen Sie die Dokumente.")
    assert a is b
    assert a.message == ("The source has “file”: the glossary (terms.csv) translates it “Datei”, "
                         "and the target has none of them.")
    assert c.message.startswith("The source has “files”:") and c.data["source"] == "files"
    assert c.data["expected"] is a.data["expected"] and c.data["glossary"] is a.data["glossary"]
    assert a.data == {"source": "file", "expected": ["Datei"], "glossary": ["terms.csv"]}
    # a forbidden term: the same sentence and data for the same word, its own columns per line
    [f1] = ix.scan("Open the file.", "Das File ist offen.")
    [f2] = ix.scan("Open the file.", "Ist das File offen?")
    assert (f1.start_col, f1.end_col, f2.start_col, f2.end_col) == (4, 8, 8, 12)
    assert f1.message is f2.message and f1.data is f2.data
    assert f1.data == {"term": "File", "replacements": ["Datei"], "glossary": ["terms.csv"]}
    # the shared finding is still right after other lines: an admitted term, a compound
    assert ix.scan("Your accounts", "Ihre Konten") == ()
    assert ix.scan("Save the file name.", "Speichern Sie den Dateinamen.") == ()
    assert ix.scan("Open the file.", "Öffnen Sie das Dokument.") == (a,)


def test_findings_are_the_same_past_the_number_an_entry_keeps(monkeypatch):
    """Past the findings an entry keeps made, new ones are made alike (only sharing is lost)."""
    from bleu_ls.qa.terms import index as module

    lines = [(f"Open the file {n}.", "Öffnen Sie das Dokument.") for n in range(3)]
    lines += [("Open the file.", f"{'Nun ' * n}ist das File offen.") for n in range(4)]

    def found(ix: TermIndex) -> list:
        return [[(f.code, f.start_col, f.end_col, f.message, dict(f.data)) for f in ix.scan(s, t)] for s, t in lines * 2]

    kept = found(TermIndex([GLOSSARY], "en", "de"))
    monkeypatch.setattr(module, "_KEEP", 2)
    few = TermIndex([GLOSSARY], "en", "de")
    assert found(few) == kept
    assert [f[0][:3] for f in kept[3:7]] == [("term-forbidden", 8 + 4 * n, 12 + 4 * n) for n in range(4)]
    assert kept[0][0][0] == "term-missing" and kept[0] == kept[1]


def test_numbers_are_their_own_stems_and_fill_no_cache():
    """A number is left as written by every Snowball stemmer, so the memoised stemmer returns it
    without keeping it (a document's ids and counts would fill the cache)."""
    import snowballstemmer

    from bleu_ls.qa.terms import words as W

    numbers = ["0", "7", "42", "1999", "2024", "000123", "31415926535", "10", "100000"]
    for lang, name in W.SNOWBALL.items():
        real = snowballstemmer.stemmer(name).stemWord
        assert [real(n) for n in numbers] == numbers, name
        stem = W.stem_function(lang)
        held = len(W._STEMS[W.primary(lang)])
        assert [stem(n) for n in numbers] == numbers
        assert len(W._STEMS[W.primary(lang)]) == held


@pytest.mark.parametrize("keep", [1000, 2])
def test_each_written_form_and_severity_gets_its_own_finding(monkeypatch, keep):
    """A source term met written in several ways and under several severities: each (written
    form, severity) has its finding, the same object each time it comes back while the entry
    keeps it, and the first met stays right after the others."""
    from bleu_ls.qa.terms import index as module

    monkeypatch.setattr(module, "_KEEP", keep)
    ix = TermIndex([GLOSSARY], "en", "de")
    sevs = {"warning": ("warning", "error", "info"), "error": ("error", "error", "info")}
    seen: dict = {}
    for _round in range(3):
        for written in ("file", "files", "File", "FILES"):
            for sev in sevs:
                [f] = ix.scan(f"Open the {written}.", "Öffnen Sie das Dokument.", sevs[sev])
                assert (f.code, f.severity, f.data["source"]) == ("term-missing", sev, written)
                assert f.message.startswith(f"The source has “{written}”:")
                if keep > 2:
                    assert seen.setdefault((written, sev), f) is f


def test_a_forbidden_term_offers_the_preferred_term_of_another_row_with_its_source():
    """A glossary giving a source term's preferred translation in one row and a forbidden one
    in another (a CSV's rows): the forbidden term's fix offers the other row's preferred term,
    and only for the concepts sharing that source term."""
    g = Glossary("rows.csv", ("en", "de"), [
        _c(Term("file", "en"), Term("Datei", "de")),
        _c(Term("file", "en"), Term("File", "de", FORBIDDEN)),
        _c(Term("File", "en"), Term("Akte", "de", ADMITTED)),
        _c(Term("folder", "en"), Term("Ordner", "de")),
    ], [], "en")
    ix = TermIndex([g], "en", "de")
    [f] = ix.scan("Open the file.", "Öffnen Sie das File.")
    assert f.code == "term-forbidden"
    assert f.data["replacements"] == ["Datei", "Akte"]
    assert [c.terms[1].text for c in ix.related([g.concepts[3]])] == ["Ordner"]
    assert [c.terms[1].text for c in ix.related([g.concepts[1]])] == ["File", "Datei", "Akte"]
