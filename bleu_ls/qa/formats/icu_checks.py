"""ICU MessageFormat in a file's segments: the target of a segment whose source is an ICU
message (a plural, a select or a typed argument: Angular's ``{VAR_PLURAL, plural, …}`` in
XLIFF, ARB and FormatJS strings) checked as one (:func:`bleu_ls.qa.text.icu.check_message`):

==========================  ===========  ==============================================
code                        default      what
==========================  ===========  ==============================================
``icu-syntax``              error        the target is not a well-formed message
``icu-arguments``           error        an argument of the source missing, or one it has not
``plural-categories``       warning      a plural's forms against the language's CLDR categories
==========================  ===========  ==============================================

A source with plain ``{name}`` arguments only is not taken for ICU (prose may hold
braces); a source that is not itself well-formed is not checked.  The findings sit on
the target's characters in the file.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from ...formats.model import Segment
from ..findings import Finding
from ..text.icu import Message, check_message, parse

#: the codes, as the rule table names them
CODES = ("icu-syntax", "icu-arguments", "plural-categories")


@lru_cache(maxsize=4096)
def _source(text: str) -> Optional[Message]:
    """The source read as ICU, when it is a well-formed message with a typed argument."""
    m = parse(text)
    return m if m.problem is None and any(a.type for a in m.arguments) else None


def check_icu(seg: Segment, language: Optional[str], given: dict) -> list[Finding]:
    """The ICU findings of ``seg`` (spans in the file), each code as ``given`` sets its severity
    (a code not in it is off)."""
    if not any(c in given for c in CODES):
        return []
    src = seg.source
    if not src or "{" not in src or "," not in src or not seg.target:
        return []
    message = _source(src)
    if message is None:
        return []
    out = []
    n = len(seg.target)
    for f in check_message(src, seg.target, language, message):
        sev = given.get(f.code)
        if sev is None:
            continue
        a = seg.file_offset(min(f.start_col, n))
        b = seg.file_offset(min(f.end_col if f.end_col is not None else n, n))
        out.append(Finding(f.code, sev, f.message, (a, max(a, b)), data=f.data))
    return out
