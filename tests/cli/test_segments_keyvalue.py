"""Android strings.xml and Java .properties on the command line: two revisions of a translation
scored by key, as sacrebleu scores the same pairs read apart from the project's readers
(ElementTree with the tests' aapt2 reading; javaproperties)."""

from __future__ import annotations

import json
from pathlib import Path

import javaproperties
import pytest
import sacrebleu

from .test_segments_po import run
from ..formats.test_android import reference

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def _android(path: Path) -> dict[str, str]:
    return {k: v.replace("\n", " ") for k, v in reference(path.read_text(encoding="utf-8"))}


def _properties(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as fh:
        return {k: v.replace("\n", " ").replace("\r", " ") for k, v in javaproperties.load(fh).items()}


@pytest.mark.parametrize("before, after, read", [
    ("android/updater-previous/res/values-de/strings.xml", "android/updater/res/values-de/strings.xml", _android),
    ("properties/jmeter-previous/messages_de.properties", "properties/jmeter/messages_de.properties", _properties),
])
def test_a_revision_scores_as_sacrebleu_by_key(before, after, read):
    hyp_path, ref_path = DATA / before, DATA / after
    res = run("score", hyp_path, ref_path, "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    h, r = read(hyp_path), read(ref_path)
    keys = [k for k in h if k in r and h[k] and r[k]]
    assert [line["key"] for line in got["lines"]] == keys
    for line in got["lines"]:
        assert line["score"] == sacrebleu.sentence_bleu(h[line["key"]], [r[line["key"]]]).score
    corpus = sacrebleu.corpus_bleu([h[k] for k in keys], [[r[k] for k in keys]])
    assert got["corpus"]["score"] == corpus.score
    assert corpus.score < 100  # the translator changed something


def test_a_properties_file_against_an_android_file_is_refused():
    res = run("score", DATA / "properties/jmeter/messages_de.properties",
              DATA / "android/updater/res/values-de/strings.xml")
    assert res.returncode == 2
    assert "a Java .properties file" in res.stderr and "an Android strings.xml file" in res.stderr
    assert "Traceback" not in res.stderr
