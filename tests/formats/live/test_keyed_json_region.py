"""The localization JSON live index (formats/live/keyed.py: JsonIndex) against a fresh reading: an
edit between values (a key typed, an entry pasted or cut, a line break, a brace) reads the text
between the values around it alone; after any edit its segments (keys, targets, spans, lines,
sources), header and problems are those of the edited text read afresh and paired with the same
source, whichever way it went."""

from __future__ import annotations

import json

import numpy as np

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.l10n_json import read_json
from bleu_ls.formats.live.keyed import JsonIndex

from .keyed_same import assert_same_as_fresh, count_whole_reads, edit_at_anchors, edit_at_random

SOURCE = read_json(json.dumps({"a": "Hello", "b": {"c": "World", "d": "Sea", "n": 3}, "e": ["One", "Two"],
                               "f": "Fish", "new": "New one"}))
TEXT = ('{\n  "a": "Hallo",\n  "b": {\n    "c": "Welt",\n    "n": 3,\n    "x": "Extra"\n  },\n'
        '  "e": ["Eins", "Zwei"],\n  "f": "Fisch\\nSee"\n}\n')


def fresh(text: str) -> JsonIndex:
    idx = JsonIndex("json", text)
    idx.set_source(SOURCE, "en.json")
    return idx


def same(idx: JsonIndex) -> None:
    want = fresh(idx.text)
    got = assert_same_as_fresh(idx, want)
    assert idx._members == want._members and idx._arrays == want._arrays
    # where a value's hint goes: after its closing quote, which the index says without reading the text
    text = idx.text
    assert idx.quoted(np.arange(len(idx))).tolist() == [int(text[s.target_span[1]:].startswith('"')) for s in got]



def test_an_entry_pasted_is_read_alone() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index('  "f"')
    change = idx.edit(at, at, '  "new": "Neu",\n')
    assert not calls
    assert (change.kind, change.start, change.end, change.count) == ("structure", 5, 5, 1)
    seg = idx.segment(5)
    assert (seg.key, seg.target, seg.source, seg.line) == ("new", "Neu", "New one", 8)
    assert idx.text[slice(*seg.target_span)] == "Neu"
    same(idx)


def test_a_line_break_between_entries_moves_the_rest() -> None:
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    at = TEXT.index('\n  "b"')
    change = idx.edit(at, at, "\n")
    assert not calls and change.kind == "none" and change.line_delta == 1
    assert idx.segment(1).line == 4
    same(idx)


def test_a_key_renamed_pairs_again() -> None:
    idx = fresh(TEXT)
    at = TEXT.index('"x"') + 1
    change = idx.edit(at, at + 1, "d")  # "x" (no source) becomes "d" (the source's "Sea")
    assert change.kind == "structure"
    assert idx.segment(2).key == "b.d" and idx.segment(2).source == "Sea"
    same(idx)


def test_what_reads_the_whole() -> None:
    # a member the rest of the file has (a duplicate), an open string, an array item: the whole read
    for at, new in ((TEXT.index('  "f"'), '  "a": "x",\n'), (TEXT.index('  "f"'), '  "q'),
                    (TEXT.index('"Eins"'), '"Null", ')):
        idx = fresh(TEXT)
        calls = count_whole_reads(idx)
        idx.edit(at, at, new)
        assert calls, new
        same(idx)


PIECES = ["x", '"', ",", ":", "{", "}", "[", "]", "\n", " ", '"k": "v",', '"a": "A",\n', '"b": {"z": "Z"},',
          "\\", "\\n", "1", "null", '"new": "N",', "\ufeff", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12), st.sampled_from(PIECES)), min_size=1, max_size=8))
def test_random_edits_equal_a_fresh_reading(edits) -> None:
    edit_at_random(fresh(TEXT), edits, same)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 30), st.sampled_from(PIECES)), min_size=1, max_size=8),
       st.sampled_from(['"', ",", "}", "\n", "{", ":"]))
def test_edits_near_structure_equal_a_fresh_reading(edits, anchor) -> None:
    """Edits at a structural character (the random offsets moved onto the nearest one)."""
    edit_at_anchors(fresh(TEXT), [(pos, length % 3, new) for pos, length, new in edits], anchor, same)


def _entry_lines(text: str) -> list[int]:
    """The offsets of the lines that hold one whole member ending in a comma."""
    out, at = [], 0
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith('"') and s.endswith('",') and s.count('"') == 4:
            out.append(at)
        at += len(line) + 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_well_formed_edits_equal_a_fresh_reading(data) -> None:
    """Edits that keep the file well formed (entries pasted, cut, keys renamed, line breaks and
    spaces between entries): most are read alone; each leaves the index as a fresh reading."""
    idx = fresh(TEXT)
    calls = count_whole_reads(idx)
    edits = data.draw(st.integers(1, 10))
    for k in range(edits):
        text = idx.text
        lines = _entry_lines(text)
        if not lines:  # every entry cut or made into something else
            break
        op = data.draw(st.sampled_from(["paste", "cut", "rename", "space"]))
        if op == "paste":
            at = data.draw(st.sampled_from(lines))
            key = data.draw(st.sampled_from(["new", "a", "q", 'z\\"y', "x.y", "c"]))
            idx.edit(at, at, f'  "{key}{k}": "Neu {k}",\n' if data.draw(st.booleans()) else f'  "{key}": "Neu",\n')
        elif op == "cut" and len(lines) > 1:
            at = data.draw(st.sampled_from(lines))
            idx.edit(at, text.index("\n", at) + 1, "")
        elif op == "rename":
            at = data.draw(st.sampled_from(lines))
            q = text.index('"', at) + 1
            idx.edit(q, q + data.draw(st.integers(0, 1)), data.draw(st.sampled_from(["", "d", "n", "new", "b"])))
        else:
            at = data.draw(st.sampled_from(lines + [text.index("}")]))
            idx.edit(at, at, data.draw(st.sampled_from(["\n", " ", "\t", "\r\n"])))
        same(idx)
    assert len(calls) <= edits


NAMES = st.sampled_from(["a", "b", "", "x.y", "back\\slash", "é", "0", "a b", 'q"'])
TREES = st.recursive(st.one_of(st.text(max_size=5), st.integers(), st.none(), st.booleans()),
                     lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(NAMES, kids, max_size=4)),
                     max_leaves=12)


def _leaves(node, parts, out) -> None:
    """The oracle: ``json.loads``' tree flattened by the documented key rule (``.`` and ``\\`` escaped)."""
    if isinstance(node, str):
        out.append((".".join(p.replace("\\", "\\\\").replace(".", "\\.") for p in parts), node))
    elif isinstance(node, dict):
        for k, v in node.items():
            _leaves(v, [*parts, k], out)
    elif isinstance(node, list):
        for k, v in enumerate(node):
            _leaves(v, [*parts, str(k)], out)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(NAMES, TREES, max_size=5), st.sampled_from([None, 2, "\t"]))
def test_the_reader_equals_json_loads(tree, indent) -> None:
    """The reader (its one-match member included) against ``json.loads``: keys, values, spans."""
    text = json.dumps(tree, indent=indent, ensure_ascii=False)
    want: list = []
    _leaves(json.loads(text), [], want)
    doc = read_json(text)
    assert not doc.problems
    assert [(s.key, s.target) for s in doc.segments] == [(k, v.replace("\n", " ").replace("\r", " ")) for k, v in want]
    for s, (_k, v) in zip(doc.segments, want):
        assert json.loads('"' + text[s.target_span[0]:s.target_span[1]] + '"') == v
