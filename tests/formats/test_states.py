"""Segment states: which segments need review, and the state edits on the file's text
(PO: the ``#,`` and ``#|`` line offsets the reader keeps; polib as oracle of the result)."""

from __future__ import annotations

import polib

from bleu_ls.formats.model import PO, XLIFF1, XLIFF2, Segment
from bleu_ls.formats.po import read_po
from bleu_ls.formats.states import REMOVE_FUZZY, actions, needs_review, state_edits

PO_CRLF = (
    'msgid ""\r\nmsgstr ""\r\n"Content-Type: text/plain; charset=UTF-8\\n"\r\n\r\n'
    '#, fuzzy, c-format\r\n#| msgid "old %d"\r\n#| "tail"\r\nmsgid "new %d"\r\nmsgstr "neu %d"\r\n\r\n'
    '#, fuzzy\r\nmsgid "b"\r\nmsgstr "B"\r\n'
)


def test_po_keeps_the_offsets_of_its_flag_and_previous_lines():
    doc = read_po(PO_CRLF)
    a, b = doc.segments
    assert [PO_CRLF[k : k + 2] for k in a.extra["flag_lines"]] == ["#,"]
    assert [PO_CRLF[k : PO_CRLF.index("\r", k)] for k in a.extra["previous_lines"]] == ['#| msgid "old %d"', '#| "tail"']
    assert "previous_lines" not in b.extra and len(b.extra["flag_lines"]) == 1


def apply(text, edits):
    for x, y, new in sorted(edits, reverse=True):
        text = text[:x] + new + text[y:]
    return text


def test_remove_fuzzy_keeps_the_other_flags_and_crlf(tmp_path):
    doc = read_po(PO_CRLF)
    a, b = doc.segments
    assert actions(PO, a) == [REMOVE_FUZZY]
    new = apply(PO_CRLF, state_edits(PO_CRLF, PO, a, REMOVE_FUZZY))
    assert new == PO_CRLF.replace('#, fuzzy, c-format\r\n#| msgid "old %d"\r\n#| "tail"\r\n', "#, c-format\r\n")
    new = apply(new, state_edits(new, PO, read_po(new).segments[1], REMOVE_FUZZY))
    assert new == PO_CRLF.replace('#, fuzzy, c-format\r\n#| msgid "old %d"\r\n#| "tail"\r\n', "#, c-format\r\n").replace(
        '#, fuzzy\r\nmsgid "b"', 'msgid "b"')
    path = tmp_path / "x.po"
    path.write_bytes(new.encode("utf-8"))
    entries = polib.pofile(str(path))
    assert [e.flags for e in entries] == [["c-format"], []]
    assert [e.previous_msgid for e in entries] == [None, None]
    assert [s.state for s in read_po(new).segments] == ["translated", "translated"]
    assert actions(PO, read_po(new).segments[0]) == []


def _seg(state=None, qualifier=None, flags=()):
    return Segment(key="k", target="t", target_span=(0, 1), line=0, state=state, state_qualifier=qualifier,
                   flags=frozenset(flags))


def test_needs_review():
    assert needs_review(PO, _seg("fuzzy", flags=["fuzzy", "c-format"]))
    assert not needs_review(PO, _seg("translated", flags=["c-format"]))
    for state in ("new", "needs-translation", "needs-review-translation", "needs-review-l10n"):
        assert needs_review(XLIFF1, _seg(state))
    for state in (None, "translated", "signed-off", "final", "needs-adaptation"):
        assert not needs_review(XLIFF1, _seg(state))
    assert needs_review(XLIFF1, _seg(None, "mt-suggestion")) and needs_review(XLIFF1, _seg(None, "leveraged-mt"))
    assert not needs_review(XLIFF1, _seg("final", "mt-suggestion"))
    assert not needs_review(XLIFF1, _seg(None, "exact-match"))
    assert needs_review(XLIFF2, _seg("initial"))
    assert needs_review(XLIFF2, _seg(None, "acme:mt")) and needs_review(XLIFF2, _seg(None, "x:machine-translation"))
    assert not needs_review(XLIFF2, _seg("reviewed", "acme:mt"))
    assert not needs_review(XLIFF2, _seg(None, "acme:format")) and not needs_review(XLIFF2, _seg("translated"))
