"""``plural-categories`` on the plural groups of key-value localization files: Android ``<plurals>``,
i18next v4 suffixes, ``.stringsdict`` plural rules and String Catalog plural variations, each group's
categories against its language's CLDR categories.

The oracles: Babel's own ``Locale(lang).plural_form`` (its ``tags``, and the category it gives each
whole number 0…999: what a language needs), the files read apart from the project's readers
(ElementTree, ``json``, ``plistlib``).  The real files: an Android app's Russian and Polish strings at
a commit where their plurals lack ``many`` and at a later one where they are complete (with Arabic's
six), Actual Budget's i18next files (Russian without ``_other``, Arabic's six forms, Czech), a macOS
extension's ``.stringsdict`` (English and Russian, each with Apple's optional ``zero``)."""

from __future__ import annotations

import io
import json
import plistlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Optional

import pytest
from babel import Locale

from bleu_ls.cli.check import main as check_main
from bleu_ls.config.settings import Settings
from bleu_ls.formats.keyed import fill_sources
from bleu_ls.formats.l10n_paths import PATH_LANGUAGE, path_language
from bleu_ls.formats.live.keyed import KeyedRereadIndex
from bleu_ls.formats.read import read_document
from bleu_ls.formats.xcstrings import read_xcstrings
from bleu_ls.qa.formats.format_checks import findings_for, severities
from bleu_ls.qa.formats.live_checks import LiveChecks
from bleu_ls.qa.text.plurals import forms_sentence

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
ANDROID_2018 = DATA / "android" / "updater-2018" / "res"
ANDROID = DATA / "android" / "updater" / "res"
ACTUAL = DATA / "json" / "actual" / "locales"
MIGHTY = DATA / "apple" / "mightytabrefresh"
ORDER = ("zero", "one", "two", "few", "many", "other")


# --- the oracle -------------------------------------------------------------------------------------
def expected(lang: str, present: list[str], optional: tuple[str, ...] = (), ordinal: bool = False) -> tuple[list, list]:
    """(missing, extra) by Babel alone: needed = the categories of the whole numbers 0…999 and ``other``;
    extra = what is not among the rule's tags, ``other`` or the ``optional`` ones."""
    loc = Locale.parse(lang.replace("-", "_"))
    rule = loc.ordinal_form if ordinal else loc.plural_form
    needed = {rule(n) for n in range(1000)} | {"other"}
    allowed = set(rule.tags) | {"other"} | set(optional)
    return ([c for c in ORDER if c in needed and c not in present],
            [c for c in ORDER if c in present and c not in allowed] + [c for c in present if c not in ORDER])


def plural_findings(doc, text: Optional[str] = None) -> list:
    return [f for f in findings_for(doc, Settings(), text=text) if f.code == "plural-categories"]


def read_at(path: Path):
    """A file read as ``check`` reads it: its place's language noted."""
    doc = read_document(str(path))
    lang = path_language(path)
    if lang:
        doc.header[PATH_LANGUAGE] = lang
    return doc


def check_json(path: Path) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--no-config"], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return pair["diagnostics"]


# --- the places ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, lang", [
    ("app/src/main/res/values-ru/strings.xml", "ru"),
    ("res/values-b+sr+Latn/strings.xml", "sr-Latn"),
    ("res/values-pt-rBR/strings.xml", "pt-BR"),
    ("res/values/strings.xml", None),
    ("res/values-night/strings.xml", None),
    ("App/ru.lproj/Localizable.stringsdict", "ru"),
    ("App/Base.lproj/Localizable.stringsdict", None),
    ("public/locales/pl/translation.json", "pl"),
    ("src/i18n/ar.json", "ar"),
    ("ext/_locales/uk/messages.json", "uk"),
    ("lib/l10n/app_cs.arb", "cs"),
    ("config/settings.json", None),
    ("strings.xml", None),
])
def test_the_language_a_place_names(path, lang):
    assert path_language(path) == lang


