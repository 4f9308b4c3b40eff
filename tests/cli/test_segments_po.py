"""`bleu-ls score` on PO catalogues: every number is sacrebleu's on the segments polib extracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

polib = pytest.importorskip("polib")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "formats" / "po"
PAIRS = [
    (DATA / "allauth-de-2023-10-07.po", DATA / "allauth-de-2023-11-03.po"),
    (DATA / "phonenumber-fr-2024.po", DATA / "phonenumber-fr-2025.po"),
    (DATA / "allauth-ru-2025-03-27.po", DATA / "allauth-ru-2025-04-29.po"),
]


def run(command, *args):
    return subprocess.run(
        [sys.executable, "-m", "bleu_ls", command, *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


def fold(s: str) -> str:
    return s.replace("\n", " ").replace("\r", " ")


def polib_rows(path) -> list[tuple[tuple, str, int]]:
    """(msgctxt, msgid, plural index) -> msgstr, in file order, as polib reads the catalogue; and the msgstr line."""
    po = polib.pofile(str(path))
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    rows = []
    for e in po:
        if e.obsolete or (e.msgid == "" and e.msgctxt is None):
            continue
        # the msgstr keyword line: polib gives the entry's first line; look for the keyword from there
        start = e.linenum - 1
        if e.msgid_plural:
            for n, text in sorted(e.msgstr_plural.items()):
                ln = next(i for i in range(start, len(lines)) if lines[i].startswith(f"msgstr[{n}]"))
                rows.append(((e.msgctxt, e.msgid, n), fold(text), ln + 1))
        else:
            ln = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
            rows.append(((e.msgctxt, e.msgid, None), fold(e.msgstr), ln + 1))
    return rows


def key_of(ident) -> str:
    ctxt, msgid, n = ident
    base = msgid if ctxt is None else f"{ctxt}\x04{msgid}"
    return base if n is None else f"{base}[{n}]"


def oracle_pairs(hyp_path, ref_path):
    ref = {ident: text for ident, text, _ in polib_rows(ref_path)}
    scored, unpaired, empty = [], [], []
    for ident, text, line in polib_rows(hyp_path):
        if ident not in ref:
            unpaired.append(key_of(ident))
        elif text and ref[ident]:
            scored.append((key_of(ident), line, text, ref[ident]))
        else:
            empty.append(key_of(ident))
    return scored, unpaired, empty


@pytest.mark.parametrize("hyp, ref", PAIRS, ids=lambda p: p.name)
def test_po_scores_equal_sacrebleu_on_polib_segments(hyp, ref):
    r = run("score", hyp, ref, "-m", "bleu", "chrf", "ter", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scored, unpaired, empty = oracle_pairs(hyp, ref)
    assert len(scored) >= 3
    hyps = [h for _, _, h, _ in scored]
    refs = [rf for _, _, _, rf in scored]
    for key, _metric, sentence, corpus in (
        ("bleu", sacrebleu.BLEU(), sacrebleu.sentence_bleu, sacrebleu.corpus_bleu),
        ("chrf", sacrebleu.CHRF(), sacrebleu.sentence_chrf, sacrebleu.corpus_chrf),
        ("ter", sacrebleu.TER(), sacrebleu.sentence_ter, sacrebleu.corpus_ter),
    ):
        rep = doc[key]
        assert [(x["key"], x["line"]) for x in rep["lines"]] == [(k, ln) for k, ln, _, _ in scored]
        for rec, (_, _, h, rf) in zip(rep["lines"], scored):
            assert rec["score"] == sentence(h, [rf]).score, (key, rec["key"])
        assert rep["corpus"]["score"] == corpus(hyps, [refs]).score
        assert [u["key"] for u in rep["unpaired"]["hypothesis"]] == unpaired
        assert [u["key"] for u in rep["unpaired"]["empty"]] == empty


def test_allauth_pair_has_unpaired_and_empty_segments_named():
    hyp, ref = PAIRS[0]
    r = run("score", hyp, ref, "--format", "json")
    doc = json.loads(r.stdout)
    u = doc["unpaired"]
    assert u["hypothesis"] and u["references"] and u["empty"]
    ref_keys = {key_of(i) for i, _, _ in polib_rows(ref)}
    hyp_keys = {key_of(i) for i, _, _ in polib_rows(hyp)}
    assert {x["key"] for x in u["references"]} == ref_keys - hyp_keys
    assert all(x["file"] == str(ref) for x in u["references"])
    text = run("score", hyp, ref)
    assert text.returncode == 0
    assert "without a reference partner, not scored" in text.stdout
    assert f"of {ref} without a hypothesis partner" in text.stdout
    assert "with an empty target on one side" in text.stdout
    first = json.loads(r.stdout)["lines"][0]
    row = next(ln for ln in text.stdout.splitlines() if ln.strip().startswith(str(first["line"]) + " "))
    assert f"{first['score']:.2f}" in row


def test_tsv_rows_carry_line_and_key():
    hyp, ref = PAIRS[1]
    r = run("score", hyp, ref, "--format", "tsv")
    assert r.returncode == 0, r.stderr
    rows = [ln.split("\t") for ln in r.stdout.splitlines()]
    assert rows[0][:3] == ["line", "key", "bleu"]
    scored, _, _ = oracle_pairs(hyp, ref)
    assert [(int(x[0]), x[1].replace("\\x04", "\x04")) for x in rows[1:-1]] == [(ln, k) for k, ln, _, _ in scored]
    assert rows[-1][:2] == ["corpus", ""]


def test_mixed_formats_refused_in_one_sentence(tmp_path):
    r = run("score", DATA / "phonenumber-fr-2024.po", ROOT / "samples" / "news.ref")
    assert r.returncode == 2
    assert r.stdout == ""
    err = r.stderr.strip()
    assert "\n" not in err and "gettext PO file" in err and "line file" in err
    xlf = tmp_path / "x.xlf"
    xlf.write_text("<xliff/>", encoding="utf-8")
    r = run("score", DATA / "phonenumber-fr-2024.po", xlf)
    assert r.returncode == 2 and r.stderr.strip() == (
        f"bleu-ls score: error: {DATA / 'phonenumber-fr-2024.po'} is a gettext PO file and {xlf} is an XLIFF file; "
        "files of different formats cannot be scored against each other")


def test_malformed_po_is_one_sentence_with_line_and_column(tmp_path):
    bad = tmp_path / "bad.po"
    bad.write_text('msgid "a"\nmsgstr "b\n\nmsgid "c"\nmsgstr "d"\n', encoding="utf-8")
    r = run("score", bad, DATA / "phonenumber-fr-2025.po")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == f"bleu-ls score: error: {bad}:2:10: unterminated string: the closing quote is missing"


def test_po_in_a_declared_charset(tmp_path):
    hyp = tmp_path / "h.po"
    ref = tmp_path / "r.po"
    head = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\n'
    hyp.write_bytes((head + 'msgid "x"\nmsgstr "Ça été très bien"\n').encode("latin-1"))
    ref.write_text('msgid "x"\nmsgstr "Ça a été très bien"\n', encoding="utf-8")
    r = run("score", hyp, ref, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["lines"][0]["score"] == sacrebleu.sentence_bleu("Ça été très bien", ["Ça a été très bien"]).score


def test_effort_pairs_draft_and_post_edit_by_key():
    draft, post = PAIRS[0]
    r = run("effort", draft, post, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scored, unpaired, empty = oracle_pairs(draft, post)
    ter = sacrebleu.metrics.TER(case_sensitive=True)
    assert [(x["key"], x["line"]) for x in doc["lines"]] == [(k, ln) for k, ln, _, _ in scored]
    for rec, (_, _, d, p) in zip(doc["lines"], scored):
        assert rec["score"] == ter.sentence_score(d, [p]).score
        assert rec["edited"] == (d.rstrip() != p.rstrip())
    want = ter.corpus_score([d for *_, d, _ in scored], [[p for *_, p in scored]])
    assert doc["corpus"]["score"] == want.score
    assert sum(rec["edited"] for rec in doc["lines"]) >= 10
    assert [u["key"] for u in doc["unpaired"]["hypothesis"]] == unpaired
    assert [u["key"] for u in doc["unpaired"]["empty"]] == empty


def test_compare_pairs_by_key_with_the_baseline():
    base, ref = PAIRS[0]
    hyp = ref  # the post-edit as the system: every paired segment is the reference itself
    r = run("compare", base, hyp, ref, "-m", "bleu", "--paired-bs-n", "50", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scored, _, _ = oracle_pairs(base, ref)
    assert doc["segments"]["scored"] == len(scored)
    want_base = sacrebleu.corpus_bleu([b for *_, b, _ in scored], [[x for *_, x in scored]])
    want_sys = sacrebleu.corpus_bleu([x for *_, x in scored], [[x for *_, x in scored]])
    assert doc["bleu"]["baseline"]["score"] == want_base.score
    assert doc["bleu"]["system"]["score"] == want_sys.score
    r = run("compare", base, hyp, ROOT / "samples" / "news.ref")
    assert r.returncode == 2 and "line file" in r.stderr


def test_check_places_findings_inside_the_targets(tmp_path):
    hyp = tmp_path / "de.hyp.po"
    ref = tmp_path / "de.ref.po"
    hyp.write_bytes(PAIRS[0][0].read_bytes())
    ref.write_bytes(PAIRS[0][1].read_bytes())
    r = run("check", hyp, "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads(r.stdout)
    (pair,) = doc["pairs"]
    scored, unpaired, empty = oracle_pairs(PAIRS[0][0], PAIRS[0][1])
    assert pair["segments"]["scored"] == len(scored) == pair["lines"]
    assert [u["key"] for u in pair["segments"]["hypothesis"]] == unpaired
    assert pair["corpus"]["bleu"]["score"] == sacrebleu.corpus_bleu(
        [h for *_, h, _ in scored], [[x for *_, x in scored]]).score
    lines = hyp.read_text(encoding="utf-8").split("\n")
    starts = {ln for _, ln, _, _ in scored}
    assert pair["diagnostics"]
    for d in pair["diagnostics"]:
        text = lines[d["line"] - 1]
        assert text.startswith(("msgstr", '"')), d
        # the diagnostic's line is its target's msgstr line or one of its continuation lines
        # (the PO checks also speak of unscored targets: an empty msgstr, a fuzzy one)
        k = d["line"]
        while k not in starts and not lines[k - 1].startswith("msgstr"):
            k -= 1
            assert lines[k - 1].startswith(("msgstr", '"')), d
    assert "without a reference partner" in r.stderr
    text = run("check", hyp)
    assert text.stdout.splitlines()[-1].startswith(f"{hyp}: BLEU ") and f"· {len(scored)} segments ·" in text.stdout


def test_escapes_tabs_and_line_breaks_score_as_sacrebleu_on_the_folded_text(tmp_path):
    hyp = tmp_path / "h.po"
    ref = tmp_path / "r.po"
    hyp.write_bytes(
        b'msgid "a"\r\nmsgstr ""\r\n"Line one\\n"\r\n"line\\ttwo  "\r\n\r\n'
        b'msgid "b"\r\nmsgstr "\\"Quoted\\" \\101nd trailing  "\r\n'
    )
    ref.write_text('msgid "b"\nmsgstr "\\"Quoted\\" and trailing"\n\nmsgid "a"\nmsgstr "Line one line two"\n',
                   encoding="utf-8")
    r = run("score", hyp, ref, "-m", "bleu", "chrf", "ter", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    pairs = [("Line one line\ttwo  ", "Line one line two"), ('"Quoted" And trailing  ', '"Quoted" and trailing')]
    for key, fn in (("bleu", sacrebleu.sentence_bleu), ("chrf", sacrebleu.sentence_chrf),
                    ("ter", sacrebleu.sentence_ter)):
        assert [x["key"] for x in doc[key]["lines"]] == ["a", "b"]
        assert [x["line"] for x in doc[key]["lines"]] == [2, 7]
        assert [x["score"] for x in doc[key]["lines"]] == [fn(h, [rf]).score for h, rf in pairs]


def test_report_rows_are_segments_with_their_file_lines(tmp_path):
    hyp, ref = PAIRS[0]
    out = tmp_path / "r.html"
    r = run("report", hyp, "--ref", ref, "-o", out, "--bootstrap", "0", "-m", "bleu")
    assert r.returncode == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    data = json.loads(html.split('id="bleu-ls-data">', 1)[1].split("</script>", 1)[0])
    scored, _, _ = oracle_pairs(hyp, ref)
    assert data["lines"] == len(scored)
    assert data["systems"][0]["corpus"]["bleu"]["score"] == sacrebleu.corpus_bleu(
        [h for *_, h, _ in scored], [[x for *_, x in scored]]).score
    where = {k: ln for k, ln, _, _ in scored}
    listed = [x for w in data["weakest"] for x in w["lines"]]
    assert listed
    for x in listed:
        assert where[x["key"]] == x["line"]
    assert "without a reference partner" not in r.stderr and "without a matching partner" in r.stderr


_WORDS = st.sampled_from(["the", "cat", "Katze", "%s", "{n}", "é", "日本", "a.", "\"q\"", "\\", "\t", "\n", ",", "  "])


def _spell(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_generated_pairs_score_as_sacrebleu(tmp_path, data):
    import contextlib
    import io

    from bleu_ls.cli.score import main as score_main

    texts = st.lists(_WORDS, max_size=8).map("".join)
    n = data.draw(st.integers(1, 6))
    hyp_entries = [(f"m{i}", data.draw(texts)) for i in range(n)]
    ref_entries = [(f"m{i}", data.draw(texts)) for i in range(n) if data.draw(st.integers(0, 4))]
    ref_entries = data.draw(st.permutations(ref_entries))
    for name, entries in (("h.po", hyp_entries), ("r.po", ref_entries)):
        (tmp_path / name).write_text(
            "".join(f"msgid {_spell(k)}\nmsgstr {_spell(v)}\n\n" for k, v in entries), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = score_main([str(tmp_path / "h.po"), str(tmp_path / "r.po"), "-m", "bleu", "chrf", "ter", "-f", "json"])
    assert status == 0
    doc = json.loads(out.getvalue())
    ref = dict(ref_entries)
    want = [(k, fold(v), fold(ref[k])) for k, v in hyp_entries if k in ref and v and ref[k]]
    for key, sentence, corpus in (("bleu", sacrebleu.sentence_bleu, sacrebleu.corpus_bleu),
                                  ("chrf", sacrebleu.sentence_chrf, sacrebleu.corpus_chrf),
                                  ("ter", sacrebleu.sentence_ter, sacrebleu.corpus_ter)):
        rep = doc[key]
        assert [x["key"] for x in rep["lines"]] == [k for k, _, _ in want]
        assert [x["score"] for x in rep["lines"]] == [sentence(h, [r]).score for _, h, r in want]
        if want:
            assert rep["corpus"]["score"] == corpus([h for _, h, _ in want], [[r for _, _, r in want]]).score
