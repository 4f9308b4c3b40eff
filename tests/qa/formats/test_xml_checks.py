"""QA checks on XLIFF / TMX segments."""

from __future__ import annotations

from pathlib import Path


from bleu_ls.formats.model import XLIFF1, XLIFF2, InlineCode, Segment
from bleu_ls.formats.tmx import read_tmx_text
from bleu_ls.formats.xliff import read_xliff, read_xliff_text
from bleu_ls.qa.formats.xml_checks import (
    CODES, DEFAULT_SEVERITY, check_codes, check_document, check_empty, check_same_as_source, check_segment,
    check_state, check_whitespace, inconsistent_translations,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"


def seg(target, source, tcodes=(), scodes=(), state=None, sq=None, key="k", span=(100, None)):
    end = span[1] if span[1] is not None else span[0] + len(target)
    return Segment(key=key, target=target, target_span=(span[0], end), line=0, source=source, state=state,
                   state_qualifier=sq, target_codes=tuple(tcodes), source_codes=tuple(scodes))


def C(kind, i, closing=False, at=0):
    return InlineCode(kind, i, (at, at + 5), closing)


def codes(findings):
    return [f.code for f in findings]


def test_codes_missing_extra_order_and_equivalent_forms():
    src = [C("g", "1"), C("g", "1", True), C("x", "2")]
    assert check_codes(seg("a b c", "a b c", src, src)) == []
    # <bx/>/<ex/> in the target stand for the source's <g>…</g>
    assert check_codes(seg("a b c", "a b c", [C("bx", "1"), C("ex", "1", True), C("x", "2")], src)) == []
    f = check_codes(seg("a b c", "a b c", [C("g", "1"), C("g", "1", True)], src))
    assert codes(f) == ["codes-missing"] and "code '2'" in f[0].message and f[0].severity == "error"
    f = check_codes(seg("a b c", "a b c", src + [C("x", "9", at=40)], src))
    assert codes(f) == ["codes-extra"] and f[0].span == (40, 45) and f[0].severity == "warning"
    f = check_codes(seg("a b c", "a b c", [C("x", "2"), C("g", "1"), C("g", "1", True)], src))
    assert codes(f) == ["codes-order"] and f[0].severity == "information"
    # XLIFF 2: sc/ec are the same code as pc; an end before its start is misnested
    s2 = [C("pc", "1"), C("pc", "1", True)]
    assert check_codes(seg("x", "x", [C("sc", "1"), C("ec", "1", True)], s2)) == []
    f = check_codes(seg("x", "x", [C("ec", "1", True, at=10), C("sc", "1", at=20)], s2))
    assert codes(f) == ["codes-order", "codes-malformed", "codes-malformed"]
    assert "before its start" in f[1].message and f[1].span == (10, 15)
    assert "never ended" in f[2].message and f[2].span == (20, 25)
    # nothing to compare with: no findings; an empty target is another check's business
    assert check_codes(seg("x", None, [C("x", "1")])) == []
    assert check_codes(seg("", "a", [], src)) == []


def test_state_values_per_version():
    assert check_state(seg("x", "y", state="needs-review-translation", sq="mt-suggestion"), XLIFF1) == []
    assert check_state(seg("x", "y", state="x-custom", sq="x-mine"), XLIFF1) == []
    f = check_state(seg("x", "y", state="reviewed", sq="machine"), XLIFF1)
    assert codes(f) == ["state-undefined", "state-undefined"] and "'reviewed'" in f[0].message
    assert check_state(seg("x", "y", state="reviewed", sq="acme:ok"), XLIFF2) == []
    f = check_state(seg("x", "y", state="needs-translation", sq="nocolon"), XLIFF2)
    assert codes(f) == ["state-undefined", "state-undefined"]
    assert codes(check_state(seg("x", "y", sq="acme:ok"), XLIFF2)) == ["state-undefined"]
    assert check_state(seg("x", "y", state="anything"), "tmx") == []


def test_empty_same_whitespace_double_space():
    assert codes(check_empty(seg("", "Source"))) == ["target-empty"]
    assert check_empty(seg("", "  ")) == [] and check_empty(seg("x", "Source")) == []
    assert codes(check_same_as_source(seg("Hello", "Hello"))) == ["target-same-as-source"]
    assert check_same_as_source(seg("1,000", "1,000")) == []  # no letters: numbers stay as they are
    assert check_same_as_source(seg("Hallo", "Hello")) == []
    f = check_whitespace(seg(" Hallo", "Hello", span=(10, None)))
    assert codes(f) == ["whitespace-leading"] and f[0].span == (10, 11)
    f = check_whitespace(seg("Hallo", "Hello "))
    assert codes(f) == ["whitespace-trailing"] and "no white space" in f[0].message
    f = check_whitespace(seg("Hallo  Welt", "Hello world", span=(50, None)))
    assert codes(f) == ["double-space"] and f[0].span == (55, 57)
    assert check_whitespace(seg("Hallo  Welt", "Hello  world")) == []
    assert check_whitespace(seg(" Hallo ", " Hello ")) == []


def test_inconsistent_translations_and_document():
    segs = [seg("Salut", "Hi", key="a"), seg("Coucou", "Hi ", key="b"), seg("Salut", "Hi", key="c"),
            seg("", "Hi", key="d"), seg("Oui", "Yes", key="e")]
    out = inconsistent_translations(segs)
    assert sorted(out) == ["a", "b", "c"]
    assert "b" in out["a"][0].message and "a, c" in out["b"][0].message


def test_on_a_real_file_and_defaults():
    doc = read_xliff((DATA / "xliff" / "algorea.fr.draft.xlf").read_bytes())
    found = check_document(doc)
    got = {f.code for fs in found.values() for f in fs}
    # the draft's 46 copied-source units: target same as source
    same = [k for k, fs in found.items() if any(f.code == "target-same-as-source" for f in fs)]
    assert len(same) >= 46
    assert got <= set(CODES)
    text = (DATA / "xliff" / "algorea.fr.draft.xlf").read_text("utf-8")
    for fs in found.values():
        for f in fs:
            assert 0 <= f.span[0] <= f.span[1] <= len(text)
            assert f.severity == DEFAULT_SEVERITY[f.code]
    # severities can be overridden per code
    f = check_segment(doc.segments[0], XLIFF1, {"target-same-as-source": "error"})
    assert all(x.severity == "error" for x in f if x.code == "target-same-as-source")


def test_codes_on_parsed_xliff_and_tmx():
    t = """<xliff version="1.2"><file original="f"><body>
<trans-unit id="1"><source>Press <g id="1">OK</g> <x id="2"/></source><target>Drücken <x id="2"/></target></trans-unit>
</body></file></xliff>"""
    (s,) = read_xliff_text(t).segments
    f = check_codes(s)
    assert codes(f) == ["codes-missing"]
    assert f[0].span == s.target_span
    tmx = """<tmx version="1.4"><header srclang="en"/><body><tu>
<tuv xml:lang="en"><seg>A <ph x="1">{0}</ph> b</seg></tuv><tuv xml:lang="de"><seg>A b <ph x="1">{0}</ph> <ph x="7">%s</ph></seg></tuv>
</tu></body></tmx>"""
    (s,) = read_tmx_text(tmx).segments
    f = check_codes(s)
    assert codes(f) == ["codes-extra"] and tmx[slice(*f[0].span)] == '<ph x="7">%s</ph>'


def test_line_breaks_counted_in_the_file_text():
    t = """<xliff version="1.2"><file original="f"><body>
<trans-unit id="1"><source>One
two</source><target>Eins zwei</target></trans-unit>
<trans-unit id="2"><source>One&#10;two</source><target>Eins
zwei</target></trans-unit>
<trans-unit id="3"><source>One two</source><target>Eins&#xA;zwei</target></trans-unit>
<trans-unit id="4"><source>One two</source><target>Eins zwei</target></trans-unit>
<trans-unit id="5"><source>One
two</source><target></target></trans-unit>
</body></file></xliff>"""
    doc = read_xliff_text(t)
    found = {k: [f for f in fs if f.code == "newlines"] for k, fs in check_document(doc).items()}
    found = {k: fs for k, fs in found.items() if fs}
    # a literal line break and &#10; are one line break each; an empty target is another check's
    assert sorted(found) == ["f/1", "f/3"]
    assert "has 0 line breaks; the source has 1" in found["f/1"][0].message
    assert t[slice(*found["f/3"][0].span)] == "Eins&#xA;zwei"
    assert DEFAULT_SEVERITY["newlines"] == "warning"