def test_the_sentence_names_missing_and_extra_categories_and_the_language():
    assert forms_sentence(["few", "many"], ["two"], "ru") == \
        "Plural forms for “ru”: missing few, many (CLDR); has “two”, which Russian does not use."
    assert forms_sentence([], ["few", "many"], "pt-BR") == \
        "Plural forms for “pt-BR”: has “few”, “many”, which Portuguese does not use."
    assert forms_sentence(["one"], [], "en", ordinal=True).startswith("Ordinal plural forms for “en”: missing one")


# --- Android ------------------------------------------------------------------------------------------
def _android_groups(path: Path) -> dict[str, list[str]]:
    root = ET.parse(path).getroot()
    return {p.get("name"): [i.get("quantity") for i in p.findall("item")] for p in root.iter("plurals")
            if p.get("translatable") != "false"}


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_real_android_plurals_without_many_are_said_by_check_on_their_first_item(lang):
    path = ANDROID_2018 / f"values-{lang}" / "strings.xml"
    groups = _android_groups(path)
    want = {name: expected(lang, q) for name, q in groups.items()}
    assert any(m or e for m, e in want.values())  # (the real file misses a category)
    assert all(m == ["many"] and not e for m, e in want.values())
    lines = path.read_text(encoding="utf-8").split("\n")
    first_item = {}
    for name in groups:
        at = next(i for i, ln in enumerate(lines) if f'<plurals name="{name}"' in ln)
        first_item[name] = next(i for i in range(at + 1, len(lines)) if "<item" in lines[i]) + 1
    got = [d for d in check_json(path) if d["code"] == "plural-categories"]
    assert sorted(d["line"] for d in got) == sorted(first_item[n] for n, (m, e) in want.items() if m or e)
    for d in got:
        assert d["message"] == f"Plural forms for “{lang}”: missing many (CLDR)."
        assert d["severity"] == "warning"


@pytest.mark.parametrize("lang", ["ru", "ar"])
def test_real_complete_android_plurals_have_no_finding(lang):
    path = ANDROID / f"values-{lang}" / "strings.xml"
    groups = _android_groups(path)
    assert len(groups) == 3 and all(expected(lang, q) == ([], []) for q in groups.values())
    assert plural_findings(read_at(path)) == []


def test_android_extra_and_missing_categories_and_no_language_no_check(tmp_path):
    text = ('<resources>\n<plurals name="files">\n<item quantity="one">%d Datei</item>\n'
            '<item quantity="few">%d Dateien</item>\n<item quantity="zero">keine</item>\n</plurals>\n'
            '<plurals name="n" translatable="false"><item quantity="few">x</item></plurals>\n'
            '<string name="s">ok</string>\n</resources>\n')
    de = tmp_path / "res" / "values-de" / "strings.xml"
    de.parent.mkdir(parents=True)
    de.write_text(text, encoding="utf-8")
    [f] = plural_findings(read_at(de))
    m, e = expected("de", ["one", "few", "zero"])
    assert (m, e) == (["other"], ["zero", "few"])
    assert f.message == "Plural forms for “de”: missing other (CLDR); has “zero”, “few”, which German does not use."
    assert f.data["missing"] == m and f.data["extra"] == e and f.data["group"] == "files"
    assert text[f.span[0]:f.span[1]] == "%d Datei"  # on the first item's text
    plain = tmp_path / "res" / "values" / "strings.xml"  # no language in the place: nothing said
    plain.parent.mkdir(parents=True)
    plain.write_text(text, encoding="utf-8")
    assert plural_findings(read_at(plain)) == []


# --- i18next -------------------------------------------------------------------------------------------
_SUFFIX = re.compile(r"(.+?)_(ordinal_)?(zero|one|two|few|many|other)\Z", re.S)


def _flat_keys(value, path=()) -> dict:
    if isinstance(value, str):
        return {".".join(path): value}
    out: dict = {}
    for k, v in (value.items() if isinstance(value, dict) else enumerate(value)):
        out.update(_flat_keys(v, (*path, str(k).replace("\\", "\\\\").replace(".", "\\."))))
    return out


