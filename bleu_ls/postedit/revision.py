"""A file as it was at a git revision: the MT draft of a post-edit under version control.

When the machine translation was committed and a translator's changes came after it
(a translation pull request, a commit of revisions), the draft of a file is the file
at that revision: ``bleu-ls effort --draft-rev REV FILE`` and ``draft = "git:REV"`` in a
``[[pairs]]`` rule.  The file is read from the repository's object store with
``git cat-file`` (the blob as committed: no text conversion, no filters), read-only:
nothing in the work tree, the index or the repository is written, no hook runs, no
remote is asked.  Any problem (git missing, not a repository, an unknown revision,
the file not in it) is one :class:`RevisionError` sentence.

Plain Python over ``subprocess``; imports nothing of the package.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: seconds a git command may take (a huge repository's first object lookup)
TIMEOUT = 30.0


class RevisionError(ValueError):
    """One sentence: why the file at that revision cannot be read."""


@dataclass(frozen=True)
class Revision:
    """A file's bytes at a revision: what was asked for, the commit it resolved to, the path
    in the repository (``/`` separated)."""

    rev: str
    commit: str
    path: str
    data: bytes

    @property
    def label(self) -> str:
        """``REV (abc1234)``, or the short commit alone when REV is a commit id."""
        short = self.commit[:7]
        return short if self.commit.startswith(self.rev) else f"{self.rev} ({short})"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"})
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def _git(cwd: Path, *args: str, binary: bool = False) -> subprocess.CompletedProcess:
    cmd = ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-pager", *args]
    try:
        return subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise RevisionError("git is not installed (it reads the draft at a revision)") from None
    except subprocess.TimeoutExpired:
        raise RevisionError(f"git took longer than {TIMEOUT:g} s") from None
    except OSError as exc:
        raise RevisionError(f"git could not be run: {exc.strerror or exc}") from None


def _first_line(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").strip()
    line = text.splitlines()[0] if text else ""
    return line.removeprefix("fatal: ").removeprefix("error: ").rstrip(".")


def check_revision(rev: str) -> str:
    """``rev`` as given, or a :class:`RevisionError` when it cannot be a revision name (empty,
    an option, a control character)."""
    rev = rev.strip()
    if not rev:
        raise RevisionError("no revision given (git:HEAD, git:main, a commit id…)")
    if rev.startswith("-") or any(c in rev for c in "\0\n\r") or ":" in rev:
        raise RevisionError(f"{rev!r} is not a revision name")
    return rev


def read_at(path: Path, rev: str) -> Revision:
    """``path`` (a file in a git work tree) as it was at ``rev``."""
    rev = check_revision(rev)
    path = Path(path).absolute()
    where = path.parent if path.parent.is_dir() else Path.cwd()
    top = _git(where, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        reason = _first_line(top.stderr)
        if "not a git repository" in reason:
            raise RevisionError(f"{path.name} is not in a git repository")
        raise RevisionError(f"git: {reason}")
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    try:
        rel = Path(os.path.realpath(path)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        raise RevisionError(f"{path.name} is not inside its repository's work tree {root}") from None
    commit = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if commit.returncode != 0:
        raise RevisionError(f"the revision {rev} is not in the repository")
    sha = commit.stdout.decode("ascii", "replace").strip()
    blob = _git(root, "cat-file", "blob", f"{sha}:{rel}")
    if blob.returncode != 0:
        raise RevisionError(f"{rel} does not exist at {rev} ({sha[:7]})")
    return Revision(rev, sha, rel, blob.stdout)
