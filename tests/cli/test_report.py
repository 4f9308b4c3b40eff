"""``bleu-ls report`` on the command line: files by role, bad input in one sentence."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bleu_ls.report import Options, ReportInput, System, render_report
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.config.settings import Settings

from ..report.conftest import REPO, SAMPLES, data_of

NEWS = SAMPLES / "news.hyp"
REF = SAMPLES / "news.ref"
SRC = SAMPLES / "news.src"


def _one_sentence(err: str) -> str:
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert last.startswith("bleu-ls report: error: ")
    return last


@pytest.mark.parametrize(
    "args,needle",
    [
        ([NEWS, "--ref", SAMPLES / "missing.ref"], "missing.ref"),
        ([NEWS, "--ref", SAMPLES / "chat.ref"], "line counts differ"),
        ([NEWS, "--ref", REF, "--src", SAMPLES / "chat.hyp"], "line counts differ"),
        ([NEWS, "--ref", REF, "--draft", SAMPLES], "folder"),
        ([NEWS, SAMPLES / "chat.hyp", "--ref", REF], "line counts differ"),
        ([NEWS, "--ref", REF, "--name", "a", "b"], "2 names for 1"),
        ([NEWS, "--ref", REF, "-o", NEWS], "input file"),
        ([NEWS, "--ref", REF, "-o", SAMPLES], "folder"),
        ([NEWS, "--ref", REF, "--bootstrap", "-1"], "--bootstrap"),
        ([NEWS, "--ref", REF, "--preset", "nltk", "--tokenize", "intl"], "--tokenize"),
        ([NEWS, "--ref", REF, "--config", SAMPLES / "nowhere" / "bleu-ls.toml"], "no such file"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(report, args, needle):
    before = NEWS.read_bytes()
    code, html, _, err = report(*args)
    assert code == 2 and html is None
    assert needle in _one_sentence(err)
    assert NEWS.read_bytes() == before


def test_config_thresholds_reach_the_flags(report, tmp_path):
    cfg = tmp_path / "bleu-ls.toml"
    cfg.write_text("[diagnostics.low_score]\nenabled = true\nbleu_threshold = 99\n", encoding="utf-8")
    _, _, default, _ = report(NEWS, "--ref", REF, "--bootstrap", "0", "--no-config")
    code, _, strict, err = report(NEWS, "--ref", REF, "--bootstrap", "0", "--config", cfg)
    assert code == 0, err
    low = [d["flags"]["systems"][0]["counts"].get("low-score", 0) for d in (default, strict)]
    assert low[1] > low[0]
    cfg.write_text("[diagnostics.low_score]\nthreshold = 99\n", encoding="utf-8")  # a misspelt key
    code, _, _, err = report(NEWS, "--ref", REF, "--bootstrap", "0", "--config", cfg)
    assert code == 0 and "warning" in err and "threshold" in err


def test_line_counts_name_every_file(report):
    code, _, _, err = report(NEWS, "--ref", REF, SAMPLES / "chat.ref")
    line = _one_sentence(err)
    assert code == 2 and "news.hyp has 28" in line and "chat.ref has 6" in line


def test_roles_and_names(report, tmp_path):
    draft = tmp_path / "draft.txt"
    draft.write_text(SAMPLES.joinpath("news.hyp").read_text(encoding="utf-8").replace("Die ", "Eine "), encoding="utf-8")
    code, html, data, err = report(NEWS, NEWS, "--ref", REF, "--src", SRC, "--draft", draft,
                                   "--name", "first", "second <b>", "--title", "Q3 <review>")
    assert code == 0, err
    assert [s["name"] for s in data["systems"]] == ["first", "second <b>"]
    assert data["source"] == str(SRC) and data["draft"] == str(draft)
    assert "second &lt;b&gt;" in html and "second <b>" not in html  # autoescaped
    assert "<title>Q3 &lt;review&gt;</title>" in html
    assert 'class="chg"' in html or " chg" in html  # words changed against the draft are marked
    assert data["comparisons"][0]["ties"] == 28  # the same file twice: every line equal
    # identical systems: sacrebleu's paired bootstrap gives 1/1001 (no resample differs), and so do we
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    hyp, ref = NEWS.read_text(encoding="utf-8").splitlines(), REF.read_text(encoding="utf-8").splitlines()
    _, res = PairedTest([("a", hyp), ("b", hyp)], {"m": BLEU()}, [ref], test_type="bs", n_samples=1000)()
    want = next(v for k, v in res.items() if k != "System")[1].p_value
    assert data["systems"][1]["corpus"]["bleu"]["p_value"] == want == 1 / 1001


def test_default_names_are_file_stems_and_stdout(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bleu_ls", "report", str(NEWS), "--ref", str(REF), "-o", "-", "--bootstrap", "0"],
        capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    data = data_of(proc.stdout)
    assert data["systems"][0]["name"] == "news"
    assert data["bootstrap"] is None and data["systems"][0]["corpus"]["bleu"]["ci"] is None
    assert not list(tmp_path.iterdir())  # nothing written


def test_data_block_survives_script_closing_text():
    hyp = ["</script><script>alert(1)</script> & done", "ok"]
    ref = ["</script> & done", "ok"]
    metrics = build_metrics(Settings())
    model = PairModel.from_lines(metrics, hyp, [ref])
    html, data = render_report(ReportInput([System("</script>", model)], ["r"], options=Options(bootstrap=0)))
    assert html.count("</script>") == 2  # the data block's and the print script's end tags only
    assert data_of(html) == json.loads(json.dumps(data))
    assert data_of(html)["systems"][0]["name"] == "</script>"


def test_sampling_is_said_in_the_report():
    hyp = [f"line {i} of the test" for i in range(50)]
    ref = [f"line {i} of a test" for i in range(50)]
    model = PairModel.from_lines(build_metrics(Settings()), hyp, [ref])
    opts = Options(bootstrap=0, ngram_lines=7, line_scores_cells=20)
    html, data = render_report(ReportInput([System("a", model)], ["r"], options=opts))
    assert data["ngrams"]["lines_examined"] == 7
    assert "line_scores" not in data["systems"][0]
    assert len(data["notes"]) == 2 and all(n in html for n in data["notes"])
    assert "7 of the 50 lines" in data["notes"][1]


def test_server_style_input_with_findings_given():
    """The server passes its own findings: they are counted, not recomputed."""
    from bleu_ls.qa.analysis import Finding

    hyp, ref = ["a b c", "x y z"], ["a b c", "a b c"]
    model = PairModel.from_lines(build_metrics(Settings()), hyp, [ref])
    found = [Finding("low-score", "warning", "low", line=1), Finding("outlier", "information", "odd", line=1)]
    _, data = render_report(ReportInput([System("a", model, findings=found)], ["r"], options=Options(bootstrap=0)))
    flags = data["flags"]["systems"][0]
    assert flags["counts"] == {"low-score": 1, "outlier": 1}
    assert flags["flagged_lines"] == 1 and flags["examples"][0]["line"] == 2


def test_mismatched_systems_are_refused():
    metrics = build_metrics(Settings())
    a = PairModel.from_lines(metrics, ["a", "b"], [["a", "b"]])
    b = PairModel.from_lines(metrics, ["a"], [["a"]])
    with pytest.raises(ValueError, match="has 1 lines"):
        render_report(ReportInput([System("a", a), System("b", b)], ["r"]))


def test_nltk_preset_undefined_lines_and_no_bootstrap(report, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("hello world\nthe cat sat on the mat\n", encoding="utf-8")
    ref.write_text("hello there world\nthe cat sat on the mat\n", encoding="utf-8")
    code, html, data, err = report(hyp, hyp, "--ref", ref, "--preset", "nltk", "--smooth", "nltk-method6")
    assert code == 0, err
    scores = data["systems"][0]["line_scores"]["bleu"]
    assert scores[0] is None and scores[1] == 100.0  # NLTK itself refuses the first line
    assert data["systems"][0]["histogram"]["bleu"]["undefined"] == 1
    assert data["systems"][1]["corpus"]["bleu"]["p_value"] is None
    assert "bootstrap_signature" not in data["metrics"][0]
    assert any("NLTK presets" in n for n in data["notes"])


def test_empty_files_give_an_empty_report(report, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("", encoding="utf-8")
    ref.write_text("", encoding="utf-8")
    code, html, data, err = report(hyp, hyp, "--ref", ref)
    assert code == 0, err
    assert data["lines"] == 0 and data["weakest"][0]["lines"] == []
    assert data["systems"][0]["corpus"]["bleu"]["score"] == 0.0


def test_element_ids_are_unique(report):
    """Lines appear in several lists: they carry data-line, never a repeated id."""
    import re

    code, html, data, err = report(NEWS, NEWS, "--ref", REF, "--bootstrap", "0")
    assert code == 0, err
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert 'data-line="8"' in html  # the empty line 8 is among the weakest
