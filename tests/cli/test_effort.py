"""`bleu-ls effort DRAFT POSTEDIT` through a real process: HTER equals sacrebleu's
TER(case_sensitive=True) of the draft against the post-edit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import TER

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
MQM = ROOT / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"


def run(*args):
    return subprocess.run([sys.executable, "-m", "bleu_ls", "effort", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def read(p):
    return [line.rstrip() for line in Path(p).read_text(encoding="utf-8").split("\n")][:-1]


def _check(doc, draft, post, **cfg):
    oracle = TER(case_sensitive=True, **cfg)
    want = oracle.corpus_score(draft, [post])
    c = doc["corpus"]
    assert (c["score"], c["num_edits"], c["ref_length"]) == (want.score, want.num_edits, want.ref_length)
    assert sum(c[k] for k in ("insertions", "deletions", "substitutions", "shifts")) == c["num_edits"]
    assert c["lines_edited"] == sum(d != p for d, p in zip(draft, post))
    for rec, d, p in zip(doc["lines"], draft, post):
        s = TER(case_sensitive=True, **cfg).sentence_score(d, [p])
        assert (rec["score"], rec["num_edits"], rec["ref_length"]) == (s.score, s.num_edits, s.ref_length)
        assert rec["insertions"] + rec["deletions"] + rec["substitutions"] + rec["shifts"] == rec["num_edits"]


def test_json_equals_sacrebleu_case_sensitive():
    draft, post = SAMPLES / "chat.hyp", SAMPLES / "chat.ref"
    r = run(draft, post, "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["signature"].startswith("nrefs:1|case:mixed|")
    _check(doc, read(draft), read(post))


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
def test_wmt_system_against_reference_as_postedit():
    draft = sorted(MQM.glob("*.hyp"))[2]
    r = run(draft, MQM / "ref.txt", "-f", "json", "--ter-no-punct")
    assert r.returncode == 0, r.stderr
    _check(json.loads(r.stdout), read(draft), read(MQM / "ref.txt"), no_punct=True)


def test_edit_kinds_of_a_known_edit(tmp_path):
    draft = tmp_path / "draft.txt"
    post = tmp_path / "post.txt"
    draft.write_text("the cat sat on the mat\nHello world\nsame line\n", encoding="utf-8")
    post.write_text("on the mat the cat sat\nhello big world\nsame line\n", encoding="utf-8")
    doc = json.loads(run(draft, post, "-f", "json").stdout)
    first, second, third = doc["lines"]
    assert first["shifts"] == 1 and first["num_edits"] == 1
    # case-sensitive: Hello -> hello is a substitution, "big" an insertion
    assert (second["substitutions"], second["insertions"], second["deletions"]) == (1, 1, 0)
    assert third["num_edits"] == 0 and third["edited"] is False
    assert doc["corpus"]["lines_edited"] == 2
    lower = json.loads(run(draft, post, "-f", "json", "--case-insensitive").stdout)
    assert lower["lines"][1]["substitutions"] == 0


def test_text_and_tsv():
    r = run(SAMPLES / "chat.hyp", SAMPLES / "chat.ref")
    assert r.returncode == 0 and "HTER = " in r.stdout and "lines edited" in r.stdout
    t = run(SAMPLES / "chat.hyp", SAMPLES / "chat.ref", "-f", "tsv")
    rows = [line.split("\t") for line in t.stdout.splitlines()]
    assert rows[0][:3] == ["line", "hter", "num_edits"] and rows[-1][0] == "corpus"
    assert len(rows) == 2 + len(read(SAMPLES / "chat.hyp"))


@pytest.mark.parametrize("content,needle", [
    (None, "no such file"),
    (b"\x00\x01binary\x00", "binary"),
    (b"caf\xe9\n", "UTF-8"),
])
def test_bad_draft_is_one_sentence(tmp_path, content, needle):
    draft = tmp_path / "draft.txt"
    if content is not None:
        draft.write_bytes(content)
    r = run(draft, SAMPLES / "chat.ref")
    assert r.returncode == 2
    assert needle in r.stderr and "Traceback" not in r.stderr and r.stderr.count("\n") == 1


def test_line_counts_differ(tmp_path):
    draft = tmp_path / "draft.txt"
    draft.write_text("one\n", encoding="utf-8")
    r = run(draft, SAMPLES / "chat.ref")
    assert r.returncode == 2 and "line counts differ" in r.stderr
