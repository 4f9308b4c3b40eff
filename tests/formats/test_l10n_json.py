"""The localization JSON readers (formats/l10n_json.py) against ``json.loads``.

The oracle is the standard library: the keys and values a reader extracts are those of the file read
with ``json.loads`` and flattened (:func:`flatten`, written here without the reader), and every
``target_span`` slice decodes with ``json.loads('"' + slice + '"')`` to the segment's target.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.l10n_json import fold, join_key, read_arb, read_json, read_webext, scan, split_key

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "json"
EXCALIDRAW = DATA / "excalidraw" / "locales"
YUBI = DATA / "yubioath" / "lib" / "l10n"


def _esc(name: str) -> str:
    return name.replace("\\", "\\\\").replace(".", "\\.")


def flatten(value, path: tuple = ()) -> dict[str, str]:
    """Every string leaf of a ``json.loads`` value under its key (the documented escape of ``.`` and ``\\``),
    its line breaks folded to spaces."""
    out: dict[str, str] = {}
    if isinstance(value, str):
        out[".".join(path)] = value.replace("\r", " ").replace("\n", " ")
    elif isinstance(value, dict):
        for k, v in value.items():
            out.update(flatten(v, (*path, _esc(k))))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(flatten(v, (*path, str(i))))
    return out


def _spans_decode(doc, text: str) -> None:
    for s in doc.segments:
        a, b = s.target_span
        assert fold(json.loads('"' + text[a:b] + '"')) == s.target, s.key
        assert text[a - 1] == '"' and text[b] == '"'
        assert s.line == text.count("\n", 0, a)
        assert s.file_offset(len(s.target)) == b


def test_real_i18next_files_equal_json_loads() -> None:
    for path in sorted(DATA.glob("excalidraw*/locales/*.json")):
        text = path.read_text(encoding="utf-8")
        doc = read_json(text)
        assert not doc.problems, path
        want = flatten(json.loads(text))
        assert [(s.key, s.target) for s in doc.segments] == list(want.items()), path
        assert len(doc.segments) > 500
        _spans_decode(doc, text)


def test_real_arb_files_equal_json_loads() -> None:
    for path in (YUBI / "app_en.arb", YUBI / "app_de.arb"):
        text = path.read_text(encoding="utf-8")
        doc = read_arb(text)
        plain = json.loads(text)
        assert not doc.problems
        assert doc.target_lang == plain["@@locale"]
        want = {k: fold(v) for k, v in plain.items() if not k.startswith("@") and isinstance(v, str)}
        assert {s.key: s.target for s in doc.segments} == want
        assert len(doc.segments) == len(want) > 300
        for s in doc.segments:
            meta = plain.get("@" + s.key)
            placeholders = meta.get("placeholders") if isinstance(meta, dict) else None
            assert s.extra.get("placeholders") == placeholders, s.key
            desc = meta.get("description") if isinstance(meta, dict) else None
            assert s.notes == ((desc,) if desc else ())
        _spans_decode(doc, text)


def test_webext_messages() -> None:
    text = json.dumps({
        "extName": {"message": "Mein \"Add-on\"", "description": "The name"},
        "greet": {"message": "Hallo $USER$!", "placeholders": {"user": {"content": "$1"}}},
        "broken": {"description": "no message"},
    }, indent=2, ensure_ascii=False)
    doc = read_webext(text)
    assert [(s.key, s.target, s.notes) for s in doc.segments] == [
        ("extName", 'Mein "Add-on"', ("The name",)), ("greet", "Hallo $USER$!", ())]
    assert doc.segments[1].extra["placeholders"] == {"user": {"content": "$1"}}
    _spans_decode(doc, text)


def test_keys_escape_dots_and_backslashes() -> None:
    text = '{"a.b": "flat", "a": {"b": "nested"}, "x\\\\y": "slash", "list": ["p", {"q": "r"}], "n": 1, "t": true, "z": null}'
    doc = read_json(text)
    assert [(s.key, s.target) for s in doc.segments] == [
        ("a\\.b", "flat"), ("a.b", "nested"), ("x\\\\y", "slash"), ("list.0", "p"), ("list.1.q", "r")]
    assert [split_key(s.key) for s in doc.segments][:3] == [["a.b"], ["a", "b"], ["x\\y"]]
    assert join_key(["a.b", "c"]) == "a\\.b.c"


def test_escapes_map_back_to_the_file() -> None:
    text = '{"k": "a\\"b\\n\\ud83d\\ude00c\\u00e9"}'
    seg = read_json(text).segments[0]
    assert seg.target == 'a"b \U0001f600cé'
    # each character of the text maps to where it is spelled: an escape to its backslash
    spelled = [text[seg.file_offset(i)] for i in range(len(seg.target))]
    assert spelled == ["a", "\\", "b", "\\", "\\", "c", "\\"]
    assert seg.file_offset(len(seg.target)) == seg.target_span[1] == len(text) - 2


def test_bad_input_is_one_problem_and_the_segments_before_stay() -> None:
    half = '{\n  "a": "Hallo",\n  "b": "Welt\n}'
    doc = read_json(half)
    assert [s.key for s in doc.segments] == ["a"]
    assert len(doc.problems) == 1
    p = doc.problems[0]
    assert (p.line, p.column) == (2, 12) and "not closed" in p.message

    trailing = '{"a": "x", "b": ["y", "z",],}'
    doc = read_json(trailing)
    assert [s.key for s in doc.segments] == ["a", "b.0", "b.1"]
    assert [p.offset for p in doc.problems] == [trailing.index(",]"), trailing.index(",}")]

    dup = '{"a": {"x": "1", "y": "2"}, "b": "3", "a": "4"}'
    doc = read_json(dup)
    assert {s.key: s.target for s in doc.segments} == flatten(json.loads(dup)) == {"b": "3", "a": "4"}
    assert [s.key for s in doc.segments] == ["b", "a"]  # file order: the last "a" where it stands
    assert len(doc.problems) == 1 and 'duplicate member name "a"' in doc.problems[0].message

    for bad in ("", "{", '{"a" "b"}', '{"a": "b" "c": "d"}', '{"a": tru}', '{"a": "\\x"}', '{"a": "b"} x',
                "[" * 5000, '{"a": "\\ud83d', '{"a": "b\tc"}', '{"a": "\\u12"}'):
        doc = read_json(bad)
        assert len(doc.problems) == 1, bad[:20]


def test_bom_and_scalars() -> None:
    doc = read_json('\ufeff{"a": 1.5e3, "b": [false, "x"]}')
    assert [(s.key, s.target) for s in doc.segments] == [("b.1", "x")]
    root, problems = scan('{"a": -0.5}')
    assert not problems


_names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
_strings = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
_values = st.recursive(
    st.one_of(_strings, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_names, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_names, _values, max_size=6), st.booleans(), st.sampled_from([None, 0, 2, "\t"]))
def test_random_dumps_read_back_equal(value, ascii_only, indent) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    doc = read_json(text)
    assert not doc.problems
    assert [(s.key, s.target) for s in doc.segments] == list(flatten(json.loads(text)).items())
    _spans_decode(doc, text)


def test_recognised_by_path_convention_only() -> None:
    from bleu_ls.formats.model import ARB, JSON, LINES, WEBEXT
    from bleu_ls.formats.read import detect_format

    claimed = {
        "public/locales/de/translation.json": JSON, "src/locales/pt-BR/common.json": JSON,
        "packages/excalidraw/locales/de-DE.json": JSON, "src/i18n/fr.json": JSON, "lang/zh_Hans.json": JSON,
        "assets/i18n/de.json": JSON, "translations/en-US.json": JSON, "l10n/de/app.json": JSON,
        "lib/l10n/app_de.arb": ARB, "intl_messages.arb": ARB,
        "extension/_locales/de/messages.json": WEBEXT, "_locales/pt_BR/messages.json": WEBEXT,
    }
    left = [
        "package.json", "tsconfig.json", "locales/package.json", "src/i18n/config.json", "data/de.json",
        "de.json", "locales/de/notes.txt", "i18n/index.json", "_locales/de/other.json", "locales/percentages.json",
        ".vscode/settings.json", "composer.json", "locales/de/translation.yaml", "node_modules/x/locales.json",
    ]
    for path, fmt in claimed.items():
        assert detect_format(path) == fmt, path
    for path in left:
        assert detect_format(path) == LINES, path