def _i18next_groups(target: dict, source: dict) -> dict[tuple, list[str]]:
    """The documented groups, read from the JSON alone: a base with ``_other`` here or in the source, or
    with ``_few`` / ``_many`` beside another form."""
    groups: dict[tuple, list[str]] = {}
    for k in target:
        m = _SUFFIX.match(k)
        if m:
            groups.setdefault((m.group(1), bool(m.group(2))), []).append(m.group(3))
    src_other = {(m.group(1), bool(m.group(2))) for k in source for m in [_SUFFIX.match(k)] if m and m.group(3) == "other"}
    return {g: c for g, c in groups.items()
            if "other" in c or g in src_other or (len(set(c)) > 1 and {"few", "many"} & set(c))}


@pytest.mark.parametrize("lang", ["ru", "ar", "cs"])
def test_real_i18next_groups_against_cldr(lang):
    path = ACTUAL / f"{lang}.json"
    target = _flat_keys(json.loads(path.read_text(encoding="utf-8")))
    source = _flat_keys(json.loads((ACTUAL / "en.json").read_text(encoding="utf-8")))
    groups = _i18next_groups(target, source)
    assert len(groups) >= 4
    want = {g: expected(lang, c, ("zero",), ordinal=g[1]) for g, c in groups.items()}
    doc = fill_sources(read_at(path), read_document(str(ACTUAL / "en.json")), "en.json")
    got = plural_findings(doc)
    by_base = {f.data["group"]: f for f in got}
    assert len(by_base) == len(got)
    assert set(by_base) == {g[0] for g, (m, e) in want.items() if m or e}
    for (base, _ordinal), (m, e) in want.items():
        if m or e:
            assert (by_base[base].data["missing"], by_base[base].data["extra"]) == (m, e)
    if lang == "ru":  # Russian's _one/_few/_many without _other, in every group
        assert got and all(f.message == "Plural forms for “ru”: missing other (CLDR)." for f in got)
    else:  # Arabic's six forms, Czech's one/few/other (its many is for fractions only)
        assert got == []


def test_i18next_groups_ordinals_zero_and_look_alikes(tmp_path):
    data = {
        "item_one": "{{count}} Element", "item_other": "{{count}} Elemente", "item_zero": "keine Elemente",
        "step_one": "Erster Schritt", "step_two": "Zweiter Schritt",  # not a plural: no _other anywhere
        "place_ordinal_one": "{{count}}.", "place_ordinal_other": "{{count}}.",
        "nested": {"file_one": "eine Datei", "file_few": "Dateien", "file_other": "Dateien"},
    }
    path = tmp_path / "locales" / "de" / "app.json"
    path.parent.mkdir(parents=True)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    path.write_text(text, encoding="utf-8")
    got = {f.data["group"]: f for f in plural_findings(read_at(path))}
    assert set(got) == {"place", "nested.file"}
    assert (got["place"].data["missing"], got["place"].data["extra"]) == expected("de", ["one", "other"], ordinal=True)
    assert got["place"].message == "Ordinal plural forms for “de”: has “one”, which German does not use."
    assert got["nested.file"].data["extra"] == expected("de", ["one", "few", "other"])[1] == ["few"]
    span = got["nested.file"].span
    assert text[span[0]:span[1]] == "eine Datei"


# --- .stringsdict -----------------------------------------------------------------------------------
def _stringsdict_groups(data: bytes) -> dict[tuple, list[str]]:
    out = {}
    for entry, d in plistlib.loads(data).items():
        if not isinstance(d, dict):
            continue
        for var, v in d.items():
            if isinstance(v, dict) and v.get("NSStringFormatSpecTypeKey") == "NSStringPluralRuleType":
                out[(entry, var)] = [k for k in v if not k.startswith("NSString")]
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_real_stringsdict_with_apples_zero_is_clean(lang):
    path = MIGHTY / f"{lang}.lproj" / "Localizable.stringsdict"
    groups = _stringsdict_groups(path.read_bytes())
    assert len(groups) == 3 and all("zero" in c for c in groups.values())
    assert all(expected(lang, c, ("zero",)) == ([], []) for c in groups.values())
    assert plural_findings(read_at(path)) == []


