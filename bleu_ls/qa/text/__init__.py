"""Line checks that read the text: pure functions, no editor, no engine state.

Each family lives in its own module and takes the source line, the
hypothesis line and (where it helps) the reference lines, and returns a
:class:`~bleu_ls.qa.findings.Finding` (made by :func:`finding`: its code, a
sentence, its columns, its data) or ``None``.  The diagnostics rules give it
the line and the user's severity; the checks themselves know nothing about
severities or settings objects.

Modules: :mod:`.numbers` (digits lost or changed), :mod:`.markup`
(placeholders, inline tags, URLs, e-mail addresses), :mod:`.punctuation`
(unbalanced brackets and quotes, end punctuation), :mod:`.language` (wrong
target language), :mod:`.alignment` (stretches shifted against the
reference), :mod:`.repetition` (looping output), :mod:`.length` (the wording
of the length check) and :mod:`.qe` (reference-free adequacy, optional).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..findings import NO_DATA, Finding

__all__ = ["Finding", "finding", "has_letter", "load_optional", "quoted"]


def finding(code: str, message: str, start: int = 0, end: Optional[int] = None,
            data: Optional[dict] = None) -> Finding:
    """What a check found on one line: its code (a row of the rule table), a sentence, the
    columns it covers (code points; ``end`` None = to the end of the line) and
    machine-readable details for the diagnostic's ``data``.  No severity yet (the rule
    gives the user's) and no line (the rule knows it)."""
    return Finding(code, "", message, start_col=start, end_col=end, data=NO_DATA if data is None else data)


def has_letter(text: str) -> bool:
    """Does ``text`` contain a letter of any script?"""
    return any(ch.isalpha() for ch in text)


def quoted(text: str, limit: int = 40) -> str:
    """``text`` in curly quotes, shortened with an ellipsis past ``limit``."""
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return f"\u201c{text}\u201d"


def load_optional(loader: Callable[[], Any], missing: str, broken: str) -> tuple[Any, Optional[str]]:
    """(what ``loader`` returns, None), or (None, the one sentence to show)
    when a package is missing (``missing``) or fails to load (``broken``,
    followed by the reason): an optional model never raises into a check."""
    try:
        return loader(), None
    except ImportError:
        return None, missing
    except Exception as exc:  # a broken install: say so once, check nothing
        return None, f"{broken} ({exc})"
