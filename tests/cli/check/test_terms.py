"""``bleu-ls check`` with glossaries (``--glossary`` and ``[terms] files``): the three codes on
line files, PO, XLIFF, TMX and subtitles, each held to a plain reading of the real file
(polib, ElementTree, the cue text) and a regular expression a reader can check by eye."""

from __future__ import annotations

import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import polib

from bleu_ls.cli.check import main

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
TERMS = ("term-missing", "term-forbidden", "do-not-translate")


def run(*args: str) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main([*args, "--format", "json"], out=out, err=err)
    pairs = json.loads(out.getvalue())["pairs"] if out.getvalue() else []
    return rc, [d for p in pairs for d in p["diagnostics"]], err.getvalue()


def terms(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["code"] in TERMS]


def test_line_files_with_terms_files_relative_to_the_toml(tmp_path):
    (tmp_path / "terms").mkdir()
    (tmp_path / "terms" / "ui.csv").write_text(
        "en,de,status\nfile,Datei,\nfile,File,forbidden\nfolder,Ordner,\nGitHub,,do-not-translate\n", encoding="utf-8")
    (tmp_path / "bleu-ls.toml").write_text('[terms]\nfiles = ["terms/ui.csv"]\n', encoding="utf-8")
    (tmp_path / "a.src").write_text("Open the file.\nOpen the folder.\nLog in with GitHub\nThe files\n", encoding="utf-8")
    (tmp_path / "a.hyp").write_text("Öffne das File.\nÖffne das Verzeichnis.\nMit Github anmelden\nDie Dateien\n",
                                    encoding="utf-8")
    rc, diags, err = run(str(tmp_path / "a.hyp"))
    assert rc == 1, err
    got = [(d["line"], d["column"], d["code"]) for d in terms(diags)]
    assert got == [(1, 11, "term-forbidden"), (2, 1, "term-missing"), (3, 5, "do-not-translate")]
    forbidden = terms(diags)[0]
    assert forbidden["message"] == "“File” is a forbidden term (ui.csv): use “Datei”."
    # the same glossary given on the command line instead
    rc2, diags2, _ = run(str(tmp_path / "a.hyp"), "--no-config", "--glossary", str(tmp_path / "terms" / "ui.csv"))
    assert [(d["line"], d["code"]) for d in terms(diags2)] == [(g[0], g[2]) for g in got]


def test_a_catalogue_against_a_glossary_finds_what_polib_and_a_pattern_find(tmp_path):
    po = tmp_path / "django.po"
    shutil.copy(DATA / "po" / "allauth-de-2023-11-03.po", po)
    g = tmp_path / "g.csv"
    g.write_text("en,de,status\nemail address,E-Mail-Adresse,\nemail address,Email-Adresse,forbidden\n", encoding="utf-8")
    _rc, diags, err = run(str(po), "--no-config", "--glossary", str(g))
    found = terms(diags)
    # the oracle: every translated entry whose msgid has "email address(es)", by what its msgstr writes
    entries = [e for e in polib.pofile(str(po)) if not e.obsolete and e.msgstr and re.search(r"(?i)\bemail address", e.msgid)]
    forbidden = [e for e in entries if re.search(r"(?<![\w-])Email-Adresse", e.msgstr)]
    missing = [e for e in entries if not re.search(r"E-Mail-Adresse|Email-Adresse", e.msgstr)]
    assert forbidden and missing  # the catalogue has both kinds
    assert sum(d["code"] == "term-forbidden" for d in found) == sum(len(re.findall(r"(?<![\w-])Email-Adresse", e.msgstr))
                                                                    for e in forbidden)
    assert sum(d["code"] == "term-missing" for d in found) == len(missing)
    # each forbidden finding sits on the words "Email-Adresse" of its line in the file
    lines = po.read_text(encoding="utf-8").split("\n")
    for d in found:
        if d["code"] == "term-forbidden":
            assert lines[d["line"] - 1][d["column"] - 1:].startswith("Email-Adresse"), d


