"""What changed in a PO entry's source since it was translated.

``msgmerge`` marks an entry whose msgid changed as ``#, fuzzy`` and keeps the
msgid (and msgctxt, msgid_plural) it was translated from in ``#|`` comments;
the PO reader hands them over as the segment's ``previous_msgid``,
``previous_msgctxt`` and ``previous_msgid_plural`` facts.  :func:`source_changes`
compares each with the entry's current one, word by word, with the word diff
of the draft (:func:`~.diff.word_diff`: "=" kept, "-" removed, "+" added).
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Optional

from .diff import word_diff

#: the fields compared, in the order they are shown
FIELDS = ("msgctxt", "msgid", "msgid_plural")


class SourceChange(NamedTuple):
    #: ``msgctxt``, ``msgid`` or ``msgid_plural``
    field: str
    #: the text it was translated from ("" where there was none)
    previous: str
    #: the text now ("" where there is none)
    current: str
    #: the word diff from ``previous`` to ``current``: (op, text) runs, op "=", "-" or "+"
    diff: list[tuple[str, str]]


def source_changes(extra: Mapping[str, object]) -> list[SourceChange]:
    """The fields of an entry whose ``#|`` previous value differs from the current one
    (``extra``: a PO segment's facts).  Nothing when the entry has no ``#|`` msgid, msgctxt
    or msgid_plural: an entry without them says nothing of its previous source (a context
    or plural absent then and present now is a change)."""
    if not any(f"previous_{name}" in extra for name in FIELDS):
        return []
    out = []
    for name in FIELDS:
        before, now = _text(extra.get(f"previous_{name}")), _text(extra.get(name))
        if name == "msgid" and f"previous_{name}" not in extra:
            continue  # (only a context or plural was kept: the msgid is not known to have changed)
        if before != now:
            out.append(SourceChange(name, before, now, word_diff(before, now)))
    return out


def _text(value: Optional[object]) -> str:
    return value if isinstance(value, str) else ""
