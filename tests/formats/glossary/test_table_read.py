"""CSV, TSV and plain do-not-translate lists: header, statuses, target side, lists, sniffing."""

from __future__ import annotations

import pytest

from bleu_ls.formats.glossary.model import (ADMITTED, ANY_LANGUAGE, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED,
                                            Concept, Term)
from bleu_ls.formats.glossary.read import kind_of, read_glossary_bytes


def _read(text: str, name: str = "terms.csv"):
    return read_glossary_bytes(text.encode(), name)


def test_header_languages_statuses_and_notes():
    g = _read('EN,de-DE,pt_BR,Status,Notes\n'
              'file,Datei,arquivo,,\n'
              'folder,Ordner,pasta,admitted,"a note, with a comma"\n'
              'e-mail,E-Mail,,Deprecated,\n')
    assert g.problems == []
    assert g.languages == ("EN", "de-DE", "pt_BR") and g.source_language == "EN"
    assert g.concepts == [
        Concept((Term("file", "EN", PREFERRED, None, 2), Term("Datei", "de-DE", PREFERRED, None, 2),
                 Term("arquivo", "pt_BR", PREFERRED, None, 2)), None, None, 2),
        # the status is the target side's: the first column's term stays preferred
        Concept((Term("folder", "EN", PREFERRED, None, 3), Term("Ordner", "de-DE", ADMITTED, None, 3),
                 Term("pasta", "pt_BR", ADMITTED, None, 3)), None, "a note, with a comma", 3),
        Concept((Term("e-mail", "EN", PREFERRED, None, 4), Term("E-Mail", "de-DE", FORBIDDEN, None, 4)),
                None, None, 4),
    ]


@pytest.mark.parametrize("word", ["do-not-translate", "DNT", "untranslatable", "Do Not Translate"])
def test_do_not_translate_applies_to_every_term_and_allows_an_empty_target(word):
    g = _read(f"en,de,status\nGitHub,,{word}\nLinux,Linux,{word}\n")
    assert [[(t.text, t.lang, t.status) for t in c.terms] for c in g.concepts] == [
        [("GitHub", "en", DO_NOT_TRANSLATE)],
        [("Linux", "en", DO_NOT_TRANSLATE), ("Linux", "de", DO_NOT_TRANSLATE)],
    ]


@pytest.mark.parametrize("word,status", [("forbidden", FORBIDDEN), ("superseded", FORBIDDEN),
                                         ("preferred", PREFERRED), ("admitted", ADMITTED), ("", PREFERRED)])
def test_status_words(word, status):
    (c,) = _read(f"en,de,status\nfile,Datei,{word}\n").concepts
    assert [t.status for t in c.terms] == [PREFERRED, status]


def test_several_target_terms_in_one_cell_stay_one_term():
    (c,) = _read('en,de\nfile,"Datei, Akte"\n').concepts
    assert [t.text for t in c.terms] == ["file", "Datei, Akte"]


def test_a_single_language_column_is_a_do_not_translate_list():
    g = _read("en,status,note\nGitHub,,brand\nKubernetes,do-not-translate,\nserver,forbidden,use host\n"
              "\napp,preferred,\n")
    assert g.problems == []
    assert [(c.terms[0].text, c.terms[0].status, c.note, c.line) for c in g.concepts] == [
        ("GitHub", DO_NOT_TRANSLATE, "brand", 2), ("Kubernetes", DO_NOT_TRANSLATE, None, 3),
        ("server", FORBIDDEN, "use host", 4), ("app", PREFERRED, None, 6)]


def test_tsv_cells_are_the_text_between_tabs():
    g = read_glossary_bytes('en\tfr\tnote\n"quoted" word\tmot "cité"\t\n  spaced   term \tterme\t\n'.encode(),
                            "terms.tsv")
    assert g.problems == []
    assert [[t.text for t in c.terms] for c in g.concepts] == [['"quoted" word', 'mot "cité"'],
                                                               ["spaced term", "terme"]]


def test_multi_line_quoted_cells_keep_the_row_start_line():
    g = _read('en,de,note\nfile,Datei,"two\nlines"\nfolder,Ordner,\n')
    assert [(c.terms[0].text, c.line, c.note) for c in g.concepts] == [("file", 2, "two lines"), ("folder", 4, None)]


def test_rows_without_any_term_are_left_out_and_a_header_alone_is_said():
    g = _read("en,de,status\n,,\n , ,\n")
    assert g.concepts == [] and g.problems == ["terms.csv: no terms found (no row after the header)"]


def test_plain_list():
    g = read_glossary_bytes("# brand names\n\nGitHub\n  Visual Studio   Code \r\n#Linux\niOS\n".encode(), "dnt.txt")
    assert g.problems == [] and g.languages == (ANY_LANGUAGE,) and g.source_language is None
    assert [c.terms for c in g.concepts] == [
        (Term("GitHub", "*", DO_NOT_TRANSLATE, None, 3),),
        (Term("Visual Studio Code", "*", DO_NOT_TRANSLATE, None, 4),),
        (Term("iOS", "*", DO_NOT_TRANSLATE, None, 6),)]
    assert g.concepts[0].terms_in("ja") == list(g.concepts[0].terms)


def test_a_list_of_comments_only_says_no_terms():
    g = read_glossary_bytes(b"# nothing yet\n", "dnt.txt")
    assert g.concepts == [] and g.problems == ["dnt.txt: no terms found (only comments and blank lines)"]


@pytest.mark.parametrize("name,data,kind", [
    ("g.tbx", b"en,de\n", "tbx"), ("g.XML", b"x", "tbx"), ("g.CSV", b"x", "csv"), ("g.tsv", b"x", "tsv"),
    ("g.txt", b"a,b", "txt"),
    ("glossary", b"\n  <?xml version='1.0'?><martif/>", "tbx"), ("glossary", b"\xef\xbb\xbf<tbx/>", "tbx"),
    ("glossary", b"\xff\xfe<\x00", "tbx"), ("glossary", b"en\tde\nx\ty\n", "tsv"),
    ("glossary", b"en,de\nx,y\n", "csv"), ("glossary", b"GitHub\nLinux\n", "txt"),
])
def test_kind_by_extension_else_sniffed(name, data, kind):
    assert kind_of(name, data) == kind


def test_an_explicit_kind_wins():
    g = read_glossary_bytes(b"en,de\nfile,Datei\n", "whatever.tbx", kind="csv")
    assert g.problems == [] and len(g.concepts) == 1
