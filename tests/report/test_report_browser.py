"""The report in headless Chromium: it loads offline with no console error and
no request but its own file, the data block reads back, it prints; full-page
screenshots go to .artifacts/report/ to be looked at."""

from __future__ import annotations

import json
import os

import pytest

from .chromium import find_chromium, load
from .conftest import ARTIFACTS, MQM, SAMPLES, data_of

REQUIRED = os.environ.get("BLEU_LS_REQUIRE_EDITORS") == "1"


@pytest.fixture(scope="module")
def chromium():
    exe = find_chromium()
    if exe is None:
        msg = "chromium is not available: install it (apt-get install chromium) or set BLEU_CHROMIUM"
        if REQUIRED:
            pytest.fail(msg + " (BLEU_LS_REQUIRE_EDITORS=1 makes this a failure)", pytrace=False)
        pytest.skip(msg)
    return exe


def _open(chromium, report, name, *args):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    out = ARTIFACTS / f"{name}.html"
    code, html, data, err = report(*args, out=out)
    assert code == 0, err
    run = load(chromium, out, ARTIFACTS / f"{name}.png", ARTIFACTS / f"{name}.pdf")
    errors = [c for c in run.console if c[0] in ("error", "warning", "assert")]
    assert errors == [] and run.exceptions == []
    assert run.requests == [out.resolve().as_uri()]  # nothing but the page itself
    assert json.loads(run.data_json) == data
    assert run.title == data["title"]
    assert run.printed_pages >= 1
    assert run.page_width <= 1280  # nothing overflows sideways at a laptop's width
    return html, data, run


def test_sample_one_system_renders(chromium, report):
    _, data, _ = _open(chromium, report, "news", SAMPLES / "news.hyp", "--ref", SAMPLES / "news.ref",
                       "--src", SAMPLES / "news.src", "--metric", "bleu", "chrf")
    assert data["comparisons"] == []


def test_sample_two_systems_with_draft_renders(chromium, report, tmp_path):
    draft = tmp_path / "chat.draft"
    draft.write_text(SAMPLES.joinpath("chat.ref2").read_text(encoding="utf-8"), encoding="utf-8")
    html, data, _ = _open(chromium, report, "chat", SAMPLES / "chat.hyp", SAMPLES / "chat.ref2",
                          "--ref", SAMPLES / "chat.ref", "--draft", draft, "--name", "system A", "system B")
    assert len(data["comparisons"]) == 1 and "chg" in html


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
def test_wmt_thirteen_systems_render(chromium, report):
    import sacrebleu

    hyps = sorted(MQM.glob("*.hyp"))
    assert len(hyps) == 13
    html, data, run = _open(chromium, report, "wmt21-13-systems", *hyps, "--ref", MQM / "ref.txt",
                            "--src", MQM / "src.txt")
    ref = (MQM / "ref.txt").read_text(encoding="utf-8").splitlines()
    for path, rec in zip(hyps, data["systems"]):
        hyp = path.read_text(encoding="utf-8").splitlines()
        assert rec["name"] == path.stem
        assert rec["corpus"]["bleu"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert len(data["comparisons"]) == 12
    assert data_of(html) == data
