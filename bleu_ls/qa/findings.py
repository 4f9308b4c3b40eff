"""The finding record and its helpers.

:class:`Finding` is the one record every reader, check and rule makes
(:mod:`bleu_ls.formats.finding`, re-exported here).  The codes it can carry
are the rows of the rule table (:mod:`bleu_ls.qa.rules`), where :data:`CODES`,
``SETTING_OF`` and ``ORDER`` are derived: every check imports this module, and
the table imports the checks, so the lists of codes sit with the table, above
them (nothing here imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from itertools import compress, count, repeat
from operator import is_not
from typing import Any, Sequence, Union

from ..config.settings import SEVERITY_RANK
from ..formats.finding import NO_DATA, Finding

__all__ = ["INTERNAL", "NO_DATA", "REFERENCE_ERROR", "SETTINGS_PROBLEM", "DENSE_FROM", "ByLine", "DenseLines", "Finding", "Lines",
           "at_or_above", "dense_if_most", "placed"]

#: Codes outside the settings (rows of the table said always): a reference or source
#: that cannot be used, settings that could not be read.
REFERENCE_ERROR = "reference-error"
SETTINGS_PROBLEM = "settings"
#: A rule failed (a bug): said on line 1.
INTERNAL = "internal"

def at_or_above(severity: str, threshold: str) -> bool:
    """Is ``severity`` at least as severe as ``threshold`` (error > warning > …)?"""
    return SEVERITY_RANK.get(severity, 9) <= SEVERITY_RANK.get(threshold, 0)


class ByLine(dict):
    """A rule's findings already grouped by line (line -> tuple of findings), as a rule whose
    findings are shared by many lines gives them: each finding is made once and kept under
    every line it is on, with a ``line`` of its own that may be another (the term rules:
    :meth:`bleu_ls.qa.terms.index.TermIndex.scan`).  The store keeps them so; its readers
    place them on their line (:func:`placed`) where they hand them on."""

    __slots__ = ()


def placed(i: int, fs: Sequence[Finding]) -> Sequence[Finding]:
    """Line ``i``'s findings in the store, each with ``line`` i: ``fs`` itself when they all
    have it, else copies of those that do not (a finding the store keeps under several lines)."""
    for f in fs:
        if f.line != i:
            return tuple(f if f.line == i else Finding(f.code, f.severity, f.message, f.span, i, f.start_col, f.end_col,
                                                       f.key, f.data) for f in fs)
    return fs


class DenseLines(MutableMapping):
    """Line -> that line's findings, for a holder where most of a document's lines have some
    (a dense glossary's term findings): a list indexed by line, ``None`` where a line has none.
    8 bytes a line of the document, where a dict held about 50 bytes a line it keeps, and the
    line's number as an object (at 100,000 lines: 0.8 MB against 8 MB)."""

    __slots__ = ("_v", "_len")

    def __init__(self, items: Any = ()) -> None:
        self._v: list = []
        self._len = 0
        for i, x in (items.items() if isinstance(items, (dict, DenseLines)) else items):
            self[i] = x

    @classmethod
    def of(cls, by_line: list) -> "DenseLines":
        """The lines of ``by_line`` (line i's findings at i, None where it has none; kept, not copied)."""
        got = cls()
        got._v, got._len = by_line, len(by_line) - by_line.count(None)
        return got

    def __getitem__(self, i: int) -> Any:
        v = self._v
        if 0 <= i < len(v):
            x = v[i]
            if x is not None:
                return x
        raise KeyError(i)

    def reader(self) -> Callable[[int], Any]:
        """Line i -> its findings, or None, for a line below the last held (a C-level
        reader: ``map`` over many lines without a Python call each)."""
        return self._v.__getitem__

    def get(self, i: int, default: Any = None) -> Any:
        v = self._v
        if 0 <= i < len(v):
            x = v[i]
            if x is not None:
                return x
        return default

    def __contains__(self, i: object) -> bool:
        return isinstance(i, int) and 0 <= i < len(self._v) and self._v[i] is not None

    def __setitem__(self, i: int, x: Any) -> None:
        if i < 0 or x is None:
            raise KeyError(i)
        v = self._v
        if i >= len(v):
            v.extend([None] * (i + 1 - len(v)))
        if v[i] is None:
            self._len += 1
        v[i] = x

    def __delitem__(self, i: int) -> None:
        v = self._v
        if not 0 <= i < len(v) or v[i] is None:
            raise KeyError(i)
        v[i] = None
        self._len -= 1

    def pop(self, i: int, *default: Any) -> Any:
        x = self.get(i)
        if x is None:
            if default:
                return default[0]
            raise KeyError(i)
        self._v[i] = None
        self._len -= 1
        return x

    def __iter__(self) -> Iterator[int]:
        return compress(count(), map(is_not, self._v, repeat(None)))

    def __len__(self) -> int:
        return self._len

    def items(self) -> Iterator[tuple[int, Any]]:  # type: ignore[override]
        return ((i, x) for i, x in enumerate(self._v) if x is not None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (dict, DenseLines)):
            return len(self) == len(other) and all(other.get(i) == x for i, x in self.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"DenseLines({dict(self.items())!r})"


#: what a holder of findings by line is (a rule's, the store's): a dict, or a list by line
Lines = Union[dict, DenseLines]


#: documents from this many lines keep findings on most of their lines as :class:`DenseLines`
DENSE_FROM = 1024


def dense_if_most(lines: Lines, n: int) -> Lines:
    """``lines`` as :class:`DenseLines` when it holds more than a quarter of ``n`` lines
    (the memory of a list by line is then the smaller), else as it is."""
    if isinstance(lines, dict) and n >= DENSE_FROM and len(lines) * 4 > n:
        return DenseLines(lines)
    return lines