def test_stringsdict_a_form_removed_and_one_copied_from_english(tmp_path):
    ru = (MIGHTY / "ru.lproj" / "Localizable.stringsdict").read_text(encoding="utf-8")
    # the first variable loses its many form (as a translator who copied English's keys would)
    cut = re.sub(r"\s*<key>many</key>\s*<string>[^<]*</string>", "", ru, count=1)
    path = tmp_path / "ru.lproj" / "Localizable.stringsdict"
    path.parent.mkdir()
    path.write_text(cut, encoding="utf-8")
    groups = _stringsdict_groups(cut.encode("utf-8"))
    want = {g: expected("ru", c, ("zero",)) for g, c in groups.items()}
    assert sum(1 for m, e in want.values() if m or e) == 1
    [f] = plural_findings(read_at(path))
    [(g, (m, e))] = [(g, w) for g, w in want.items() if w[0] or w[1]]
    assert f.data["group"] == f"{g[0]}:{g[1]}" and (f.data["missing"], f.data["extra"]) == (m, e) == (["many"], [])
    assert cut[f.span[0]:f.span[1]] == "перезагружать постоянно"  # its first category's string
    # English with a "few" form: dead text
    en = (MIGHTY / "en.lproj" / "Localizable.stringsdict").read_text(encoding="utf-8")
    added = en.replace("<key>other</key>", "<key>few</key>\n<string>%d few</string>\n<key>other</key>", 1)
    path = tmp_path / "en.lproj" / "Localizable.stringsdict"
    path.parent.mkdir()
    path.write_text(added, encoding="utf-8")
    [f] = plural_findings(read_at(path))
    assert f.message == "Plural forms for “en”: has “few”, which English does not use."


def test_stringsdict_width_rules_are_not_plurals(tmp_path):
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>w</key><dict>'
            '<key>NSStringLocalizedFormatKey</key><string>%#@v@</string><key>v</key><dict>'
            '<key>NSStringFormatSpecTypeKey</key><string>NSStringVariableWidthRuleType</string>'
            '<key>20</key><string>short</string><key>50</key><string>a longer one</string></dict></dict></dict></plist>\n')
    path = tmp_path / "ru.lproj" / "Localizable.stringsdict"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    assert _stringsdict_groups(text.encode()) == {}
    assert plural_findings(read_at(path)) == []


# --- String Catalogs --------------------------------------------------------------------------------
def _unit(value: str) -> dict:
    return {"stringUnit": {"state": "translated", "value": value}}


def _plural(**forms) -> dict:
    return {"variations": {"plural": {k: _unit(v) for k, v in forms.items()}}}


CATALOG = {
    "sourceLanguage": "en",
    "version": "1.0",
    "strings": {
        "%lld files": {"localizations": {
            "en": _plural(one="%lld file", other="%lld files"),
            "ru": _plural(one="%lld файл", few="%lld файла", other="%lld файлов"),
            "de": _plural(zero="keine Dateien", one="%lld Datei", few="%lld Dateien", other="%lld Dateien"),
            "ar": _plural(zero="لا ملفات", one="ملف", two="ملفان", few="%lld ملفات", many="%lld ملفًا", other="%lld ملف"),
        }},
        "Tap": {"localizations": {
            "ru": {"variations": {"device": {
                "iphone": _plural(one="%lld касание", few="%lld касания", many="%lld касаний", other="%lld касания"),
                "mac": _plural(one="%lld щелчок", other="%lld щелчков"),
            }}},
        }},
        "%lld in %lld": {"localizations": {
            "pl": {"stringUnit": {"state": "translated", "value": "%#@a@ w %#@b@"},
                   "substitutions": {
                       "a": {"argNum": 1, "formatSpecifier": "lld", **_plural(one="%arg plik", few="%arg pliki", many="%arg plików", other="%arg pliku")},
                       "b": {"argNum": 2, "formatSpecifier": "lld", **_plural(one="%arg folderze", other="%arg folderach")},
                   }},
        }},
        "Plain": {"localizations": {"ru": {"stringUnit": {"state": "translated", "value": "Просто"}}}},
    },
}


