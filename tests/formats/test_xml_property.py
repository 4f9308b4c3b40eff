"""Property test: generated XLIFF units (ids, entities, inline codes, CDATA, line breaks) read back exactly."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.formats.xliff import read_xliff, read_xliff_text

from .xml_oracle import stripped_span

# (xml, text it stands for) — built here from the XML rules, independently of the reader
WORDS = ["the", "cat", "Zürich", "東京", "👋", "a b", "x", "1,000", "don't", "\t"]
ENTITIES = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&#233;", "é"),
            ("&#x4E2D;", "中"), ("&#10;", " "), ("&#128075;", "👋")]
BREAKS = [("\n", " "), ("\r\n", " "), ("\n  ", "   ")]


def _cdata(s: str) -> str:
    return s.replace("]]>", "]]")


leaf = st.one_of(
    st.sampled_from(WORDS).map(lambda w: (w, w)),
    st.sampled_from(ENTITIES),
    st.sampled_from(BREAKS),
    st.sampled_from(["a<b", "x & y", "]]", "<tag>", "&amp;"]).map(lambda s: (f"<![CDATA[{_cdata(s)}]]>", _cdata(s))),
    st.integers(1, 9).map(lambda i: (f'<x id="{i}"/>', "")),
    st.integers(1, 9).map(lambda i: (f'<ph id="{i}">&lt;br/&gt;</ph>', "")),
    st.integers(1, 9).map(lambda i: (f'<bpt id="{i}">&lt;b&gt;</bpt>', "")),
    st.integers(1, 9).map(lambda i: (f'<ept id="{i}">&lt;/b&gt;</ept>', "")),
)


def _extend(children):
    return st.one_of(
        st.tuples(st.integers(1, 9), children).map(lambda t: (f'<g id="{t[0]}">{t[1][0]}</g>', t[1][1])),
        st.tuples(children).map(lambda t: (f'<mrk mtype="protected">{t[0][0]}</mrk>', t[0][1])),
        st.lists(children, min_size=2, max_size=4).map(lambda xs: ("".join(x for x, _ in xs), "".join(t for _, t in xs))),
    )


content = st.recursive(st.lists(leaf, max_size=6).map(lambda xs: ("".join(x for x, _ in xs), "".join(t for _, t in xs))),
                       _extend, max_leaves=12)

ID_CHARS = st.sampled_from(["a", "Z", "0", "-", "_", ".", " ", "&amp;", "&lt;", "&quot;", "é", "/"])
unit_id = st.lists(ID_CHARS, min_size=1, max_size=6).map("".join)


def _unescape_attr(s: str) -> str:
    return s.replace("&lt;", "<").replace("&quot;", '"').replace("&amp;", "&")


@st.composite
def xliff_file(draw):
    n = draw(st.integers(1, 5))
    ids = draw(st.lists(unit_id, min_size=n, max_size=n, unique_by=_unescape_attr))
    units, expected = [], []
    for uid in ids:
        src_xml, src = draw(content)
        kind = draw(st.sampled_from(["target", "empty", "none"]))
        tgt_xml, tgt = draw(content)
        target = {"target": f'<target state="translated">{tgt_xml}</target>', "empty": "<target/>", "none": ""}[kind]
        units.append(f'  <trans-unit id="{uid}">\n   <source>{src_xml}</source>\n   {target}\n  </trans-unit>\n')
        expected.append((f"orig/{_unescape_attr(uid)}", src, tgt if kind == "target" else ""))
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
            '\n <file original="orig" source-language="en" datatype="plaintext"><body>\n' + "".join(units) +
            " </body></file>\n</xliff>\n")
    return text, expected


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(xliff_file())
def test_generated_units_read_back_with_exact_spans(case):
    text, expected = case
    doc = read_xliff_text(text)
    assert not doc.problems
    assert [(s.key, s.source, s.target) for s in doc.segments] == expected
    ns = "urn:oasis:names:tc:xliff:document:1.2"
    for s in doc.segments:
        a, b = s.target_span
        assert stripped_span(text, s.target_span, ns=ns) == s.target
        for r in s.runs:
            assert text[r.file_start:r.file_start + r.length] == s.target[r.text_start:r.text_start + r.length]
            for k in range(r.text_start, r.text_start + r.length):
                assert text[s.file_offset(k)] == s.target[k]
        for i in range(len(s.target) + 1):
            assert a <= s.file_offset(i) <= b
        if not s.runs and s.target and "&" not in text[a:b] and "<" not in text[a:b]:
            # no runs, no markup: the scored text is the file's content, character for character
            assert text[a:b].replace("\r\n", " ").replace("\n", " ") == s.target
        covered = sum(r.length for r in s.runs)
        assert covered <= len(s.target)
        if text[:a].endswith('<target state="translated">'):
            assert text[b:].startswith("</target>")
            tag = text.rfind("<target", 0, a)
        else:  # no target (after </source>) or <target/> (after it)
            assert a == b and text[:a].endswith(("</source>", "<target/>"))
            tag = a
        assert s.line == text.count("\n", 0, tag)
    # the same file as UTF-16 bytes: the same segments, offsets into the same decoded text
    assert read_xliff(b"\xff\xfe" + text.encode("utf-16-le")).segments == doc.segments