def test_xliff_tmx_and_subtitles(tmp_path):
    # XLIFF 1.2 (en-US → de): "Airplane mode" → "Flugmodus"; "Flugzeugmodus" forbidden
    xlf = tmp_path / "strings.de.xlf"
    shutil.copy(DATA / "xliff" / "modernflyouts.de.postedit.xlf", xlf)
    g = tmp_path / "g.csv"
    g.write_text("en,de,status\nairplane mode,Flugmodus,\nairplane mode,Flugzeugmodus,forbidden\n", encoding="utf-8")
    _rc, diags, _ = run(str(xlf), "--no-config", "--glossary", str(g))
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    units = ET.parse(xlf).getroot().findall(".//x:trans-unit", ns)
    targets = ["".join(u.find("x:target", ns).itertext()) for u in units if u.find("x:target", ns) is not None]
    want = sum(len(re.findall(r"(?<![\w-])Flugzeugmodus(?![\w-])", t)) for t in targets)
    assert want >= 3
    assert sum(d["code"] == "term-forbidden" for d in terms(diags)) == want
    # TMX (en-US → fr-FR): "file" → "fichier"; "dossier" forbidden
    tmx = tmp_path / "memory.tmx"
    shutil.copy(DATA / "tmx" / "sample.tmx", tmx)
    g2 = tmp_path / "fr.csv"
    g2.write_text("en,fr,status\nfile,fichier,\nfile,dossier,forbidden\n", encoding="utf-8")
    _rc, diags, _ = run(str(tmx), "--no-config", "--glossary", str(g2))
    segs = [s.text for tu in ET.parse(tmx).getroot().iter("tu") for tuv in tu.findall("tuv")
            if tuv.get("{http://www.w3.org/XML/1998/namespace}lang") == "fr-FR" for s in tuv.findall("seg")]
    assert sum(d["code"] == "term-forbidden" for d in terms(diags)) == sum(bool(re.search(r"\bdossiers?\b", s or "")) for s in segs) == 2
    # the Spanish targets of the same units are in another language than the glossary's: not checked
    assert not any(d["code"] == "term-missing" for d in terms(diags))
    # subtitles: no source, so a forbidden term is all there is to find
    vtt = tmp_path / "sintel.de.vtt"
    shutil.copy(DATA / "subtitles" / "sintel-de.vtt", vtt)
    g3 = tmp_path / "de.csv"
    g3.write_text("en,de,status\nblade,Schwert,\nblade,Klinge,forbidden\n", encoding="utf-8")
    _rc, diags, _ = run(str(vtt), "--no-config", "--glossary", str(g3))
    text = vtt.read_text(encoding="utf-8")
    want_lines = [i + 1 for i, line in enumerate(text.split("\n")) if re.search(r"\bKlinge\b", line)]
    assert [d["line"] for d in terms(diags)] == want_lines and want_lines


def test_a_glossary_that_cannot_be_used_is_one_warning_and_the_other_checks_go_on(tmp_path):
    (tmp_path / "a.src").write_text("Open the file 3 times.\n", encoding="utf-8")
    (tmp_path / "a.hyp").write_text("Öffne die Datei 4 Mal.\n", encoding="utf-8")
    bad = tmp_path / "broken.csv"
    bad.write_bytes(b"en,de\nfile,Dat\xe9i\n")
    _rc, diags, err = run(str(tmp_path / "a.hyp"), "--no-config", "--glossary", str(bad))
    assert "Traceback" not in err
    said = [d for d in diags if d["code"] in TERMS]
    assert len(said) == 1 and said[0]["severity"] == "warning" and said[0]["line"] == 1
    assert said[0]["message"].startswith("Glossary not used: ") and "broken.csv" in said[0]["message"]
    assert any(d["code"] == "number-mismatch" for d in diags)
