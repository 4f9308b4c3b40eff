"""The rule table's checks on a segment document with no reference, kept in
step with edits: after any edit script (typing in targets and sources,
entries pasted and deleted, diagnostics read in between or not), the
diagnostics equal those of the final text opened afresh."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.config.settings import Settings

SOURCES = ["Open the file", "Delete 3 items", "The cat sat on the mat.", "Save (all) changes?", "Hello world",
           "You have 12 new messages.", "Close the window", "Print the page!"]
TARGETS = ["Datei öffnen", "3 Elemente löschen", "Die Katze saß auf der Matte.", "Alle Änderungen speichern?",
           "Hello world", "Sie haben 21 neue Nachrichten.", "", "Seite drucken", "the the the the cat cat cat cat"]


def _docs(root: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: root,
                              client=None)
    return SegmentDocs(manager)  # type: ignore[arg-type]


def _entry(src: str, tgt: str) -> str:
    return f'msgid "{src}"\nmsgstr "{tgt}"\n'


def _po(entries) -> str:
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n'
    return "\n".join([head, *(_entry(s, t) for s, t in entries)])


def _found(docs: SegmentDocs, uri: str) -> list:
    return sorted((json.loads(d)["range"]["start"]["line"], json.loads(d)["code"], json.loads(d)["message"])
                  for d in docs.diagnostics(uri))


entry = st.tuples(st.sampled_from(SOURCES), st.sampled_from(TARGETS))
edit = st.tuples(st.sampled_from(["target", "source", "paste", "delete"]), st.floats(0, 1), entry, st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(entries=st.lists(entry, min_size=1, max_size=10, unique_by=lambda e: e[0]), edits=st.lists(edit, min_size=1, max_size=6))
def test_rule_findings_after_edits_equal_the_final_text_opened_afresh(tmp_path, entries, edits):
    uri = (tmp_path / "messages.po").as_uri()
    docs = _docs(tmp_path)
    docs.open(uri, _po(entries), 1)
    sp = docs.docs[uri]
    assert sp.rules is not None and sp.rules.rows is None
    _edit_and_compare(docs, uri, edits, tmp_path)


#: the reference of the paired case: a translation of most sources (one left out: its segment has no partner)
REFERENCE = [("Open the file", "Öffne die Datei"), ("Delete 3 items", "3 Einträge löschen"),
             ("The cat sat on the mat.", "Die Katze saß auf der Matte."), ("Save (all) changes?", "Alle Änderungen sichern?"),
             ("Hello world", "Hallo Welt"), ("You have 12 new messages.", "Sie haben 12 neue Nachrichten."),
             ("Close the window", "")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(entries=st.lists(entry, min_size=1, max_size=10, unique_by=lambda e: e[0]), edits=st.lists(edit, min_size=1, max_size=6))
def test_with_a_reference_rule_findings_after_edits_equal_the_final_text_opened_afresh(tmp_path, entries, edits):
    """The same with ``messages.ref.po`` beside: the rows paired with the reference (lines come
    and go as targets are emptied and filled, keys typed and entries pasted) follow the edits."""
    (tmp_path / "messages.ref.po").write_text(_po(REFERENCE), encoding="utf-8")
    uri = (tmp_path / "messages.hyp.po").as_uri()
    docs = _docs(tmp_path)
    docs.open(uri, _po(entries), 1)
    sp = docs.docs[uri]
    assert sp.ref is not None and sp.rules is not None and sp.rules.rows is not None
    _edit_and_compare(docs, uri, edits, tmp_path, unique=True)


def _edit_and_compare(docs: SegmentDocs, uri: str, edits, tmp_path: Path, unique: bool = False) -> None:
    """``unique``: no msgid typed that another entry has (a file so malformed keeps the rows, and
    their rule findings, of its last well-formed reading until it is well-formed again)."""
    sp = docs.docs[uri]
    for how, where, (src, tgt), read in edits:
        text = sp.index.text
        lines = text.split("\n")
        ids = [k for k, line in enumerate(lines) if line.startswith("msgid ") and line != 'msgid ""']
        if not ids:
            break
        k = ids[min(len(ids) - 1, int(where * len(ids)))]
        start = sum(len(x) + 1 for x in lines[:k])
        if how == "target":  # retype the msgstr's text
            a = start + len(lines[k]) + 1 + len('msgstr "')
            b = a + len(lines[k + 1]) - len('msgstr "') - 1
            docs._apply(sp, a, b, tgt)
        elif how == "source":  # retype the msgid's text (a new key)
            if unique and f'msgid "{src}"' in lines:
                continue
            a = start + len('msgid "')
            docs._apply(sp, a, start + len(lines[k]) - 1, src)
        elif how == "paste":  # a whole entry before this one
            if f'msgid "{src}"' in lines:
                continue
            docs._apply(sp, start, start, _entry(src, tgt) + "\n")
        else:  # the entry and its blank line
            end = start + len(lines[k]) + 1 + len(lines[k + 1]) + 1
            if end < len(text) and text[end] == "\n":
                end += 1
            docs._apply(sp, start, min(end, len(text)), "")
        sp.serial += 1
        if read:
            docs.diagnostics(uri)
    sp.rules.typed_at = -math.inf  # the user paused: ranked rules catch up
    sp.rules.stale = True
    sp.serial += 1
    got = _found(docs, uri)
    fresh = _docs(tmp_path)
    fresh.open(uri, sp.index.text, 2)
    assert got == _found(fresh, uri)


def test_with_a_reference_a_segment_gets_the_rows_that_read_it_and_the_others(tmp_path):
    """A catalogue paired with its reference: a doubled word and a number changed (rows that
    need no reference) and a line far from its reference (``low-score``, switched on) on their targets;
    a segment whose reference is empty gets no rule finding (``check`` does not score it)."""
    (tmp_path / "messages.ref.po").write_text(_po(REFERENCE), encoding="utf-8")
    uri = (tmp_path / "messages.hyp.po").as_uri()
    docs = _docs(tmp_path)
    docs.manager.settings.diagnostics.low_score.enabled = True
    text = _po([("Hello world", "Hallo Welt"), ("You have 12 new messages.", "Sie haben 21 neue Nachrichten."),
                ("Open the file", "Datei Datei öffnen"), ("Save (all) changes?", "Völlig anders hier"),
                ("Close the window", "Fenster fenster schließen")])
    docs.open(uri, text, 1)
    lines = text.split("\n")
    got = {(line, code) for line, code, _m in _found(docs, uri)}
    assert (lines.index('msgstr "Sie haben 21 neue Nachrichten."'), "number-mismatch") in got
    assert (lines.index('msgstr "Datei Datei öffnen"'), "doubled-word") in got
    assert (lines.index('msgstr "Völlig anders hier"'), "low-score") in got
    assert not any(line == lines.index('msgstr "Fenster fenster schließen"') for line, _c in got)
    assert not any(line == lines.index('msgstr "Hallo Welt"') for line, _c in got)


def test_the_rule_findings_are_there_and_placed_on_the_target(tmp_path):
    uri = (tmp_path / "messages.po").as_uri()
    docs = _docs(tmp_path)
    text = _po([("Hello world", "Hello world"), ("You have 12 new messages.", "Sie haben 21 neue Nachrichten.")])
    docs.open(uri, text, 1)
    got = {(line, code) for line, code, _m in _found(docs, uri)}
    lines = text.split("\n")
    assert (lines.index('msgstr "Hello world"'), "untranslated") in got
    assert (lines.index('msgstr "Sie haben 21 neue Nachrichten."'), "number-mismatch") in got
    assert not any(code == "target-same-as-source" for _l, code in got)  # said as untranslated


def test_with_a_reference_an_edit_works_out_the_edited_segment_only(tmp_path):
    """Live: typing in one target of a 2,000-entry catalogue paired with its reference splices
    that segment's line alone into the rule table's lines (the analyser computes one line's
    facts again, not the file's), and its finding comes and goes."""
    n = 2000
    ref = [(f"Open file {i} now", f"Datei {i} jetzt öffnen") for i in range(n)]
    (tmp_path / "big.ref.po").write_text(_po(ref), encoding="utf-8")
    uri = (tmp_path / "big.hyp.po").as_uri()
    docs = _docs(tmp_path)
    text = _po([(s, t.replace("jetzt", "sofort")) for s, t in ref])
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    assert sp.rules is not None and len(sp.rules.rows) == n
    assert not any(code == "doubled-word" for _l, code, _m in _found(docs, uri))
    analyzer = sp.rules.analyzer
    before = analyzer.stats["hyp_lines_computed"]
    lines = text.split("\n")
    k = lines.index('msgstr "Datei 1234 sofort öffnen"')
    at = sum(len(x) + 1 for x in lines[:k]) + len('msgstr "')
    docs._apply(sp, at, at, "Datei ")  # "Datei Datei 1234 sofort öffnen"
    sp.serial += 1
    got = _found(docs, uri)
    assert [(line, code) for line, code, _m in got if code == "doubled-word"] == [(k, "doubled-word")]
    assert analyzer.stats["hyp_lines_computed"] - before == 1
    assert analyzer.changed is not None and len(analyzer.changed) <= 2  # an incremental pass
    docs._apply(sp, at, at + len("Datei "), "")
    sp.serial += 1
    assert not any(code == "doubled-word" for _l, code, _m in _found(docs, uri))
    assert analyzer.stats["hyp_lines_computed"] - before == 1  # the old text's facts remembered
