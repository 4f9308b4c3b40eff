"""`bleu-ls score --jobs N`: chunks scored in worker processes give the same
report, byte for byte, as one process, and every number equals sacrebleu 2.6."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from benchmarks.corpus import Corpus
from bleu_ls.cli.score import main

#: enough lines for several chunks per worker (the pool starts at 512 lines)
N = 700


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    hyps, refs = Corpus(seed=37).pairs(N)
    _, refs2 = Corpus(seed=38).pairs(N)
    # lines that take the rarer paths: empty, entities, <skipped>, a lone dash, long
    odd = ["", "&quot;a&quot; &amp; b <skipped> c", "-", "x " * 400, "3.5 - 4,000 (a) b's."]
    for i, text in enumerate(odd):
        hyps[10 + i * 97] = text
        refs2[20 + i * 89] = text
    refs[0] = ""
    d = tmp_path_factory.mktemp("jobs")
    paths = []
    for name, lines in (("h", hyps), ("r1", refs), ("r2", refs2)):
        p = d / name
        p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths.append(p)
    return paths, hyps, refs, refs2


def _score(capsys, *args) -> str:
    assert main([str(a) for a in args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
@pytest.mark.parametrize("fmt", ["json", "tsv"])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_same_report_with_1_or_n_workers(capsys, files, metric, fmt, nrefs):
    paths, *_ = files
    args = [*paths[: 1 + nrefs], "-m", metric, "--format", fmt]
    one = _score(capsys, *args, "--jobs", "1")
    for jobs in (2, 3):
        assert _score(capsys, *args, "--jobs", str(jobs)) == one


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_number_equals_sacrebleu(capsys, files, jobs):
    paths, hyps, refs, refs2 = files
    hyps, refs, refs2 = [x.rstrip() for x in hyps], [x.rstrip() for x in refs], [x.rstrip() for x in refs2]
    doc = json.loads(_score(capsys, *paths, "-m", "bleu", "chrf", "--format", "json", "--jobs", str(jobs)))
    bleu, chrf = doc["bleu"], doc["chrf"]
    want = sacrebleu.corpus_bleu(hyps, [refs, refs2])
    got = bleu["corpus"]
    assert (got["score"], got["counts"], got["totals"], got["bp"]) == (want.score, want.counts, want.totals, want.bp)
    assert chrf["corpus"]["score"] == sacrebleu.corpus_chrf(hyps, [refs, refs2]).score
    line_bleu = sacrebleu.metrics.BLEU(effective_order=True)
    line_chrf = sacrebleu.metrics.CHRF()
    for rec_b, rec_c, h, a, b in zip(bleu["lines"], chrf["lines"], hyps, refs, refs2):
        s = line_bleu.sentence_score(h, [a, b])
        assert (rec_b["score"], rec_b["counts"], rec_b["precisions"]) == (s.score, s.counts, s.precisions)
        assert rec_c["score"] == line_chrf.sentence_score(h, [a, b]).score
    assert len(bleu["lines"]) == len(chrf["lines"]) == N


def test_jobs_must_be_positive(capsys, files):
    paths, *_ = files
    assert main([str(paths[0]), str(paths[1]), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
