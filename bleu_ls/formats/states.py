"""A segment's workflow state: does it need review, and the edits that change it.

* :func:`needs_review` — the segments "next segment that needs review" walks:
  PO ``fuzzy``; XLIFF 1.2 ``state`` ``new``, ``needs-translation`` or
  ``needs-review-*``, or a machine-translated target (``state-qualifier``
  ``mt-suggestion`` / ``leveraged-mt``) not yet ``translated``, ``signed-off``
  or ``final``; XLIFF 2 ``state="initial"``, or a ``subState`` naming machine
  translation on a segment not yet ``translated``, ``reviewed`` or ``final``.
  A segment whose file carries no state needs none.
* :func:`state_edits` — the text edits (``(start, end, new text)``, offsets of
  the text the segment was read from, not overlapping) of the code actions
  "Mark as translated" / "Mark as final" (XLIFF: :func:`.xliff.state_edit`)
  and "Remove fuzzy" (PO: ``fuzzy`` dropped from the ``#,`` flags, the line
  deleted when it was the only flag, and the ``#|`` previous-string lines
  deleted, as PO editors do).

Plain Python; imports nothing from the server.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Union

from . import table
from .model import Segment
from .xliff import state_edit
from .xliff1 import MT_QUALIFIERS

if TYPE_CHECKING:
    from .live.text import ChunkText  # the live index's text, edited in place

#: XLIFF 1.2 states that ask for work
_X1_REVIEW = frozenset({"new", "needs-translation"})
_X1_DONE = frozenset({"translated", "signed-off", "final"})
_X2_DONE = frozenset({"translated", "reviewed", "final"})
#: an XLIFF 2 subState (``prefix:value``) naming machine translation
_MT_SUBSTATE = re.compile(r"(?i)(?:^|[:_\-.])(?:[ns]?mt|machine[-_ ]?translat\w*)(?:$|[:_\-.])")

#: code action ids (each format's row names those its segments may offer: ``state_actions``)
MARK_TRANSLATED = table.MARK_TRANSLATED
MARK_FINAL = table.MARK_FINAL
REMOVE_FUZZY = table.REMOVE_FUZZY
TITLES = {MARK_TRANSLATED: "Mark as translated", MARK_FINAL: "Mark as final", REMOVE_FUZZY: "Remove fuzzy"}


def po_needs_review(seg: Segment) -> bool:
    return "fuzzy" in seg.flags


def xliff1_needs_review(seg: Segment) -> bool:
    state, qualifier = seg.state, seg.state_qualifier
    if state in _X1_REVIEW or (state or "").startswith("needs-review"):
        return True
    return qualifier in MT_QUALIFIERS and state not in _X1_DONE


def xliff2_needs_review(seg: Segment) -> bool:
    state, qualifier = seg.state, seg.state_qualifier
    if state == "initial":
        return True
    return bool(qualifier and _MT_SUBSTATE.search(qualifier)) and state not in _X2_DONE


def xcstrings_needs_review(seg: Segment) -> bool:
    """A String Catalog's unit marked for review, or new (not yet translated by a person)."""
    return seg.state in ("needs_review", "new")


def po_target_is_draft(seg: Segment) -> bool:
    """A fuzzy entry's target is the draft."""
    return "fuzzy" in seg.flags


def xliff1_target_is_draft(seg: Segment) -> bool:
    """An MT-qualified target equal to its draft is the draft."""
    return seg.state_qualifier in MT_QUALIFIERS and seg.draft == seg.target


def needs_review(fmt: str, seg: Segment) -> bool:
    """Whether ``seg`` needs review, as its format's row says (a format without states: never)."""
    check = table.row(fmt).needs_review
    return check is not None and bool(check(seg))


#: action -> whether it would change a segment (of a format whose row offers it)
_APPLIES = {
    REMOVE_FUZZY: lambda seg: "fuzzy" in seg.flags and bool(seg.extra.get("flag_lines")),
    MARK_TRANSLATED: lambda seg: bool(seg.extra.get("state_tag")) and seg.state != MARK_TRANSLATED,
    MARK_FINAL: lambda seg: bool(seg.extra.get("state_tag")) and seg.state != MARK_FINAL,
}


def actions(fmt: str, seg: Segment) -> list[str]:
    """The state actions that would change ``seg`` (none that leave it as it is)."""
    return [a for a in table.row(fmt).state_actions if _APPLIES[a](seg)]


def _line_end(text: Union[str, "ChunkText"], start: int) -> tuple[int, int]:
    """(end of the content, start of the next line) of the line starting at ``start``."""
    nl = text.find("\n", start)
    if nl < 0:
        return len(text), len(text)
    end = nl - 1 if nl > start and text[nl - 1] == "\r" else nl
    return end, nl + 1


def state_edits(text: Union[str, "ChunkText"], fmt: str, seg: Segment, action: str) -> Optional[list[tuple[int, int, str]]]:
    """The edits of ``action`` on ``seg`` (read from ``text``); None when it does not apply."""
    if action in (MARK_TRANSLATED, MARK_FINAL):
        if action not in table.row(fmt).state_actions:
            return None
        edit = state_edit(text, seg, action)
        return [edit] if edit is not None else None
    if action != REMOVE_FUZZY or action not in table.row(fmt).state_actions or "fuzzy" not in seg.flags:
        return None
    out: list[tuple[int, int, str]] = []
    for start in seg.extra.get("flag_lines", ()):  # type: ignore[attr-defined]
        end, after = _line_end(text, start)
        line = text[start:end]
        hash_at = line.find("#,")
        if hash_at < 0:
            return None  # the text is not the one the segment was read from
        flags = [f.strip() for f in line[hash_at + 2 :].split(",") if f.strip()]
        if "fuzzy" not in flags:
            continue
        rest = [f for f in flags if f != "fuzzy"]
        if rest:
            out.append((start + hash_at, end, "#, " + ", ".join(rest)))
        else:
            out.append((start, after, ""))
    for start in seg.extra.get("previous_lines", ()):  # type: ignore[attr-defined]
        _end, after = _line_end(text, start)
        out.append((start, after, ""))
    out.sort()
    return out or None
