"""Segment documents in the server, driven without a client: pairing again after a
structural edit touches the rows around it only, and gives what pairing the whole
text again gives."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.server.segdocs.rows import pair
from bleu_ls.config.settings import Settings

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]


def _clock(ms: int) -> str:
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def _cue(n: int, a: int, b: int, text: str) -> str:
    return f"{n}\n{_clock(a)} --> {_clock(b)}\n{text}\n"


def _docs(root: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: root, client=None)
    return SegmentDocs(manager)  # type: ignore[arg-type]


def _state(sp):
    return (
        sp.row_hs.tolist(), sp.row_he.tolist(), sp.row_refs, sp.row_of.tolist(), sp.ref_row.tolist(),
        sp.unpaired_hyp, sp.unpaired_ref, list(sp.model.hyp), list(sp.model.refs[0]),
    )


cue = st.tuples(st.integers(0, 60_000), st.integers(200, 6000), st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    hyp=st.lists(cue, min_size=1, max_size=12),
    ref=st.lists(cue, min_size=1, max_size=12),
    edits=st.lists(st.tuples(st.sampled_from(["paste", "delete", "retime"]), st.floats(0, 1), cue), min_size=1, max_size=6),
)
def test_pairing_again_after_structural_edits_equals_pairing_the_whole_text(tmp_path, hyp, ref, edits):
    hyp = sorted(hyp)
    (tmp_path / "a.ref.srt").write_text("\n".join(_cue(i + 1, a, a + d, t) for i, (a, d, t) in enumerate(sorted(ref))), encoding="utf-8")
    text = "\n".join(_cue(i + 1, a, a + d, t) for i, (a, d, t) in enumerate(hyp))
    uri = (tmp_path / "a.hyp.srt").as_uri()
    docs = _docs(tmp_path)
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    for k, (how, where, (a, d, t)) in enumerate(edits):
        index = sp.index
        n = len(index)
        i = min(n - 1, int(where * n)) if n else 0
        if how == "paste" or n == 0:
            at = index.target_span(i)[1] if n else len(index.text)
            docs._apply(sp, at, at, "\n\n" + _cue(500 + k, a, a + d, t).rstrip("\n"))
        elif how == "delete":
            seg = index.segment(i)
            start = index.line_start(int(seg.extra["timing_line"]) - 1)
            end = min(len(index.text), seg.target_span[1] + 1)
            docs._apply(sp, start, end, "")
        else:
            seg = index.segment(i)
            ln = int(seg.extra["timing_line"])
            docs._apply(sp, index.line_start(ln), index.line_end(ln), f"{_clock(a)} --> {_clock(a + d)}")
        if sp.frozen is not None or sp.model is None:
            continue
        fresh = _docs(tmp_path)
        fresh.open(uri, sp.index.text, 1)
        other = fresh.docs[uri]
        other.offset_ms, other.model = sp.offset_ms, None  # the offset estimated on opening stays
        pair(other, fresh.manager.settings)
        assert _state(sp) == _state(other)


def _unit(uid: str, src: str, tgt: str) -> str:
    return f'<trans-unit id="{uid}"><source>{src}</source><target>{tgt}</target></trans-unit>\n'


def _xlf(units: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'<file original="f" source-language="en" target-language="de" datatype="plaintext"><body>\n{units}</body></file></xliff>\n')


words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    hyp=st.lists(st.tuples(st.integers(0, 15), words, words), min_size=1, max_size=10, unique_by=lambda u: u[0]),
    ref=st.lists(st.tuples(st.integers(0, 15), words, words), min_size=1, max_size=10, unique_by=lambda u: u[0]),
    edits=st.lists(st.tuples(st.sampled_from(["paste", "delete", "type"]), st.floats(0, 1), st.integers(0, 20), words),
                   min_size=1, max_size=6),
)
def test_xliff_units_pasted_and_deleted_give_the_rows_pairing_the_whole_text_gives(tmp_path, hyp, ref, edits):
    (tmp_path / "a.ref.xlf").write_text(_xlf("".join(_unit(f"u{i}", s, t) for i, s, t in ref)), encoding="utf-8")
    text = _xlf("".join(_unit(f"u{i}", s, t) for i, s, t in hyp))
    uri = (tmp_path / "a.hyp.xlf").as_uri()
    docs = _docs(tmp_path)
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    for how, where, uid, w in edits:
        index = sp.index
        n = len(index)
        i = min(n - 1, int(where * n)) if n else 0
        unit_span = index.segment(i).extra["unit_span"] if n else None
        if how == "paste" or n == 0:
            at = unit_span[1] if n else index.text.index("</body>")
            if f'id="u{uid}"' in index.text:
                continue
            docs._apply(sp, at, at, "\n" + _unit(f"u{uid}", w, w).rstrip("\n"))
        elif how == "delete":
            docs._apply(sp, unit_span[0], unit_span[1], "")
        else:
            _, end = index.target_span(i)
            docs._apply(sp, end, end, " " + w)
        if sp.frozen is not None or sp.model is None:
            continue
        fresh = _docs(tmp_path)
        fresh.open(uri, sp.index.text, 1)
        assert _state(sp) == _state(fresh.docs[uri])
