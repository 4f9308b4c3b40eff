"""Re-reading only the units an edit touched gives the same document as reading it all again."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.formats.xliff import read_xliff_text
from bleu_ls.formats.live.xml_reread import apply_edit, reread_region

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "xliff"
X2 = (DATA / "angular.fr.xlf2.xlf").read_text("utf-8")
X1 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file original="app" source-language="en" target-language="de" datatype="plaintext">
  <body>
   <trans-unit id="a"><source>Hello <g id="1">you</g></source><target>Hallo <g id="1">du</g></target></trans-unit>
   <group id="g">
   <trans-unit id="b"><source>Two. Three.</source>
    <seg-source><mrk mtype="seg" mid="1">Two.</mrk> <mrk mtype="seg" mid="2">Three.</mrk></seg-source>
    <target><mrk mtype="seg" mid="1">Zwei.</mrk> <mrk mtype="seg" mid="2">Drei.</mrk></target></trans-unit>
   </group>
   <trans-unit id="c"><source>Zürich &amp; more</source><target state="translated">Zürich &amp; mehr</target></trans-unit>
   <trans-unit id="skip" translate="no"><source>x</source></trans-unit>
   <trans-unit id="d"><source>Last</source></trans-unit>
  </body>
 </file>
</xliff>
"""

SNIPPETS = ["x", "é", " ", "\n", "&amp;", "<", "</target>", "<g id=\"9\">", "</g>", "<x id=\"2\"/>", '"',
            '<trans-unit id="new"><source>N</source><target>Neu</target></trans-unit>',
            '<trans-unit id="a"><source>dup</source></trans-unit>', "<group>", "</group>",
            '<unit id="n2"><segment><source>S</source><target>T</target></segment></unit>']


def _same(doc, fresh):
    assert doc.segments == fresh.segments
    assert [p.message for p in doc.problems] == [p.message for p in fresh.problems]


@st.composite
def edits(draw, text):
    steps = []
    n = len(text)
    for _ in range(draw(st.integers(1, 6))):
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, min(n, a + draw(st.sampled_from([0, 0, 1, 5, 40, 200])))))
        ins = draw(st.one_of(st.sampled_from(SNIPPETS), st.just("")))
        if a == b and not ins:
            ins = "y"
        steps.append((a, b, ins))
        n += len(ins) - (b - a)
    return steps


def _run(text, steps):
    doc = read_xliff_text(text)
    local = 0
    for a, b, ins in steps:
        a, b = min(a, len(text)), min(b, len(text))
        removed = text[a:b]
        text = text[:a] + ins + text[b:]
        doc, was_local = apply_edit(text, doc, a, b, a + len(ins), removed if len(steps) % 2 else None)
        local += was_local
        _same(doc, read_xliff_text(text))
    return local


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edit_scripts_equal_a_fresh_read(data):
    text = data.draw(st.sampled_from([X1, X2]))
    _run(text, data.draw(edits(text)))


def test_edits_inside_targets_are_local():
    text = X1
    doc = read_xliff_text(text)
    for word in ("Zwei.", "Hallo ", "mehr", "Drei"):
        i = text.index(word) + 2
        text = text[:i] + "ü" + text[i:]
        doc, local = apply_edit(text, doc, i, i, i + 1)
        assert local
        _same(doc, read_xliff_text(text))
    # a unit pasted between two units, then deleted again
    unit = '\n   <trans-unit id="p"><source>P</source><target>Q</target></trans-unit>'
    i = text.index("\n   <trans-unit id=\"c\"")
    text2 = text[:i] + unit + text[i:]
    doc2, local = apply_edit(text2, doc, i, i, i + len(unit), "")
    assert local and "app/p" in doc2.keys()
    _same(doc2, read_xliff_text(text2))
    doc3, local = apply_edit(text, doc2, i, i + len(unit), i, unit)
    assert local
    _same(doc3, read_xliff_text(text))
    # a line break typed inside the first unit moves the later lines
    i = text.index("<target>Ha") + len("<target>")
    text4 = text[:i] + "\n" + text[i:]
    doc4, local = apply_edit(text4, doc3, i, i, i + 1)
    assert local and doc4.segments[-1].line == doc3.segments[-1].line + 1
    _same(doc4, read_xliff_text(text4))


def test_structure_edits_read_everything_again():
    doc = read_xliff_text(X1)
    # the file's original changes every key
    i = X1.index('original="app"') + len('original="')
    t = X1[:i] + "z" + X1[i:]
    assert reread_region(t, doc, i, i, i + 1) is None
    new, local = apply_edit(t, doc, i, i, i + 1)
    assert not local and new.keys()[0] == "zapp/a"
    # a half-typed tag inside a target: one problem, the units before it kept
    i = X1.index("Drei")
    t = X1[:i] + "<g" + X1[i:]
    new, local = apply_edit(t, doc, i, i, i + 2)
    assert not local and len(new.problems) == 1 and new.keys() == ["app/a"]
    # and typing the rest of it recovers
    t2 = t[:i + 2] + ' id="1"></g>' + t[i + 2:]
    new2, _ = apply_edit(t2, new, i + 2, i + 2, i + 2 + len(' id="1"></g>'))
    assert not new2.problems and len(new2.segments) == len(doc.segments)
    _same(new2, read_xliff_text(t2))
