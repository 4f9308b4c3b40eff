"""Subtitle and XLIFF files on the command line: cues paired by time, split and merged cues as one row, each format's own checks in `check`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import sacrebleu

from .test_segments_po import run
from ..formats.test_subtitles import _shifted

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "subtitles"


def _pair(tmp_path):
    """English in the film's release timing (88.55 s later), cues 5 and 6 merged; German with cue 3 split."""
    en = _shifted((DATA / "sintel-en.vtt").read_text(encoding="utf-8"), 88_550).replace(
        "5\n00:02:04.800 --> 00:02:05.850\nThank you.\n\n6\n00:02:07.050 --> 00:02:08.550\nSo...",
        "5\n00:02:04.800 --> 00:02:08.550\nThank you. So...",
    )
    assert "Thank you. So..." in en
    de = (DATA / "sintel-de.vtt").read_text(encoding="utf-8").replace(
        "3\n00:00:29.000 --> 00:00:32.450\nEs ist töricht, so ganz allein und\nunvorbereitet zu reisen!",
        "3\n00:00:29.000 --> 00:00:30.700\nEs ist töricht, so ganz allein und\n\n3b\n00:00:30.750 --> 00:00:32.450\nunvorbereitet zu reisen!",
    )
    hyp, ref = tmp_path / "film.hyp.vtt", tmp_path / "film.ref.vtt"
    hyp.write_text(en, encoding="utf-8")
    ref.write_text(de, encoding="utf-8")
    return hyp, ref


def _cues(path: Path) -> dict[str, str]:
    """Cue id -> text as shown, read apart from the project's reader (tags off, lines joined)."""
    out = {}
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        lines = block.strip("\n").split("\n")
        if len(lines) >= 3 and "-->" in lines[1]:
            out[lines[0]] = " ".join(re.sub(r"<[^>]*>", "", ln).strip() for ln in lines[2:])
    return out


def test_split_and_merged_cues_score_as_sacrebleu_on_the_joined_texts(tmp_path):
    hyp, ref = _pair(tmp_path)
    res = run("score", hyp, ref, "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    h, r = _cues(hyp), _cues(ref)
    expected = [(k, h[k], r[k]) for k in h if k not in ("3", "5")]
    expected += [("3", h["3"], r["3"] + " " + r["3b"]), ("5", h["5"], r["5"] + " " + r["6"])]
    expected.sort(key=lambda e: int(e[0]))
    assert [line["key"] for line in got["lines"]] == [k for k, _, _ in expected]
    for line, (_, hyp_text, ref_text) in zip(got["lines"], expected):
        assert line["score"] == sacrebleu.sentence_bleu(hyp_text, [ref_text]).score
    corpus = sacrebleu.corpus_bleu([e[1] for e in expected], [[e[2] for e in expected]])
    assert got["corpus"]["score"] == corpus.score
    assert got.get("unpaired", {}).get("references", []) == []


def test_check_reports_the_subtitle_checks_at_the_cue(tmp_path):
    hyp, ref = _pair(tmp_path)
    text = hyp.read_text(encoding="utf-8")
    # cue 13 shows 26 characters for 1.25 s: 20.8 characters per second
    res = run("check", hyp.parent)
    assert res.returncode in (0, 1), res.stderr
    speed = [ln for ln in res.stdout.splitlines() if ln.endswith("[reading-speed]")]
    assert len(speed) == 1
    line_no = int(speed[0].split(":")[1])
    assert text.split("\n")[line_no - 1] == "We're almost done. Shhh..."
    assert "20.8 characters per second" in speed[0]


def test_check_runs_the_xml_checks_on_xliff(tmp_path):
    xliff = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff"
    hyp, ref = tmp_path / "a.hyp.xlf", tmp_path / "a.ref.xlf"
    hyp.write_bytes((xliff / "algorea.fr.draft.xlf").read_bytes())
    ref.write_bytes((xliff / "algorea.fr.final.xlf").read_bytes())
    res = run("check", tmp_path, "--format", "json")
    assert res.returncode in (0, 1), res.stderr
    (pair,) = json.loads(res.stdout)["pairs"]
    codes = {d["code"] for d in pair["diagnostics"]}
    assert "inconsistent-translation" in codes
    lines = hyp.read_text(encoding="utf-8").split("\n")
    for d in pair["diagnostics"]:
        if d["code"] in ("whitespace-leading", "whitespace-trailing"):
            # placed inside the unit's target in the file
            assert "<target" in "".join(lines[max(0, d["line"] - 3) : d["line"]])
    # one word for a target that only copies the source: the rule table's, not both
    untranslated = {d["line"] for d in pair["diagnostics"] if d["code"] == "untranslated"}
    same = {d["line"] for d in pair["diagnostics"] if d["code"] == "target-same-as-source"}
    assert untranslated and not (untranslated & same)
