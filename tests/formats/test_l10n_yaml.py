"""Rails / Symfony translation YAML read against ``yaml.safe_load`` of the same text.

The oracle flattens ``yaml.safe_load``'s value (keys joined by ".", the Rails root language key
left out, sequence items ``key[i]``, only strings) and must give the reader's keys and values;
each value's span, read alone as a YAML scalar of its style, must give the value again, and
each run must be the file's own characters.  Random nested dicts of strings written by
``yaml.safe_dump`` (every style it chooses: plain, quoted, escaped, folded over lines) are
read back equal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.l10n_yaml import read_yaml, source_files
from bleu_ls.formats.read import detect_format, read_document

DATA = Path(__file__).resolve().parent.parent / "data" / "formats" / "yaml"
AA = DATA / "activeadmin" / "config" / "locales"
AA_BEFORE = DATA / "activeadmin-previous" / "config" / "locales"


def flatten(value, key: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(flatten(v, f"{key}.{k}" if key else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(flatten(v, f"{key}[{i}]"))
    elif isinstance(value, str) and key:
        out[key] = value
    return out


def oracle(text: str) -> tuple[dict[str, str], str]:
    data = yaml.safe_load(text)
    if isinstance(data, dict) and len(data) == 1:
        (lang, inner), = data.items()
        if isinstance(inner, dict):
            return flatten(inner), lang
    return flatten(data), ""


def _raw(seg) -> str:
    return seg.extra.get("value", seg.target)


def check_positions(text: str, doc) -> None:
    for s in doc.segments:
        raw = _raw(s)
        a, b = s.target_span
        assert not s.extra.get("approximate"), s.key
        for r in s.runs:  # the runs are the file's own characters
            assert raw[r.text_start : r.text_start + r.length] == text[r.file_start : r.file_start + r.length], s.key
        before = text[a - 1] if a else ""
        if before in "\"'":  # a quoted scalar: the span is what stands between the quotes
            assert text[b] == before
            assert yaml.safe_load("k: " + before + text[a:b] + before)["k"] == raw, s.key
        elif text[a:b] == raw.rstrip("\n") or yaml.safe_load("k: " + text[a:b])["k"] == raw:
            pass
        else:  # a block scalar: its content lines
            line_start = text.rfind("\n", 0, a) + 1
            header = text.rfind("\n", 0, line_start - 1) + 1
            block = text[header:b] + "\n"
            assert yaml.safe_load(block.replace(text[header:line_start].split(":")[0] + ":", "k:", 1))["k"].rstrip("\n") == raw.rstrip("\n"), s.key


@pytest.mark.parametrize("path", [AA / "de.yml", AA / "en.yml", AA_BEFORE / "de.yml", AA_BEFORE / "en.yml"])
def test_real_rails_files_read_as_safe_load_reads_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    doc = read_yaml(text)
    assert not doc.problems
    want, lang = oracle(text)
    assert len(want) > 80
    assert {s.key: _raw(s) for s in doc.segments} == want
    assert list(want) == doc.keys()  # file order
    assert doc.target_lang == lang == path.stem
    check_positions(text, doc)
    assert detect_format(str(path)) == "yaml"
    assert read_document(str(path)).keys() == doc.keys()


def test_the_rails_pair_and_a_translators_revision() -> None:
    de = read_document(str(AA / "de.yml"))
    (src,) = [p for p in source_files(AA / "de.yml") if p.exists()]
    assert src == AA / "en.yml"
    en = read_document(str(src))
    assert set(de.keys()) <= set(en.keys())
    before = read_document(str(AA_BEFORE / "de.yml"))
    want_now, _ = oracle((AA / "de.yml").read_text(encoding="utf-8"))
    want_before, _ = oracle((AA_BEFORE / "de.yml").read_text(encoding="utf-8"))
    changed = {k for k in set(want_now) & set(want_before) if want_now[k] != want_before[k]}
    now = {s.key: _raw(s) for s in de.segments}
    was = {s.key: _raw(s) for s in before.segments}
    assert {k for k in set(now) & set(was) if now[k] != was[k]} == changed
    assert set(now) - set(was) == set(want_now) - set(want_before)
    assert changed or set(now) != set(was)


SYMFONY = """# messages.de.yaml
form.login.title: Anmelden
cart:
  items: '{count, plural, one {# Artikel} other {# Artikel}}'
  empty: "Ihr Warenkorb ist leer.\\nJetzt einkaufen!"
  notice: >
    Lieferung
    morgen
  terms: |
    Zeile eins
    Zeile zwei
  it's: 'Es ist''s'
  count: 3
  flag: true
  nothing: ~
