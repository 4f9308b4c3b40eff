"""The ignore store (.bleu-ls/ignore.json) and ``bleu-ls check`` honouring it."""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

import pytest

from bleu_ls.qa.analysis import Finding
from bleu_ls.cli.check import main
from bleu_ls.qa.ignore import RELATIVE, IgnoreStore, find_store_root, line_hash

LINES = ["the cat sat", "a dog ran", "the cat sat", ""]


def finding(line, code="low-score"):
    return Finding(code, "warning", f"{code} on {line}", line=line)


def text(i):
    return LINES[i] if 0 <= i < len(LINES) else ""


def test_line_hash_is_the_text_sha1():
    assert line_hash("Größe 1.000,5") == hashlib.sha1("Größe 1.000,5".encode()).hexdigest()[:16]
    assert line_hash("a b\r") == line_hash("a b")
    assert line_hash("a b") != line_hash("a b ")


def test_entries_hide_by_text_on_every_line_that_has_it(tmp_path):
    store = IgnoreStore.load(tmp_path)
    assert store.problem is None and store.stamp is None
    hyp = tmp_path / "out" / "a.hyp"
    store.add(hyp, "code", "the cat sat", "outlier")
    store.add(hyp, "reviewed", "a dog ran")
    fs = [finding(0), finding(0, "outlier"), finding(1), finding(2, "outlier"), finding(3), finding(0, "settings")]
    got = store.filter(hyp, fs, text)
    assert [(f.line, f.code) for f in got.findings] == [(0, "low-score"), (3, "low-score"), (0, "settings")]
    assert (got.ignored, got.reviewed) == (2, 1)
    # another file is not touched by this file's entries
    other = store.filter(tmp_path / "b.hyp", fs, text)
    assert len(other.findings) == len(fs)
    store.add(hyp, "line", "")
    store.add(hyp, "off", code="low-score")
    got = store.filter(tmp_path / "b.hyp", fs, text)
    assert [f.code for f in got.findings] == ["outlier", "outlier", "settings"]


def test_save_is_atomic_and_reads_back(tmp_path, monkeypatch):
    store = IgnoreStore.load(tmp_path)
    hyp = tmp_path / "out" / "a.hyp"
    store.add(hyp, "code", "the cat sat", "repetition")
    store.add(hyp, "line", "a dog ran")
    store.add(hyp, "off", code="outlier")
    store.save()
    data = json.loads((tmp_path / RELATIVE).read_text(encoding="utf-8"))
    assert data == {
        "version": 1,
        "off": ["outlier"],
        "files": {
            "out/a.hyp": {"codes": {line_hash("the cat sat"): ["repetition"]}, "lines": [line_hash("a dog ran")]}
        },
    }
    mask = os.umask(0o022)
    os.umask(mask)
    assert (tmp_path / RELATIVE).stat().st_mode & 0o777 == 0o666 & ~mask  # not mkstemp's 0600
    again = IgnoreStore.load(tmp_path)
    assert again.as_json() == data and not again.stale()
    assert find_store_root(hyp) == tmp_path
    # a failed write leaves the old file whole and no temporary file behind
    before = (tmp_path / RELATIVE).read_bytes()
    again.add(hyp, "reviewed", "x")

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        again.save()
    assert (tmp_path / RELATIVE).read_bytes() == before
    assert sorted(p.name for p in (tmp_path / ".bleu-ls").iterdir()) == ["ignore.json"]


@pytest.mark.parametrize(
    "body, words",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"off": "low-score"}', '"off" is not a list'),
        ('{"off": ["no-such"]}', "no-such"),
        ('{"files": {"a.hyp": {"lines": [3]}}}', '"lines" of "a.hyp"'),
        ('{"files": {"a.hyp": {"codes": {"abc": ["bogus"]}}}}', "bogus"),
    ],
)
def test_bad_file_is_one_sentence_and_ignores_nothing(tmp_path, body, words):
    path = tmp_path / RELATIVE
    path.parent.mkdir()
    path.write_text(body, encoding="utf-8")
    store = IgnoreStore.load(tmp_path)
    assert words in store.problem and RELATIVE in store.problem
    assert "\n" not in store.problem and "Traceback" not in store.problem
    fs = [finding(0), finding(1, "outlier")]
    assert store.filter(tmp_path / "a.hyp", fs, text).findings == fs
    store.add(tmp_path / "a.hyp", "line", "the cat sat")
    with pytest.raises(ValueError):
        store.save()
    assert path.read_text(encoding="utf-8") == body


def test_unknown_kind_or_code_refused(tmp_path):
    store = IgnoreStore.load(tmp_path)
    with pytest.raises(ValueError, match="kind"):
        store.add(tmp_path / "a.hyp", "forever", "x")
    with pytest.raises(ValueError, match="code"):
        store.add(tmp_path / "a.hyp", "off", code="nope")


# -- bleu-ls check -------------------------------------------------------------
HYP = ["the cat sat on the mat", "zulu yankee xray whiskey", "", "hello world again and again"]
REF = ["the cat sat on the mat", "the quick brown fox jumps", "nothing here", "hello world"]


def check(*argv) -> tuple[int, str, str]:
    return check_with("--no-config", *argv)


def check_with(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(["--format", "json", *argv], out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def codes(out: str) -> list[tuple[int, str]]:
    found = []
    for rec in json.loads(out)["pairs"]:
        found += [(d["line"], d["code"]) for d in rec["diagnostics"]]
    return sorted(found)


def write(p: Path, lines) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return p


def test_check_honours_the_ignore_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    hyp = write(tmp_path / "out" / "d.hyp", HYP)
    write(tmp_path / "out" / "d.ref", REF)
    cfg = tmp_path / "low.toml"  # low-score is off by default (the hint shows the score)
    cfg.write_text("[diagnostics.low_score]\nenabled = true\n", encoding="utf-8")

    def check(*a):
        return check_with("--config", str(cfg), *a)

    rc, out, err = check(str(hyp))
    before = codes(out)
    assert ("low-score" in {c for _, c in before}) and any(c == "empty-hypothesis" for _, c in before)
    store = IgnoreStore.load(tmp_path)
    store.add(hyp, "line", HYP[1])
    store.add(hyp, "off", code="empty-hypothesis")
    store.save()
    rc, out, err = check(str(hyp))
    after = codes(out)
    assert after == [x for x in before if x[0] != 2 and x[1] != "empty-hypothesis"]
    # nonsense in the file: one warning, nothing hidden, the file untouched
    (tmp_path / RELATIVE).write_text("{oops", encoding="utf-8")
    rc, out, err = check(str(hyp))
    assert codes(out) == before
    assert err.count("warning") == 1 and "ignore.json is not used: not valid JSON" in err
    assert (tmp_path / RELATIVE).read_text(encoding="utf-8") == "{oops"
