"""A small-size run of the benchmark suite, so that it cannot rot.

It runs the same command as a full benchmark run (whole processes for
``bleu-ls score``, sacrebleu and NLTK; the real server over stdio) on a
few hundred lines and checks that the table comes out with every row and
that every identity check passed.  No timing is asserted: CI machines are
noisy; speed is what ``python -m benchmarks`` and benchmarks/RESULTS.md are
for.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

pytest.importorskip("nltk")

from benchmarks import corpus, run  # noqa: E402


def test_corpus_generator_is_deterministic_and_near_bleu_30():
    import sacrebleu

    a = corpus.Corpus(seed=3).pairs(400)
    b = corpus.Corpus(seed=3).pairs(400)
    c = corpus.Corpus(seed=4).pairs(400)
    assert a == b
    assert a != c
    hyps, refs = a
    lengths = [len(r.split()) for r in refs]
    assert min(lengths) >= 5 and max(lengths) <= 61  # a final mark may stand alone
    score = sacrebleu.corpus_bleu(hyps, [refs]).score
    assert 20 < score < 40


def test_benchmark_smoke_run(tmp_path, capsys):
    out = tmp_path / "table.md"
    code = run.main([
        "--quick", "--batch-lines", "300", "--nltk-lines", "120", "--server-sizes", "120,300",
        "--edits", "4", "--skip-real", "--skip-scale", "--output", str(out),
    ])
    text = out.read_text(encoding="utf-8")
    assert code == 0, text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| **")]
    names = [r.split(" | ")[0].lstrip("| ") for r in rows[1:]]
    for expected in (
        "BLEU 13a per-line + corpus vs `sacrebleu.corpus_bleu`",
        "BLEU 13a per-line + corpus vs `sentence_bleu` loop",
        "chrF2 per line vs `CHRF().sentence_score` loop",
        "NLTK preset vs `nltk` `sentence_bleu` loop (sample)",
        "edit → inlay hints for 60 lines, p50 / p95 / p99",
        "open → first inlay hints (lines 0–60) vs do-nothing pygls server",
        "server RSS with the pair open (idle server before open)",
    ):
        assert expected in names, (expected, names)
    # identity: every batch row compared every line and found them equal
    batch = [r for r in rows if "lines |" in r or "corpus yes" in r]
    assert "corpus yes" in text
    assert "300/300 lines" in text and "120/120 lines" in text
    assert "**" not in "".join(r.split(" | ")[-1] for r in rows)
    assert batch


def test_scale_rows_smoke(tmp_path):
    """The issue-12 rows (pull after every edit, process-tree RSS, open vs
    floor, a long line, edit → hint with TER on) on small sizes: every row is there and every reply
    was read."""
    out = tmp_path / "scale.md"
    code = run.main([
        "--quick", "--skip-batch", "--skip-server", "--scale-sizes", "120,300", "--edits", "4",
        "--long-line-mb", "0.1", "--output", str(out),
    ])
    text = out.read_text(encoding="utf-8")
    assert code == 0, text
    for expected in (
        "pull after every edit (VS Code-like, maxProblems 1,000): edit → inlay hints (60 lines), p50 / p95 | 300",
        "pull after every edit (VS Code-like, maxProblems 1,000): edit → diagnostics reply arrived (last byte read), p50 / p95 | 300",
        "pull after every edit (Neovim-like, no cap): edit → diagnostics reply arrived (last byte read), p50 / p95 | 300",
        "pull after every edit (VS Code-like, maxProblems 1,000): edit → diagnostics reply parsed by the client, p50 / p95 | 300",
        "pull after every edit (Neovim-like, no cap): edit → diagnostics reply parsed by the client, p50 / p95 | 300",
        "pull after every edit (VS Code-like, maxProblems 1,000): diagnostics (arrived) p95 at 300 / at 120 lines",
        "pull after every edit (VS Code-like, maxProblems 1,000): diagnostics (parsed) p95 at 300 / at 120 lines",
        "pull after every edit (Neovim-like, no cap): diagnostics (arrived) p95 at 300 / at 120 lines",
        "process-tree RSS, pair open and scored (server + workers) | 300",
        "open → first inlay hints (lines 0–60) vs do-nothing pygls server | 300",
        "a 0.1 MB line: edit on it → hints of lines 0–60",
        "a 0.1 MB line being scored: other lines' hints / hover (p50 / p95)",
        "TER on: edit → hint showing the edited line's new score, p50 / p95 | 300",
        "TER on: edit → hint showing the edited line's new score, p50 / p95 | 120",
    ):
        assert expected in text, (expected, text)
    assert "61 hints" in text  # the first reply carried the hints of lines 0–60
    assert " of 4 answered unchanged" in text


def test_tree_rss_counts_children():
    """A child process and its memory are counted in the tree."""
    from benchmarks.scale import tree_rss

    alone, n_alone = tree_rss(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import time; b = bytearray(50 * 2**20); time.sleep(30)"])
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            both, n_both = tree_rss(os.getpid())
            if n_both > n_alone and both > alone + 40 * 2**20:
                break
            time.sleep(0.1)
        assert n_both == n_alone + 1
        assert both > alone + 40 * 2**20
    finally:
        child.kill()
        child.wait()


def test_big_pair_rows_smoke(tmp_path):
    """The 1M-line rows on a 12k-line pair (opened lazily, over 1 MiB):
    every row is there; the first reply carried the hints of lines 0–60."""
    out = tmp_path / "big.md"
    code = run.main([
        "--quick", "--skip-batch", "--skip-server", "--scale-sizes", "300", "--edits", "6",
        "--long-line-mb", "0", "--million", "12000", "--output", str(out),
    ])
    text = out.read_text(encoding="utf-8")
    assert code == 0, text
    for expected in (
        "open → first inlay hints (lines 0–60) vs do-nothing pygls server | 12,000",
        "while scoring in the background: inlay hints (60 lines at random) p50 / p95 | 12,000",
        "while scoring in the background: hover p50 / p95 | 12,000",
        "scored, first analysis running: inlay hints (60 lines at random) p50 / p95 | 12,000",
        "scored, first analysis running: hover p50 / p95 | 12,000",
        "scored and analysed (server idle): inlay hints (60 lines at random) p50 / p95 | 12,000",
        "scored and analysed (server idle): hover p50 / p95 | 12,000",
        "edit → inlay hints (60 lines) p50 / p95 | 12,000",
        "process-tree RSS, pair open, scored and analysed | 12,000",
    ):
        assert expected in text, (expected, text)
    assert "B/line" in text
