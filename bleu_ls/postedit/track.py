"""Which draft line each current line came from, kept up to date by edits.

A line edited in place keeps its draft partner; lines inserted since the
draft have none (-1); deleted lines take their partners with them.  When a
draft and a text of a different line count meet for the first time (a draft
file made elsewhere, or a file changed while bleu-ls was not running), they
are aligned by a line diff: identical lines pair up, and within a replaced
block the lines pair in order; the rest are new.
"""

from __future__ import annotations

import operator
from difflib import SequenceMatcher
from typing import Generator, Optional, Sequence

import numpy as np

from ..engine import common_splice

NONE = -1
#: lines compared between two yields of :meth:`DraftTrack.steps`
STEP_LINES = 100_000


def align(draft: Sequence[str], current: Sequence[str]) -> np.ndarray:
    """Per current line, the index of its draft line (``NONE`` for a new line)."""
    n_draft, n_cur = len(draft), len(current)
    if n_draft == n_cur:
        return np.arange(n_cur, dtype=np.int64)
    partner = np.full(n_cur, NONE, dtype=np.int64)
    start, end, middle = common_splice(draft, current)
    partner[:start] = np.arange(start)
    tail = n_draft - end
    if tail:
        partner[n_cur - tail :] = np.arange(end, n_draft)
    ops = SequenceMatcher(None, draft[start:end], middle, autojunk=False).get_opcodes()
    for tag, a0, a1, b0, b1 in ops:
        if tag in ("equal", "replace"):
            k = min(a1 - a0, b1 - b0)
            partner[start + b0 : start + b0 + k] = np.arange(start + a0, start + a0 + k)
    return partner


class DraftTrack:
    """The draft of one document and its line partners."""

    def __init__(self, draft: Sequence[str], current: Sequence[str]) -> None:
        self.draft: list[str] = list(draft)
        self.partner = align(self.draft, current)
        if len(self.draft) == len(current):  # partners are the same line numbers: compared in C
            self.changed = np.fromiter(map(operator.ne, self.draft, current), dtype=bool, count=len(current))
        else:
            self.changed = self._changed(0, current)

    @classmethod
    def steps(cls, draft: Sequence[str], current: Sequence[str]) -> Generator[None, None, "DraftTrack"]:
        """The track, built a slice of lines at a time (``yield from``)."""
        track = cls.__new__(cls)
        track.draft = list(draft)
        n = len(current)
        if len(track.draft) != n:
            yield
            track.partner = align(track.draft, current)
            yield
            track.changed = track._changed(0, current)
            return track
        track.partner = np.arange(n, dtype=np.int64)
        track.changed = np.empty(n, dtype=bool)
        for a in range(0, n, STEP_LINES):
            b = min(n, a + STEP_LINES)
            yield
            track.changed[a:b] = np.fromiter(map(operator.ne, track.draft[a:b], current[a:b]), dtype=bool, count=b - a)
        return track

    def _changed(self, start: int, lines: Sequence[str]) -> np.ndarray:
        out = np.ones(len(lines), dtype=bool)
        for j, line in enumerate(lines):
            p = int(self.partner[start + j])
            if p != NONE and self.draft[p] == line:
                out[j] = False
        return out

    def splice(self, start: int, end: int, lines: Sequence[str]) -> None:
        """Current lines [start, end) became ``lines``: partners follow the edit."""
        if len(lines) != end - start:  # (lines replaced in place keep their partners: no copy)
            keep = min(end - start, len(lines))
            old = self.partner
            middle = np.concatenate((old[start : start + keep], np.full(len(lines) - keep, NONE, np.int64)))
            self.partner = np.concatenate((old[:start], middle, old[end:]))
            self.changed = np.concatenate((self.changed[:start], np.zeros(len(lines), bool), self.changed[end:]))
        self.changed[start : start + len(lines)] = self._changed(start, lines)

    def draft_line(self, i: int) -> Optional[str]:
        """The draft partner of current line ``i`` (None: the line is new)."""
        if not 0 <= i < len(self.partner):
            return None
        p = int(self.partner[i])
        return None if p == NONE else self.draft[p]

    @property
    def n_lines(self) -> int:
        return len(self.partner)

    def edited_count(self) -> int:
        """Current lines that differ from their draft line, or have none."""
        return int(np.count_nonzero(self.changed))

    def new_count(self) -> int:
        return int(np.count_nonzero(self.partner == NONE))

    def deleted_count(self) -> int:
        """Draft lines no current line comes from."""
        used = np.unique(self.partner[self.partner != NONE])
        return len(self.draft) - len(used)
