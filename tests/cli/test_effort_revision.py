"""`bleu-ls effort --draft-rev REV FILE`: the draft is FILE as committed at REV, read from
git without touching the repository; its numbers equal sacrebleu's TER of the committed
text against the current one (line files), and the two-file form's on the same texts
(segment files paired by key)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import TER

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "tests" / "data" / "formats" / "po"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def effort(cwd: Path, *args, env=None):
    return subprocess.run([sys.executable, "-m", "bleu_ls", "effort", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def commit(repo: Path, rel: str, data: bytes, message: str) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    git(repo, "add", rel)
    git(repo, "commit", "-q", "-m", message)


def tree_digest(repo: Path) -> str:
    """Every file under .git with its bytes and times: what a read-only reader leaves as it was."""
    h = hashlib.sha256()
    for p in sorted((repo / ".git").rglob("*")):
        if p.is_file():
            st = p.stat()
            h.update(f"{p.relative_to(repo)}|{st.st_mtime_ns}|".encode() + p.read_bytes())
    return h.hexdigest()


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    return r


def test_line_file_draft_at_a_revision_equals_sacrebleu(repo: Path):
    draft = "Der Hund bellt laut .\nDas ist ein Test .\nGuten Morgen\n"
    post = "Der Hund bellt sehr laut .\nDies ist ein Test .\nGuten Morgen\n"
    commit(repo, "out/talk.hyp", draft.encode(), "MT")
    commit(repo, "out/talk.hyp", post.encode(), "post-edit")
    before = tree_digest(repo)
    r = effort(repo / "out", "--draft-rev", "HEAD~1", "talk.hyp", "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    d, p = draft.splitlines(), post.splitlines()
    want = TER(case_sensitive=True).corpus_score(d, [p])
    assert (doc["corpus"]["score"], doc["corpus"]["num_edits"]) == (want.score, want.num_edits)
    assert doc["corpus"]["lines_edited"] == 2
    assert doc["draft"]["revision"] == "HEAD~1" and doc["draft"]["path"] == "out/talk.hyp"
    assert doc["draft"]["commit"] == git(repo, "rev-parse", "HEAD~1").strip()
    assert tree_digest(repo) == before  # nothing in the repository written
    # the work tree's uncommitted edit against the last commit
    (repo / "out" / "talk.hyp").write_text(post.replace("Guten Morgen", "Guten Abend"), encoding="utf-8")
    r = effort(repo, "--draft-rev", "HEAD", "out/talk.hyp")
    assert r.returncode == 0, r.stderr
    assert "draft: out/talk.hyp at HEAD (" in r.stdout and "1 of 3 lines edited" in r.stdout


def test_segment_file_draft_at_a_revision_pairs_by_key(repo: Path, tmp_path: Path):
    """A real catalogue's revision history: the German allauth catalogue before its review
    committed, then after it; the numbers equal the two-file form's on the same two files,
    entry by entry."""
    old, new = PO / "allauth-de-2023-10-07.po", PO / "allauth-de-2023-11-03.po"
    rel = "allauth/locale/de/LC_MESSAGES/django.po"
    commit(repo, rel, old.read_bytes(), "before review")
    commit(repo, rel, new.read_bytes(), "review")
    r = effort(repo, "--draft-rev", "main~1", rel, "-f", "json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    two = effort(ROOT, old, new, "-f", "json")
    assert two.returncode == 0, two.stderr
    want = json.loads(two.stdout)
    assert got["corpus"] == want["corpus"] and got["lines"] == want["lines"]
    assert got["corpus"]["lines"] == 164 and 0 < got["corpus"]["lines_edited"] < 164


@pytest.mark.parametrize("args, needle", [
    (("--draft-rev", "no-such-branch", "f.txt"), "the revision no-such-branch is not in the repository"),
    (("--draft-rev", "HEAD", "g.txt"), "g.txt does not exist at HEAD"),
    (("--draft-rev=--output=x", "f.txt"), "is not a revision name"),
    (("--draft-rev", "HEAD:f.txt", "f.txt"), "is not a revision name"),
    (("--draft-rev", "HEAD", "missing.txt"), "missing.txt: not found"),
    (("--draft-rev", "HEAD", "f.txt", "g.txt"), "give the post-edit file alone with --draft-rev"),
])
def test_bad_revision_or_file_is_one_sentence(repo: Path, args, needle):
    commit(repo, "f.txt", b"a\n", "one")
    (repo / "g.txt").write_text("b\n", encoding="utf-8")  # in the work tree, never committed
    r = effort(repo, *args)
    assert r.returncode == 2
    assert needle in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("error:") == 1


def test_outside_a_repository_and_without_git(tmp_path: Path):
    (tmp_path / "f.txt").write_text("a\n", encoding="utf-8")
    r = effort(tmp_path, "--draft-rev", "HEAD", "f.txt", env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert r.returncode == 2 and "f.txt is not in a git repository" in r.stderr, r.stderr
    r = effort(tmp_path, "--draft-rev", "HEAD", "f.txt", env={"PATH": str(tmp_path / "nothing")})
    assert r.returncode == 2 and "git is not installed" in r.stderr, r.stderr
