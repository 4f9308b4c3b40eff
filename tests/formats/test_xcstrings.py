"""Xcode String Catalogs read against ``json.load`` of the same file.

The oracle walks the parsed JSON by the documented rules (one segment per string key, target
language and variation; the source language's value, else the key, as the source) and must
give the reader's keys, targets, sources and states; each value's span must be the JSON
string's characters between its quotes (``json.loads`` of it gives the value).
"""

from __future__ import annotations

import json
from pathlib import Path

from bleu_ls.formats import states
from bleu_ls.formats.read import detect_format, read_document
from bleu_ls.formats.table import row
from bleu_ls.formats.xcstrings import read_xcstrings

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "apple"
MACCY = DATA / "maccy" / "Localizable.xcstrings"


def _units(loc: dict, path: tuple[str, ...] = ()):
    if "stringUnit" in loc:
        yield path, loc["stringUnit"]
    for kind, cases in loc.get("variations", {}).items():
        for case, sub in cases.items():
            yield from _units(sub, (*path, f"{kind}:{case}"))
    for name, sub in loc.get("substitutions", {}).items():
        yield from _units(sub, (*path, name))


def oracle(catalog: dict) -> list[tuple[str, str, str, str]]:
    """(key, value, source, state) in file order."""
    src = catalog["sourceLanguage"]
    out = []
    for key, entry in catalog["strings"].items():
        if entry.get("shouldTranslate") is False:
            continue
        locs = entry.get("localizations", {})
        src_units = dict(_units(locs.get(src, {})))
        for lang, loc in locs.items():
            if lang == src:
                continue
            for path, unit in _units(loc):
                other = (*path[:-1], path[-1].split(":")[0] + ":other") if path else ()
                source = next((src_units[p]["value"] for p in (path, other, ()) if p in src_units), key)
                var = "/".join(path)
                out.append((f"{lang}/{key}" + (f"[{var}]" if var else ""), unit["value"], source, unit.get("state")))
    return out


def _raw(seg) -> str:
    return seg.extra.get("value", seg.target)


def test_the_real_catalog_reads_as_json_load_reads_it() -> None:
    text = MACCY.read_text(encoding="utf-8")
    doc = read_xcstrings(text)
    assert not doc.problems and doc.source_lang == "en"
    expected = oracle(json.loads(text))
    assert len(expected) == 612  # 34 strings in 18 languages besides English
    assert [(s.key, s.target, s.source, s.state) for s in doc.segments] == [
        (k, v.replace("\n", " "), src.replace("\n", " "), st) for k, v, src, st in expected]
    for s in doc.segments:
        a, b = s.target_span
        assert text[a - 1] == '"' and text[b] == '"'
        assert json.loads(text[a - 1 : b + 1]) == json.loads(f'"{text[a:b]}"')
        assert s.extra["lang"] == s.key.split("/", 1)[0] and s.extra["source_lang"] == "en"
        for r in s.runs:
            assert text[r.file_start : r.file_start + r.length] in text[a:b]
    assert detect_format(str(MACCY)) == "xcstrings"
    assert read_document(str(MACCY)).keys() == doc.keys()
    assert row("xcstrings").source_files is None  # the source is inside


CATALOG = {
    "sourceLanguage": "en",
    "version": "1.0",
    "strings": {
        "%lld files": {
            "comment": "A count of files",
            "localizations": {
                "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld file"}},
                                                 "other": {"stringUnit": {"state": "translated", "value": "%lld files"}}}}},
                "pl": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "%lld plik"}},
                    "few": {"stringUnit": {"state": "needs_review", "value": "%lld pliki \u00e9\n\"x\""}},
                    "other": {"stringUnit": {"state": "new", "value": "%lld plików"}}}}},
            },
        },
        "Open": {"localizations": {
            "de": {"variations": {"device": {
                "iphone": {"stringUnit": {"state": "translated", "value": "Öffnen"}},
                "mac": {"variations": {"plural": {"other": {"stringUnit": {"state": "stale", "value": "Öffnen…"}}}}}}}},
        }},
        "Hello": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Bonjour"}}}},
        "%@ in %@": {"localizations": {
            "en": {"stringUnit": {"state": "translated", "value": "%1$#@a@ in %2$#@b@"}},
            "de": {"stringUnit": {"state": "translated", "value": "%1$#@a@ in %2$#@b@"},
                   "substitutions": {"a": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "eine Datei"}}}}}}},
        }},
        "Internal": {"shouldTranslate": False, "localizations": {"de": {"stringUnit": {"state": "translated", "value": "x"}}}},
    },
}


