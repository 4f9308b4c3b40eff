"""Word-level views of a line: what changed against the draft, what the
reference does not have.

Words are the line's whitespace-separated pieces, as a translator sees them
(not a metric's tokens, whose text can differ from the line's).  Spans are
``(start, end)`` code-point columns in the line.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Sequence

_WORD = re.compile(r"\S+")
#: Punctuation at either end of a word does not stop it from matching.
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")

Span = tuple[int, int]
#: Lines with more words are not diffed (a word diff is quadratic at worst).
MAX_DIFF_WORDS = 2000


def _words(line: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(line)]


def changed_spans(draft_line: str, line: str) -> list[Span]:
    """Spans of the words of ``line`` inserted or replaced since ``draft_line``."""
    new = _words(line)
    if len(new) > MAX_DIFF_WORDS or draft_line.count(" ") > MAX_DIFF_WORDS:
        return []
    ops = SequenceMatcher(None, draft_line.split(), [w for w, _, _ in new], autojunk=False).get_opcodes()
    spans: list[Span] = []
    for tag, _a0, _a1, b0, b1 in ops:
        if tag in ("insert", "replace") and b1 > b0:
            spans.append((new[b0][1], new[b1 - 1][2]))
    return spans


def word_diff(draft_line: str, line: str) -> list[tuple[str, str]]:
    """The edit from ``draft_line`` to ``line`` as (op, text) runs: "=", "-", "+"."""
    old, new = draft_line.split(), line.split()
    out: list[tuple[str, str]] = []
    if max(len(old), len(new)) > MAX_DIFF_WORDS:
        return [("-", draft_line), ("+", line)]
    for tag, a0, a1, b0, b1 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("=", " ".join(old[a0:a1])))
            continue
        if a1 > a0:
            out.append(("-", " ".join(old[a0:a1])))
        if b1 > b0:
            out.append(("+", " ".join(new[b0:b1])))
    return out


@lru_cache(maxsize=1 << 16)
def _core(word: str, lowercase: bool) -> str:
    core = _EDGE.sub("", word) or word
    return core.casefold() if lowercase else core


def unmatched_spans(line: str, refs: Sequence[str], lowercase: bool = False) -> list[Span]:
    """Spans of the words of ``line`` that match no word of any reference.

    Matches are clipped as in unigram precision: a word used three times
    against a reference that has it once matches once.  The reference that
    leaves the fewest words unmatched counts.
    """
    words = _words(line)
    if not words:
        return []
    best: list[Span] | None = None
    for ref in refs or [""]:
        budget = Counter(_core(w, lowercase) for w in ref.split())
        spans: list[Span] = []
        for w, s, e in words:
            key = _core(w, lowercase)
            if budget[key] > 0:
                budget[key] -= 1
            else:
                spans.append((s, e))
        if best is None or len(spans) < len(best):
            best = spans
    return best or []
