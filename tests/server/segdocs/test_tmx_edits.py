"""TMX edited through the server (SegmentDocs over the tu-by-tu index): after every edit of a
random script — typing in targets, tus pasted and deleted, in memories keyed by tuid and by
place — the hints, rows, model and segments are those of a fresh open of the edited text
(whenever it is well-formed)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types

from bleu_ls.server.segdocs import opening

from ...formats.live.test_tmx_live import _tmx
from .test_opening import _docs, _state


def _change(docs, uri: str, version: int, start: int, end: int, new: str) -> None:
    sp = docs.docs[uri]
    (l0, c0), (l1, c1) = sp.index.position(start), sp.index.position(end)
    line0, line1 = sp.index.line(l0), sp.index.line(l1)
    units = lambda s, c: len(s[:c].encode("utf-16-le")) // 2  # noqa: E731
    rng = types.Range(start=types.Position(line=l0, character=units(line0, c0)),
                      end=types.Position(line=l1, character=units(line1, c1)))
    docs.change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(tuids=st.sampled_from(["all", "none", "mixed"]), steps=st.lists(
    st.tuples(st.sampled_from(["type", "type", "paste", "paste-new-id", "drop"]), st.floats(0, 0.999),
              st.sampled_from(["wort ", "é", "\n", "😀 ", "<", ""])), min_size=1, max_size=6))
def test_tmx_edits_through_the_server_end_as_a_fresh_open(tmp_path_factory, monkeypatch, tuids, steps):
    monkeypatch.setattr(opening, "LARGE_CHARS", 10**9)
    root = tmp_path_factory.mktemp("tmx")
    (root / "tm.ref.tmx").write_text(_tmx(30, tuids).replace("Ziel", "Target"), encoding="utf-8")
    uri = (root / "tm.hyp.tmx").as_uri()
    docs = _docs(root)
    docs.open(uri, _tmx(30, tuids), 1)
    for v, (how, where, new) in enumerate(steps, start=2):
        sp = docs.docs[uri]
        n, text = len(sp.index), sp.index.text
        if not n:
            break
        seg = sp.index.segment(int(where * n))
        if how == "type":
            a, b = sp.index.target_span(int(where * n))
            _change(docs, uri, v, b, b, new)
        elif how == "drop":
            us, ue = seg.extra["unit_span"]
            _change(docs, uri, v, us, ue, "")
        else:
            us, ue = seg.extra["unit_span"]
            unit = text[us:ue] if how == "paste" else text[us:ue].replace('tuid="', 'tuid="new', 1)
            _change(docs, uri, v, ue, ue, "\n    " + unit)
        if sp.index.problems:  # malformed: the last good hints stay (a fresh open has none to keep)
            continue
        fresh = _docs(root)
        fresh.open(uri, sp.index.text, v)
        assert _state(docs, uri) == _state(fresh, uri)
