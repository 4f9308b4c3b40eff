"""What edit fixes a finding: the quick fixes of the checks, in the target's own columns.

:func:`fixes` takes a finding's code and ``data``, the target text it was found in and
its source, and returns the edits that fix it as (start, end, new text) in code points of
the target (the scored text: a segment's ``target``, a line file's line), never in a
file's offsets and with no LSP type: the server turns them into edits of the open
document (``server/segdocs/actions.py`` for segment files, ``server/pairs/answers.py``
for line files), writes the new text as the file's format spells it (:func:`po_string`,
:func:`xml_text`) and refuses a fix whose span the file does not spell as the text.

=========================  ====================================================================
code                       the fix
=========================  ====================================================================
``whitespace-leading``     the target's leading white space set to the source's (``data["edits"]``)
``whitespace-trailing``    the target's trailing white space set to the source's (``data["edits"]``)
``double-space``           each run of spaces inside the target made one space (``data["edits"]``)
``end-punctuation``        the target's final marks set to the source's (before closing quotes
                           and brackets); none in the source: the target's removed
``placeholders-missing``   each missing placeholder (``data["missing"]``) inserted where the
                           source's neighbour of it stands in the target, else at the end
``codes-missing``          each missing standalone inline code of XLIFF / TMX (``data["codes"]``: the
                           source's element) inserted the same way, as the file's markup
``markup-mismatch``        each lost placeholder / tag / URL (``data["lost"]``) the same way; only
                           where nothing was added (a changed placeholder is the translator's call)
``number-mismatch``        where exactly one source number is missing and one other number added:
                           the added one replaced by the source's, as the source writes it
``doubled-word``           the second word with its white space removed (``data["remove"]``)
``term-forbidden`` …       the glossary's term in place of the finding's (``terms.index.replacements``)
=========================  ====================================================================

Each fix is checked after the fact where a pure check says so (the end punctuation is read
again; a number is replaced only where the target has it once); a fix that cannot be made
is not offered (an empty list).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple, Optional

from .terms.index import FIXABLE as TERM_CODES
from .terms.index import replacements
from .text.numbers import find_numbers
from .text.punctuation import end_mark, end_mark_at

#: an edit of the target: [start, end) in code points and the text put there
Edit = tuple[int, int, str]


class Fix(NamedTuple):
    """One way to fix a finding: a title for the editor's menu and the target's edits
    (in order, not overlapping)."""

    title: str
    edits: tuple[Edit, ...]
    preferred: bool = True
    #: the new texts are the file's own markup (an inline code copied from the source), written as
    #: they are; else plain text, written with the format's escapes
    markup: bool = False


#: the codes that may have a fix (a finding of one has none where its data or text do not allow it)
FIXABLE: frozenset[str] = frozenset({
    "whitespace-leading", "whitespace-trailing", "double-space", "end-punctuation", "placeholders-missing", "codes-missing",
    "markup-mismatch", "number-mismatch", "doubled-word", *TERM_CODES,
})

_TITLES = {
    "whitespace-leading": "Start with the source's white space",
    "whitespace-trailing": "End with the source's white space",
    "double-space": "Remove the double spaces",
}


def fixes(code: str, data: Optional[Mapping[str, Any]], target: str, source: Optional[str],
          at: Optional[tuple[int, int]] = None) -> list[Fix]:
    """The fixes of a finding of ``code`` with ``data`` in ``target`` (``at``: the finding's
    columns in the target, which a glossary term's fix needs); [] when none is safe."""
    if code not in FIXABLE or not isinstance(data, Mapping):
        return []
    if code in _TITLES:
        edits = _given_edits(data.get("edits"), len(target))
        return [Fix(_TITLES[code], edits)] if edits else []
    if code == "doubled-word":
        got = _given_edits([[*data.get("remove", ()), ""]] if isinstance(data.get("remove"), (list, tuple)) else None,
                           len(target))
        if not got:
            return []
        word = target[got[0][0]:got[0][1]].strip()
        return [Fix(f"Remove the doubled “{word}”", got)]
    if code == "end-punctuation":
        return _end_punctuation(target, source)
    if code == "number-mismatch":
        return _number(data, target)
    if code == "placeholders-missing":
        missing = data.get("missing")
        return _insert(missing, target, source) if isinstance(missing, list) else []
    if code == "codes-missing":
        return _codes(data.get("codes"), target, source)
    if code == "markup-mismatch":
        lost, added = data.get("lost"), data.get("added")
        if not isinstance(lost, list) or added:
            return []
        return _insert(lost, target, source)
    # a glossary term: its replacements at the finding's columns (what the target writes there)
    if at is None or not 0 <= at[0] < at[1] <= len(target):
        return []
    written = target[at[0]:at[1]]
    return [Fix(f"Replace with “{new}” (glossary)", ((at[0], at[1], new),), k == 0)
            for k, new in enumerate(replacements(code, dict(data))) if new != written]


def _given_edits(raw: Any, n: int) -> tuple[Edit, ...]:
    """Edits a check put in a finding's data ([[start, end, text], …]), checked: in order, inside the target."""
    if not isinstance(raw, (list, tuple)) or not raw:
        return ()
    out: list[Edit] = []
    last = 0
    for e in raw:
        if (not isinstance(e, (list, tuple)) or len(e) != 3 or not all(isinstance(x, int) for x in e[:2])
                or not isinstance(e[2], str)):
            return ()
        a, b, t = e
        if not last <= a <= b <= n:
            return ()
        out.append((a, b, t))
        last = b
    return tuple(out)


def _end_punctuation(target: str, source: Optional[str]) -> list[Fix]:
    if not source or not target.strip():
        return []
    s0, s1 = end_mark_at(source)
    t0, t1 = end_mark_at(target)
    want = source[s0:s1]
    if target[t0:t1] == want:
        return []
    fixed = target[:t0] + want + target[t1:]
    if end_mark(fixed) != end_mark(source):
        return []
    title = f"End with “{want}” as the source does" if want else "Remove the end punctuation (the source has none)"
    return [Fix(title, ((t0, t1, want),))]


def _number(data: Mapping[str, Any], target: str) -> list[Fix]:
    missing, added = data.get("missing"), data.get("added")
    if not isinstance(missing, list) or not isinstance(added, list) or len(missing) != 1 or len(added) != 1:
        return []
    want, got = missing[0], added[0]
    if not isinstance(want, str) or not isinstance(got, str):
        return []
    where = [n for n in find_numbers(target) if n[0] == got]
    if len(where) != 1:
        return []  # the target writes it twice (or not as found): which one is not known
    _text, a, b = where[0][:3]
    return [Fix(f"Replace {got} with {want} (the source's number)", ((a, b, want),))]


#: a token next to a placeholder in the source: a run of anything but white space
_LEFT = re.compile(r"(\S+)(\s*)$")
_RIGHT = re.compile(r"^(\s*)(\S+)")


def _insert(items: list, target: str, source: Optional[str]) -> list[Fix]:
    """Each item inserted where the source's neighbour of it (the token before it, else the one after
    it) stands once in the target, with the source's white space between them; else at the end of
    the target, before its end punctuation."""
    items = [x for x in items if isinstance(x, str) and x]
    if not items:
        return []
    edits: list[Edit] = []
    for item in dict.fromkeys(items):
        at = _aligned(item, target, source)
        if at is None:
            t0 = end_mark_at(target)[0]
            before = target[:t0]
            space = " " if before and not before[-1].isspace() else ""
            at = (t0, space + item)
        edits.append((at[0], at[0], at[1]))
    edits.sort(key=lambda e: e[0])
    if len({e[0] for e in edits}) != len(edits):  # two at one place: one edit, in the source's order
        merged: dict[int, str] = {}
        for a, _b, t in edits:
            merged[a] = merged.get(a, "") + t
        edits = [(a, a, t) for a, t in sorted(merged.items())]
    names = ", ".join(dict.fromkeys(items))
    return [Fix(f"Insert {names} as in the source", tuple(edits))]


#: stands for an inline code in the source's text while its place is looked for (a private-use character)
_MARK = "\ue000"


def _codes(codes: Any, target: str, source: Optional[str]) -> list[Fix]:
    """Each missing standalone inline code (``data["codes"]``: its element as the source writes it, and
    where it stands in the source's text) inserted as :func:`_insert` places a placeholder."""
    if not isinstance(codes, list) or not codes or _MARK in target:
        return []
    edits: list[Edit] = []
    for c in codes:
        markup, p = (c.get("markup"), c.get("at")) if isinstance(c, Mapping) else (None, None)
        if not isinstance(markup, str) or not markup.startswith("<"):
            return []
        marked = source[:p] + _MARK + source[p:] if isinstance(p, int) and source and 0 <= p <= len(source) else None
        got = _insert([_MARK], target, marked)
        if not got:
            return []
        edits += [(a, b, t.replace(_MARK, markup)) for a, b, t in got[0].edits]
    edits.sort(key=lambda e: e[0])
    if len({e[0] for e in edits}) != len(edits):
        return []
    ids = ", ".join(str(c.get("id", "")) for c in codes)
    return [Fix(f"Insert the source's inline code {ids}", tuple(edits), markup=True)]


def _aligned(item: str, target: str, source: Optional[str]) -> Optional[tuple[int, str]]:
    if not source:
        return None
    p = source.find(item)
    if p < 0:
        return None
    left, right = _LEFT.search(source, 0, p), _RIGHT.match(source[p + len(item):])
    space_before = left.group(2) if left is not None else source[:p][len(source[:p].rstrip()):]
    space_after = right.group(1) if right is not None else ""
    if left is not None and item not in left.group(1) and target.count(left.group(1)) == 1:
        end = target.index(left.group(1)) + len(left.group(1))
        after = space_after if end < len(target) and not target[end].isspace() else ""
        return end, space_before + item + after
    if right is not None and item not in right.group(2) and target.count(right.group(2)) == 1:
        start = target.index(right.group(2))
        before = space_before if start > 0 and not target[start - 1].isspace() else ""
        return start, before + item + space_after
    return None


def disjoint(edits: list[tuple[int, int, str]]) -> bool:
    """Do ``edits`` ([x, y) → text, in one text) touch no common character, and does none insert at
    the place where another starts or ends (one fix of a whole file takes only edits that are)?"""
    last: Optional[tuple[int, int, str]] = None
    for e in sorted(edits):
        if last is not None and (e[0] < last[1] or (e[0] == last[1] and (e[0] == e[1] or last[0] == last[1]))):
            return False
        last = e
    return True


# -- writing a fix's text into a file -------------------------------------------------------

_PO_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def po_string(text: str) -> Optional[str]:
    """``text`` as it is written inside a PO string (C escapes: ``\\``, ``"``, line breaks, tabs);
    None where it has another control character."""
    if any(ord(c) < 32 and c not in _PO_ESCAPES for c in text):
        return None
    return "".join(_PO_ESCAPES.get(c, c) for c in text)


def xml_text(text: str) -> Optional[str]:
    """``text`` as XML character data (``&``, ``<``, ``>`` escaped); None where it has a
    control character XML 1.0 forbids."""
    if any(ord(c) < 32 and c not in "\t\n\r" for c in text):
        return None
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain_line(text: str) -> Optional[str]:
    """``text`` in a file of lines or cues: as it is; None where it has a line break (it would make
    another line, or end a cue)."""
    return None if "\n" in text or "\r" in text else text
