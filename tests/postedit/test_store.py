import json
import os
import stat
from pathlib import Path

import pytest

from bleu_ls.postedit import DraftStore, cache_root


def test_cache_root_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    assert cache_root() == tmp_path / "c" / "bleu-ls" / "drafts"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache_root() == Path.home() / ".cache" / "bleu-ls" / "drafts"


def test_a_draft_survives_a_new_store(tmp_path):
    hyp = tmp_path / "ws" / "doc.hyp"
    lines = ["Der Hund bellt.", "ein \u2028 Zeichen", "emoji \U0001F600", "lone \udcff surrogate"]
    DraftStore(tmp_path / "cache").put(hyp, lines)
    again = DraftStore(tmp_path / "cache").get(hyp)
    assert again is not None and again.lines == lines
    assert again.path == str(hyp.absolute())
    # nothing was written beside the hypothesis file
    assert not (tmp_path / "ws").exists()


def test_forget_removes_memory_and_file(tmp_path):
    store = DraftStore(tmp_path)
    store.put(tmp_path / "a.hyp", ["x"])
    store.forget(tmp_path / "a.hyp")
    assert store.get(tmp_path / "a.hyp") is None
    assert DraftStore(tmp_path).get(tmp_path / "a.hyp") is None


def test_drafts_of_two_files_are_kept_apart(tmp_path):
    store = DraftStore(tmp_path)
    store.put(tmp_path / "a.hyp", ["a"])
    store.put(tmp_path / "b.hyp", ["b"])
    fresh = DraftStore(tmp_path)
    assert fresh.get(tmp_path / "a.hyp").lines == ["a"]
    assert fresh.get(tmp_path / "b.hyp").lines == ["b"]


@pytest.mark.parametrize("content", ["not json", json.dumps({"format": 1, "path": "/else", "lines": []}), json.dumps([1])])
def test_a_broken_cache_file_is_no_draft(tmp_path, content):
    store = DraftStore(tmp_path)
    hyp = tmp_path / "a.hyp"
    store.file_for(hyp).write_text(content, encoding="utf-8")
    assert store.get(hyp) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_cache_keeps_the_draft_for_the_session(tmp_path):
    root = tmp_path / "ro"
    root.mkdir()
    root.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        store = DraftStore(root / "drafts")
        store.put(tmp_path / "a.hyp", ["x"])
        assert store.get(tmp_path / "a.hyp").lines == ["x"]
        assert "kept for this session only" in store.problem
    finally:
        root.chmod(stat.S_IRWXU)


def test_a_cache_path_that_is_a_file_keeps_the_draft_for_the_session(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    store = DraftStore(blocker / "drafts")
    store.put(tmp_path / "a.hyp", ["x"])
    assert store.get(tmp_path / "a.hyp").lines == ["x"]
    assert store.problem and "kept for this session only" in store.problem
    assert DraftStore(blocker / "drafts").get(tmp_path / "a.hyp") is None


def test_a_draft_read_back_shares_the_unchanged_lines_strings(tmp_path):
    path = tmp_path / "a.hyp"
    DraftStore(tmp_path / "cache").put(path, ["one two", "three", "four five"])
    stored = DraftStore(tmp_path / "cache").get(path)  # read from the file: new strings
    current = ["".join(["one", " two"]), "three changed", "".join(["four", " five"]), "an added line"]
    assert stored.lines[0] is not current[0]
    stored.share(current)
    assert stored.lines == ["one two", "three", "four five"]  # the draft's text is unchanged
    assert stored.lines[0] is current[0] and stored.lines[2] is current[2]
    assert stored.lines[1] is not current[1]
