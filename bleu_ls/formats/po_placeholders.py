"""Placeholders of a PO entry's format flag, parsed: which argument each takes, and its type.

printf (``c-format``, ``python-format``…: ``%s``, ``%2$d``, ``%(name)s``), Qt/KDE
(``%1``, ``%L1``) and brace (``{}``, ``{0}``, ``{name}``) placeholders, numbered
as their format numbers them, for :func:`~.po_checks.check_placeholders`.
Plain Python; imports only the PO reader's placeholder patterns.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Optional, cast

from .model import Segment
from .po import PLACEHOLDER_FLAGS

_PRINTF_PARTS = re.compile(r"%(?:(\d+)\$|\(([^)]*)\))?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                           r"(hh|h|ll|l|L|q|j|z|t|I64|I32|I)?([diouxXeEfFgGaAcCsSpn@])$")
QT_PARTS = re.compile(r"%(L?)(\d{1,2})$")
_BRACE_NAME = re.compile(r"\{([^!:}]*)")
#: printf conversions that take the same argument type (what msgfmt -c lets pass; ``%S``, ``%C``
#: take wide characters and are not ``%s``, ``%c``).
_CONV = {**dict.fromkeys("di", "d"), **dict.fromkeys("ouxX", "u"), **dict.fromkeys("eEfFgGaA", "f")}
_QT_FLAGS = frozenset(("qt-format", "qt-plural-format", "kde-format"))


@dataclasses.dataclass(frozen=True)
class Placeholder:
    text: str
    #: the argument it takes: ("pos", n) or ("name", name)
    arg: tuple
    #: the argument type ("" where the format does not type its arguments)
    kind: str
    #: an unnumbered printf directive (takes the next argument in order)
    sequential: bool
    span: Optional[tuple[int, int]] = None


def parse_placeholders(texts_spans: Iterable[tuple[str, Optional[tuple[int, int]]]], flags: frozenset) -> list[Placeholder]:
    """Placeholders in order, each with the argument it takes (numbered as the format numbers them)."""
    out = []
    seq_printf = 0
    seq_brace = 0
    qt = bool(flags & _QT_FLAGS)
    for text, span in texts_spans:
        if text.startswith("{"):
            m = _BRACE_NAME.match(text)
            name = m.group(1) if m else ""
            if name == "":
                out.append(Placeholder(text, ("pos", seq_brace), "", False, span))
                seq_brace += 1
            elif name.isdigit():
                out.append(Placeholder(text, ("pos", int(name)), "", False, span))
            else:
                out.append(Placeholder(text, ("name", name), "", False, span))
            continue
        m = QT_PARTS.match(text) if qt else None
        if m is not None:
            out.append(Placeholder(text, ("pos", int(m.group(2))), m.group(1), False, span))  # %L1 is not %1 to msgfmt
            continue
        m = _PRINTF_PARTS.match(text)
        if m is None:
            out.append(Placeholder(text, ("text", text), "", False, span))
            continue
        num, name, length, conv = m.groups()
        kind = (length or "") + _CONV.get(conv, conv)
        if num is not None:
            out.append(Placeholder(text, ("pos", int(num)), kind, False, span))
        elif name is not None:
            out.append(Placeholder(text, ("name", name), kind, False, span))
        else:
            seq_printf += 1
            out.append(Placeholder(text, ("pos", seq_printf), kind, True, span))
    return out


def find_placeholders(text: str, flags: frozenset) -> list[tuple[str, None]]:
    """The placeholders of a source string, as the PO reader finds them in a target."""
    found: dict[int, str] = {}
    for f in flags:
        pat = PLACEHOLDER_FLAGS.get(f)
        if pat is None:
            continue
        for m in pat.finditer(text):
            if m.group() in ("%%", "{{", "}}") or m.start() in found:
                continue
            found[m.start()] = m.group()
    return [(found[a], None) for a in sorted(found)]


def placeholders_own(seg: Segment, items: Iterable[str]) -> bool:
    """Whether every one of ``items`` (texts a generic markup check found lost or added) is a
    placeholder of the entry's format flag: then :func:`~.po_checks.check_placeholders` speaks of them, by the
    format's rules (so the generic check need not)."""
    flags = seg.flags
    if not any(f in PLACEHOLDER_FLAGS for f in flags):
        return False
    texts = {c.id for c in seg.target_codes} | {c.id for c in seg.source_codes}
    for name in ("msgid", "msgid_plural"):
        texts.update(t for t, _ in find_placeholders(cast(str, seg.extra.get(name) or ""), flags))
    items = list(items)
    return bool(items) and all(i in texts for i in items)
