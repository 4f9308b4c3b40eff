"""ICU MessageFormat read into arguments and selectors, held to pyicumessageformat (MIT, a
port of format-message-parse) on messages drawn from the grammar and on those messages
with a character taken out: both accept the same messages and find the same arguments.
The two deviations (quoted text never closed, an unknown argument type: both taken by
the parser and wrong in a translation) are asserted on their own."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.qa.text.icu import MAX_DEPTH, argument_differences, looks_like_icu, parse

pyicu = pytest.importorskip("pyicumessageformat")
ORACLE = pyicu.Parser({"allow_format_spaces": True, "require_other": True})

NAMES = st.sampled_from(["count", "name", "n", "0", "1", "user_name", "Ü"])
WORDS = st.text(alphabet=st.sampled_from("abc xyzÄé.!?-"), max_size=8)


@st.composite
def messages(draw, depth=0, in_plural=False):
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["text", "arg", "typed", "plural", "select", "pound", "quote"]))
        if kind == "text":
            parts.append(draw(WORDS))
        elif kind == "arg":
            parts.append("{" + draw(NAMES) + "}")
        elif kind == "typed":
            t = draw(st.sampled_from(["number", "date", "time", "spellout", "ordinal", "duration"]))
            style = draw(st.sampled_from(["", ", integer", ", short", ", ::currency/EUR"]))
            parts.append("{ " + draw(NAMES) + " , " + t + style + " }")
        elif kind == "pound" and in_plural:
            parts.append("#")
        elif kind == "quote":
            parts.append(draw(st.sampled_from(["''", "don't", "'{'", "'}'", "'{literal}'"])))
        elif kind in ("plural", "select") and depth < 3:
            plural = kind == "plural"
            keys = draw(st.lists(st.sampled_from(["one", "few", "many", "zero", "two", "=0", "=1"] if plural
                                                 else ["male", "female", "x"]), unique=True, max_size=3))
            opts = " ".join(f"{k} {{{draw(messages(depth + 1, plural))}}}" for k in [*keys, "other"])
            off = draw(st.sampled_from(["", "offset:1 "])) if plural else ""
            parts.append("{" + draw(NAMES) + ", " + draw(st.sampled_from(["plural", "selectordinal"]) if plural
                                                       else st.just("select")) + ", " + off + opts + "}")
    return "".join(parts)


def oracle_names(nodes, out=None):
    out = {} if out is None else out
    for node in nodes:
        if isinstance(node, dict):
            if not node.get("hash"):
                out.setdefault(node["name"], node.get("type") or "")
            for sub in (node.get("options") or {}).values():
                oracle_names(sub, out)
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages())
def test_well_formed_messages_read_as_the_oracle_reads_them(text):
    m = parse(text)
    assert m.problem is None, (text, m.problem)
    assert m.names == oracle_names(ORACLE.parse(text))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages(), st.data())
def test_a_character_taken_out_breaks_both_or_neither(text, data):
    if not text:
        return
    at = data.draw(st.integers(0, len(text) - 1))
    broken = text[:at] + text[at + 1:]
    m = parse(broken)
    try:
        want = oracle_names(ORACLE.parse(broken))
    except SyntaxError:
        want = None
    if want is not None and m.problem is not None:
        # the deviations: an apostrophe opening quoted text never closed (ICU reads to the end), a
        # type ICU's MessageFormat refuses when formatting (the parser alone takes any name); and a
        # bare "=" selector, which ICU's MessagePattern refuses too (the oracle takes it)
        allowed = ("never closed", "not an argument type", "a number expected after “=”")
        assert any(w in m.problem[1] for w in allowed), (broken, m.problem)
        return
    assert (want is None) == (m.problem is not None), (broken, m.problem, want)
    if want is not None:
        assert m.names == want


@pytest.mark.parametrize("text, at, words", [
    ("l'{count} fichier", 1, "never closed"),  # French: the apostrophe swallows the argument
    ("{count, plural, one {#} many {#}}", 32, "no “other”"),
    ("{g, select, m {a} m {b} other {c}}", 18, "comes twice"),
    ("{n, numbr}", 4, "not an argument type"),
    ("Hello }", 6, "closes no argument"),
    ("{a, select, =1 {x} other {y}}", 12, "explicit value"),
    ("{01}", 1, "neither a name nor a number"),
    ("{count, plural, one {#", 22, "not closed"),
])
def test_problems_say_where_and_what(text, at, words):
    m = parse(text)
    assert m.problem is not None and m.problem[0] == at and words in m.problem[1], m.problem


def test_nesting_is_bounded_and_never_raises():
    deep = "{a, select, other {" * (MAX_DEPTH + 5) + "x" + "}}" * (MAX_DEPTH + 5)
    m = parse(deep)
    assert m.problem is not None and "nested" in m.problem[1]
    assert parse("{" * 100_000).problem is not None


def test_arguments_and_categories():
    src = parse("{count, plural, one {# file in {folder}} other {# files in {folder}}}")
    tgt = parse("{count, plural, one {# Datei} few {# Dateien} other {# Dateien in {ordner}}}")
    assert argument_differences(src, tgt) == (["folder"], ["ordner"])
    assert tgt.categories() == {("count", "plural"): {"one", "few", "other"}}
    assert [s.keyword for s in tgt.selectors] == ["one", "few", "other"]
    s = tgt.selectors[1]
    assert "{count, plural, one {# Datei} few {# Dateien} other {# Dateien in {ordner}}}"[s.start:s.end] == "few"
    assert looks_like_icu("{count, plural, other {#}}") and not looks_like_icu("Hello {name}, welcome")


def test_check_message_findings():
    from bleu_ls.qa.text.icu import check_message

    src = "{count, plural, one {# file} other {# files}}"
    assert check_message(src, "{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}", "ru") == []
    [f] = check_message(src, "{count, plural, one {# файл} other {# файлов}}", "ru")
    assert f.code == "plural-categories" and f.data["missing"] == ["few", "many"]
    [f] = check_message(src, "{count, plural, one {# Datei} few {# Dateien} other {# Dateien}}", "de")
    assert f.data["extra"] == ["few"] and "{count, plural, one {# Datei} few"[f.start:f.end] == "few"
    [f] = check_message(src, "{n, plural, one {# Datei} other {# Dateien}}", "de")
    assert f.code == "icu-arguments" and f.data == {"missing": ["count"], "extra": ["n"]}
    [f] = check_message("Delete {name}?", "Supprimer l'{name} ?", "fr")
    assert f.code == "icu-syntax" and "never closed" in f.message and f.start == len("Supprimer l")
    assert check_message("Delete {name}?", "Supprimer l''{name} ?", "fr") == []
    assert check_message("{broken", "{x}", "fr") == []  # the source is not well-formed: not the translator's
    # Angular's ICU in XLIFF: explicit values, French
    assert check_message("{VAR_PLURAL, plural, =0 {zero} =1 {one} other {many}}",
                         "{VAR_PLURAL, plural, =0 {zéro} =1 {un} other {beaucoup}}", "fr") == []
