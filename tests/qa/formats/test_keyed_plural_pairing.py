"""A translation's plural entries have the forms of its own language, not the source's: pairing by key
gives a form the source lacks (Russian ``few``) the source's form of the same entry, a source form the
language does without (Japanese ``one``) is not a missing key, and the forms of one entry are not
"the same source translated differently".  What the forms should be is ``plural-categories``' to say.

Real Rails files (activeadmin's Polish, Japanese and Russian ``config/locales``, with the English
source beside them), and an i18next JSON and an Android ``strings.xml`` pair.  The oracle is a
plain reading: ``yaml.safe_load`` for the plural entries (a mapping whose keys are all CLDR category
names, ``other`` among them) and Babel's plural rule over 0–999 for the categories a language needs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml
from babel import Locale

from bleu_ls.cli.check import main as check_main

LOCALES = Path(__file__).resolve().parents[2] / "data" / "formats" / "yaml" / "activeadmin-plurals" / "config" / "locales"
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
PLURAL_CODES = ("key-extra", "key-missing", "inconsistent-translation", "plural-categories")


def plural_entries(path: Path) -> dict[str, set[str]]:
    """dotted path of each plural entry -> its categories, by yaml.safe_load."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    [root] = data.values()
    out: dict[str, set[str]] = {}

    def walk(node, at: list[str]) -> None:
        if not isinstance(node, dict):
            return
        keys = {str(k) for k in node}
        if keys and keys <= CATEGORIES and "other" in keys:
            out[".".join(at)] = keys
            return
        for k, v in node.items():
            walk(v, at + [str(k)])

    walk(root, [])
    return out


def needed(language: str) -> set[str]:
    rule = Locale.parse(language).plural_form
    return {rule(n) for n in range(1000)} | {"other"}


def findings(path: Path, root: Path) -> list[dict]:
    (root / "bleu-ls.toml").write_text("[diagnostics.adequacy]\nenabled = false\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return pair["diagnostics"]


def _key_of(message: str) -> str:
    return message.split('key "', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("language", ["pl", "ja", "ru"])
def test_rails_plural_entries(tmp_path, language):
    path = LOCALES / f"{language}.yml"
    mine, source = plural_entries(path), plural_entries(LOCALES / "en.yml")
    both = set(mine) & set(source)
    assert both  # each file shares plural entries with the English source
    diags = findings(path, tmp_path)
    # no form of an entry both files have is called extra or missing
    named = [_key_of(d["message"]) for d in diags if d["code"] in ("key-extra", "key-missing")]
    assert not [k for k in named if k.rpartition(".")[0] in both], named
    # the forms of one entry are never each other's inconsistency
    lines = path.read_text(encoding="utf-8").split("\n")
    for d in diags:
        if d["code"] == "inconsistent-translation":
            others = d["message"].split(" differently in ", 1)[1].rstrip(".…").split(", ")
            here = lines[d["line"] - 1].strip().split(":", 1)[0]
            assert not (here in CATEGORIES and any(o.rpartition(".")[2] in CATEGORIES and o.rpartition(".")[2] != here
                                                    for o in others)), d
    # plural-categories: exactly the entries whose forms are not the language's (Rails allows `zero` anywhere)
    want = needed(language)
    wrong = {e for e, cats in mine.items() if (want - cats) or (cats - want - {"zero"} - set(Locale.parse(language).plural_form.tags))}
    said = [d for d in diags if d["code"] == "plural-categories"]
    assert len(said) == len(wrong), (said, wrong)
    if language == "pl":
        assert wrong == {"active_admin.pagination.entry"} and "missing few, many" in said[0]["message"]
    if language == "ja":
        assert len(wrong) == 2 and all("“one”" in d["message"] for d in said)
    if language == "ru":
        assert not wrong and not said


def _pair(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


JSON_EN = {"item_one": "{{count}} item", "item_other": "{{count}} items", "title": "Items"}
JSON_RU = {"item_one": "{{count}} предмет", "item_few": "{{count}} предмета", "item_many": "{{count}} предметов",
           "item_other": "{{count}} предмета", "title": "Предметы"}
JSON_JA = {"item_other": "{{count}} 個", "title": "アイテム"}


@pytest.mark.parametrize("language,target", [("ru", JSON_RU), ("ja", JSON_JA)])
def test_i18next_plurals(tmp_path, language, target):
    _pair(tmp_path, {"locales/en/translation.json": json.dumps(JSON_EN),
                     f"locales/{language}/translation.json": json.dumps(target, ensure_ascii=False, indent=2)})
    diags = findings(tmp_path / f"locales/{language}/translation.json", tmp_path)
    assert not [d for d in diags if d["code"] in PLURAL_CODES], diags
    # a form that lost its placeholder is still said: it is compared with the source's `other`
    broken = dict(target, item_other=target["item_other"].replace("{{count}} ", ""))
    _pair(tmp_path, {f"locales/{language}/translation.json": json.dumps(broken, ensure_ascii=False, indent=2)})
    assert [d["code"] for d in findings(tmp_path / f"locales/{language}/translation.json", tmp_path)
            if d["code"].startswith("placeholders")] == ["placeholders-missing"]


def test_android_plurals_and_a_truly_extra_key(tmp_path):
    en = ('<resources>\n<plurals name="items"><item quantity="one">%d item</item>'
          '<item quantity="other">%d items</item></plurals>\n</resources>\n')
    ru = ('<resources>\n<plurals name="items"><item quantity="one">%d предмет</item>'
          '<item quantity="few">%d предмета</item><item quantity="many">%d предметов</item>'
          '<item quantity="other">%d предмета</item></plurals>\n'
          '<plurals name="gone"><item quantity="few">%d старых</item></plurals>\n</resources>\n')
    _pair(tmp_path, {"res/values/strings.xml": en, "res/values-ru/strings.xml": ru})
    diags = findings(tmp_path / "res/values-ru/strings.xml", tmp_path)
    # the entry the source no longer has is still extra; the forms of `items` are not
    assert sorted(_key_of(d["message"]) for d in diags if d["code"] == "key-extra") == ["gone[few]"]
    assert not [d for d in diags if d["code"] in ("key-missing", "inconsistent-translation")], diags
