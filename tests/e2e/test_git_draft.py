"""``draft = "git:REV"`` in a ``[[pairs]]`` rule, through the real server: the draft of
an open file is the file as committed at REV, read from git (the repository left as
it was).  A real PO catalogue's revisions (the German allauth catalogue before and after
its review) committed one after the other: each entry's HTER is sacrebleu's
TER(case_sensitive=True) of its target at HEAD~1 against its target now, the hover names
the revision, an edit counts again; a line file likewise; a revision that does not
exist is one sentence in the lens."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from lsprotocol import types
from sacrebleu.metrics import TER

from .conftest import eventually, units

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po"
REL = "locale/de/LC_MESSAGES/django.po"
RULES = f'''
[[pairs]]
hypothesis = "{REL}"
draft = "git:HEAD~1"

[[pairs]]
hypothesis = "out/talk.txt"
draft = "git:HEAD~1"

[[pairs]]
hypothesis = "out/gone.txt"
references = ["out/gone.ref"]
draft = "git:no-such-branch"
'''


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def history(root: Path, files: dict[str, tuple[bytes, bytes]]) -> None:
    """Each file committed at its first content, then at its second (HEAD~1, HEAD)."""
    git(root, "init", "-q", "-b", "main")
    for step in (0, 1):
        for rel, versions in files.items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(versions[step])
            git(root, "add", rel)
        git(root, "commit", "-q", "-m", f"step {step}")


async def _hover(s, uri: str, line: int) -> str:
    h = await s.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=8)))
    return h.contents.value if h is not None else ""


def _hter(draft: str, target: str) -> str:
    return f"HTER {TER(case_sensitive=True).sentence_score(draft, [target]).score:.1f}"


@pytest.mark.workspace_toml(RULES)
async def test_the_draft_of_a_po_file_is_its_previous_commit(session):
    s = session
    old, new = (PO / "allauth-de-2023-10-07.po").read_bytes(), (PO / "allauth-de-2023-11-03.po").read_bytes()
    history(s.root, {REL: (old, new), "out/talk.txt": (b"Der Hund bellt laut .\nGuten Morgen\n",
                                                       b"Der Hund bellt sehr laut .\nGuten Morgen\n")})
    git_dir = sorted((p.relative_to(s.root), p.stat().st_mtime_ns) for p in (s.root / ".git").rglob("*") if p.is_file())
    text = new.decode("utf-8")
    uri = s.open(REL, text)
    lines = text.split("\n")
    at = lines.index('msgid "Incorrect password."') + 1
    draft = next(e for e in polib.pofile(old.decode("utf-8")) if e.msgid == "Incorrect password.").msgstr
    target = next(e for e in polib.pofile(text) if e.msgid == "Incorrect password.").msgstr
    assert draft != target

    async def hint_on(line: int):
        return [h.label for h in await s.hints(uri, line, line + 1) if h.position.line == line and "HTER" in h.label] or None

    [label] = await eventually(lambda: hint_on(at), timeout=10)
    assert label.endswith(_hter(draft, target)), label
    head1 = git(s.root, "rev-parse", "--short=7", "HEAD~1").strip()
    hover = await _hover(s, uri, at)
    assert f"**Draft** at HEAD\\~1 ({head1}): {draft}" in hover, hover  # (Markdown-escaped ~)
    # an edit counts the entry again against the same draft
    content = lines[at]
    a = content.index("Aktuelles")
    s.change(uri, [{"range": ((at, units(content[:a], s.encoding)), (at, units(content[:a + 9], s.encoding))),
                    "text": "Falsches"}])
    edited = target.replace("Aktuelles", "Falsches")

    async def relabelled():
        got = await hint_on(at)
        return got if got and got[0].endswith(_hter(draft, edited)) else None

    assert await eventually(relabelled, timeout=10)
    rec = await s.corpus(uri)
    assert rec["draft"]["origin"] == "git" and rec["draft"]["revision"] == f"HEAD~1 ({head1})"

    # a line file under the same kind of rule: its corpus HTER against the file at HEAD~1
    luri = s.open("out/talk.txt")

    async def line_effort():
        rec = await s.corpus(luri)
        return rec if rec and rec.get("effort") else None

    rec = await eventually(line_effort, timeout=10)
    want = TER(case_sensitive=True).corpus_score(["Der Hund bellt laut .", "Guten Morgen"],
                                                 [["Der Hund bellt sehr laut .", "Guten Morgen"]])
    assert (rec["effort"]["score"], rec["effort"]["num_edits"]) == (want.score, want.num_edits), rec["effort"]
    assert rec["draft"]["origin"] == "git" and rec["draft"]["revision"].startswith("HEAD~1 (")
    # nothing in the repository was written
    assert git_dir == sorted((p.relative_to(s.root), p.stat().st_mtime_ns) for p in (s.root / ".git").rglob("*") if p.is_file())


@pytest.mark.workspace_toml(RULES)
async def test_a_revision_that_does_not_exist_is_said_once(session):
    s = session
    history(s.root, {"out/gone.txt": (b"a b c\n", b"a b d\n")})
    s.write("out/gone.ref", "a b d\n")
    uri = s.open("out/gone.txt")

    async def said():
        rec = await s.corpus(uri)
        return rec if rec and (rec.get("draft") or {}).get("problem") else None

    rec = await eventually(said, timeout=10)
    assert rec["draft"]["problem"] == "draft git:no-such-branch: the revision no-such-branch is not in the repository", rec
    assert rec["effort"] is None
    lenses = await s.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    titles = " ".join(lens.command.title for lens in lenses or [] if lens.command)
    assert "draft: the revision no-such-branch is not in the repository" in titles, titles
