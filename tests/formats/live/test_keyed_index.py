"""The live index of localization JSON (formats/live/keyed.py) against a fresh reading: after any
edit (typed inside a value, or anywhere: quotes, keys, line breaks), its segments, sources, header
and problems are those of the edited text read afresh and paired with the same source."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.l10n_json import read_json
from bleu_ls.formats.live.keyed import KeyedIndex

from .keyed_same import assert_same_as_fresh, edit_at_random

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "json" / "excalidraw" / "locales"
SOURCE = read_json(json.dumps({"a": "Hello {{name}}", "b": {"c": "World", "d": "Sea"}, "e": "Line\nbreak"}))
TEXT = '{\n  "a": "Hallo {{name}}",\n  "b": {"c": "Welt", "x": "Extra"},\n  "e": "Zeile\\nUmbruch"\n}\n'


def fresh(text: str) -> KeyedIndex:
    idx = KeyedIndex("json", text)
    idx.set_source(SOURCE, "en.json")
    return idx


def same(idx: KeyedIndex) -> None:
    assert_same_as_fresh(idx, fresh(idx.text))


def test_sources_and_missing_keys() -> None:
    idx = fresh(TEXT)
    assert [(s.key, s.source) for s in idx.segments()] == [
        ("a", "Hello {{name}}"), ("b.c", "World"), ("b.x", None), ("e", "Line break")]
    assert json.loads(idx.header["source-missing"]) == {"b.c": [["b.d", "Sea", False]]}


def test_typing_inside_a_value_changes_that_value_only() -> None:
    idx = fresh(TEXT)
    at = TEXT.index("Welt") + 4
    change = idx.edit(at, at, "en")
    assert (change.kind, change.start, change.count) == ("text", 1, 1)
    assert idx.segment(1).target == "Welten" and idx.segment(1).source == "World"
    same(idx)
    # an escape typed: the whole text read again, the same result
    at = idx.text.index("Welten")
    idx.edit(at, at, '\\"')
    assert idx.segment(1).target == '"Welten'
    same(idx)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 6),
                          st.sampled_from(["x", "ö ", "", '"', "\\n", "\n", ",", "{{n}}", "}", "Welt"])),
                min_size=1, max_size=6))
def test_random_edits_equal_a_fresh_reading(edits) -> None:
    edit_at_random(fresh(TEXT), edits, same)


def test_real_file_typed_word_by_word() -> None:
    text = (DATA / "de-DE.json").read_text(encoding="utf-8")
    idx = KeyedIndex("json", text)
    idx.set_source(read_json((DATA / "en.json").read_text(encoding="utf-8")), "en.json")
    at = text.index('"Leinwand') + 1 if '"Leinwand' in text else text.index('"Zeichenfläche') + 1
    for word in ("Die ", "große ", "x"):
        change = idx.edit(at, at, word)
        assert change.kind == "text"
        at += len(word)
    same_text = idx.text
    want = KeyedIndex("json", same_text)
    want.set_source(idx.source, "en.json")
    assert idx.segments() == want.segments()