days: [Mo, 'Di']
"""


def test_symfony_flat_nested_and_every_scalar_style() -> None:
    doc = read_yaml(SYMFONY)
    assert not doc.problems and doc.target_lang is None
    want, _ = oracle(SYMFONY)
    assert {s.key: _raw(s) for s in doc.segments} == want
    assert doc.keys() == ["form.login.title", "cart.items", "cart.empty", "cart.notice", "cart.terms", "cart.it's",
                          "days[0]", "days[1]"]
    check_positions(SYMFONY, doc)
    by = {s.key: s for s in doc.segments}
    assert by["cart.empty"].target == "Ihr Warenkorb ist leer. Jetzt einkaufen!"
    e = by["cart.empty"]
    assert SYMFONY[e.file_offset(e.target.index(" Jetzt"))] == "\\"  # the escape maps to its backslash
    notice = by["cart.notice"]
    assert SYMFONY[slice(*notice.target_span)] == "Lieferung\n    morgen"
    assert notice.target == "Lieferung morgen" and _raw(notice) == "Lieferung morgen\n"
    terms = by["cart.terms"]
    assert terms.target == "Zeile eins Zeile zwei" and SYMFONY[slice(*terms.target_span)] == "Zeile eins\n    Zeile zwei"
    q = by["cart.it's"]
    assert q.target == "Es ist's" and SYMFONY[q.file_offset(6)] == "'" and SYMFONY[q.file_offset(7)] == "s"


def test_an_alias_is_not_expanded_and_a_bomb_is_one_problem() -> None:
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{n}: &{n} [{','.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))
    doc = read_yaml(bomb)
    assert doc.keys() == [f"a[{i}]" for i in range(9)]  # the anchored values, read once; nothing grows
    (p,) = doc.problems
    assert "aliases are not read" in p.message and p.line == 1 and p.severity == "warning"
    assert "72 aliases" in p.message
    merged = "de:\n  base: &b\n    ok: Gut\n  other:\n    <<: *b\n    no: Nein\n  again: *b\n"
    doc = read_yaml(merged)
    assert [(s.key, s.target) for s in doc.segments] == [("base.ok", "Gut"), ("other.no", "Nein")]
    assert len(doc.problems) == 1


def test_tags_are_never_constructed() -> None:
    text = "de:\n  a: !!python/object/apply:os.system ['echo hacked']\n  b: !ruby/object:Foo {x: 1}\n  c: Text\n"
    doc = read_yaml(text)
    assert [(s.key, s.target) for s in doc.segments] == [("c", "Text")] and not doc.problems


def test_a_half_typed_value_keeps_the_values_before_it() -> None:
    text = "de:\n  a: Eins\n  b: Zwei\n  c: \"Dr\n"
    doc = read_yaml(text)
    assert [(s.key, s.target) for s in doc.segments] == [("a", "Eins"), ("b", "Zwei")]
    (p,) = doc.problems
    assert (p.line, p.column) == (3, 5) and "not valid" in p.message
    doc = read_yaml("de:\n  a: Eins\n b: [\n")
    assert len(doc.problems) == 1 and doc.problems[0].message.startswith("The YAML is not valid")


def test_a_duplicate_key_is_one_problem() -> None:
    doc = read_yaml("de:\n  a: eins\n  b: x\n  a: zwei\n")
    assert [(s.key, s.target) for s in doc.segments] == [("a", "eins"), ("b", "x")]
    (p,) = doc.problems
    assert p.line == 3 and "line 2" in p.message


def test_source_files() -> None:
    assert source_files(Path("/r/config/locales/de.yml")) == [Path("/r/config/locales/en.yml")]
    assert source_files(Path("/r/config/locales/de.yml"), "fr") == [Path("/r/config/locales/fr.yml")]
    assert source_files(Path("/r/config/locales/devise.de.yml")) == [Path("/r/config/locales/devise.en.yml")]
    assert source_files(Path("/r/config/locales/de/models.yml")) == [Path("/r/config/locales/en/models.yml")]
    assert source_files(Path("/r/translations/messages.de.yaml")) == [Path("/r/translations/messages.en.yaml")]
    assert source_files(Path("/r/config/locales/en.yml")) == []


_KEY = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=8)
_VALUE = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\ufeff"), max_size=40)
_TREE = st.recursive(_VALUE, lambda inner: st.dictionaries(_KEY, inner, min_size=1, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(tree=st.dictionaries(_KEY, _TREE, min_size=1, max_size=4), width=st.sampled_from([20, 80]),
       unicode=st.booleans(), style=st.sampled_from([None, '"', "'"]))
def test_safe_dump_of_random_trees_reads_back(tree, width, unicode, style) -> None:
    text = yaml.safe_dump({"de": tree}, allow_unicode=unicode, width=width, default_style=style)
    doc = read_yaml(text)
    assert not doc.problems
    # the oracle is what safe_load reads (PyYAML's own round trip is not always exact: YAML's
    # NEL/LS/PS line breaks, a control character folded at a narrow width)
    want = flatten(yaml.safe_load(text)["de"])
    assert {s.key: _raw(s) for s in doc.segments} == want
    assert doc.target_lang == "de"
    check_positions(text, doc)
