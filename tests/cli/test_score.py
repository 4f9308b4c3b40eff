"""`bleu-ls score` end to end: sacrebleu/NLTK as oracles, bad input exits 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu

from bleu_ls.cli.score import main
from bleu_ls.config.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bleu_ls", "score", *map(str, args)],
        capture_output=True, text=True, cwd=cwd or ROOT,
    )


def read(p):
    return [line.rstrip() for line in Path(p).read_text(encoding="utf-8").split("\n")][:-1]


def test_json_matches_sacrebleu_on_samples():
    r = run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    hyp, ref = read(SAMPLES / "news.hyp"), read(SAMPLES / "news.ref")
    oracle = sacrebleu.BLEU()
    want = oracle.corpus_score(hyp, [ref])
    assert doc["signature"] == str(oracle.get_signature())
    c = doc["corpus"]
    assert c["score"] == want.score
    assert c["precisions"] == want.precisions
    assert (c["bp"], c["sys_len"], c["ref_len"]) == (want.bp, want.sys_len, want.ref_len)
    assert c["counts"] == want.counts and c["totals"] == want.totals
    assert [ln["line"] for ln in doc["lines"]] == list(range(1, len(hyp) + 1))
    for rec, h, rf in zip(doc["lines"], hyp, ref):
        s = sacrebleu.sentence_bleu(h, [rf])
        assert rec["score"] == s.score
        assert rec["precisions"] == s.precisions
        assert (rec["bp"], rec["sys_len"], rec["ref_len"]) == (s.bp, s.sys_len, s.ref_len)


def test_multi_reference_chrf_plus_plus():
    files = [SAMPLES / "chat.hyp", SAMPLES / "chat.ref", SAMPLES / "chat.ref2"]
    r = run(*files, "--metric", "chrf", "--word-order", "2", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    hyp, r1, r2 = (read(f) for f in files)
    want = sacrebleu.corpus_chrf(hyp, [r1, r2], word_order=2)
    assert doc["corpus"]["score"] == want.score
    for rec, h, a, b in zip(doc["lines"], hyp, r1, r2):
        assert rec["score"] == sacrebleu.sentence_chrf(h, [a, b], word_order=2).score


@pytest.mark.parametrize("opts,kw", [
    (["--tokenize", "intl", "--lowercase"], dict(tokenize="intl", lowercase=True)),
    (["--smooth", "floor", "--smooth-value", "0.2"], dict(smooth_method="floor", smooth_value=0.2)),
    (["--smooth", "add-k"], dict(smooth_method="add-k")),
    (["--smooth", "none", "--max-order", "2"], dict(smooth_method="none", max_ngram_order=2)),
])
def test_bleu_options(opts, kw, tmp_path):
    r = run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--format", "json", *opts)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    hyp, ref = read(SAMPLES / "news.hyp"), read(SAMPLES / "news.ref")
    corpus = sacrebleu.metrics.BLEU(**kw)
    assert doc["corpus"]["score"] == corpus.corpus_score(hyp, [ref]).score
    line = sacrebleu.metrics.BLEU(effective_order=True, **kw)
    assert [x["score"] for x in doc["lines"]] == [line.sentence_score(h, [r]).score for h, r in zip(hyp, ref)]


def test_no_effective_order(tmp_path):
    r = run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--format", "json", "--no-effective-order")
    doc = json.loads(r.stdout)
    hyp, ref = read(SAMPLES / "news.hyp"), read(SAMPLES / "news.ref")
    line = sacrebleu.metrics.BLEU(effective_order=False)
    assert [x["score"] for x in doc["lines"]] == [line.sentence_score(h, [r]).score for h, r in zip(hyp, ref)]


def test_nltk_32_preset_seed_figure(tmp_path):
    (tmp_path / "h").write_text("it is a ship\nit\n")
    refs = ["this is a ship", "it is ship", "ship it is", "a ship, it is"]
    for k, ref in enumerate(refs):
        (tmp_path / f"r{k}").write_text(f"{ref}\n{ref}\n")
    r = run(tmp_path / "h", *(tmp_path / f"r{k}" for k in range(4)), "--preset", "nltk-3.2", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["lines"][0]["score"] == 100 * 0.8408964152537145
    assert doc["lines"][1]["score"] == 100 * 0.1353352832366127


def test_nltk_preset_weights(tmp_path, capsys):
    (tmp_path / "h").write_text("the love can always do\n")
    (tmp_path / "r1").write_text("love can always find a way\n")
    (tmp_path / "r2").write_text("love makes anything possible\n")
    code = main([str(tmp_path / "h"), str(tmp_path / "r1"), str(tmp_path / "r2"),
                 "--preset", "nltk", "--weights", "0.3333333333333333", "0.3333333333333333",
                 "0.3333333333333333", "--format", "json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["lines"][0]["score"] == 100 * 0.4641588833612779


def test_crlf_and_no_final_newline(tmp_path):
    hyp = ["The cat sat on the mat.", "A dog barked loudly at night ."]
    ref = ["The cat sat on a mat.", "A dog barked at night."]
    (tmp_path / "h").write_bytes("\r\n".join(hyp).encode())  # CRLF, no final newline
    (tmp_path / "r").write_bytes(("\n".join(ref) + "\n").encode())
    doc = json.loads(run(tmp_path / "h", tmp_path / "r", "--format", "json").stdout)
    assert len(doc["lines"]) == 2
    assert doc["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score


def test_empty_files_are_valid(tmp_path):
    (tmp_path / "h").write_text("")
    (tmp_path / "r").write_text("")
    r = run(tmp_path / "h", tmp_path / "r", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["lines"] == [] and doc["corpus"]["score"] == 0.0


def test_text_format_marks_weakest_and_has_signature():
    r = run(SAMPLES / "news.hyp", SAMPLES / "news.ref")
    assert r.returncode == 0
    hyp, ref = read(SAMPLES / "news.hyp"), read(SAMPLES / "news.ref")
    scores = [sacrebleu.sentence_bleu(h, [x]).score for h, x in zip(hyp, ref)]
    worst = min(range(len(scores)), key=scores.__getitem__) + 1
    row = next(line for line in r.stdout.splitlines() if line.split() and line.split()[0] == str(worst))
    assert "◀" in row
    assert f"BLEU = {sacrebleu.corpus_bleu(hyp, [ref]).score:.2f}" in r.stdout
    assert "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in r.stdout


def test_tsv_matches(tmp_path):
    r = run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--format", "tsv")
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    assert rows[0][:2] == ["line", "bleu"]
    hyp, ref = read(SAMPLES / "news.hyp"), read(SAMPLES / "news.ref")
    assert [float(x[1]) for x in rows[1:-1]] == [sacrebleu.sentence_bleu(h, [x]).score for h, x in zip(hyp, ref)]
    assert rows[-1][0] == "corpus" and float(rows[-1][1]) == sacrebleu.corpus_bleu(hyp, [ref]).score


# -- bad input -----------------------------------------------------------------
def _assert_clean_error(r, *fragments):
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    for f in fragments:
        assert f in r.stderr, r.stderr


def test_not_utf8_names_file_line_and_offset(tmp_path):
    (tmp_path / "h").write_bytes(b"ok line\nbad \xff here\n")
    (tmp_path / "r").write_text("a\nb\n")
    _assert_clean_error(run(tmp_path / "h", tmp_path / "r"), "not UTF-8", "line 2", "byte offset 12", str(tmp_path / "h"))


def test_line_count_mismatch_gives_both_counts(tmp_path):
    (tmp_path / "h").write_text("a\nb\nc\n")
    (tmp_path / "r").write_text("a\nb\n")
    _assert_clean_error(run(tmp_path / "h", tmp_path / "r"), "3 lines", "2 lines")


def test_missing_file(tmp_path):
    (tmp_path / "h").write_text("a\n")
    _assert_clean_error(run(tmp_path / "h", tmp_path / "nope"), "no such file")


def test_unknown_option_value(tmp_path):
    _assert_clean_error(run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--tokenize", "klingon"), "invalid choice")
    _assert_clean_error(run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--preset", "nltk", "--smooth", "exp"),
                        "nltk-method")
    _assert_clean_error(run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "--weights", "0.5", "x", "--preset", "nltk"),
                        "not a number")


def test_binary_and_folder(tmp_path):
    (tmp_path / "h").write_bytes(b"a\x00b\n")
    (tmp_path / "r").write_text("a\n")
    _assert_clean_error(run(tmp_path / "h", tmp_path / "r"), "binary")
    _assert_clean_error(run(tmp_path / "r", tmp_path), "folder")


def test_inputs_are_never_written(tmp_path):
    (tmp_path / "h").write_text("a b c\n")
    (tmp_path / "r").write_text("a b d\n")
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()}
    run(tmp_path / "h", tmp_path / "r", "--format", "json")
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()} == before


def test_console_script_and_module_entry_points():
    exe = Path(sys.executable).with_name("bleu-ls")
    if not exe.exists():
        pytest.skip("bleu-ls console script not installed in this environment")
    a = subprocess.run([str(exe), "score", SAMPLES / "news.hyp", SAMPLES / "news.ref", "-f", "json"],
                       capture_output=True, text=True)
    b = run(SAMPLES / "news.hyp", SAMPLES / "news.ref", "-f", "json")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_value_flags_set_the_settings_field_of_their_name():
    from bleu_ls.cli.score import build_parser, settings_from_args

    argv = ["h", "r", "--tokenize", "char", "--smooth", "floor", "--smooth-value", "0.25", "--max-order", "3",
            "--char-order", "4", "--word-order", "2", "--beta", "1", "--lowercase", "--no-effective-order"]
    s = settings_from_args(build_parser().parse_args(argv))
    b, c = s.bleu, s.chrf
    assert (b.preset, b.tokenize, b.smooth, b.smooth_value, b.max_order) == ("sacrebleu", "char", "floor", 0.25, 3)
    assert (c.char_order, c.word_order, c.beta) == (4, 2, 1)
    assert (b.lowercase, c.lowercase, b.effective_order, c.eps_smoothing) == (True, True, False, False)
    nltk = settings_from_args(build_parser().parse_args(["h", "r", "--preset", "nltk", "--weights", "0.5,0.5", "--max-order", "2"]))
    assert (nltk.bleu.preset, nltk.bleu.weights, nltk.bleu.max_order) == ("nltk", [0.5, 0.5], 2)
    unset = settings_from_args(build_parser().parse_args(["h", "r"]))
    assert unset == Settings()


def test_help_names_the_settings_defaults():
    from bleu_ls.cli.score import build_parser

    d = Settings()
    text = " ".join(build_parser().format_help().split())
    assert f"sacrebleu tokenizer (default: {d.bleu.tokenize})" in text
    assert f"maximum n-gram order (default {d.bleu.max_order})" in text
    assert f"chrF character n-gram order (default {d.chrf.char_order})" in text
    assert f"(default {d.bleu.resolved_smooth()})" in text
    assert "floor (default 0.1) and add-k (default 1)" in text
