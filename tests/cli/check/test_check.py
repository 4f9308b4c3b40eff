"""`bleu-ls check`: output lines, corpus figures (sacrebleu as oracle), exit codes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu

from bleu_ls.cli.check import main

REPO = Path(__file__).resolve().parents[3]

HYP = ["the cat sat on the mat", "a quick brown fox", "", "hello world again and again"]
REF = ["the cat sat on the mat", "the quick brown fox jumps", "nothing here", "hello world"]


def write(p: Path, lines) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return p


def check(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture
def ws(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_convention_pair_output_and_oracle(ws):
    write(ws / "a.hyp", HYP)
    write(ws / "a.ref", REF)
    rc, out, err = check("a.hyp", "--metric", "bleu", "chrf")
    assert err == ""
    lines = out.splitlines()
    diag = [line for line in lines if re.match(r"^a\.hyp:\d+:\d+: ", line)]
    # the empty line 3 is an error; line 2 is flagged low exactly when its BLEU is under the threshold 10
    assert "a.hyp:3:1: error: This line is empty but the reference has a translation here. [empty-hypothesis]" in diag
    b2 = sacrebleu.sentence_bleu(HYP[1], [REF[1]]).score
    low2 = [line for line in diag if line.startswith("a.hyp:2:") and line.endswith("[low-score]")]
    expected = [f"a.hyp:2:1: warning: BLEU {b2:.1f} is under the threshold 10. [low-score]"] if b2 < 10 else []
    assert low2 == expected
    summary = lines[-1]
    bleu = sacrebleu.corpus_bleu(HYP, [REF])
    chrf = sacrebleu.corpus_chrf(HYP, [REF])
    assert summary.startswith(f"a.hyp: BLEU {bleu.score:.2f} \u00b7 chrF2 {chrf.score:.2f} \u00b7 4 lines \u00b7 ")
    assert "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp" in summary
    assert rc == 1  # warnings and errors at the default --fail-on warning


def test_fail_on_levels(ws):
    write(ws / "a.hyp", ["the cat sat on the mat"] * 3)
    write(ws / "a.ref", ["the cat sat on the mat"] * 3)
    assert check("a.hyp")[0] == 0
    write(ws / "b.hyp", ["x"])  # unpaired: information
    assert check("b.hyp")[0] == 0
    assert check("b.hyp", "--fail-on", "information")[0] == 1
    write(ws / "c.hyp", ["", "the cat"])
    write(ws / "c.ref", ["the dog", "the cat"])
    assert check("c.hyp", "--fail-on", "error")[0] == 1
    assert check("c.hyp", "--fail-on", "never")[0] == 0


def test_folder_search_and_unpaired(ws):
    write(ws / "sys" / "x.hyp.de", HYP)
    write(ws / "sys" / "x.ref.de", REF)
    write(ws / "sys" / "y.mt", ["hello"])
    write(ws / "sys" / "notes.txt", ["not a hypothesis"])
    write(ws / ".git" / "z.hyp", ["hidden"])
    rc, out, _ = check("sys", "--fail-on", "never")
    assert rc == 0
    files = {line.split(":")[0] for line in out.splitlines()}
    assert files == {str(Path("sys/x.hyp.de")), str(Path("sys/y.mt"))}
    assert f"{Path('sys/y.mt')}:1:1: information: No reference found for y.mt" in out
    assert "create y.ref next to it or add a [[pairs]] rule to bleu-ls.toml. [unpaired]" in out


def test_toml_rule_and_settings(ws):
    (ws / "bleu-ls.toml").write_text(
        '[bleu]\ntokenize = "char"\n[diagnostics.low_score]\nenabled = true\nbleu_threshold = 101\n'
        '[[pairs]]\nhypothesis = "out/*.txt"\nreferences = ["gold/{1}.txt"]\n',
        encoding="utf-8",
    )
    write(ws / "out" / "n.txt", HYP)
    write(ws / "gold" / "n.txt", REF)
    rc, out, _ = check("out")
    bleu = sacrebleu.corpus_bleu(HYP, [REF], tokenize="char")
    assert out.splitlines()[-1].startswith(f"{Path('out/n.txt')}: BLEU {bleu.score:.2f} \u00b7 4 lines")
    # threshold 101: every non-empty line is a low score
    assert sum("[low-score]" in line for line in out.splitlines()) == 3
    assert rc == 1
    # a metric flag wins over the file
    rc, out, _ = check("out", "--tokenize", "13a")
    assert out.splitlines()[-1].startswith(
        f"{Path('out/n.txt')}: BLEU {sacrebleu.corpus_bleu(HYP, [REF]).score:.2f}"
    )


def test_missing_reference_named_by_rule(ws):
    (ws / "bleu-ls.toml").write_text('[[pairs]]\nhypothesis = "*.out"\nreferences = ["{stem}.gold"]\n', "utf-8")
    write(ws / "a.out", HYP)
    rc, out, err = check("a.out")
    assert rc == 2
    assert "bleu-ls check: error: a.out: reference a.gold not found" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "setup,needle",
    [
        (lambda ws: None, "nope.hyp: no such file or folder"),
        (lambda ws: ((ws / "nope.hyp").write_bytes(b"ok\n\xff\n"), write(ws / "nope.ref", ["a", "b"])), "not UTF-8"),
        (lambda ws: (write(ws / "nope.hyp", ["a"]), (ws / "nope.ref").write_bytes(b"a\x00b\n")), "looks binary"),
    ],
)
def test_bad_input_exit_2(ws, setup, needle):
    setup(ws)
    rc, out, err = check("nope.hyp")
    assert rc == 2 and needle in err and "Traceback" not in err


def test_bad_toml_exit_2(ws):
    (ws / "bleu-ls.toml").write_text("[bleu\n", "utf-8")
    write(ws / "a.hyp", HYP)
    write(ws / "a.ref", REF)
    rc, _, err = check("a.hyp")
    assert rc == 2 and "not valid TOML" in err and "line 1" in err


def test_unknown_setting_is_a_warning(ws):
    (ws / "bleu-ls.toml").write_text("[bleu]\ntokenise = 'intl'\n", "utf-8")
    write(ws / "a.hyp", REF)
    write(ws / "a.ref", REF)
    rc, out, err = check("a.hyp")
    assert rc == 0 and "unknown setting bleu.tokenise" in err


def test_line_count_mismatch(ws):
    write(ws / "a.hyp", HYP + ["extra line"])
    write(ws / "a.ref", REF)
    rc, out, _ = check("a.hyp")
    assert "a.hyp:5:1: error: a.hyp has 5 lines but a.ref has 4" in out
    bleu = sacrebleu.corpus_bleu(HYP, [REF])  # the paired lines
    assert out.splitlines()[-1].startswith(f"a.hyp: BLEU {bleu.score:.2f} \u00b7 4 lines")
    assert rc == 1


def test_multiple_references_and_source(ws):
    ref2 = ["a cat sat on a mat", "one quick brown fox", "x", "hello world again"]
    src = ["die Katze", "a quick brown fox", "y", "z"]
    write(ws / "m.hyp", HYP)
    write(ws / "m.ref", REF)
    write(ws / "m.ref2", ref2)
    write(ws / "m.src", src)
    rc, out, _ = check("m.hyp", "--format", "json")
    data = json.loads(out)
    (pair,) = data["pairs"]
    assert pair["references"] == ["m.ref", "m.ref2"] and pair["source"] == "m.src"
    assert pair["corpus"]["bleu"]["score"] == sacrebleu.corpus_bleu(HYP, [REF, ref2]).score
    codes = {(d["line"], d["code"]) for d in pair["diagnostics"]}
    assert (2, "untranslated") in codes and (3, "empty-hypothesis") in codes
    assert data["errors"] == []


def test_nltk_preset_flag(ws):
    nltk = pytest.importorskip("nltk.translate.bleu_score")
    write(ws / "a.hyp", HYP)
    write(ws / "a.ref", REF)
    rc, out, _ = check("a.hyp", "--preset", "nltk", "--format", "json")
    pair = json.loads(out)["pairs"][0]
    expected = nltk.corpus_bleu([[r.split()] for r in REF], [h.split() for h in HYP]) * 100
    assert pair["corpus"]["bleu"]["score"] == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_bad_flag_exit_2(ws):
    write(ws / "a.hyp", HYP)
    write(ws / "a.ref", REF)
    rc, _, err = check("a.hyp", "--preset", "nltk", "--tokenize", "intl")
    assert rc == 2 and "--tokenize does not apply" in err


def test_console_entry_point_subprocess(ws):
    write(ws / "a.hyp", HYP)
    write(ws / "a.ref", REF)
    p = subprocess.run(
        [sys.executable, "-m", "bleu_ls", "check", "a.hyp", "--fail-on", "error"],
        capture_output=True,
        text=True,
        cwd=ws,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert p.returncode == 1, p.stderr  # the empty line is an error
    assert "a.hyp:3:1: error:" in p.stdout and p.stderr == ""


def test_ter_alone_never_ranks_the_best_lines_as_outliers(ws):
    """TER is an error rate (lower is better): with TER as the only metric the
    outlier rule has no score to rank by, so perfect lines are never flagged."""
    ref = [f"line number {i} is translated rather well today" for i in range(40)]
    words = ["alpha", "beta", "gamma"]
    # 0 to 3 words replaced: TER 0 for every fourth line, higher for the rest
    hyp = [" ".join(w if j >= i % 4 else words[j] for j, w in enumerate(r.split())) for i, r in enumerate(ref)]
    write(ws / "t.hyp", hyp)
    write(ws / "t.ref", ref)
    rc, out, err = check("t.hyp", "--metric", "ter")
    assert err == ""
    assert "[outlier]" not in out
    ter = sacrebleu.metrics.TER().corpus_score(hyp, [ref])
    assert f"TER {ter.score:.2f}" in out.splitlines()[-1]
