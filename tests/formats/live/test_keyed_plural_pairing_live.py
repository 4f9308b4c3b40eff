"""Plural forms pasted and cut in a file the live index pairs key by key (formats/live/keyed.py:
_SourceKeys): a form the source lacks (Russian ``few``) pairs with its entry's ``other`` form, a source
form the file's entry does without is not missing — each segment's source and the header's missing
source keys as the whole pairing (keyed.fill_sources) of the text read afresh gives them, in Android
``<plurals>`` and i18next JSON keys, and without reading the whole file."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.android import read_android_text
from bleu_ls.formats.l10n_json import read_json
from bleu_ls.formats.live.keyed import AndroidIndex, JsonIndex

from .keyed_same import assert_same_as_fresh, count_whole_reads

CATS = ["zero", "one", "two", "few", "many", "other"]
#: the source's entries: plurals in English (one, other; `solo` with other alone), and strings
SOURCE_PLURALS = {"items": ["one", "other"], "files": ["one", "other"], "solo": ["other"]}
SOURCE_STRINGS = ["title", "save"]
#: entries pasted: the source's, and one it does not have
ENTRIES = ["items", "files", "solo", "gone", "title", "save"]

ANDROID_SOURCE = read_android_text(
    "<resources>\n"
    + "".join(f'  <plurals name="{n}">' + "".join(f'<item quantity="{c}">S {n} {c}</item>' for c in cats) + "</plurals>\n"
              for n, cats in SOURCE_PLURALS.items())
    + "".join(f'  <string name="{k}">S {k}</string>\n' for k in SOURCE_STRINGS) + "</resources>\n")
JSON_SOURCE = read_json(json.dumps({**{f"{n}_{c}": f"S {n} {c}" for n, cats in SOURCE_PLURALS.items() for c in cats},
                                    **{k: f"S {k}" for k in SOURCE_STRINGS}}))


def _android_entry(name: str, cats: list[str]) -> str:
    if name in ("title", "save"):
        return f'  <string name="{name}">T {name}</string>\n'
    return f'  <plurals name="{name}">' + "".join(f'<item quantity="{c}">T {c}</item>' for c in cats) + "</plurals>\n"


def _json_entry(name: str, cats: list[str]) -> str:
    if name in ("title", "save"):
        return f'  "{name}": "T {name}",\n'
    return "".join(f'  "{name}_{c}": "T {c}",\n' for c in cats)


def _run(kind: str, steps) -> None:
    make, entry, source = {"android": (AndroidIndex, _android_entry, ANDROID_SOURCE),
                           "json": (JsonIndex, _json_entry, JSON_SOURCE)}[kind]

    def build(entries: list[tuple[str, list[str]]]) -> str:
        body = "".join(entry(n, c) for n, c in entries)
        if kind == "android":
            return "<resources>\n" + body + "</resources>\n"
        return "{\n" + body + '  "end": "T end"\n}\n'

    def fresh(text: str):
        idx = make(kind, text)
        idx.set_source(source, "source")
        return idx

    entries: list[tuple[str, list[str]]] = [("title", []), ("items", ["one", "few", "many", "other"])]
    idx = fresh(build(entries))
    calls = count_whole_reads(idx)
    for cut, where, which, cats in steps:
        text = idx.text
        if cut and entries:
            k = where % len(entries)
            piece = entry(*entries[k])
            at = text.index(piece)
            idx.edit(at, at + len(piece), "")
            del entries[k]
        else:
            name = ENTRIES[which % len(ENTRIES)]
            if any(n == name for n, _ in entries):
                continue
            forms = [c for c, on in zip(CATS, cats) if on] or ["other"]
            k = where % (len(entries) + 1)
            at = text.index(entry(*entries[k])) if k < len(entries) else (
                text.index("</resources>") if kind == "android" else text.index('  "end"'))
            idx.edit(at, at, entry(name, forms))
            entries.insert(k, (name, forms))
        assert_same_as_fresh(idx, fresh(idx.text))  # each source, and the missing source keys
    assert not calls


STEPS = st.lists(st.tuples(st.booleans(), st.integers(0, 20), st.integers(0, 20),
                           st.lists(st.booleans(), min_size=6, max_size=6)), min_size=1, max_size=10)


@settings(max_examples=120, deadline=None)
@given(STEPS)
def test_android_plural_forms_pasted_and_cut_pair_as_the_whole(steps) -> None:
    _run("android", steps)


@settings(max_examples=120, deadline=None)
@given(STEPS)
def test_json_plural_forms_pasted_and_cut_pair_as_the_whole(steps) -> None:
    _run("json", steps)


def test_a_form_the_source_lacks_has_its_entrys_other_form() -> None:
    idx = AndroidIndex("android", "<resources>\n" + _android_entry("items", ["one", "few", "many", "other"])
                       + _android_entry("solo", ["one", "other"]) + "</resources>\n")
    idx.set_source(ANDROID_SOURCE, "source")
    assert {s.key: s.source for s in idx.segments()} == {
        "items[one]": "S items one", "items[few]": "S items other", "items[many]": "S items other",
        "items[other]": "S items other", "solo[one]": "S solo other", "solo[other]": "S solo other"}
    assert "items[one]" not in idx.header["source-missing"]  # `files` is missing; no form of `items` is
