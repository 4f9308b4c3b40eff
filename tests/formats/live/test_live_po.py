"""The PO live index (formats/live/po.py): after every step of a random edit script
(typing inside a msgstr, outside it, quotes half typed, entries pasted and
deleted, `#~` lines, the header entry) its segments, problems and header equal a
fresh read of the text; an edit inside one msgstr re-reads that entry only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.text as live_text
from bleu_ls.formats.live.po import PoIndex
from bleu_ls.formats.po import read_po

@pytest.fixture(autouse=True, scope="module")
def small_pieces():
    """The index's text in small pieces (formats/live/text.py): the edits cross them."""
    old, live_text.CHUNK = live_text.CHUNK, 64
    yield
    live_text.CHUNK = old


DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "po"

SMALL = '''# A catalogue.
msgid ""
msgstr ""
"Language: ru\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : 1);\\n"

#: a.py:1
#, fuzzy, c-format
#| msgid "Old %s"
msgid "Hello %s"
msgstr "Привет %s"

msgctxt "menu"
msgid "File"
msgstr "Файл"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d файл"
msgstr[1] "%d файла"
msgstr[2] "%d файлов"

#. a note
msgid ""
"Long "
"text"
msgstr ""
"Длинный "
"текст"
#~ msgid "Gone"
#~ msgstr "Ушло"

msgid "Same"
msgstr "Тот же"
'''

PIECES = [
    '"', '\\', "\n", "\n\n", "x", "ы", " ", "#~ ", "#, fuzzy\n", "#. note\n", "msgid ", "msgstr ", "msgstr[1] ",
    'msgid "New"\nmsgstr "Новый"\n\n', '\nmsgid "New"\nmsgstr "Новый"\n', 'msgctxt "c"\n', '"more"\n', 'msgid ""\nmsgstr ""\n\n',
    'msgid "Same"\nmsgstr "Другой"\n\n', "\\n", "%s", "",
]


def _fresh_equal(index: PoIndex) -> None:
    doc = read_po(index.text)
    got = index.segments()
    assert [s.key for s in got] == [s.key for s in doc.segments]
    assert got == doc.segments
    assert index.problems == doc.problems
    assert index.header == dict(doc.header)
    # the cached target offsets and anchors agree with the segments
    assert [index.target_span(i) for i in range(len(index))] == [s.target_span for s in doc.segments]
    assert [index.anchor_line(i) for i in range(len(index))] == [s.line for s in doc.segments]
    # the closing quote after each target (where the hint goes)
    which = np.arange(len(index), dtype=np.int64)
    assert index.quoted(which).tolist() == [int(index.text.startswith('"', s.target_span[1])) for s in doc.segments]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(["small", "small-crlf", "phonenumber-fr-2024.po", "allauth-ru-2025-03-27.po"]), data=st.data())
def test_the_index_equals_a_fresh_read_after_every_edit(base, data):
    text = SMALL if base == "small" else SMALL.replace("\n", "\r\n") if base == "small-crlf" else (DATA / base).read_text(encoding="utf-8")
    index = PoIndex(text)
    _fresh_equal(index)
    for _ in range(data.draw(st.integers(1, 12))):
        n = len(index)
        how = data.draw(st.sampled_from(["in-msgstr", "anywhere", "delete-entry", "paste-entry", "delete-range"]))
        t = index.text
        if how == "in-msgstr" and n:
            a, b = index.target_span(data.draw(st.integers(0, n - 1)))
            start = data.draw(st.integers(a, b))
            end = data.draw(st.integers(start, b))
            new = data.draw(st.sampled_from(PIECES + ["Слово", "word", "x"]))
        elif how == "delete-entry" and n:
            s = index.segment(data.draw(st.integers(0, n - 1)))
            start = t.rfind("\n\n", 0, s.target_span[0]) + 1
            e = t.find("\n\n", s.target_span[1])
            end = len(t) if e < 0 else e + 1
            new = ""
        elif how == "paste-entry":
            start = end = data.draw(st.integers(0, len(t)))
            new = data.draw(st.sampled_from(PIECES[13:19]))
        elif how == "delete-range":
            start = data.draw(st.integers(0, len(t)))
            end = min(len(t), start + data.draw(st.integers(1, 80)))
            new = ""
        else:
            start = data.draw(st.integers(0, len(t)))
            end = min(len(t), start + data.draw(st.integers(0, 3)))
            new = data.draw(st.sampled_from(PIECES))
        which = np.arange(len(index), dtype=np.int64)
        before = index.target_ends(which) + index.quoted(which)  # where the hints were
        snap = index.hints_snapshot()
        index.edit(start, end, new)
        _fresh_equal(index)
        assert index.hints_before(snap, which).tolist() == before.tolist()  # told afterwards, nothing copied


def test_an_edit_inside_one_msgstr_is_a_text_change_of_that_segment():
    text = (DATA / "allauth-ru-2025-03-27.po").read_text(encoding="utf-8")
    index = PoIndex(text)
    i = len(index) // 2
    a, b = index.target_span(i)
    key = index.segment(i).key
    change = index.edit(b, b, "x")
    assert (change.kind, change.start, change.text_changed) == ("text", i, True)
    assert index.segment(i).key == key and index.segment(i).target.endswith("x")
    # a quote left open: one problem, the entries after it as before
    change = index.edit(b + 1, b + 2, "")
    assert len(index.problems) == len(read_po(index.text).problems)
    _fresh_equal(index)


def test_the_po_benchmark_runs_small(capsys):
    """benchmarks/segments_po_live.py on 300 entries: every row comes out, typing is a text change."""
    from benchmarks.segments_po_live import catalogue, main

    text = catalogue(300, 1)
    assert PoIndex(text).segments() == read_po(text).segments
    main(300, 5)
    out = capsys.readouterr().out
    assert "PoIndex (entry by entry)" in out and "(5 edits, ['text'])" in out
    assert "server (SegmentDocs, PoIndex)" in out
