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


TRICKY = ["Der Hund bellt.", "", 'quote " and \\ backslash, ", "', "ein \u2028 Zeichen", "emoji \U0001F600",
          "lone \udcff surrogate", "pair as two \ud83d\ude00 halves", "tab\there", "\x00 nul"]


def _old_format(store, hyp, lines, **dumps):
    """A draft written as bleu-ls wrote them before (one ASCII JSON object, HASH.json)."""
    record = {"format": 1, "path": str(hyp.absolute()), "taken": 12.5, "lines": lines}
    store.root.mkdir(parents=True, exist_ok=True)
    store.json_file_for(hyp).write_text(json.dumps(record, ensure_ascii=True, **dumps), encoding="ascii")


@pytest.mark.parametrize("dumps", [{}, {"separators": (",", ":")}, {"indent": 1}])
def test_a_draft_of_the_first_format_is_still_read(tmp_path, dumps):
    store = DraftStore(tmp_path / "cache")
    hyp = tmp_path / "doc.hyp"
    lines = [x for x in TRICKY if "halves" not in x] * 3  # JSON joins escaped halves (as it always did)
    _old_format(store, hyp, lines, **dumps)
    again = DraftStore(tmp_path / "cache").get(hyp)
    assert again is not None and again.lines == lines and again.taken == 12.5


def test_a_first_format_draft_is_read_in_slices_and_rewritten(tmp_path, monkeypatch):
    from bleu_ls.postedit import store as store_mod

    monkeypatch.setattr(store_mod, "JSON_LINES", 10)
    store = DraftStore(tmp_path)
    hyp = tmp_path / "doc.hyp"
    lines = [f"line {i} \u00e9 \"{i}\"" for i in range(95)]
    _old_format(store, hyp, lines)
    steps = store.load_steps(hyp)
    yields = 0
    try:
        while True:
            next(steps)
            yields += 1
    except StopIteration as stop:
        assert stop.value.lines == lines
    assert yields >= 9  # 95 lines, 10 a slice
    # rewritten in the current format as it is read
    assert not store.json_file_for(hyp).exists() and store.file_for(hyp).exists()
    assert DraftStore(tmp_path).get(hyp).lines == lines
    _old_format(store, hyp, ["old"])
    store.put(hyp, ["new"])
    assert not store.json_file_for(hyp).exists() and store.file_for(hyp).exists()
    assert DraftStore(tmp_path).get(hyp).lines == ["new"]


def test_the_current_format_is_a_header_and_the_lines(tmp_path):
    store = DraftStore(tmp_path)
    hyp = tmp_path / "doc.hyp"
    store.put(hyp, TRICKY)
    data = store.file_for(hyp).read_bytes()
    head, _, body = data.partition(b"\n")
    assert json.loads(head)["lines"] == len(TRICKY) and json.loads(head)["path"] == str(hyp.absolute())
    assert body == "".join(x + "\n" for x in TRICKY).encode("utf-8", "surrogatepass")
    assert DraftStore(tmp_path).get(hyp).lines == TRICKY


def test_lines_holding_a_break_keep_the_json_format(tmp_path):
    store = DraftStore(tmp_path)
    hyp = tmp_path / "doc.hyp"
    lines = ["a\nb", "c\rd", "e"]
    store.put(hyp, lines)
    assert store.json_file_for(hyp).exists() and not store.file_for(hyp).exists()
    assert DraftStore(tmp_path).get(hyp).lines == lines


@pytest.mark.parametrize("cut", [1, 5, 30])
def test_a_truncated_draft_is_no_draft(tmp_path, cut):
    store = DraftStore(tmp_path)
    hyp = tmp_path / "doc.hyp"
    store.put(hyp, TRICKY)
    data = store.file_for(hyp).read_bytes()
    store.file_for(hyp).write_bytes(data[:-cut])
    assert DraftStore(tmp_path).get(hyp) is None


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