def _catalog_groups(cat: dict) -> dict[tuple, list[str]]:
    """(language, key, where) -> categories, read from the JSON: each plural variation under a
    localization, a device variation or a substitution."""
    out: dict[tuple, list[str]] = {}

    def walk(node: dict, lang: str, key: str, where: str) -> None:
        var = node.get("variations", {})
        if "plural" in var:
            out[(lang, key, where)] = list(var["plural"])
        for dev, sub in var.get("device", {}).items():
            walk(sub, lang, key, f"{where}/device:{dev}" if where else f"device:{dev}")
        for name, sub in node.get("substitutions", {}).items():
            walk(sub, lang, key, f"{where}/{name}" if where else name)

    for key, entry in cat["strings"].items():
        for lang, loc in entry.get("localizations", {}).items():
            if lang != cat["sourceLanguage"]:
                walk(loc, lang, key, "")
    return out


def test_string_catalog_plural_variations_per_language_device_and_substitution():
    text = json.dumps(CATALOG, ensure_ascii=False, indent=2)
    groups = _catalog_groups(CATALOG)
    assert len(groups) == 7
    want = {g: expected(g[0], c, ("zero",)) for g, c in groups.items()}
    doc = read_xcstrings(text)
    got = plural_findings(doc, text)
    assert len(got) == sum(1 for m, e in want.values() if m or e) == 4
    by = {(f.data["language"], f.data["group"]): f for f in got}
    for (lang, key, where), (m, e) in want.items():
        name = f"{key}[{where}]" if where else key
        if m or e:
            f = by[(lang, name)]
            assert (f.data["missing"], f.data["extra"]) == (m, e)
        else:
            assert (lang, name) not in by
    assert by[("ru", "%lld files")].message == "Plural forms for “ru”: missing many (CLDR)."
    assert by[("de", "%lld files")].message == "Plural forms for “de”: has “few”, which German does not use."  # zero: Apple's
    assert by[("ru", "Tap[device:mac]")].data["missing"] == ["few", "many"]
    assert by[("pl", "%lld in %lld[b]")].data["missing"] == ["few", "many"]
    f = by[("ru", "%lld files")]
    assert text[f.span[0]:f.span[1]] == "%lld файл"


def test_real_catalog_without_plurals_and_no_inconsistency_findings():
    path = DATA / "apple" / "maccy" / "Localizable.xcstrings"
    doc = read_document(str(path))
    assert _catalog_groups(json.loads(path.read_text(encoding="utf-8"))) == {}
    assert findings_for(doc, Settings()) == []


# --- in step with edits (the server's live checks) ------------------------------------------------------
def test_live_checks_follow_edits_as_the_whole_check_says():
    path = ANDROID / "values-ru" / "strings.xml"
    text = path.read_text(encoding="utf-8")
    sev = severities(Settings().diagnostics)
    index = KeyedRereadIndex("android", text)
    live = LiveChecks("android", sev, language="ru")
    live.full(index)

    def live_plural() -> set:
        return {(index.segment(i).key, f.message) for i in range(len(index)) for f in live.at(i)
                if f.code == "plural-categories"}

    def whole(t: str) -> set:
        doc = read_document_text(t)
        return {(f.data["group"], f.message) for f in plural_findings(doc, t)}

    assert live_plural() == set() == whole(text)
    # the many item of eta_minutes removed: its first item gets the finding
    a = text.index('<plurals name="eta_minutes">')
    m = text.index('<item quantity="many">', a)
    b = text.index("\n", m) + 1
    change = index.edit(m, b, "")
    live.update(index, change)
    cut = text[:m] + text[b:]
    assert live_plural() == {("eta_minutes[one]", "Plural forms for “ru”: missing many (CLDR).")}
    assert {msg for _g, msg in whole(cut)} == {msg for _k, msg in live_plural()}
    # a "two" item typed in: the finding says both
    at = cut.index('<item quantity="one">', a)
    new = '<item quantity="two">два</item>\n        '
    change = index.edit(at, at, new)
    live.update(index, change)
    both = cut[:at] + new + cut[at:]
    msg = "Plural forms for “ru”: missing many (CLDR); has “two”, which Russian does not use."
    assert live_plural() == {("eta_minutes[two]", msg)}
    assert whole(both) == {("eta_minutes", msg)}
    # put back as it was: nothing
    change = index.edit(0, len(both), text)
    live.update(index, change)
    assert live_plural() == set()


def read_document_text(text: str):
    from bleu_ls.formats.android import read_android_text

    doc = read_android_text(text)
    doc.header[PATH_LANGUAGE] = "ru"
    return doc
