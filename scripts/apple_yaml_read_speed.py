"""How long the Apple .strings / .stringsdict / String Catalog and translation YAML readers take:
the real test files (tests/data/formats/apple, tests/data/formats/yaml) read whole, then large
generated files (10,000 .strings entries with notes and escapes; 10,000 Rails YAML values;
a String Catalog of 5,000 keys in 10 languages), each the best of a few reads, beside what the
standard parsers take for the same text (``yaml.compose`` / ``yaml.safe_load``, ``json.loads``).

    PYTHONPATH=. .venv/bin/python scripts/apple_yaml_read_speed.py
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import yaml

from bleu_ls.formats.apple_strings import read_strings
from bleu_ls.formats.l10n_yaml import read_yaml
from bleu_ls.formats.read import read_document
from bleu_ls.formats.xcstrings import read_xcstrings

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "formats"
WORDS = "der die das und ist nicht ein eine Datei Ordner öffnen schließen Fehler \"quoted\" neu".split()


def best(fn, *args, n: int = 3):
    t, out = 1e9, None
    for _ in range(n):
        s = time.perf_counter()
        out = fn(*args)
        t = min(t, time.perf_counter() - s)
    return t, out


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(8))


def main() -> None:
    for rel in ("apple/sparkle/de.lproj/Sparkle.strings", "apple/tethys/en.lproj/Localizable.stringsdict",
                "apple/maccy/Localizable.xcstrings", "yaml/activeadmin/config/locales/de.yml"):
        path = DATA / rel
        t, doc = best(read_document, str(path))
        print(f"{rel:48s} {path.stat().st_size / 1e3:7.1f} kB {len(doc.segments):6d} segments {t * 1e3:8.1f} ms")
    rng = random.Random(1)
    n = 10_000
    text = "".join(f'/* note {i} */\n"key.{i}" = "{json.dumps(sentence(rng))[1:-1]}\\n{i}";\n' for i in range(n))
    t, doc = best(read_strings, text)
    print(f".strings, {n} entries, {len(text) / 1e6:.2f} MB: {t:.3f} s ({len(doc.segments)} segments)")
    tree = {"de": {f"group{g}": {f"k{i}": sentence(rng) + (" 'x'" if i % 3 else "") for i in range(100)}
                   for g in range(n // 100)}}
    text = yaml.safe_dump(tree, allow_unicode=True, width=60)
    t, doc = best(read_yaml, text, n=1)
    t0, _ = best(yaml.compose, text, n=1)
    t1, _ = best(yaml.safe_load, text, n=1)
    print(f"YAML, {n} values, {len(text) / 1e6:.2f} MB: {t:.3f} s ({len(doc.segments)} segments); "
          f"yaml.compose {t0:.3f} s, yaml.safe_load {t1:.3f} s")
    langs = ["en", "de", "fr", "es", "it", "ja", "pt-BR", "nl", "sv", "pl"]
    catalog = {"sourceLanguage": "en", "version": "1.0", "strings": {
        f"String {i}": {"localizations": {lang: {"stringUnit": {"state": "translated", "value": sentence(rng)}}
                                          for lang in langs}} for i in range(n // 2)}}
    text = json.dumps(catalog, indent=2, ensure_ascii=False)
    t, doc = best(read_xcstrings, text, n=1)
    t0, _ = best(json.loads, text)
    print(f"String Catalog, {n // 2} keys x {len(langs) - 1} languages, {len(text) / 1e6:.2f} MB: {t:.3f} s "
          f"({len(doc.segments)} segments); json.loads {t0:.3f} s")


if __name__ == "__main__":
    main()
