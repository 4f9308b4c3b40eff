"""The user's word list: ``.bleu-ls/words.txt``, one word a line, in the nearest folder at
or above a document holding one (the workspace's, beside ``.bleu-ls/ignore.json``).

Words are compared lower-cased; blank lines and lines starting with ``#`` are left out.  The
file is read again when its size or modification time changes (one ``stat`` a pass), and
written only by :func:`add_word`: the user's "Add to dictionary" (the server's
``bleuLs.addToDictionary``).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import NamedTuple, Optional

FOLDER = ".bleu-ls"
FILE_NAME = "words.txt"
RELATIVE = f"{FOLDER}/{FILE_NAME}"

_lock = threading.Lock()
#: path -> (stamp, words)
_READ: dict[str, tuple[tuple[int, int], frozenset]] = {}


class WordListError(ValueError):
    """A sentence for the user: why the word was not added."""


class WordList(NamedTuple):
    """The words of one file (empty when there is none) and what the rule's memo follows."""

    path: Optional[str]
    words: frozenset
    stamp: tuple


def find(document: Optional[str]) -> Optional[Path]:
    """The nearest ``.bleu-ls/words.txt`` at or above the folder of ``document``."""
    if not document:
        return None
    p = Path(document).absolute().parent
    for d in (p, *p.parents):
        f = d / FOLDER / FILE_NAME
        if f.is_file():
            return f
    return None


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
        return (st.st_size, st.st_mtime_ns)
    except OSError:
        return (-1, -1)


def parse(text: str) -> frozenset:
    """The lower-case words of a word list's text."""
    out = set()
    for line in text.splitlines():
        w = line.strip()
        if w and not w.startswith("#"):
            out.add(w.lower())
    return frozenset(out)


def read(path: Optional[Path]) -> WordList:
    """The word list at ``path`` (read again only when the file changed; never raises: a file
    that cannot be read is an empty list)."""
    if path is None:
        return WordList(None, frozenset(), ())
    key = str(path)
    stamp = _stamp(key)
    with _lock:
        got = _READ.get(key)
    if got is not None and got[0] == stamp:
        return WordList(key, got[1], (key, stamp))
    try:
        text = Path(key).read_bytes().decode("utf-8-sig", errors="replace")
    except OSError:
        text = ""
    found = parse(text)
    with _lock:
        _READ[key] = (stamp, found)
    return WordList(key, found, (key, stamp))


def for_document(document: Optional[str]) -> WordList:
    """The word list that applies to ``document`` (by its path)."""
    return read(find(document))


def add_word(path: Path, word: str) -> str:
    """Append ``word`` to the word list at ``path`` (the folder made when missing); the sentence
    saying what was done."""
    word = word.strip()
    if not word or any(ch.isspace() for ch in word):
        raise WordListError("one word is needed (no spaces)")
    name = f"{path.parent.name}/{path.name}"
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError as exc:
        raise WordListError(f"{name}: cannot read: {exc.strerror or exc}") from None
    text = data.decode("utf-8-sig", errors="replace")
    if word.lower() in parse(text):
        return f"“{word}” is already in {name}."
    prefix = "" if not text or text.endswith(("\n", "\r")) else "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab") as f:
            f.write((prefix + word + "\n").encode("utf-8"))
    except OSError as exc:
        raise WordListError(f"{name}: cannot write: {exc.strerror or exc}") from None
    with _lock:
        _READ.pop(str(path), None)
    return f"Added “{word}” to {name}."
