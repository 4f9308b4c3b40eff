"""Unbalanced brackets and quotes; end punctuation differing from the source.

Brackets are counted per pair ((), [], {}, and the full-width and CJK
corner brackets); a line is unbalanced when a pair's opening and closing
counts differ while the source's agree.  Double quotes are counted
together (straight and typographic, German „…“ and French «…» alike,
CJK 「」『』): an odd count where the source's is even is one quote
missing.  Apostrophes and single quotes are left alone (they double as
apostrophes).

End punctuation is the sentence's last mark after closing quotes and
brackets, as a class: full stop (. 。 । ۔), question (? ？ ؟ ;), exclamation
(! ！), colon, ellipsis (… or ...), or none.  A line whose class differs
from the source's is flagged unless the reference ends the same way as the
line.
"""

from __future__ import annotations

import re

from typing import Optional, Sequence

from . import Finding, finding

_PAIRS = ("()", "[]", "{}", "\uff08\uff09", "\u3010\u3011", "\u300c\u300d", "\u300e\u300f", "\u300a\u300b", "\u3008\u3009")
_QUOTES = '"\u201c\u201d\u201e\u00ab\u00bb\u201f\u2033'
#: any bracket or double quote: lines without one are skipped at C speed
_BRACKET_RE = re.compile("[" + re.escape("".join(_PAIRS) + _QUOTES) + "]")
_CLOSERS = "\"'\u2019\u201d\u201c\u00bb\u00ab)]}\uff09\u3011\u300d\u300f\u300b\u3009 \t*_"
_END = {
    ".": "full stop", "\u3002": "full stop", "\u0964": "full stop", "\u06d4": "full stop", "\uff0e": "full stop",
    "?": "question mark", "\uff1f": "question mark", "\u061f": "question mark", "\u037e": "question mark",
    "!": "exclamation mark", "\uff01": "exclamation mark",
    ":": "colon", "\uff1a": "colon",
    ";": "semicolon", "\uff1b": "semicolon",
    "\u2026": "ellipsis",
}


def bracket_balance(text: str) -> dict[str, int]:
    """Opening minus closing count per bracket pair (pairs absent are left out),
    and for ``"`` the number of double quotes modulo 2."""
    out: dict[str, int] = {}
    if _BRACKET_RE.search(text) is None:
        return out
    for pair in _PAIRS:
        opened, closed = text.count(pair[0]), text.count(pair[1])
        if opened or closed:
            out[pair] = opened - closed
    quotes = sum(text.count(q) for q in _QUOTES)
    if quotes:
        out['"'] = quotes % 2
    return out


def check_brackets(source: str, hypothesis: str, references: Sequence[str] = ()) -> Optional[Finding]:
    """An issue when a bracket pair or the double quotes are unbalanced in the
    line but balanced in the source (and in the reference, when there is one)."""
    got = bracket_balance(hypothesis)
    bad = [k for k, v in got.items() if v]
    if not bad:
        return None
    src = bracket_balance(source)
    bad = [k for k in bad if not src.get(k, 0)]
    if references:
        bad = [k for k in bad if all(not bracket_balance(r).get(k, 0) for r in references)]
    if not bad:
        return None
    words = []
    for k in bad:
        if k == '"':
            words.append("an odd number of double quotes")
        else:
            n = got[k]
            words.append(f"{abs(n)} unclosed {k[0]}" if n > 0 else f"{abs(n)} {k[1]} without its {k[0]}")
    return finding(
        "unbalanced",
        "Unbalanced here, balanced in the source: " + ", ".join(words) + ".",
        0,
        None,
        {"unbalanced": bad},
    )


def end_mark(text: str) -> Optional[str]:
    """The class of the sentence's final mark, or None when it ends in none."""
    t = text.rstrip(_CLOSERS)
    if not t:
        return None
    if t.endswith("..."):
        return "ellipsis"
    return _END.get(t[-1])


def end_mark_at(text: str) -> tuple[int, int]:
    """[start, end) of the run of end marks a sentence ends with, before its closing quotes and
    brackets (``"Really?!"``: the ``?!``; ``Wait...``: the ``...``); start == end where it ends
    in none: the place after its last other character (before the closers)."""
    t = text.rstrip(_CLOSERS)
    end = start = len(t)
    while start > 0 and (t[start - 1] in _END or t[start - 1] == "."):
        start -= 1
    return start, end


def check_end_punctuation(source: str, hypothesis: str, references: Sequence[str] = ()) -> Optional[Finding]:
    """An issue when the line ends with a different mark (or none) than the source."""
    if not hypothesis.strip() or not source.strip():
        return None
    want, got = end_mark(source), end_mark(hypothesis)
    if want == got:
        return None
    if any(end_mark(r) == got for r in references):
        return None
    src_word, hyp_word = _mark_words(want), _mark_words(got)
    return finding(
        "end-punctuation",
        f"The source ends with {src_word}, this line with {hyp_word}.",
        0,
        None,
        {"source": want, "line": got},
    )


def _mark_words(mark: Optional[str]) -> str:
    if mark is None:
        return "no end punctuation"
    return ("an " if mark[0] in "aeiou" else "a ") + mark
