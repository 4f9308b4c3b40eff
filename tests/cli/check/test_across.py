"""`bleu-ls check` over several files: one translation standing for one source in
a file and for another source in a second file of the same language is an
`inconsistent-source` finding in each (after the files' own findings)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polib

from bleu_ls.cli.check import main

FORMATS = Path(__file__).resolve().parents[2] / "data" / "formats"
END_PUNCT = ".:!?…;,"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def pairs_json(*paths, flags=("--no-config",)) -> dict[str, list[dict]]:
    rc, out, err = run(*map(str, paths), "--format", "json", "--fail-on", "never", *flags)
    assert rc == 0, err
    return {p["hypothesis"]: p["diagnostics"] for p in json.loads(out)["pairs"]}


def across(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["code"] == "inconsistent-source" and "another file" in d["message"]]


def po(path: Path, lang: str, entries: list[tuple[str, str]]) -> Path:
    body = [f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n']
    body += [f'msgid "{s}"\nmsgstr "{t}"\n' for s, t in entries]
    path.write_text("\n".join(body), encoding="utf-8")
    return path


def test_one_translation_for_two_sources_in_two_files(tmp_path):
    a = po(tmp_path / "a.po", "de", [("Save", "Speichern"), ("Open", "Öffnen")])
    b = po(tmp_path / "b.po", "de", [("Store", "Speichern"), ("Open", "Öffnen")])
    got = pairs_json(a, b)
    [fa] = across(got[str(a)])  # (outside the current folder: shown as given)
    [fb] = across(got[str(b)])
    assert "“Store”" in fa["message"] and "b.po" in fa["message"]
    assert "“Save”" in fb["message"] and "a.po" in fb["message"]
    # on the target's characters in its file
    lines = a.read_text(encoding="utf-8").split("\n")
    assert lines[fa["line"] - 1][fa["column"] - 1:fa["endColumn"] - 1] == "Speichern"
    assert fa["severity"] == "information"


def test_not_across_languages_nor_within_one_file_nor_when_off(tmp_path):
    a = po(tmp_path / "a.po", "de", [("Save", "Speichern"), ("Keep", "Speichern")])  # within the file: its own
    fr = po(tmp_path / "fr.po", "fr", [("Store", "Speichern")])                      # another language
    same = po(tmp_path / "same.po", "de-DE", [("save:", "Speichern")])              # the same source ("Save")
    got = pairs_json(a, fr, same)
    in_a, in_fr, in_same = (across(d) for d in got.values())
    own = [d for d in next(iter(got.values())) if d["code"] == "inconsistent-source"]
    assert len(own) == 2  # the file's own check names the other entry of the file
    assert in_a == [] and in_fr == []  # a has "Save" itself ("save:" is the same source); fr is French
    [one] = in_same  # a uses the translation for "Keep" as well
    assert "“Keep” (" in one["message"] and "a.po" in one["message"]
    b = po(tmp_path / "b.po", "de", [("Store", "Speichern")])
    assert sum(len(across(d)) for d in pairs_json(a, b).values()) == 3
    (tmp_path / "bleu-ls.toml").write_text("[diagnostics.inconsistent-source]\nenabled = false\n", encoding="utf-8")
    assert sum(len(across(d)) for d in pairs_json(a, b, flags=()).values()) == 0


def test_line_files_with_their_sources(tmp_path):
    for name, src, hyp in (("a", "Save\nOpen\n", "Speichern\nÖffnen\n"), ("b", "Store\nClose\n", "Speichern\nSchließen\n")):
        (tmp_path / f"{name}.src").write_text(src, encoding="utf-8")
        (tmp_path / f"{name}.hyp").write_text(hyp, encoding="utf-8")
    rc, out, err = run(str(tmp_path / "a.hyp"), str(tmp_path / "b.hyp"), "--no-config", "--fail-on", "never")
    lines = [ln for ln in out.splitlines() if "another file" in ln]
    assert len(lines) == 2, out + err
    assert lines[0].startswith(f"{tmp_path / 'a.hyp'}:1:1: information:") and "“Store” (" in lines[0]
    assert "line 1" in lines[0]


def _items(path: Path) -> list[tuple[object, str, str]]:
    """(plural form, target, source) of every entry form with a target, read with polib."""
    out = []
    for e in polib.pofile(str(path)):
        if e.obsolete or not e.msgid:
            continue
        if e.msgid_plural:
            for i, t in sorted(e.msgstr_plural.items()):
                out.append((i, t, e.msgid if i == 0 else e.msgid_plural))
        else:
            out.append((None, e.msgstr, e.msgid))
    return [(f, " ".join(t.split()), s) for f, t, s in out if t.strip() and s.strip()]


def _identity(source: str) -> str:
    return " ".join(source.split()).casefold().rstrip(END_PUNCT).rstrip()


def test_two_revisions_of_a_real_catalogue_against_polib():
    """The German allauth catalogue before and after its translators' review: every form
    whose translation the other revision uses for another source, counted with polib."""
    old, new = FORMATS / "po" / "allauth-de-2023-10-07.po", FORMATS / "po" / "allauth-de-2023-11-03.po"
    items = {old: _items(old), new: _items(new)}
    sources = {}
    for path in (old, new):
        sources[path] = {}
        for f, t, s in items[path]:
            sources[path].setdefault((f, t), set()).add(_identity(s))
    expected = {}
    for path, other in ((old, new), (new, old)):
        # a form is named when the other revision uses its translation for a source this one does not
        expected[path] = sum(1 for f, t, s in items[path] if sources[other].get((f, t), set()) - sources[path][(f, t)])
    got = pairs_json(old, new)
    counts = {p: len(across(d)) for p, d in got.items()}
    assert sorted(counts.values()) == sorted(expected.values())
    assert min(expected.values()) > 0
