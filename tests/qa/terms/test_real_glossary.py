"""The terminology check on real data: the French translation of the Python tutorial
(python/python-docs-fr, CC0) against the glossary of the same project
(tests/data/terms/SOURCES.md; the CSV is made from its CONTRIBUTING.rst by
scripts/term_study.py).  The PO files are read again by polib, a plain reader, to hold each
finding to what it claims about the segment."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
from pathlib import Path

import polib
import pytest

from bleu_ls.cli.check import main as check_main

DATA = Path(__file__).resolve().parents[2] / "data" / "terms"
TUTORIAL = DATA / "python-docs-fr" / "tutorial"
GLOSSARY = DATA / "python-docs-fr-glossary.csv"
FILES = ("classes.po", "errors.po", "stdlib.po", "appendix.po", "controlflow.po", "floatingpoint.po", "stdlib2.po")


def _study():
    path = Path(__file__).resolve().parents[3] / "scripts" / "term_study.py"
    spec = importlib.util.spec_from_file_location("term_study", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def found():
    """{file name: [(diagnostic, msgid, msgstr)]} for the three terminology codes."""
    out = io.StringIO()
    argv = [*(str(TUTORIAL / f) for f in FILES), "--glossary", str(GLOSSARY), "--format", "json",
            "--fail-on", "never", "--no-config"]
    assert check_main(argv, out=out, err=io.StringIO()) == 0
    report = json.loads(out.getvalue())
    got: dict[str, list] = {}
    for pair in report["pairs"]:
        path = Path(pair["hypothesis"])
        entries = [(e.linenum, e.msgid, e.msgstr) for e in polib.pofile(str(path)) if e.msgstr]
        rows = got.setdefault(path.name, [])
        for d in pair["diagnostics"]:
            if d["code"] in ("term-missing", "term-forbidden", "do-not-translate"):
                at = max((e for e in entries if e[0] <= d["line"]), key=lambda e: e[0])
                rows.append((d, at[1], at[2]))
    assert set(got) == set(FILES)
    return got


def test_the_csv_is_the_table_of_contributing_rst():
    """The committed CSV is what the conversion makes of the table, and holds rows a reader
    finds in the table: a preferred translation, an admitted one, a term the notes say to
    avoid, and no row for the suffix "-like"."""
    study = _study()
    rows = study.convert((DATA / "python-docs-fr" / "CONTRIBUTING.rst").read_text(encoding="utf-8"))
    with open(GLOSSARY, encoding="utf-8", newline="") as f:
        written = [tuple(r) for r in csv.reader(f)]
    assert written[0] == ("en", "fr", "status")
    assert written[1:] == rows
    assert ("identifier", "identifiant", "preferred") in rows
    assert ("regular expression", "expression régulière", "admitted") in rows
    assert ("return", "retourne", "forbidden") in rows
    assert not any(r[0] == "-like" for r in rows)


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def test_a_real_term_error_is_found(found):
    """classes.po translates "identifier" by "identifieur" where the glossary says
    "identifiant"; stdlib.po translates "arguments" by "paramètres" although the glossary
    says not to confuse them; errors.po writes "spécifier", which the glossary avoids."""
    missing = {(d["data"]["source"].lower(), msgid) for d, msgid, _s in found["classes.po"] if d["code"] == "term-missing"}
    assert any(src == "identifier" and "__update`` identifier" in msgid for src, msgid in missing)
    assert any(d["code"] == "term-missing" and d["data"]["source"] == "arguments" and "paramètres" in msgstr
               for d, _m, msgstr in found["stdlib.po"])
    forbidden = [(d, msgstr) for d, _m, msgstr in found["errors.po"] if d["code"] == "term-forbidden"]
    assert any(d["data"]["term"] == "spécifier" and "peut spécifier un nom de variable" in msgstr for d, msgstr in forbidden)


def test_every_finding_holds_against_a_plain_reading(found):
    """A term-missing finding says the target has none of the expected translations: none
    of them is in the msgstr as polib reads it.  A term-forbidden finding quotes a term that
    is in the msgstr.  (The check matches more leniently than this verbatim reading, so a
    finding that breaks it is a wrong finding.)"""
    n = 0
    for rows in found.values():
        for d, msgid, msgstr in rows:
            n += 1
            if d["code"] == "term-missing":
                assert d["data"]["source"].lower() in msgid.lower()
                for term in d["data"]["expected"]:
                    assert f" {_words(term)} " not in f" {_words(msgstr)} ", (term, msgstr)
            elif d["code"] == "term-forbidden":
                assert f" {_words(d['data']['term'])} " in f" {_words(msgstr)} "
    assert n > 0


def test_a_segment_using_the_glossary_terms_has_no_finding_for_them(found):
    """appendix.po: "the interpreter prints … a stack trace" is "l'interpréteur affiche … la
    trace d'appels", the glossary's words: no finding names "interpreter"; errors.po: "The
    :keyword:`try` statement works as follows." is "L'instruction :keyword:`try` fonctionne
    comme ceci :": no finding names "statement" on it."""
    assert not any(d["data"].get("source", "").lower() == "interpreter" and "interpréteur" in msgstr
                   for rows in found.values() for d, _m, msgstr in rows)
    on_try = [d for d, msgid, _s in found["errors.po"] if msgid == "The :keyword:`try` statement works as follows."]
    assert not any(d["data"].get("source", "").lower() == "statement" for d in on_try)


def test_the_false_positives_of_the_study_are_not_found(found):
    """Three findings the study judged false, on their real segments: the role name in
    ``:keyword:`global` `` is not the word "keyword" (classes.po); the verb "interpreted" is
    not the noun "interpreter" (controlflow.po); the noun "le support matériel" is not the
    forbidden verb "supporter", nor "typique" the forbidden "typiquement" (floatingpoint.po,
    stdlib2.po)."""
    def on(name, needle):
        return [d for d, msgid, _s in found[name] if needle in msgid]

    polib_ids = {e.msgid for f in ("classes.po", "controlflow.po", "floatingpoint.po", "stdlib2.po")
                 for e in polib.pofile(str(TUTORIAL / f))}
    for needle in ("how :keyword:`global` and :keyword:`nonlocal` affect variable binding",
                   "dotted names to prevent them from being interpreted as capture variable",
                   "all languages that support your hardware's floating-point arithmetic",
                   "Typical applications include caching objects"):
        assert any(needle in m for m in polib_ids), needle  # the segment is there
    assert not any(d["data"].get("source", "").lower() == "keyword"
                   for d in on("classes.po", "how :keyword:`global` and :keyword:`nonlocal` affect"))
    assert not any(d["data"].get("source", "").lower() == "interpreted"
                   for d in on("controlflow.po", "from being interpreted as capture variable"))
    assert not any(d["code"] == "term-forbidden"
                   for d in on("floatingpoint.po", "all languages that support your hardware's"))
    assert not any(d["code"] == "term-forbidden" and d["data"]["term"].lower() == "typique"
                   for d in on("stdlib2.po", "Typical applications include caching objects"))
