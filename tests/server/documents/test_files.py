"""File keys: resolved once per absolute path, forgotten when files come and go."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import sacrebleu
from lsprotocol import types

from bleu_ls.server.documents.files import forget_path_keys, path_key
from bleu_ls.server.pairs.manager import PairManager


@pytest.fixture(autouse=True)
def _fresh_keys():
    forget_path_keys()
    yield
    forget_path_keys()


def test_an_absolute_path_keeps_its_key_until_forgotten(tmp_path):
    a, b = tmp_path / "a.ref", tmp_path / "b.ref"
    a.write_text("x\n")
    b.write_text("y\n")
    link = tmp_path / "link.ref"
    link.symlink_to(a)
    assert path_key(link) == a.resolve()
    link.unlink()
    link.symlink_to(b)
    assert path_key(link) == a.resolve()  # remembered
    forget_path_keys()
    assert path_key(link) == b.resolve()


def test_a_relative_path_follows_the_working_folder(tmp_path, monkeypatch):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    monkeypatch.chdir(tmp_path / "one")
    assert path_key(Path("x.ref")) == (tmp_path / "one" / "x.ref").resolve()
    monkeypatch.chdir(tmp_path / "two")
    assert path_key(Path("x.ref")) == (tmp_path / "two" / "x.ref").resolve()


def _callers() -> list[str]:
    """The bleu_ls functions on the stack (no file reads: they would stat)."""
    out, f = [], sys._getframe(2)
    while f is not None:
        if "bleu_ls" in f.f_code.co_filename:
            out.append(f"{Path(f.f_code.co_filename).name}:{f.f_code.co_name}")
        f = f.f_back
    return out


class _Client:
    def __getattr__(self, name):
        return lambda *a, **k: None


def _change(uri: str, version: int, line: int, text: str) -> types.DidChangeTextDocumentParams:
    rng = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line + 1, character=0))
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text + "\n")],
    )


def test_an_edit_asks_the_file_system_nothing_and_an_open_forgets_the_keys(tmp_path, monkeypatch):
    """Each system call lets a background thread take the interpreter from the
    event loop: an edit of a paired file (hypothesis or reference, both open)
    must not resolve the paths of the files its pair reads again."""
    hyp, ref, src = tmp_path / "news.hyp", tmp_path / "news.ref", tmp_path / "news.src"
    hyp.write_text("the cat sat\na dog barked\n")
    (tmp_path / "a.txt").write_text("the cat sat down\nthe dog barked\n")
    (tmp_path / "b.txt").write_text("something else\n")
    ref.symlink_to(tmp_path / "a.txt")
    src.write_text("die Katze\nein Hund\n")
    calls = []

    async def run():
        manager = PairManager(_Client())
        manager.roots = [tmp_path]
        manager.reload_settings()
        manager.open(ref.as_uri(), (tmp_path / "a.txt").read_text(), 1)
        manager.open(hyp.as_uri(), hyp.read_text(), 1)
        pair = manager.pair_for(hyp.as_uri())
        assert pair is not None and pair.spec is not None and pair.spec.source is not None
        await manager.wait_scored(pair)
        real_stat, real_lstat = os.stat, os.lstat
        monkeypatch.setattr(os, "stat", lambda *a, **k: calls.append((a[0], _callers())) or real_stat(*a, **k))
        monkeypatch.setattr(os, "lstat", lambda *a, **k: calls.append((a[0], _callers())) or real_lstat(*a, **k))
        manager.change(_change(hyp.as_uri(), 2, 1, "a dog barked twice"))
        manager.change(_change(ref.as_uri(), 2, 0, "the cat sat"))
        edits = list(calls)
        assert path_key(ref) == (tmp_path / "a.txt").resolve()
        # the link now points elsewhere; a file opened: the keys are resolved afresh
        ref.unlink()
        ref.symlink_to(tmp_path / "b.txt")
        other = tmp_path / "other.txt"
        other.write_text("z\n")
        manager.open(other.as_uri(), "z\n", 1)
        opened = list(calls)
        monkeypatch.undo()
        assert path_key(ref) == (tmp_path / "b.txt").resolve()
        await manager.wait_scored(pair)
        # both edits applied (the reference is the open buffer, not the disk file)
        assert pair.model.line_value("bleu", 0) == sacrebleu.sentence_bleu("the cat sat", ["the cat sat"]).score
        assert pair.model.line_value("bleu", 1) == sacrebleu.sentence_bleu("a dog barked twice", ["the dog barked"]).score
        manager.shutdown()
        return edits, opened

    edits, opened = asyncio.run(run())
    assert edits == [], edits
    assert len(opened) > 0
