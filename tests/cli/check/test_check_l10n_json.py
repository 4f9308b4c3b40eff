"""`bleu-ls check` on localization JSON (i18next, ARB): the source-language file found by the
format's convention (or a [[pairs]] rule), the values checked against it, the keys it has and the
file lacks (and the other way round) said.  The oracle is ``json.loads`` on the same files."""

from __future__ import annotations

import io
import json
import shutil
from collections import Counter
from pathlib import Path

from bleu_ls.cli.check import main

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "json"
EX = DATA / "excalidraw" / "locales"
YUBI = DATA / "yubioath"


def check(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def checked(path: Path, *flags: str) -> tuple[dict, str]:
    rc, out, err = check(str(path), "--format", "json", *(flags or ("--no-config",)))
    assert rc in (0, 1), err
    [pair] = json.loads(out)["pairs"]
    return pair, err


def _flat(value, path=()) -> dict:
    if isinstance(value, str):
        return {".".join(path): value}
    out: dict = {}
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        out.update(_flat(v, (*path, str(k).replace("\\", "\\\\").replace(".", "\\."))))
    return out


def _codes(pair: dict) -> Counter:
    return Counter(d["code"] for d in pair["diagnostics"])


def test_real_i18next_file_finds_its_source_and_says_the_empty_values() -> None:
    pair, err = checked(EX / "de-DE.json")
    assert pair["source"].endswith("excalidraw/locales/en.json")
    de = _flat(json.loads((EX / "de-DE.json").read_text(encoding="utf-8")))
    en = _flat(json.loads((EX / "en.json").read_text(encoding="utf-8")))
    codes = _codes(pair)
    assert codes["target-empty"] == sum(1 for k, v in de.items() if not v.strip() and en.get(k, "").strip())
    assert codes["key-missing"] == len(en.keys() - de.keys())
    assert codes["key-extra"] == len(de.keys() - en.keys())
    same = {k for k, v in de.items() if v and v == en.get(k)}
    said = [d for d in pair["diagnostics"] if d["code"] in ("untranslated", "target-same-as-source")]
    assert 0 < len(said) <= len(same)
    lines = (EX / "de-DE.json").read_text(encoding="utf-8").split("\n")
    for d in said:  # each on a value the source has unchanged
        key = lines[d["line"] - 1].split('"')[1]
        assert any(k.split(".")[-1] == key for k in same), d
    assert pair["segments"]["checked"] == sum(1 for v in de.values() if v)


def test_keys_missing_and_extra(tmp_path: Path) -> None:
    loc = tmp_path / "locales"
    (loc / "en").mkdir(parents=True)
    (loc / "de").mkdir()
    (loc / "en" / "app.json").write_text(json.dumps({
        "title": "Welcome", "items": {"count_one": "{{count}} item", "count_other": "{{count}} items"},
        "gone": "Removed soon", "nested": {"deep": "Deep text"}}, indent=2), encoding="utf-8")
    de = '{\n  "title": "Willkommen",\n  "items": {"count_one": "ein Eintrag", "count_other": "{{count}} Einträge {{extra}}"},\n  "old": "Alt"\n}\n'
    (loc / "de" / "app.json").write_text(de, encoding="utf-8")
    pair, _ = checked(loc / "de" / "app.json")
    found = sorted((d["code"], d["line"], d["column"]) for d in pair["diagnostics"]
                   if d["code"] in ("key-missing", "key-extra", "placeholders-missing", "placeholders-extra"))
    extra_col = de.split("\n")[2].index("{{extra}}") + 1
    after = de.split("\n")[2].index("{{count}} Einträge") + 1
    assert found == [
        ("key-extra", 4, 11),  # "old": on its value
        ("key-missing", 3, after), ("key-missing", 3, after),  # gone, nested.deep: after items.count_other
        ("placeholders-extra", 3, extra_col),
        ("placeholders-missing", 3, de.split("\n")[2].index("ein Eintrag") + 1),
    ]
    missing = [d["message"] for d in pair["diagnostics"] if d["code"] == "key-missing"]
    assert any('"nested.deep"' in m and "Deep text" in m and m.startswith("After this value") for m in missing)
    # a key the source has before every key of the file: said before the first value
    (loc / "de" / "app.json").write_text('{"gone": "Bald weg"}', encoding="utf-8")
    pair, _ = checked(loc / "de" / "app.json")
    first = [(d["line"], d["message"]) for d in pair["diagnostics"] if d["code"] == "key-missing"]
    assert [m.split(",")[0] for _, m in first] == ['Before this value'] * 3 + ['After this value']
    assert {ln for ln, _ in first} == {1}


def test_no_source_file_is_a_warning_and_the_values_are_checked_alone(tmp_path: Path) -> None:
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "fr.json").write_text('{"a": "Bonjour"}', encoding="utf-8")
    pair, err = checked(tmp_path / "i18n" / "fr.json")
    assert "no source-language file found" in err and "i18n/en.json" in err
    assert pair["source"] is None and not _codes(pair)["key-missing"]


