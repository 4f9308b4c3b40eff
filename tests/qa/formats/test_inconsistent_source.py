"""``inconsistent-source``: one translation used for different sources, held to a plain reading
of real files (polib, ElementTree) grouped by target in the test itself."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import polib

from bleu_ls.cli.check import main
from bleu_ls.qa.formats.xml_checks import other_sources_message, source_identity

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"


def _flagged(path: Path) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    main([str(path), "--no-config", "--format", "json"], out=out, err=err)
    [pair] = json.loads(out.getvalue())["pairs"]
    return [d for d in pair["diagnostics"] if d["code"] == "inconsistent-source"]


def _norm(text: str) -> str:
    return " ".join(text.split()).lower().rstrip(".:!?…;,").rstrip()


def test_a_catalogue_flags_the_entries_polib_groups_under_one_translation_with_different_sources():
    path = DATA / "po" / "allauth-de-2023-11-03.po"
    entries = [e for e in polib.pofile(str(path)) if not e.obsolete and e.msgstr.strip()]
    by_target: dict[str, list[polib.POEntry]] = {}
    for e in entries:
        by_target.setdefault(" ".join(e.msgstr.split()), []).append(e)
    want = sorted(e.linenum for g in by_target.values() if len({_norm(x.msgid) for x in g}) > 1 for e in g)
    got = _flagged(path)
    assert want and len(got) == len(want)
    # each finding sits on its entry's msgstr line: the line after the entry's msgid (one-line msgids here)
    lines = path.read_text(encoding="utf-8").split("\n")
    for d in got:
        assert lines[d["line"] - 1].startswith("msgstr"), d
    # "Sign Up" and "Signup" share "Registrieren": each names the other
    signup = [d for d in got if "“Signup”" in d["message"] or "“Sign Up”" in d["message"]]
    assert len(signup) >= 2


def test_an_xliff_file_against_elementtree():
    path = DATA / "xliff" / "modernflyouts.de.postedit.xlf"
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    units = ET.parse(path).getroot().findall(".//x:trans-unit", ns)
    by_target: dict[str, set[str]] = {}
    for u in units:
        t, s = u.find("x:target", ns), u.find("x:source", ns)
        if t is not None and "".join(t.itertext()).strip():
            by_target.setdefault(" ".join("".join(t.itertext()).split()), set()).add(_norm("".join(s.itertext())))
    want = sum(1 for srcs in by_target.values() if len(srcs) > 1)
    got = _flagged(path)
    assert want == 1 and len(got) == 2  # one translation, two units
    assert {d["message"].split("“")[1].split("”")[0] for d in got} == {"Stop", "Exit"}


def test_sources_that_differ_only_in_case_space_or_end_punctuation_are_one():
    assert source_identity("Save:") == source_identity("save") == source_identity("  Save  ")
    assert source_identity("Sign Up") != source_identity("Signup")
    assert other_sources_message([("a", "Open"), ("k\x04b", "Close")]) == (
        "The same translation stands for another source: “Open” (a), “Close” (k|b).")
