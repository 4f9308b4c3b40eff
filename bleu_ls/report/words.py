"""Words of one line, marked for display: which hypothesis tokens match the
reference, and which words changed against a draft.

Matching follows BLEU's clipping: an n-gram of the hypothesis matches as
often as it occurs in the reference (the most in any one reference).  A
token's *level* is the longest order of a matched n-gram covering it: 0 no
match, 1 the word alone, 2+ part of a matched phrase.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

_WORD = re.compile(r"\S+")
#: how far past the expected place a token may be found in the line's text
_SLACK = 12


def ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return list(zip(*[tokens[i:] for i in range(n)]))


def merged_ref_counts(refs: Sequence[Sequence[str]], n: int) -> Counter[tuple[str, ...]]:
    """Order-n reference counts, the most in any one reference (BLEU's clip)."""
    if len(refs) == 1:
        return Counter(ngrams(refs[0], n))
    out: Counter[tuple[str, ...]] = Counter()
    for ref in refs:
        for gram, c in Counter(ngrams(ref, n)).items():
            if c > out[gram]:
                out[gram] = c
    return out


def match_levels(hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int) -> list[int]:
    """Per hypothesis token, the longest order of a clipped match covering it."""
    levels = [0] * len(hyp)
    for n in range(1, max_order + 1):
        budget = merged_ref_counts(refs, n)
        if not budget:
            break
        for start, gram in enumerate(ngrams(hyp, n)):
            if budget.get(gram, 0) > 0:
                budget[gram] -= 1
                for j in range(start, start + n):
                    levels[j] = n
    return levels


def token_spans(line: str, tokens: Sequence[str]) -> list[Optional[tuple[int, int]]]:
    """Where each token sits in ``line`` (None when a tokenizer rewrote it).

    Found case-insensitively, so lowercased tokens align with the text too.
    """
    hay = line.lower()
    folded = len(hay) == len(line)
    if not folded:  # a case mapping that changes lengths: align as is
        hay = line
    spans: list[Optional[tuple[int, int]]] = []
    pos = 0
    for tok in tokens:
        tok = tok.lower() if folded else tok
        j = hay.find(tok, pos, pos + len(tok) + _SLACK)
        if j < 0:
            spans.append(None)
            continue
        spans.append((j, j + len(tok)))
        pos = j + len(tok)
    return spans


def changed_words(line: str, draft: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(spans of ``line``'s words not in the draft, spans of the draft's words not kept)."""
    new = list(_WORD.finditer(line))
    old = list(_WORD.finditer(draft))
    sm = difflib.SequenceMatcher(None, [m.group() for m in old], [m.group() for m in new], autojunk=False)
    added: list[tuple[int, int]] = []
    dropped: list[tuple[int, int]] = []
    for op, a0, a1, b0, b1 in sm.get_opcodes():
        if op == "equal":
            continue
        added.extend(new[j].span() for j in range(b0, b1))
        dropped.extend(old[j].span() for j in range(a0, a1))
    return added, dropped


@dataclass
class Piece:
    text: str
    level: Optional[int] = None  # None: not a token (space, or text a tokenizer rewrote)
    changed: bool = False


def pieces(line: str, marked: Sequence[tuple[int, int, int]], changed: Sequence[tuple[int, int]] = ()) -> list[Piece]:
    """``line`` cut into pieces carrying a match level and a changed flag.

    ``marked``: (start, end, level) spans; ``changed``: (start, end) spans.
    """
    n = len(line)
    level: list[Optional[int]] = [None] * n
    for s, e, lv in marked:
        for j in range(max(s, 0), min(e, n)):
            cur = level[j]
            if cur is None or lv > cur:
                level[j] = lv
    moved = [False] * n
    for s, e in changed:
        moved[max(s, 0):min(e, n)] = [True] * (min(e, n) - max(s, 0))
    out: list[Piece] = []
    for j, ch in enumerate(line):
        key: tuple[Optional[int], bool]
        if ch.isspace():
            key = (None, False)
        else:
            key = (level[j], moved[j])
        if out and (out[-1].level, out[-1].changed) == key:
            out[-1].text += ch
        else:
            out.append(Piece(ch, *key))
    return out


class LineMarker:
    """Marks hypothesis lines for display with one metric's tokens."""

    def __init__(self, tokens: Callable[[str], list[str]], max_order: int = 4) -> None:
        self.tokens = tokens
        self.max_order = max_order

    def hypothesis(self, hyp: str, refs: Sequence[str], draft: Optional[str] = None) -> list[Piece]:
        toks = self.tokens(hyp)
        levels = match_levels(toks, [self.tokens(r) for r in refs], self.max_order)
        spans = token_spans(hyp, toks)
        marked = [(s[0], s[1], lv) for s, lv in zip(spans, levels) if s is not None]
        changed = changed_words(hyp, draft)[0] if draft is not None else ()
        return pieces(hyp, marked, changed)

    @staticmethod
    def draft(draft: str, hyp: str) -> list[Piece]:
        """The draft with the words the hypothesis dropped or replaced marked as changed."""
        dropped = changed_words(hyp, draft)[1]
        return pieces(draft, (), dropped)