def test_variations_sources_states_and_escapes() -> None:
    text = json.dumps(CATALOG, indent=2, ensure_ascii=True)
    doc = read_xcstrings(text)
    assert not doc.problems
    assert [(s.key, _raw(s), s.source, s.state) for s in doc.segments] == oracle(CATALOG)
    keys = doc.keys()
    assert keys == ["pl/%lld files[plural:one]", "pl/%lld files[plural:few]", "pl/%lld files[plural:other]",
                    "de/Open[device:iphone]", "de/Open[device:mac/plural:other]", "fr/Hello",
                    "de/%@ in %@", "de/%@ in %@[a/plural:one]"]
    few = doc.segments[1]
    assert few.source == "%lld files"  # Polish "few": English has none, its "other" stands in
    assert few.target == '%lld pliki \u00e9 "x"' and few.notes == ("A count of files",)
    a, b = few.target_span
    assert text[a:b] == '%lld pliki \\u00e9\\n\\"x\\"'
    assert text[few.file_offset(few.target.index("\u00e9"))] == "\\"
    assert few.file_offset(len(few.target)) == b
    assert doc.segments[5].source == "Hello"  # no English value: the key is the source
    review = [s.key for s in doc.segments if states.needs_review("xcstrings", s)]
    assert review == ["pl/%lld files[plural:few]", "pl/%lld files[plural:other]"]


def test_broken_json_keeps_the_strings_before_it() -> None:
    text = json.dumps(CATALOG, indent=2)
    cut = text.index('"Bonjour"') + 5
    doc = read_xcstrings(text[:cut])
    assert doc.keys() == [k for k, *_ in oracle(CATALOG)][:5]
    (p,) = doc.problems
    assert "not closed" in p.message
    doc = read_xcstrings(text.replace('"value": "Bonjour"', '"value": "Bonjour",,'))
    assert len(doc.problems) == 1 and doc.keys()[:5] == [k for k, *_ in oracle(CATALOG)][:5]
    assert read_xcstrings("[1, 2]").problems[0].message.startswith("This is not a String Catalog")
    deep = "[" * 100000
    assert read_xcstrings(deep).problems  # one sentence, no RecursionError


def test_the_fast_read_is_the_scanners_read() -> None:
    """The catalog's JSON is read by the C reader with the "value" strings placed by a regular
    expression, checked; a text that fools the expression is read by the module's scanner: the
    same segments either way."""
    from bleu_ls.formats import xcstrings

    def seen(doc):
        return [(s.key, s.target, s.target_span, s.runs, s.source, s.state, s.line) for s in doc.segments]

    # a member whose key ends in "value (escaped quote) with a string value: the expression finds one string too many
    tricky = dict(CATALOG, strings={**CATALOG["strings"], "Yes": {'x"value': "no", "localizations": {
        "de": {"stringUnit": {"state": "translated", "value": "ja"}}}}})
    for text in (MACCY.read_text(encoding="utf-8"), json.dumps(CATALOG, indent=2),
                 json.dumps(CATALOG, ensure_ascii=False, separators=(",", ":")), json.dumps(tricky, indent=1)):
        fast = read_xcstrings(text)
        root, error = xcstrings._scan(text)
        assert error is None
        slow = xcstrings.SegmentDocument(format="xcstrings", segments=[], text=text)
        xcstrings._read_strings(slow, text, root.get("strings"), root.get("sourceLanguage").value, None)
        assert seen(fast) == seen(slow) and fast.segments
    assert xcstrings._scan_fast(json.dumps(tricky, indent=1)) is None  # the key fools the expression
    assert xcstrings._scan_fast(json.dumps(CATALOG, indent=1)) is not None


def test_check_reads_each_segment_in_its_own_language(tmp_path) -> None:
    """``wrong-language`` in a catalog of many languages: each value against its own language
    (no finding on a correct Russian or Japanese value), and a value in the wrong one found."""
    import io

    from bleu_ls.cli.check import main as check_main

    values = {
        "de": "Die Katze schläft den ganzen Nachmittag auf dem warmen Sofa im Wohnzimmer.",
        "fr": "Le chat dort tout l'après-midi sur le canapé chaud du salon.",
        "ru": "Кошка спит весь день на тёплом диване в гостиной комнате.",
        "es": "El gato duerme toda la tarde en el sofá caliente de la sala de estar.",
    }
    wrong = dict(values, es="Die Katze schläft den ganzen Nachmittag auf dem warmen Sofa im Wohnzimmer.")

    def findings(vals: dict) -> list[tuple[int, str]]:
        catalog = {"sourceLanguage": "en", "version": "1.0", "strings": {
            "The cat sleeps all afternoon on the warm sofa in the living room.": {"localizations": {
                lang: {"stringUnit": {"state": "translated", "value": v}} for lang, v in vals.items()}}}}
        path = tmp_path / "Localizable.xcstrings"
        path.write_text(json.dumps(catalog, indent=2, ensure_ascii=False), encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        assert check_main([str(path), "--format", "json", "--no-config"], out=out, err=err) in (0, 1), err.getvalue()
        [pair] = json.loads(out.getvalue())["pairs"]
        doc = read_xcstrings(path.read_text(encoding="utf-8"))
        lines = {s.line + 1: s.extra["lang"] for s in doc.segments}
        return [(d["line"], lines[d["line"]]) for d in pair["diagnostics"] if d["code"] == "wrong-language"]

    assert findings(values) == []
    assert [lang for _line, lang in findings(wrong)] == ["es"]
