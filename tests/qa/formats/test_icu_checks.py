"""ICU messages in XLIFF units (Angular's i18n extraction): the real French file has well-formed
translations of its plural and select messages; the same file with one target broken, an
argument renamed, or declared Russian gets one finding of the right code on that unit, whose
target ElementTree finds at the reported line."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from bleu_ls.cli.check import main

ANGULAR = Path(__file__).resolve().parents[2] / "data" / "formats" / "xliff" / "angular.fr.xlf2.xlf"
NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
CODES = {"icu-syntax", "icu-arguments", "plural-categories"}


def icu_findings(path: Path) -> list[dict]:
    out = io.StringIO()
    rc = main([str(path), "--no-config", "--fail-on", "never", "--format", "json"], out=out, err=io.StringIO())
    assert rc == 0
    [pair] = json.loads(out.getvalue())["pairs"]
    return [d for d in pair["diagnostics"] if d["code"] in CODES]


def icu_units(text: str) -> list[tuple[str, str]]:
    """(unit id, target text) of the units whose source is an ICU plural or select, by ElementTree."""
    root = ET.fromstring(text.encode("utf-8"))
    out = []
    for unit in root.iter("{urn:oasis:names:tc:xliff:document:2.0}unit"):
        src = "".join(unit.find(".//x:source", NS).itertext())
        if ", plural," in src or ", select," in src:
            out.append((unit.get("id"), "".join(unit.find(".//x:target", NS).itertext())))
    return out


def test_the_real_file_is_clean(tmp_path):
    text = ANGULAR.read_text(encoding="utf-8")
    assert len(icu_units(text)) == 2  # the messages the check reads
    assert icu_findings(ANGULAR) == []


def _broken(tmp_path, old: str, new: str, lang: str = "fr") -> tuple[list[dict], list[str]]:
    text = ANGULAR.read_text(encoding="utf-8").replace('trgLang="fr"', f'trgLang="{lang}"')
    assert text.count(old) >= 1
    text = text.replace(old, new, 1)
    p = tmp_path / "angular.xlf"
    p.write_text(text, encoding="utf-8")
    return icu_findings(p), text.split("\n")


def test_a_broken_target_a_renamed_argument_and_another_language(tmp_path):
    target = "<target>{VAR_PLURAL, plural, =0 {zero} =1 {un} =2 {deux} other {"
    found, lines = _broken(tmp_path, target, target.replace(" other {", " autre {"))
    [f] = found
    assert f["code"] == "icu-syntax" and "no “other” message" in f["message"]
    assert "{VAR_PLURAL, plural, =0 {zero}" in lines[f["line"] - 1]
    found, lines = _broken(tmp_path, target, target.replace("{VAR_PLURAL,", "{NOMBRE,"))
    [f] = found
    assert f["code"] == "icu-arguments" and f["data"] == {"missing": ["VAR_PLURAL"], "extra": ["NOMBRE"]}
    assert lines[f["line"] - 1][f["column"] - 1:f["endColumn"] - 1].startswith("{NOMBRE, plural")
    # Russian: =0 =1 =2 cover 0, 1 and 2 only; 21 is `one`, 3 `few`, 5 `many`
    found, _ = _broken(tmp_path, 'trgLang="ru"', 'trgLang="ru"', lang="ru")
    cats = [f for f in found if f["code"] == "plural-categories"]
    assert cats and all(f["data"]["missing"] == ["one", "few", "many"] for f in cats)
    assert len(cats) == sum(1 for _u, t in icu_units(ANGULAR.read_text(encoding="utf-8")) if ", plural," in t)


YUBIOATH = Path(__file__).resolve().parents[2] / "data" / "formats" / "json" / "yubioath"


def test_arb_values_are_icu_messages(tmp_path):
    """A real Flutter ARB pair (the template from l10n.yaml): the German plurals (=1 and other: German
    `one` is 1 alone) are clean; declared Russian, each lacks one/few/many; a value broken is icu-syntax."""
    import shutil

    root = tmp_path / "yubioath"
    shutil.copytree(YUBIOATH, root)
    de = root / "lib" / "l10n" / "app_de.arb"
    text = de.read_text(encoding="utf-8")
    plurals = [k for k, v in json.loads(text).items() if isinstance(v, str) and ", plural," in v]
    assert len(plurals) == 3
    assert icu_findings(de) == []
    de.write_text(text.replace('"@@locale": "de"', '"@@locale": "ru"'), encoding="utf-8")
    found = icu_findings(de)
    assert [f["code"] for f in found] == ["plural-categories"] * 3
    assert all(f["data"]["missing"] == ["one", "few", "many"] for f in found)
    de.write_text(text.replace("=1{{retries} verbleibender Versuch}other", "=1{{retries} verbleibender Versuch}andere", 1),
                  encoding="utf-8")
    [f] = icu_findings(de)
    assert f["code"] == "icu-syntax" and "no “other” message" in f["message"]