def test_source_language_setting_and_a_rule_override(tmp_path: Path) -> None:
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "fr.json").write_text('{"a": "Bonjour", "b": "Monde"}', encoding="utf-8")
    (tmp_path / "i18n" / "en-GB.json").write_text('{"a": "Hello"}', encoding="utf-8")
    (tmp_path / "master.json").write_text('{"a": "Hello", "b": "World", "c": "Sea"}', encoding="utf-8")
    (tmp_path / "bleu-ls.toml").write_text('[terms]\nsourceLanguage = "en-GB"\n', encoding="utf-8")
    pair, _ = checked(tmp_path / "i18n" / "fr.json", "--config", str(tmp_path / "bleu-ls.toml"))
    assert pair["source"].endswith("i18n/en-GB.json") and _codes(pair)["key-extra"] == 1
    # a rule names the source (and a reference: the approved translation, paired by key and scored)
    (tmp_path / "approved" / "i18n").mkdir(parents=True)
    (tmp_path / "approved" / "i18n" / "fr.json").write_text('{"b": "Le monde", "a": "Bonjour"}', encoding="utf-8")
    (tmp_path / "bleu-ls.toml").write_text(
        '[[pairs]]\nhypothesis = "i18n/*.json"\nreferences = ["approved/i18n/{1}.json"]\nsource = "master.json"\n',
        encoding="utf-8")
    pair, _ = checked(tmp_path / "i18n" / "fr.json", "--config", str(tmp_path / "bleu-ls.toml"))
    assert pair["source"].endswith("master.json") and pair["paired"]
    assert _codes(pair)["key-missing"] == 1 and not _codes(pair)["key-extra"]
    import sacrebleu

    want = sacrebleu.corpus_bleu(["Bonjour", "Monde"], [["Bonjour", "Le monde"]]).score
    assert pair["corpus"]["bleu"]["score"] == want


def test_real_arb_pair_through_l10n_yaml(tmp_path: Path) -> None:
    pair, _ = checked(YUBI / "lib" / "l10n" / "app_de.arb")
    assert pair["source"].endswith("yubioath/lib/l10n/app_en.arb")
    en = json.loads((YUBI / "lib" / "l10n" / "app_en.arb").read_text(encoding="utf-8"))
    de = json.loads((YUBI / "lib" / "l10n" / "app_de.arb").read_text(encoding="utf-8"))
    msgs = lambda d: {k for k, v in d.items() if not k.startswith("@") and isinstance(v, str)}  # noqa: E731
    codes = _codes(pair)
    assert codes["key-missing"] == len(msgs(en) - msgs(de))
    assert codes["key-extra"] == len(msgs(de) - msgs(en))
    # l10n.yaml names the template: another name is followed
    proj = tmp_path / "proj"
    (proj / "lib" / "l10n").mkdir(parents=True)
    shutil.copy(YUBI / "lib" / "l10n" / "app_de.arb", proj / "lib" / "l10n" / "app_de.arb")
    (proj / "lib" / "l10n" / "strings.arb").write_text('{"app_name": "Yubico Authenticator"}', encoding="utf-8")
    (proj / "l10n.yaml").write_text("arb-dir: lib/l10n\ntemplate-arb-file: 'strings.arb'  # the template\n",
                                    encoding="utf-8")
    pair, _ = checked(proj / "lib" / "l10n" / "app_de.arb")
    assert pair["source"].endswith("strings.arb")
    assert _codes(pair)["key-extra"] == len(msgs(de)) - 1


def test_a_malformed_source_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "locales" / "de").mkdir(parents=True)
    (tmp_path / "locales" / "en").mkdir(parents=True)
    (tmp_path / "locales" / "de" / "x.json").write_text('{"a": "b"}', encoding="utf-8")
    (tmp_path / "locales" / "en" / "x.json").write_text('{"a": "b', encoding="utf-8")
    rc, out, err = check(str(tmp_path / "locales" / "de" / "x.json"), "--no-config")
    assert rc == 2 and err.count("\n") == 1 and "locales/en/x.json:1:9" in err and "Traceback" not in err


def test_a_half_typed_target_is_one_error_and_the_values_before_are_checked(tmp_path: Path) -> None:
    (tmp_path / "locales" / "de").mkdir(parents=True)
    (tmp_path / "locales" / "en").mkdir(parents=True)
    (tmp_path / "locales" / "de" / "x.json").write_text('{"a": "Hello", "b": "Wel', encoding="utf-8")
    (tmp_path / "locales" / "en" / "x.json").write_text('{"a": "Hello", "b": "World"}', encoding="utf-8")
    rc, out, err = check(str(tmp_path / "locales" / "de" / "x.json"), "--no-config")
    assert rc == 2 and "Traceback" not in err and "x.json:1:25" in err


def test_a_folder_checks_its_target_languages_not_the_source(tmp_path: Path) -> None:
    shutil.copytree(EX, tmp_path / "locales")
    shutil.copytree(YUBI, tmp_path / "yubi")
    rc, out, err = check(str(tmp_path), "--format", "json", "--no-config")
    assert rc in (0, 1), err
    shown = sorted(Path(p["hypothesis"]).name for p in json.loads(out)["pairs"])
    assert shown == ["app_de.arb", "de-DE.json"]  # en.json and the ARB template are sources
