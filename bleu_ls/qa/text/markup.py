"""Placeholders, inline tags, URLs and e-mail addresses lost or added.

Things a translation must carry over unchanged: format placeholders
(``{0}``, ``{name}``, ``{{name}}``, ``${name}``, ``%s``, ``%1$d``,
``%(name)s``), inline tags (``<b>``, ``</b>``, ``<br/>``, ``<x id="1"/>``),
URLs and e-mail addresses.  Each is compared as written, as a multiset: the
source's ``<b>`` twice and the line's once is one tag lost.  A difference
that the reference shares is forgiven (the reference drops the same tag).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Optional, Sequence

from . import Finding, finding

_PATTERNS = (
    ("placeholder", r"\{\{\s*[\w.\-]+\s*\}\}"),
    ("placeholder", r"\$\{[\w.\-]+\}"),
    ("placeholder", r"\{\d+(?:,[^{}]*)?\}|\{[A-Za-z_][\w.]*\}"),
    ("placeholder", r"%(?:\d+\$)?[-+#0]*\d*(?:\.\d+)?[sdifgeExXcu@](?![A-Za-z])|%\([\w]+\)[sdif]"),
    ("tag", r"</?[A-Za-z][\w:\-]*(?:\s+[\w:\-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*\s*/?>"),
    ("URL", r"\b(?:https?|ftp)://[^\s<>\"']+|\bwww\.[^\s<>\"']+"),
    ("e-mail address", r"\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\b"),
)
_RE = re.compile("|".join(f"(?P<g{i}>{p})" for i, (_kind, p) in enumerate(_PATTERNS)))
#: every pattern needs one of these
_MAYBE_RE = re.compile(r"[{%<@]|://|www\.")
_TRAILING = ".,;:!?)]}\u2019\u201d\u00bb"


def find_markup(text: str) -> list[tuple[str, str, int, int]]:
    """(kind, as written, start, end) for each placeholder, tag, URL or address."""
    out: list[tuple[str, str, int, int]] = []
    if not _MAYBE_RE.search(text):
        return out
    for m in _RE.finditer(text):
        assert m.lastgroup is not None  # every alternative is a named group
        kind = _PATTERNS[int(m.lastgroup[1:])][0]
        value, end = m.group(), m.end()
        if kind == "URL":  # a sentence's full stop is not part of the address
            stripped = value.rstrip(_TRAILING)
            end -= len(value) - len(stripped)
            value = stripped
        out.append((kind, value, m.start(), end))
    return out


def check_markup(source: str, hypothesis: str, references: Sequence[str] = ()) -> Optional[Finding]:
    """An issue when the line loses or adds a placeholder, tag, URL or address."""
    src = find_markup(source)
    hyp = find_markup(hypothesis)
    if not src and not hyp:
        return None
    want = Counter((k, v) for k, v, _s, _e in src)
    have = Counter((k, v) for k, v, _s, _e in hyp)
    lost = want - have
    added = have - want
    if references and (lost or added):
        refs = [Counter((k, v) for k, v, _s, _e in find_markup(r)) for r in references]
        # forgiven when a reference differs from the source the same way
        lost = Counter({key: n for key, n in lost.items() if all(want[key] - r[key] < n for r in refs)})
        added = Counter({key: n for key, n in added.items() if all(r[key] - want[key] < n for r in refs)})
    if not lost and not added:
        return None
    parts = []
    if lost:
        parts.append("lost " + _listing(lost))
    if added:
        parts.append("added " + _listing(added))
    data = {"lost": sorted(v for (_k, v) in lost.elements()), "added": sorted(v for (_k, v) in added.elements())}
    start, end = 0, None
    if added and not lost:
        first = next(x for x in hyp if (x[0], x[1]) in added)
        start, end = first[2], first[3]
    return finding("markup-mismatch", "Compared with the source, this line has " + " and ".join(parts) + ".", start, end, data)


def _listing(items: Counter) -> str:
    words = []
    for (kind, value), n in list(items.items())[:4]:
        words.append(f"{kind} {value}" + (f" ({n}\u00d7)" if n > 1 else ""))
    more = sum(items.values()) - sum(n for _k, n in list(items.items())[:4])
    return ", ".join(words) + (f" and {more} more" if more > 0 else "")
