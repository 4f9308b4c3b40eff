"""gettext PO reader: extraction against polib, exact spans, malformed input."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.po import CTXT_SEP, po_charset, read_po

polib = pytest.importorskip("polib")

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "po"
REAL = sorted(DATA.glob("*.po"))


def fold(s: str) -> str:
    return s.replace("\n", " ").replace("\r", " ")


def polib_segments(path_or_text) -> dict[str, dict]:
    """What polib reads, keyed as the reader keys (non-obsolete entries, no header)."""
    po = polib.pofile(str(path_or_text))
    out = {}
    for e in po:
        if e.obsolete or (e.msgid == "" and e.msgctxt is None):
            continue
        base = e.msgid if e.msgctxt is None else e.msgctxt + CTXT_SEP + e.msgid
        facts = dict(msgctxt=e.msgctxt, msgid=e.msgid, msgid_plural=e.msgid_plural or None,
                     flags=frozenset(e.flags), previous_msgid=e.previous_msgid,
                     previous_msgctxt=e.previous_msgctxt, previous_msgid_plural=e.previous_msgid_plural,
                     comment=e.comment, tcomment=e.tcomment, occurrences=e.occurrences)
        if e.msgid_plural:
            for n, text in sorted(e.msgstr_plural.items()):
                out[f"{base}[{n}]"] = dict(facts, msgstr=text, plural_index=n)
        else:
            out[base] = dict(facts, msgstr=e.msgstr, plural_index=None)
    return out


def ours(seg) -> dict:
    x = seg.extra
    return dict(msgctxt=x.get("msgctxt"), msgid=x["msgid"], msgid_plural=x.get("msgid_plural"),
                flags=seg.flags, previous_msgid=x.get("previous_msgid"),
                previous_msgctxt=x.get("previous_msgctxt"), previous_msgid_plural=x.get("previous_msgid_plural"),
                comment="\n".join(x.get("extracted_comments", ())),
                tcomment="\n".join(x.get("translator_comments", ())),
                occurrences=[tuple(r.rsplit(":", 1)) if ":" in r else (r, "") for r in x.get("references", ())],
                msgstr=x["msgstr"], plural_index=x.get("plural_index"))


def unescape_span(text: str, span: tuple[int, int]) -> str:
    """The msgstr as the file spells it between the first and last quote, read as C string literals."""
    return ast.literal_eval("(\"" + text[span[0]:span[1]] + "\")")


def check_spans(text: str, doc) -> None:
    for seg in doc.segments:
        assert fold(unescape_span(text, seg.target_span)) == seg.target
        assert text[seg.target_span[0] - 1] == '"' and text[seg.target_span[1]] == '"'
        assert text.split("\n")[seg.line].lstrip().startswith("msgstr")
        for i, ch in enumerate(seg.target):
            off = seg.file_offset(i)
            assert seg.target_span[0] <= off < seg.target_span[1]
            if text[off] != ch:  # an escape: the offset is its backslash
                assert text[off] == "\\", (seg.key, i, ch, text[off - 5: off + 5])
        assert seg.file_offset(len(seg.target)) == seg.target_span[1]


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_catalogue_equals_polib(path):
    text = path.read_text(encoding="utf-8")
    doc = read_po(text)
    assert doc.problems == []
    want = polib_segments(path)
    assert [s.key for s in doc.segments] == list(want)  # file order, obsolete and header skipped
    for seg in doc.segments:
        assert ours(seg) == want[seg.key], seg.key
        assert seg.target == fold(want[seg.key]["msgstr"])
        assert seg.state == ("fuzzy" if "fuzzy" in seg.flags else "translated" if seg.target else "untranslated")
        assert seg.draft is None
    po = polib.pofile(str(path))
    assert doc.header == dict(po.metadata)
    assert doc.target_lang == (po.metadata.get("Language") or None)
    check_spans(text, doc)


def test_real_catalogue_has_what_the_tests_need():
    doc = read_po((DATA / "allauth-de-2023-10-07.po").read_text(encoding="utf-8"))
    assert sum(1 for s in doc.segments if s.state == "fuzzy") == 31
    assert sum(1 for s in doc.segments if "previous_msgid" in s.extra) == 31
    assert any("plural_index" in s.extra for s in doc.segments)
    assert any(s.state == "untranslated" for s in doc.segments)


SAMPLE = r'''# translator says
msgid ""
msgstr ""
"Language: fr\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

#. extracted
#: a.c:3
#, fuzzy, c-format
#| msgctxt "old"
#| msgid "Old "
#| "%d thing"
msgctxt "ctx"
msgid "%d thing"
msgid_plural "%d things"
msgstr[0] "%d chose"
msgstr[1] ""
"%d \"choses\"\n"
"\tbis"

msgid "tab"
msgstr "a\tb\101\x41"

#~ msgid "gone"
#~ msgstr "parti"
'''


def test_sample_keys_spans_and_header():
    doc = read_po(SAMPLE)
    assert doc.problems == []
    assert doc.header == {"Language": "fr", "Plural-Forms": "nplurals=2; plural=(n > 1);"}
    assert doc.target_lang == "fr"
    keys = [s.key for s in doc.segments]
    assert keys == ["ctx\x04%d thing[0]", "ctx\x04%d thing[1]", "tab"]
    one, two, tab = doc.segments
    assert one.extra["previous_msgid"] == "Old %d thing" and one.extra["previous_msgctxt"] == "old"
    assert two.target == '%d "choses" \tbis' and two.extra["msgstr"] == '%d "choses"\n\tbis'
    assert two.source == "%d things" and one.source == "%d thing"
    assert one.line == 15 and two.line == 16  # 0-based: the msgstr[1] keyword
    assert tab.target == "a\tbAA"
    assert one.notes == ("extracted",) and one.flags == {"fuzzy", "c-format"}
    check_spans(SAMPLE, doc)
    # polib leaves octal and hex escapes as they are written; gettext (and this reader) decodes them as C does
    assert polib_segments_text(SAMPLE) == {s.key: s.extra["msgstr"] for s in doc.segments} | {"tab": "a\tb\\101\\x41"}


def polib_segments_text(text: str) -> dict[str, str]:
    return {k: v["msgstr"] for k, v in polib_segments(text).items()}


@pytest.mark.parametrize(
    "text, where, words",
    [
        ('msgid "a"\nmsgstr "b\n\nmsgid "c"\nmsgstr "d"\n', (1, 9), "unterminated"),
        ('msgid "a"\nmsgstr "b"\nmsgfoo "x"\n\nmsgid "c"\nmsgstr "d"\n', (2, 0), "unknown keyword"),
        ('msgstr "b"\n\nmsgid "c"\nmsgstr "d"\n', (0, 0), "msgstr without a msgid"),
        ('msgid "a"\n\nmsgid "c"\nmsgstr "d"\n', (2, 0), "msgstr was expected"),
        ('msgid "a"\nmsgstr b\n\nmsgid "c"\nmsgstr "d"\n', (1, 7), "expected a quoted string"),
        ('msgid "a"\nmsgstr "b" x\n\nmsgid "c"\nmsgstr "d"\n', (1, 11), "after the closing quote"),
        ('msgid "c"\nmsgstr "d"\n\nmsgid "c"\nmsgstr "e"\n', (4, 0), "second entry"),
        ('"loose"\nmsgid "c"\nmsgstr "d"\n', (0, 0), "outside"),
    ],
)
def test_malformed_gives_problems_and_reads_the_rest(text, where, words):
    doc = read_po(text)
    assert doc.problems, text
    p = doc.problems[0]
    assert (p.line, p.column) == where and words in p.message
    lines = text.split("\n")
    assert sum(len(x) + 1 for x in lines[: p.line]) + p.column == p.offset
    assert any(s.extra["msgid"] == "c" and s.target == "d" for s in doc.segments)


def test_truncated_and_garbage_never_raise():
    for cut in range(len(SAMPLE)):
        read_po(SAMPLE[:cut])
    read_po("\x00\ufeff\"\\")


def test_charset_from_header():
    assert po_charset(b'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n') == "iso8859-1"
    assert po_charset(b'"Content-Type: text/plain; charset=CHARSET\\n"') == "utf-8"
    assert po_charset(b"") == "utf-8"


# -- property: generated entries ----------------------------------------------
_ESC = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
chars = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)


def spell(value: str, data) -> str:
    """``value`` as PO string lines, split at random, other control characters as octal escapes."""
    parts, piece = [], ""
    for k, ch in enumerate(value):
        if ch in _ESC:
            piece += _ESC[ch]
        elif ord(ch) < 32 or ch == "\x7f":
            piece += f"\\{ord(ch):03o}"
        elif ch == "A" and value[k + 1 : k + 2] not in set("0123456789abcdefABCDEF") - {""} and data.draw(st.booleans()):
            # a hex escape takes every hex digit after it (as in C), so only before a non-digit
            piece += "\\x41"
        else:
            piece += ch
        if data.draw(st.integers(0, 5)) == 0:
            parts.append(piece)
            piece = ""
    parts.append(piece)
    return "\n".join(f'"{p}"' for p in parts)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_generated_entries_round_trip(data):
    entries = data.draw(st.lists(st.tuples(st.one_of(st.none(), chars), chars, st.booleans(),
                                           st.lists(chars, min_size=2, max_size=3)), max_size=5))
    out, want = [], {}
    for n, (ctxt, msgid, plural, strs) in enumerate(entries):
        msgid = f"{n}:{msgid}"  # unique, never the header's empty msgid
        base = msgid if ctxt is None else ctxt + CTXT_SEP + msgid
        block = []
        if data.draw(st.booleans()):
            block.append("#, fuzzy, python-format")
        if ctxt is not None:
            block.append("msgctxt " + spell(ctxt, data))
        block.append("msgid " + spell(msgid, data))
        if plural:
            block.append("msgid_plural " + spell(msgid + "s", data))
            for i, s in enumerate(strs):
                block.append(f"msgstr[{i}] " + spell(s, data))
                want[f"{base}[{i}]"] = s
        else:
            block.append("msgstr " + spell(strs[0], data))
            want[base] = strs[0]
        out.append("\n".join(block))
    nl = data.draw(st.sampled_from(["\n", "\r\n"]))
    if data.draw(st.booleans()):  # an obsolete entry and comments between the entries: not segments
        out.insert(data.draw(st.integers(0, len(out))), '# note\n#~ msgid "old"\n#~ msgstr "alt"')
    text = ("\n\n".join(out) + "\n").replace("\n", nl)
    doc = read_po(text)
    assert doc.problems == []
    assert {s.key: s.extra["msgstr"] for s in doc.segments} == want
    assert [s.key for s in doc.segments] == list(want)
    check_spans(text, doc)


def test_a_msgstr_without_its_string_is_an_empty_target_after_the_keyword():
    text = 'msgid "a"\nmsgstr\n\nmsgid "b"\nmsgstr[0] x\n'
    doc = read_po(text)
    assert len(doc.problems) >= 2
    a = doc.segments[0]
    assert a.target == "" and a.target_span == (16, 16) and text[:16].endswith("msgstr")
    assert all(s.target_span[0] >= 0 for s in doc.segments)


_PIECES = st.sampled_from(['msgid ', 'msgstr ', 'msgstr[1] ', 'msgctxt ', 'msgid_plural ', '"', '\\', '\\n', 'x',
                           ' ', '\n', '\r\n', '#, fuzzy', '#| msgid ', '#~ ', '# ', 'é', '""'])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60))
def test_any_text_reads_without_raising_and_positions_stay_in_the_text(pieces):
    text = "".join(pieces)
    doc = read_po(text)
    for seg in doc.segments:
        a, b = seg.target_span
        assert 0 <= a <= b <= len(text)
        assert all(a <= seg.file_offset(i) <= b for i in range(len(seg.target) + 1))
    lines = text.split("\n")
    for p in doc.problems:
        assert sum(len(x) + 1 for x in lines[: p.line]) + p.column == p.offset
        assert 0 <= p.offset <= len(text)


def test_placeholders_by_format_flag_with_their_spans():
    text = (
        '#, c-format\nmsgid "%d of %s, 100%%"\nmsgstr "%2$s: %1$d sur %s, 100%%"\n\n'
        '#, python-format\nmsgid "%(count)s items"\nmsgstr "%(count)s éléments"\n\n'
        '#, python-brace-format\nmsgid "{n} of {total}"\nmsgstr "{{literal}} {n} "\n"sur {total}"\n\n'
        'msgid "no flag %s {x}"\nmsgstr "pas de drapeau %s {x}"\n'
    )
    doc = read_po(text)
    assert doc.problems == []
    got = [([c.id for c in s.source_codes], [c.id for c in s.target_codes]) for s in doc.segments]
    assert got == [
        (["%d", "%s"], ["%2$s", "%1$d", "%s"]),
        (["%(count)s"], ["%(count)s"]),
        (["{n}", "{total}"], ["{n}", "{total}"]),
        ([], []),
    ]
    for seg in doc.segments:
        for c in (*seg.source_codes, *seg.target_codes):
            assert c.kind == "placeholder" and text[c.span[0]:c.span[1]] == c.id


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_placeholder_spans_in_real_catalogues(path):
    text = path.read_text(encoding="utf-8")
    doc = read_po(text)
    codes = [c for s in doc.segments for c in (*s.source_codes, *s.target_codes)]
    assert codes  # every catalogue here has python-format or python-brace-format entries
    for c in codes:
        assert text[c.span[0]:c.span[1]] == c.id
