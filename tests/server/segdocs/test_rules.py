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
    assert sp.rules is not None
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
