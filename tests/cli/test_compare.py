"""`bleu-ls compare` and `bleu-ls score --metric ter / --confidence` through a real
process, with sacrebleu 2.6 as the oracle (exact floats)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
MQM = ROOT / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"


def run(command, *args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "bleu_ls", command, *map(str, args)],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )


def read(p):
    return [line.rstrip() for line in Path(p).read_text(encoding="utf-8").split("\n")][:-1]


ORACLES = {"bleu": BLEU, "chrf": CHRF, "ter": TER}


def _paired(files, metric, test_type, n):
    base, hyp, *refs = (read(f) for f in files)
    _, res = PairedTest([("b", base), ("s", hyp)], {"m": ORACLES[metric]()}, refs,
                        test_type=test_type, n_samples=n)()
    return next(v for k, v in res.items() if k != "System")


@pytest.mark.parametrize("test_type,flag,n", [("bs", "--paired-bs-n", 500), ("ar", "--paired-ar-n", 2000)])
def test_compare_json_equals_paired_test(test_type, flag, n):
    files = [SAMPLES / "chat.hyp", SAMPLES / "chat.ref2", SAMPLES / "chat.ref"]
    r = run("compare", *files, "-m", "bleu", "chrf", "ter", f"--paired-{test_type}", flag, n, "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc) == {"bleu", "chrf", "ter"}
    for key, rec in doc.items():
        base, sys_ = _paired(files, key, test_type, n)
        assert (rec["baseline"]["score"], rec["baseline"]["mean"], rec["baseline"]["ci"]) == (
            base.score, base.mean, base.ci)
        assert (rec["system"]["score"], rec["system"]["mean"], rec["system"]["ci"], rec["system"]["p_value"]) == (
            sys_.score, sys_.mean, sys_.ci, sys_.p_value)
        assert f"|{test_type}:{n}|seed:12345|" in rec["signature"]


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
def test_compare_wmt_systems_default_bootstrap():
    systems = sorted(MQM.glob("*.hyp"))
    files = [systems[0], systems[1], MQM / "ref.txt"]
    r = run("compare", *files, "-m", "chrf", "-f", "json")
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)["chrf"]
    base, sys_ = _paired(files, "chrf", "bs", 1000)
    assert rec["system"]["p_value"] == sys_.p_value
    assert (rec["system"]["mean"], rec["system"]["ci"]) == (sys_.mean, sys_.ci)
    assert (rec["baseline"]["mean"], rec["baseline"]["ci"]) == (base.mean, base.ci)


def test_compare_text_and_seed_from_environment():
    import os

    env = dict(os.environ, SACREBLEU_SEED="7")
    files = [SAMPLES / "news.hyp", SAMPLES / "news.ref", SAMPLES / "news.src"]
    r = run("compare", *files, "--paired-bs-n", 200, env=env)
    assert r.returncode == 0, r.stderr
    assert "BLEU  nrefs:1|bs:200|seed:7|" in r.stdout
    assert "p = " in r.stdout and "Δ" in r.stdout


def test_compare_refuses_different_line_counts(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    r = run("compare", SAMPLES / "news.hyp", short, SAMPLES / "news.ref")
    assert r.returncode == 2
    assert "line counts differ" in r.stderr and "short.txt has 1 lines" in r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("args,needle", [
    (["--paired-bs-n", "0"], "at least 1"),
    (["--paired-bs", "--paired-ar"], "not allowed with"),
])
def test_compare_bad_options(args, needle):
    r = run("compare", SAMPLES / "news.hyp", SAMPLES / "news.hyp", SAMPLES / "news.ref", *args)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_compare_missing_file():
    r = run("compare", SAMPLES / "missing.hyp", SAMPLES / "news.hyp", SAMPLES / "news.ref")
    assert r.returncode == 2 and "missing.hyp" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("flags,cfg", [
    ([], {}),
    (["--ter-case-sensitive", "--ter-no-punct"], dict(case_sensitive=True, no_punct=True)),
    (["--ter-normalized", "--ter-asian-support"], dict(normalized=True, asian_support=True)),
])
def test_score_ter_json_equals_sacrebleu(flags, cfg):
    hyp, ref, ref2 = (SAMPLES / n for n in ("chat.hyp", "chat.ref", "chat.ref2"))
    r = run("score", hyp, ref, ref2, "-m", "ter", *flags, "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    oracle = TER(**cfg)
    want = oracle.corpus_score(read(hyp), [read(ref), read(ref2)])
    assert doc["signature"] == str(oracle.get_signature())
    assert (doc["corpus"]["score"], doc["corpus"]["num_edits"], doc["corpus"]["ref_length"]) == (
        want.score, want.num_edits, want.ref_length)
    for rec, h, a, b in zip(doc["lines"], read(hyp), read(ref), read(ref2)):
        s = TER(**cfg).sentence_score(h, [a, b])
        assert (rec["score"], rec["num_edits"], rec["ref_length"]) == (s.score, s.num_edits, s.ref_length)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_score_confidence_equals_corpus_bootstrap(metric):
    hyp, ref = SAMPLES / "news.hyp", SAMPLES / "news.ref"
    r = run("score", hyp, ref, "-m", metric, "--confidence", "--confidence-n", 300, "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    oracle = ORACLES[metric]()
    want = oracle.corpus_score(read(hyp), [read(ref)], n_bootstrap=300)
    assert (doc["corpus"]["score"], doc["corpus"]["mean"], doc["corpus"]["ci"]) == (want.score, want._mean, want._ci)
    assert doc["signature"] == str(oracle.get_signature())


def test_score_confidence_text_line_as_sacrebleu():
    hyp, ref = SAMPLES / "news.hyp", SAMPLES / "news.ref"
    r = run("score", hyp, ref, "--confidence")
    assert r.returncode == 0, r.stderr
    want = BLEU().corpus_score(read(hyp), [read(ref)], n_bootstrap=1000)
    assert f"BLEU = {want.score:.2f} (μ = {want._mean:.2f} ± {want._ci:.2f})" in r.stdout
    bad = run("score", hyp, ref, "--confidence", "--confidence-n", "1")
    assert bad.returncode == 2 and "at least 2" in bad.stderr
