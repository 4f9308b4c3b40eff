"""Terms, languages and statuses read from real TBX files, against a plain ElementTree reading.

The oracle below walks the tree the way the TBX structure reads (entry →
language section → term section → term), written here without the reader's
code; term lines are checked against the raw text (the n-th ``<term`` tag).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bleu_ls.formats.glossary.model import ADMITTED, FORBIDDEN, PREFERRED
from bleu_ls.formats.glossary.read import read_glossary, read_glossary_bytes

DATA = Path(__file__).resolve().parents[2] / "data" / "terms"
FILES = ["okapi-medtronic_TBX.tbx", "okapi-ibm_tbx.tbx", "okapi-maryland.tbx", "termate-astronomy-dca.tbx"]

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ADMIN = {
    "preferredTerm-admn-sts": PREFERRED,
    "admittedTerm-admn-sts": ADMITTED,
    "deprecatedTerm-admn-sts": FORBIDDEN,
    "supersededTerm-admn-sts": FORBIDDEN,
}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def oracle(path: Path):
    """(languages, source language, [(entry id, [(text, lang, status), ...]), ...]) by ElementTree."""
    root = ET.parse(path).getroot()
    langs: list[str] = []

    def add(lang):
        if lang and lang.lower() not in [x.lower() for x in langs]:
            langs.append(lang)

    add(root.get(XML_LANG))
    entries = []
    for entry in root.iter():
        if _local(entry.tag) not in ("conceptEntry", "termEntry"):
            continue
        terms = []
        for section in entry:
            if _local(section.tag) not in ("langSec", "langSet"):
                continue
            lang = section.get(XML_LANG)
            add(lang)
            for sec in section:
                if _local(sec.tag) not in ("termSec", "tig", "ntig"):
                    continue
                term = [e for e in sec.iter() if _local(e.tag) == "term"][0]
                text = " ".join("".join(term.itertext()).split())
                status = PREFERRED
                for e in sec.iter():
                    if (_local(e.tag) == "termNote" and e.get("type") == "administrativeStatus") \
                            or _local(e.tag) == "administrativeStatus":
                        status = ADMIN[e.text.strip()]
                terms.append((text, lang, status))
        if terms:
            entries.append((entry.get("id"), terms))
    return tuple(langs), root.get(XML_LANG), entries


@pytest.mark.parametrize("name", FILES)
def test_real_tbx_matches_elementtree(name):
    path = DATA / name
    g = read_glossary(str(path))
    assert g.problems == []
    langs, source, entries = oracle(path)
    assert g.languages == langs
    assert g.source_language == source
    got = [(c.id, [(t.text, t.lang, t.status) for t in c.terms]) for c in g.concepts]
    assert got == entries


@pytest.mark.parametrize("name", FILES)
def test_term_lines_are_the_lines_of_the_term_tags(name):
    text = (DATA / name).read_text(encoding="utf-8")
    lines = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"<(?:\w+:)?term[\s>]", text)]
    g = read_glossary(str(DATA / name))
    assert [t.line for c in g.concepts for t in c.terms] == lines


def test_the_real_files_hold_every_status_and_multi_word_terms():
    # what the oracle comparison covers (so that it could fail on statuses at all)
    g = read_glossary(str(DATA / "termate-astronomy-dca.tbx"))
    statuses = [t.status for c in g.concepts for t in c.terms]
    assert statuses.count(FORBIDDEN) == 4 and statuses.count(ADMITTED) == 16
    med = read_glossary(str(DATA / "okapi-medtronic_TBX.tbx"))
    assert [t.text for c in med.concepts for t in c.terms if t.status == FORBIDDEN] == \
        ["audible notification", "wireless alert"]  # lines 350 and 666


def test_bytes_and_path_read_alike():
    data = (DATA / "okapi-ibm_tbx.tbx").read_bytes()
    a = read_glossary_bytes(data, "ibm.tbx")
    b = read_glossary_bytes(data, "ibm.glossary")  # no known extension: sniffed as TBX
    assert a.concepts == b.concepts and a.concepts
