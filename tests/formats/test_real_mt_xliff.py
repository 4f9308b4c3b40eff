"""A real XLIFF 1.2 machine-translation draft against its human post-edit.

ModernFlyouts' Multilingual App Toolkit catalogues (tests/data/formats/xliff/SOURCES.md):
the German and Korean files as MAT left them (Microsoft Translator targets marked
``state="needs-review-translation" state-qualifier="mt-suggestion"``) and the same files
after a translator's commit.  The extraction is cross-checked against translate-toolkit
(test-time only) and ElementTree; the draft the reader finds against the markers
ElementTree reads; ``effort`` and ``score`` against sacrebleu on the extracted texts.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import TER

from bleu_ls.formats.model import XLIFF1
from bleu_ls.formats.xliff import read_xliff
from bleu_ls.formats.xmlscan import decode_xml

from ..cli.test_segments_po import run
from .test_xliff_read import check_spans
from .xml_oracle import X1, xliff1_units

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff"
PAIRS = {
    "de": (DATA / "modernflyouts.de.mt.xlf", DATA / "modernflyouts.de.postedit.xlf"),
    "ko": (DATA / "modernflyouts.ko.mt.xlf", DATA / "modernflyouts.ko.postedit.xlf"),
}
FILES = [p for pair in PAIRS.values() for p in pair]


def ttk_rows(path: Path) -> list[tuple]:
    """(key, source, target, state, state-qualifier, notes) per unit, as translate-toolkit reads the file."""
    xliff = pytest.importorskip("translate.storage.xliff")
    store = xliff.xlifffile(path.read_bytes())
    rows = []
    for u in store.units:
        if u.isheader():
            continue
        t = u.xmlelement.find(u.namespaced("target"))
        rows.append((
            u.getid().replace("\x04", "/"), u.source, u.target or "",
            t.get("state") if t is not None else None, t.get("state-qualifier") if t is not None else None,
            u.getnotes(),
        ))
    return rows


def et_qualifiers(path: Path) -> dict[str, tuple[str, str]]:
    """unit id -> (target state-qualifier, target text) by ElementTree."""
    root = ET.fromstring(path.read_bytes())
    out = {}
    for tu in root.iter(X1 + "trans-unit"):
        t = tu.find(X1 + "target")
        out[tu.get("id")] = (t.get("state-qualifier"), "".join(t.itertext()))
    return out


def target_line(text: str, unit_id: str) -> int:
    """0-based line of the ``<target`` tag of the unit, found in the raw text."""
    at = text.index(f'<trans-unit id="{unit_id}"')
    return text.count("\n", 0, text.index("<target", at))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_extraction_matches_translate_toolkit_and_elementtree(path):
    data = path.read_bytes()
    doc = read_xliff(data, path.name)
    assert doc.format == XLIFF1 and not doc.problems
    assert doc.source_lang == "en-US" and doc.target_lang == path.name.split(".")[1]
    assert len(doc.segments) > 100
    assert [(s.key, s.source, s.target) for s in doc.segments] == [(k, src, t or "") for k, src, t in xliff1_units(data)]
    text = decode_xml(data)[0]
    assert text == data.decode("utf-8-sig")  # the BOM is not text
    check_spans(text, doc)
    assert [s.line for s in doc.segments] == [target_line(text, s.extra["unit_id"]) for s in doc.segments]
    # translate-toolkit (test-time only; skipped where it is absent): texts, states and notes
    got = [(s.key, s.source, s.target, s.state, s.state_qualifier, "\n".join(s.notes)) for s in doc.segments]
    assert got == ttk_rows(path)


@pytest.mark.parametrize("lang", sorted(PAIRS))
def test_the_mt_draft_is_the_mt_suggestion_target(lang):
    mt, post = PAIRS[lang]
    draft_doc = read_xliff(mt.read_bytes())
    marks = et_qualifiers(mt)
    expected = {uid: t for uid, (sq, t) in marks.items() if sq == "mt-suggestion"}
    got = {s.extra["unit_id"]: s.draft for s in draft_doc.segments if s.draft is not None}
    assert got == expected
    assert len(got) == {"de": 57, "ko": 54}[lang]
    assert all(s.draft == s.target and s.state == "needs-review-translation" for s in draft_doc.segments if s.draft)
    # a tm-suggestion (translation memory) or a new unit is not an MT draft
    assert {marks[s.extra["unit_id"]][0] for s in draft_doc.segments if s.draft is None} <= {"tm-suggestion", None}

    post_doc = read_xliff(post.read_bytes())
    before = {s.key: s for s in draft_doc.segments}
    edited = [s for s in post_doc.segments if before[s.key].draft is not None and s.target != before[s.key].draft]
    # the translator's commit: every MT draft reviewed (translated), a share of them rewritten
    assert len(edited) == {"de": 23, "ko": 47}[lang]
    assert all(s.state == "translated" and s.draft is None for s in edited)
    kept = [s for s in post_doc.segments if s.draft is not None]
    # German: MT accepted as is keeps its qualifier, so its draft is the draft it was; Korean drops every qualifier
    assert len(kept) == {"de": 33, "ko": 0}[lang]
    assert all(s.draft == before[s.key].draft == s.target and s.state == "translated" for s in kept)


def _paired(lang):
    """The units of both files by the ElementTree oracle (stdlib: runs where translate-toolkit is absent)."""
    mt, post = PAIRS[lang]
    d, p = xliff1_units(mt.read_bytes()), {r[0]: r for r in xliff1_units(post.read_bytes())}
    assert len(p) == len(d) and all(r[0] in p for r in d)  # the same units, keyed alike
    return d, p, mt.read_bytes().decode("utf-8-sig")


@pytest.mark.parametrize("lang", sorted(PAIRS))
def test_effort_pairs_by_key_and_equals_sacrebleu_ter(lang):
    mt, post = PAIRS[lang]
    d, p, text = _paired(lang)
    drafts, posts = [r[2] or "" for r in d], [p[r[0]][2] or "" for r in d]
    for flags, ter in (((), TER(case_sensitive=True)), (("--case-insensitive",), TER())):
        res = run("effort", mt, post, "--format", "json", *flags)
        assert res.returncode == 0, res.stderr
        got = json.loads(res.stdout)
        assert [x["key"] for x in got["lines"]] == [r[0] for r in d]
        assert [x["line"] for x in got["lines"]] == [target_line(text, r[0].rsplit("/", 1)[1]) + 1 for r in d]
        for x, dr, po in zip(got["lines"], drafts, posts):
            want = ter.sentence_score(dr, [po])
            assert (x["score"], x["num_edits"], x["ref_length"]) == (want.score, want.num_edits, want.ref_length), x["key"]
            assert x["edited"] == (dr.rstrip() != po.rstrip())
        corpus = ter.corpus_score(drafts, [posts])
        assert (got["corpus"]["score"], got["corpus"]["num_edits"], got["corpus"]["ref_length"]) == (
            corpus.score, corpus.num_edits, corpus.ref_length)
        assert got["corpus"]["lines_edited"] == sum(a.rstrip() != b.rstrip() for a, b in zip(drafts, posts))
        assert got["unpaired"] == {"hypothesis": [], "references": [], "empty": []}
        assert got["signature"].startswith("nrefs:1|case:" + ("lc" if flags else "mixed"))


@pytest.mark.parametrize("lang", sorted(PAIRS))
def test_score_mt_against_post_edit_equals_sacrebleu(lang):
    mt, post = PAIRS[lang]
    d, p, _ = _paired(lang)
    res = run("score", mt, post, "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    rows = [(r[0], r[2], p[r[0]][2]) for r in d if r[2] and p[r[0]][2]]
    assert [x["key"] for x in got["lines"]] == [k for k, _, _ in rows]
    for x, (_, h, r) in zip(got["lines"], rows):
        assert x["score"] == sacrebleu.sentence_bleu(h, [r]).score
    assert got["corpus"]["score"] == sacrebleu.corpus_bleu([h for _, h, _ in rows], [[r for _, _, r in rows]]).score


CODES = DATA / "files.de-DE.codes.xlf"


def test_mat_writes_characters_of_a_string_as_an_isolated_code():
    """Files' MAT catalogue: ``< >`` of a resource string became ``<it id="1" pos="open">&lt; &gt;</it>``.

    By XLIFF 1.2 an ``it``'s content is the native code of an isolated tag, not text: the
    scored text leaves it out (as the ElementTree oracle does), the code is kept in order on
    both sides, and ``check`` finds no code missing.  translate-toolkit reads the content as
    text: its target is ours with the two characters back where the code is.  A comment
    inside a unit is neither text nor a note."""
    data = CODES.read_bytes()
    doc = read_xliff(data, CODES.name)
    assert doc.format == XLIFF1 and not doc.problems and len(doc.segments) == 10
    assert [(s.key, s.source, s.target) for s in doc.segments] == [(k, src, t or "") for k, src, t in xliff1_units(data)]
    check_spans(decode_xml(data)[0], doc)
    with_code = [s for s in doc.segments if s.target_codes]
    assert len(with_code) == 3
    for s in with_code:
        assert [(c.kind, c.id) for c in s.target_codes] == [(c.kind, c.id) for c in s.source_codes] == [("it", "1")]
        assert s.target.endswith(': \\ / : * ? "  |') and "<" not in s.target
    commented = next(s for s in doc.segments if s.key.endswith("/DriveFreeSpaceAndCapacity"))
    assert (commented.target, commented.notes) == ("{0} frei von {1}", ())
    ttk = {r[0]: r[2] for r in ttk_rows(CODES)}  # skipped where translate-toolkit is absent
    for s in doc.segments:
        if s.target_codes:
            assert ttk[s.key].replace('" < > |', '"  |') == s.target != ttk[s.key]
        else:
            assert ttk[s.key] == s.target


def test_check_finds_no_code_missing_in_the_real_it_codes(tmp_path):
    hyp, ref = tmp_path / "c.hyp.xlf", tmp_path / "c.ref.xlf"
    hyp.write_bytes(CODES.read_bytes())
    # the reference: the German target of one coded unit rewritten, its code kept
    ref.write_bytes(CODES.read_bytes().replace(b"Der Name darf keine der folgenden", b"Der Name darf nicht die folgenden"))
    res = run("check", hyp, "--format", "json", "--fail-on", "never")
    assert res.returncode == 0, res.stderr
    pair = json.loads(res.stdout)["pairs"][0]
    assert pair["segments"]["scored"] == 10
    assert {d["code"] for d in pair["diagnostics"]} <= {"target-same-as-source", "outlier", "adequacy"}
