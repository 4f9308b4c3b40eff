"""`bleu-ls score` and `effort` on localization JSON at two commits of a real project: the values
paired by key, every number sacrebleu's on the values ``json.loads`` reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import sacrebleu

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "formats" / "json"
OLD = DATA / "excalidraw-2026-07-07" / "locales" / "de-DE.json"
NEW = DATA / "excalidraw" / "locales" / "de-DE.json"


def run(command, *args):
    return subprocess.run([sys.executable, "-m", "bleu_ls", command, *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT)


def flat(path: Path) -> dict[str, str]:
    """key -> value, in file order, as ``json.loads`` reads the file (line breaks folded to spaces)."""
    out: dict[str, str] = {}

    def walk(v, keys):
        if isinstance(v, str):
            out[".".join(keys)] = v.replace("\r", " ").replace("\n", " ")
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, (*keys, k.replace("\\", "\\\\").replace(".", "\\.")))

    walk(json.loads(path.read_text(encoding="utf-8")), ())
    return out


def oracle(hyp: Path, ref: Path):
    h, r = flat(hyp), flat(ref)
    scored = [(k, v, r[k]) for k, v in h.items() if k in r and v and r[k]]
    unpaired = [k for k in h if k not in r]
    empty = [k for k, v in h.items() if k in r and not (v and r[k])]
    return scored, unpaired, empty


def test_score_between_two_commits_equals_sacrebleu_by_key():
    r = run("score", NEW, OLD, "-m", "bleu", "chrf", "ter", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scored, unpaired, empty = oracle(NEW, OLD)
    assert len(scored) > 400 and unpaired and empty
    hyps, refs = [h for _, h, _ in scored], [x for _, _, x in scored]
    for key, sentence, corpus in (("bleu", sacrebleu.sentence_bleu, sacrebleu.corpus_bleu),
                                  ("chrf", sacrebleu.sentence_chrf, sacrebleu.corpus_chrf),
                                  ("ter", sacrebleu.sentence_ter, sacrebleu.corpus_ter)):
        rep = doc[key]
        assert [x["key"] for x in rep["lines"]] == [k for k, _, _ in scored]
        for rec, (_, h, x) in zip(rep["lines"], scored):
            assert rec["score"] == sentence(h, [x]).score, (key, rec["key"])
        assert rep["corpus"]["score"] == corpus(hyps, [refs]).score
        assert [u["key"] for u in rep["unpaired"]["hypothesis"]] == unpaired
        assert [u["key"] for u in rep["unpaired"]["empty"]] == empty
    lines = NEW.read_text(encoding="utf-8").split("\n")
    for rec in doc["bleu"]["lines"][:50]:  # the line of each row is its value's line in the file
        assert f'"{rec["key"].split(".")[-1]}"' in lines[rec["line"] - 1]


def test_effort_between_two_commits_equals_sacrebleu_ter_by_key():
    r = run("effort", OLD, NEW, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    scored, unpaired, empty = oracle(OLD, NEW)
    ter = sacrebleu.metrics.TER(case_sensitive=True)
    assert [x["key"] for x in doc["lines"]] == [k for k, _, _ in scored]
    for rec, (_, d, p) in zip(doc["lines"], scored):
        assert rec["score"] == ter.sentence_score(d, [p]).score
        assert rec["edited"] == (d.rstrip() != p.rstrip())
    assert doc["corpus"]["score"] == ter.corpus_score([d for _, d, _ in scored], [[p for *_, p in scored]]).score
    edited = {rec["key"] for rec in doc["lines"] if rec["edited"]}
    assert "labels.moveCanvas" in edited  # "Leinwand verschieben" -> "Zeichenfläche verschieben"
    assert len(edited) == sum(1 for _, d, p in scored if d.rstrip() != p.rstrip())


def test_a_localization_json_and_a_po_file_are_refused_in_one_sentence(tmp_path):
    po = ROOT / "tests" / "data" / "formats" / "po" / "allauth-de-2023-10-07.po"
    r = run("score", NEW, po)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "is a localization JSON file and" in r.stderr and "Traceback" not in r.stderr


def test_package_json_stays_a_line_file(tmp_path):
    a, b = tmp_path / "package.json", tmp_path / "tsconfig.json"
    a.write_text('{"name": "x"}\n', encoding="utf-8")
    b.write_text('{"name": "y"}\n', encoding="utf-8")
    r = run("score", a, b, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert "key" not in doc["lines"][0]
    assert doc["corpus"]["score"] == sacrebleu.corpus_bleu(['{"name": "x"}'], [['{"name": "y"}']]).score


def test_a_partner_outside_the_convention_is_read_as_the_first_file(tmp_path):
    old = tmp_path / "old-de.json"  # no localization path: read as the file it is given beside
    old.write_text(OLD.read_text(encoding="utf-8"), encoding="utf-8")
    r = run("effort", old, NEW, "--format", "json")
    assert r.returncode == 2 and "different formats" in r.stderr  # the first file decides: a line file here
    r = run("score", NEW, old, "--format", "json")
    assert r.returncode == 0, r.stderr
    scored, _, _ = oracle(NEW, OLD)
    assert [x["key"] for x in json.loads(r.stdout)["lines"]] == [k for k, _, _ in scored]
