"""The ``length-limit`` verdicts: a target over a limit its file declares, or much longer than its source.

Two kinds of limit, one sentence each:

* **declared** (:func:`over_limit`): a limit the file states for a unit — XLIFF 1.2
  ``maxwidth`` with ``size-unit="char"`` or ``"byte"``, ``maxbytes``; XLIFF 2
  ``slr:sizeRestriction`` / ``slr:storageRestriction`` under a standard profile.  The XLIFF
  reader puts them in the segment's facts (``extra["limits"]``, :class:`Limit` tuples); the
  XML checks judge them.  The target's length is counted in the limit's unit (:func:`measure`).
* **a ratio to the source** (:func:`over_ratio`, ``diagnostics.length-limit.maxRatio``, off
  by default): a target longer than ``maxRatio`` × its source, in characters, a source
  shorter than :data:`SMALL_SOURCE` counted as that many (a two-letter "OK" may well become
  a nine-letter word: the ratio of so short a text says nothing).  The rule table's line
  rule judges it, on every file with a source (line files, PO, XLIFF, TMX).

What is counted is the target's text as bleu-ls scores it: entities and character
references decoded, inline codes left out (the text inside paired codes kept: it is
shown), a line break one character.  A standalone code (``<x/>``, ``<ph/>``) counts
nothing: what it stands for at run time is not in the file.

Plain functions of texts and numbers, no settings object.
"""

from __future__ import annotations

import codecs
import unicodedata
from typing import NamedTuple, Optional

from ...formats.xml_facts import BYTES, CHARS, Limit
from . import Finding, finding

__all__ = ["BYTES", "CHARS", "CODE", "SMALL_SOURCE", "Limit", "Verdict", "line_finding", "measure", "over_limit",
           "over_ratio", "verdicts"]

CODE = "length-limit"

#: a source shorter than this many characters is compared as if it had this many
SMALL_SOURCE = 10


class Verdict(NamedTuple):
    """A target over its limit: its length, the limit, the sentence and the diagnostic's data."""

    length: int
    limit: int
    message: str
    data: dict


def _codec(encoding: str) -> Optional[str]:
    """The codec counting ``encoding``'s bytes without a byte order mark (None: unknown)."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    return {"utf-16": "utf-16-le", "utf-32": "utf-32-le"}.get(name, name)


def measure(text: str, limit: Limit) -> Optional[int]:
    """``text``'s length in the limit's unit (None: its encoding is unknown).  Characters are
    Unicode code points (after the limit's normalisation, if any); bytes are counted as the
    file stores the text, a character the encoding cannot hold as its character reference
    (``&#NNNN;``), as an XML writer spells it."""
    if limit.unit == CHARS:
        if limit.normalization in ("NFC", "NFD"):
            text = unicodedata.normalize("NFC" if limit.normalization == "NFC" else "NFD", text)
        return len(text)
    codec = _codec(limit.encoding)
    if codec is None:
        return None
    return len(text.encode(codec, errors="xmlcharrefreplace"))


def _count(n: int, unit: str) -> str:
    return f"{n} {unit[:-1] if n == 1 else unit}"


def over_limit(target: str, limit: Limit) -> Optional[Verdict]:
    """The verdict of one declared limit on ``target``: None when it fits (or cannot be counted)."""
    n = measure(target, limit)
    if n is None or n <= limit.maximum:
        return None
    if limit.unit == CHARS:
        length = _count(n, "characters")
    else:
        length = f"{_count(n, 'bytes')} in {limit.encoding.upper()}"
    msg = f"The target is {length}, the limit is {limit.maximum} ({limit.name})."
    return Verdict(n, limit.maximum, msg, {"length": n, "limit": limit.maximum, "unit": limit.unit, "by": limit.name})


def over_ratio(target: str, source: str, max_ratio: float) -> Optional[Verdict]:
    """The verdict of ``maxRatio`` on ``target`` against ``source`` (characters, white space at
    either end left out; a source under :data:`SMALL_SOURCE` characters counts as that many):
    None when it fits, or when the source is empty (nothing to compare with)."""
    s = len(source.strip())
    if not s:
        return None
    t = len(target.strip())
    base = max(s, SMALL_SOURCE)
    if t <= max_ratio * base:
        return None
    allowed = int(max_ratio * base)  # the longest whole length that fits
    floor = f" (counted as {SMALL_SOURCE})" if s < SMALL_SOURCE else ""
    msg = (f"The target is {_count(t, 'characters')}, the limit is {allowed} "
           f"(maxRatio {max_ratio:g} × the source's {s}{floor}).")
    return Verdict(t, allowed, msg, {"length": t, "limit": allowed, "unit": CHARS, "by": "maxRatio",
                                     "sourceLength": s, "maxRatio": max_ratio})


def verdicts(target: str, limits: tuple[Limit, ...]) -> list[Verdict]:
    """Every declared limit ``target`` is over, in the file's order."""
    return [v for v in (over_limit(target, lim) for lim in limits) if v is not None]


def line_finding(target: str, source: str, max_ratio: float) -> Optional[Finding]:
    """A line's ``length-limit`` issue under ``maxRatio`` (the whole line its columns), or None."""
    v = over_ratio(target, source, max_ratio)
    return None if v is None else finding(CODE, v.message, 0, None, v.data)
