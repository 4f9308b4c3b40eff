"""A key an edit adds or removes paired alone with the source-language file (formats/live/keyed.py:
_SourceKeys), in Android strings.xml, .properties, Apple .strings and localization JSON: after entries pasted and cut in
any order, each segment's source and the header's source keys the file lacks (each under the key it
follows, before the first key marked) are those of the whole pairing (keyed.fill_sources) of the text
read afresh; JSON's flat keys (``a\\.b``), which its fallback pairs with nested ones, pair the whole
file again and still agree."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.android import read_android_text
from bleu_ls.formats.apple_strings import read_strings
from bleu_ls.formats.keyed import SOURCE_MISSING
from bleu_ls.formats.l10n_json import read_json
from bleu_ls.formats.live.keyed import AndroidIndex, JsonIndex, PropertiesIndex, StringsIndex
from bleu_ls.formats.properties import read_properties

from .keyed_same import assert_same_as_fresh, count_whole_reads

#: the source's keys, in its order (a0 first: before any key of the file, until one is pasted before it)
KEYS = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]
#: the keys pasted: some the source has, some it does not
POOL = ["a0", "a2", "a3", "a5", "a7", "x1", "x2"]

ANDROID_SOURCE = read_android_text("<resources>\n" + "".join(f'  <string name="{k}">S {k}</string>\n' for k in KEYS)
                                   + "</resources>\n")
PROPERTIES_SOURCE = read_properties("".join(f"{k} = S {k}\n" for k in KEYS))
STRINGS_SOURCE = read_strings("".join(f'"{k}" = "S {k}";\n' for k in KEYS))


def _android(keys: list[str]) -> str:
    return "<resources>\n" + "".join(f'    <string name="{k}">T {k}</string>\n' for k in keys) + "</resources>\n"


def _properties(keys: list[str]) -> str:
    return "".join(f"{k} = T {k}\n" for k in keys)


def _strings(keys: list[str]) -> str:
    return "".join(f'"{k}" = "T {k}";\n' for k in keys)


CASES = {
    "strings": (StringsIndex, _strings, STRINGS_SOURCE, lambda k: f'"{k}" = "T {k}";\n'),
    "android": (AndroidIndex, _android, ANDROID_SOURCE, lambda k: f'    <string name="{k}">T {k}</string>\n'),
    "properties": (PropertiesIndex, _properties, PROPERTIES_SOURCE, lambda k: f"{k} = T {k}\n"),
}


def _paste_and_cut(name: str, steps: list[tuple[int, int, int]]) -> None:
    make, build, source, entry = CASES[name][0], CASES[name][1], CASES[name][2], CASES[name][3]

    def fresh(text: str):
        idx = make(name, text)
        idx.set_source(source, "source")
        return idx

    keys = ["a1", "a4", "a6"]
    idx = fresh(build(keys))
    calls = count_whole_reads(idx)
    for cut, where, which in steps:
        if cut and keys:
            k = where % len(keys)
            text = idx.text
            at = text.index(entry(keys[k]))
            idx.edit(at, at + len(entry(keys[k])), "")
            del keys[k]
        else:
            key = POOL[which % len(POOL)]
            if key in keys:
                continue
            k = where % (len(keys) + 1)
            text = idx.text
            at = text.index(entry(keys[k])) if k < len(keys) else (text.index("</resources>") if name == "android"
                                                                   else len(text))
            idx.edit(at, at, entry(key))
            keys.insert(k, key)
        assert [s.key for s in idx.segments()] == keys
        want = fresh(idx.text)
        assert_same_as_fresh(idx, want)  # the sources and the header's missing keys among them
    assert not calls


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=12))
def test_android_entries_pasted_and_cut_pair_as_the_whole(steps) -> None:
    _paste_and_cut("android", steps)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=12))
def test_properties_entries_pasted_and_cut_pair_as_the_whole(steps) -> None:
    _paste_and_cut("properties", steps)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=12))
def test_strings_entries_pasted_and_cut_pair_as_the_whole(steps) -> None:
    _paste_and_cut("strings", steps)


def test_the_missing_keys_follow_a_paste_before_the_first() -> None:
    idx = AndroidIndex("android", _android(["a1", "a4"]))
    idx.set_source(ANDROID_SOURCE, "source")
    missing = json.loads(idx.header[SOURCE_MISSING])
    assert missing["a1"] == [["a0", "S a0", True], ["a2", "S a2", False], ["a3", "S a3", False]]
    at = idx.text.index("    <string")
    idx.edit(at, at, '    <string name="x1">T</string>\n')  # a key the source lacks, before every other
    missing = json.loads(idx.header[SOURCE_MISSING])
    assert missing["x1"] == [["a0", "S a0", True]] and missing["a1"] == [["a2", "S a2", False], ["a3", "S a3", False]]
    assert idx.segment(0).source is None and idx.segment(1).source == "S a1"
    at = idx.text.index('    <string name="a4"')
    idx.edit(at, at, '    <string name="a2">T</string>\n')  # a source key: a2 no longer missing, a3 under it
    missing = json.loads(idx.header[SOURCE_MISSING])
    assert "a1" not in missing and missing["a2"] == [["a3", "S a3", False]] and idx.segment(2).source == "S a2"


JSON_SOURCE = read_json(json.dumps({"a": "Hello", "b": {"c": "World"}, "d": "Sea", "new": "New one"}))


def _json_fresh(text: str) -> JsonIndex:
    idx = JsonIndex("json", text)
    idx.set_source(JSON_SOURCE, "en.json")
    return idx


def test_json_a_key_pasted_pairs_alone_and_a_flat_key_pairs_the_whole() -> None:
    text = '{\n  "a": "Hallo",\n  "d": "Meer"\n}\n'
    idx = _json_fresh(text)
    at = text.index('  "d"')
    idx.edit(at, at, '  "new": "Neu",\n')
    assert idx.segment(1).source == "New one"
    assert_same_as_fresh(idx, _json_fresh(idx.text))
    at = idx.text.index('  "d"')
    idx.edit(at, at, '  "b.c": "Welt",\n')  # a flat key: the fallback pairs it with the nested "b.c"
    assert idx.segment(2).key == "b\\.c" and idx.segment(2).source == "World"
    assert_same_as_fresh(idx, _json_fresh(idx.text))
    at = idx.text.index('  "d"')
    idx.edit(at, at, '  "q": "Q",\n')  # pasted while a flat key is in the file
    assert_same_as_fresh(idx, _json_fresh(idx.text))
    at = idx.text.index('  "b.c"')
    idx.edit(at, idx.text.index('  "q"'), "")  # the flat key cut: paired alone again
    assert idx._odd == 0
    assert_same_as_fresh(idx, _json_fresh(idx.text))
