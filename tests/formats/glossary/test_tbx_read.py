"""TBX details: DCT-style module elements, the do-not-translate conventions, notes, markup, white space."""

from __future__ import annotations

from bleu_ls.formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Term
from bleu_ls.formats.glossary.read import read_glossary_bytes

DCT = """<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dct" xml:lang="en-US" xmlns="urn:iso:std:iso:30042:ed-2"
     xmlns:basic="http://www.tbxinfo.net/ns/basic" xmlns:min="http://www.tbxinfo.net/ns/min">
<text><body>
<conceptEntry id="c1">
  <basic:definition>A place where files are kept.</basic:definition>
  <langSec xml:lang="en-US">
    <termSec><term>folder</term><min:administrativeStatus>preferredTerm-admn-sts</min:administrativeStatus></termSec>
    <termSec><term>directory</term><min:administrativeStatus>admittedTerm-admn-sts</min:administrativeStatus></termSec>
  </langSec>
  <langSec xml:lang="de-DE">
    <termSec><term>Ordner</term></termSec>
    <termSec><term>Verzeichnis</term><basic:administrativeStatus>supersededTerm-admn-sts</basic:administrativeStatus>
      <note>old Windows wording</note></termSec>
  </langSec>
</conceptEntry>
</body></text></tbx>
"""


def test_dct_module_elements_give_the_status():
    g = read_glossary_bytes(DCT.encode(), "dct.tbx")
    assert g.problems == [] and g.languages == ("en-US", "de-DE") and g.source_language == "en-US"
    (c,) = g.concepts
    assert c.id == "c1" and c.line == 5 and c.note == "A place where files are kept."
    assert c.terms == (
        Term("folder", "en-US", PREFERRED, None, 8),
        Term("directory", "en-US", ADMITTED, None, 9),
        Term("Ordner", "de-DE", PREFERRED, None, 12),
        Term("Verzeichnis", "de-DE", FORBIDDEN, "old Windows wording", 13),
    )
    assert [t.text for t in c.terms_in("de")] == ["Ordner", "Verzeichnis"]
    assert c.terms_in("de-AT") == []


def _one_entry(body: str, root_lang: str = "en") -> str:
    return (f'<martif type="TBX" xml:lang="{root_lang}"><text><body>\n' + body + "\n</body></text></martif>\n")


def test_translation_needed_no_makes_the_concept_do_not_translate():
    text = _one_entry(
        '<termEntry id="e2"><descrip type="Translation needed">No</descrip>'
        '<langSet xml:lang="en"><tig><term>SYS_ERR_406</term></tig>'
        '<tig><term>SYS-ERR</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>'
        '</langSet><langSet xml:lang="fr"><tig><term>SYS_ERR_406</term></tig></langSet></termEntry>\n'
        '<termEntry id="e3"><descrip type="Translation needed">Yes</descrip>'
        '<langSet xml:lang="en"><tig><term>data bus</term></tig></langSet></termEntry>')
    g = read_glossary_bytes(text.encode(), "dnt.tbx")
    assert [[(t.text, t.status) for t in c.terms] for c in g.concepts] == [
        [("SYS_ERR_406", DO_NOT_TRANSLATE), ("SYS-ERR", FORBIDDEN), ("SYS_ERR_406", DO_NOT_TRANSLATE)],
        [("data bus", PREFERRED)],
    ]


def test_translation_note_no_marks_one_term():
    text = _one_entry(
        '<termEntry id="e1"><langSet xml:lang="en">'
        '<tig><term>GitHub</term><termNote type="translationNote">no</termNote></tig>'
        '<tig><term>code host</term><termNote type="translationNote">yes</termNote></tig></langSet></termEntry>')
    g = read_glossary_bytes(text.encode(), "dnt.tbx")
    assert [(t.text, t.status) for t in g.concepts[0].terms] == [("GitHub", DO_NOT_TRANSLATE),
                                                                  ("code host", PREFERRED)]


def test_notes_definitions_and_usage_notes():
    text = _one_entry(
        '<termEntry id="e1"><descrip type="definition">A bill.</descrip><descripGrp>'
        '<descrip type="definition">Second line.</descrip></descripGrp><note>Entry note</note>'
        '<langSet xml:lang="en"><note>language note (not read)</note>'
        '<descrip type="definition">language definition (not read)</descrip>'
        '<ntig><termGrp><term>invoice</term><termNote type="normativeAuthorization">admittedTerm</termNote>'
        '<termNote type="usageNote">Formal.</termNote></termGrp><note>Term note</note></ntig>'
        '</langSet></termEntry>')
    (c,) = read_glossary_bytes(text.encode(), "n.tbx").concepts
    assert c.note == "A bill.\nSecond line.\nEntry note"
    assert c.terms == (Term("invoice", "en", ADMITTED, "Formal.\nTerm note", 2),)


def test_inline_markup_and_white_space_in_terms():
    text = _one_entry(
        '<termEntry><langSet xml:lang="en"><tig><term>\n   e-mail\t <hi type="italics">address</hi>\n </term>'
        '</tig><tig><term>10\u00a0%</term></tig></langSet></termEntry>')
    (c,) = read_glossary_bytes(text.encode(), "w.tbx").concepts
    assert [t.text for t in c.terms] == ["e-mail address", "10\u00a0%"]  # a no-break space is kept
    assert c.id is None


def test_languages_in_file_order_root_first_and_each_once():
    text = _one_entry(
        '<termEntry><langSet xml:lang="fr"><tig><term>a</term></tig></langSet>'
        '<langSet xml:lang="EN"><tig><term>b</term></tig></langSet></termEntry>'
        '<termEntry><langSet xml:lang="de"><tig><term>c</term></tig></langSet>'
        '<langSet xml:lang="fr"><tig><term>d</term></tig></langSet></termEntry>', root_lang="en")
    g = read_glossary_bytes(text.encode(), "l.tbx")
    assert g.languages == ("en", "fr", "de") and g.source_language == "en"


def test_a_language_section_without_language_skips_its_terms():
    text = _one_entry('<termEntry><langSet><tig><term>a</term></tig></langSet>'
                      '<langSet xml:lang="de"><tig><term>b</term></tig></langSet></termEntry>')
    g = read_glossary_bytes(text.encode(), "l.tbx")
    assert [t.text for t in g.concepts[0].terms] == ["b"]
    assert g.problems == ['l.tbx: line 2: the term "a" is in a language section without xml:lang; '
                          "the term is skipped"]


def test_empty_terms_and_entries_are_left_out_and_no_terms_is_said():
    text = _one_entry('<termEntry><langSet xml:lang="de"><tig><term>  </term></tig></langSet></termEntry>')
    g = read_glossary_bytes(text.encode(), "e.tbx")
    assert g.concepts == []
    assert g.problems == ["e.tbx: no terms found (no <term> inside a <conceptEntry> or <termEntry>)"]


def test_bare_status_words_some_exports_write():
    text = _one_entry(
        '<termEntry><langSet xml:lang="en">'
        + "".join(f'<tig><term>t{i}</term><termNote type="administrativeStatus">{v}</termNote></tig>'
                  for i, v in enumerate(["preferred", "admitted", "deprecated", "forbidden", "obsolete",
                                         "superseded", "supersededTerm-admn-sts", ""]))
        + "</langSet></termEntry>")
    g = read_glossary_bytes(text.encode(), "s.tbx")
    assert g.problems == []
    assert [t.status for t in g.concepts[0].terms] == [PREFERRED, ADMITTED, FORBIDDEN, FORBIDDEN, FORBIDDEN,
                                                       FORBIDDEN, FORBIDDEN, PREFERRED]
