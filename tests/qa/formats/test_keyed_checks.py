"""The placeholders of each localization JSON syntax, and the keyed checks on segments with sources."""

from __future__ import annotations

from pathlib import Path

from bleu_ls.formats.keyed import fill_sources
from bleu_ls.formats.l10n_json import read_arb, read_json, read_webext
from bleu_ls.formats.l10n_paths import arb_sources, is_json, is_webext, json_sources, lang_of, webext_sources
from bleu_ls.qa.formats.keyed_checks import (DEFAULT_SEVERITY, check_document, icu_placeholders, json_placeholders,
                                              webext_placeholders)


def names(found) -> list[str]:
    return [p for p, _a, _b in found]


def test_i18next_vue_ngx_placeholders() -> None:
    text = "Hi {{ name }}, {{count, number}} new $t(common.items) for {user} {{- raw}}"
    assert names(json_placeholders(text)) == ["{{name}}", "{{count}}", "$t(common.items)", "{user}", "{{raw}}"]
    for p, a, b in json_placeholders(text):
        assert text[a:b].replace(" ", "").replace("-", "").startswith(p[:3])
    assert json_placeholders("no placeholders {} here") == []


def test_icu_arguments_by_name_with_plural_and_quoting() -> None:
    msg = "{count, plural, =0{No items} one{{count} item for {name}} other{{count} items}} '{quoted}' it''s {when, date, short}"
    assert sorted(set(names(icu_placeholders(msg)))) == ["{count}", "{name}", "{when}"]
    assert names(icu_placeholders(msg)).count("{count}") == 3
    assert names(icu_placeholders("{sex, select, male{He} female{She} other{They}} said")) == ["{sex}"]
    assert icu_placeholders("'{literal}' text") == []
    assert names(icu_placeholders("{broken, plural, one{x")) == ["{broken}"]  # lenient: what was read


def test_webext_placeholders() -> None:
    assert names(webext_placeholders("Hello $USER$ and $user$, $1 of $2; $$ costs 10$")) == ["$USER$", "$USER$", "$1",
                                                                                           "$2"]


def _paired(reader, src: str, tgt: str):
    doc = reader(tgt)
    fill_sources(doc, reader(src), "en")
    return doc


def test_checks_per_syntax() -> None:
    sev = dict(DEFAULT_SEVERITY)
    doc = _paired(read_arb, '{"a": "{n, plural, one{1 file} other{{n} files}}", "b": "Hi {name}"}',
                  '{"a": "{n, plural, one{1 Datei} other{{n} Dateien}}", "b": "Hallo {nom}"}')
    found = sorted((f.code, f.key or doc.text[f.span[0]:f.span[1]]) for f in check_document(doc, sev, icu_placeholders))
    assert found == [("placeholders-extra", "{nom}"), ("placeholders-missing", "Hallo {nom}")]
    doc = _paired(read_webext, '{"m": {"message": "Open $SITE$"}}', '{"m": {"message": "$site$ öffnen"}}')
    assert check_document(doc, sev, webext_placeholders) == []
    doc = _paired(read_json, '{"a": "OK", "b": "42 %", "c": "", "e": "Hi"}', '{"a": "OK", "b": "42 %", "c": "", "d": "x", "e": ""}')
    found = sorted((f.code, f.key or doc.text[f.span[0]:f.span[1]]) for f in check_document(doc, sev, json_placeholders))
    # "42 %" has no letter: not said; "c" empty on both sides: nothing; "e" emptied: target-empty
    assert found == [("key-extra", "d"), ("target-empty", ""), ("target-same-as-source", "OK")]
    doc = _paired(read_json, '{"a": "Hello"}', '{}')
    [f] = check_document(doc, sev, json_placeholders)
    assert f.code == "key-missing" and f.span == (0, 0)


def test_paths_and_source_candidates(tmp_path: Path) -> None:
    assert is_json("src/locales/de/common.json") and not is_json("src/locales/de/notes.txt")
    assert lang_of("i18n/pt-BR.json") == "pt-BR" and lang_of("lib/l10n/app_de.arb") == "de"
    assert json_sources(Path("public/locales/de/translation.json"), None) == [Path("public/locales/en/translation.json")]
    assert json_sources(Path("i18n/fr.json"), "en-GB") == [Path("i18n/en-GB.json")]
    assert json_sources(Path("i18n/en.json"), None) == []  # the source itself
    # a WebExtension's default_locale, then the source language
    ext = tmp_path / "ext"
    (ext / "_locales" / "de").mkdir(parents=True)
    (ext / "manifest.json").write_text('{"manifest_version": 3, "default_locale": "en_US"}', encoding="utf-8")
    de = ext / "_locales" / "de" / "messages.json"
    assert is_webext(de)
    assert webext_sources(de, None) == [ext / "_locales" / "en_US" / "messages.json", ext / "_locales" / "en" / "messages.json"]
    (ext / "manifest.json").write_text("{not json", encoding="utf-8")
    assert webext_sources(de, None) == [ext / "_locales" / "en" / "messages.json"]
    # ARB: l10n.yaml's template, then PREFIX_<source>.arb
    (tmp_path / "lib" / "l10n").mkdir(parents=True)
    arb = tmp_path / "lib" / "l10n" / "intl_de.arb"
    assert arb_sources(arb, None) == [tmp_path / "lib" / "l10n" / "intl_en.arb"]
    (tmp_path / "l10n.yaml").write_text('# flutter\narb-dir: lib/l10n\ntemplate-arb-file: "base.arb"\n', encoding="utf-8")
    assert arb_sources(arb, None) == [tmp_path / "lib" / "l10n" / "base.arb", tmp_path / "lib" / "l10n" / "intl_en.arb"]
    (tmp_path / "l10n.yaml").write_text("template-arb-file: ../../etc/passwd\n", encoding="utf-8")
    assert arb_sources(arb, None) == [tmp_path / "lib" / "l10n" / "intl_en.arb"]  # a name only, never a path
