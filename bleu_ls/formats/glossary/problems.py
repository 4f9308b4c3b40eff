"""What the glossary readers share: the problem sentences, whitespace, UTF-8 decoding.

Every problem is one sentence for the user that names the file (the path as
the caller gave it) and the place: ``PATH: line N[, column C]: what; what
follows``.  A fatal problem ends with "the glossary is not used"; a bad row
or term with "the row is skipped" / "the term is skipped".  A file says at
most :data:`MAX_SAID` skipped places one by one, then how many more.
"""

from __future__ import annotations

import codecs
import re
from typing import Optional

#: skipped rows or terms said one by one; the rest are counted in one sentence
MAX_SAID = 5

_WS = re.compile(r"[ \t\r\n]+")

NOT_USED = "the glossary is not used"


def clean(text: str) -> str:
    """A term as matched: stripped, inner runs of (XML) white space as one space.

    Inside, only runs of XML white space are joined: a no-break space inside a term is kept.
    """
    return _WS.sub(" ", text).strip()


def place(path: str, line: int = 0, column: int = 0) -> str:
    """``PATH: line N, column C: `` (the parts known)."""
    if line and column:
        return f"{path}: line {line}, column {column}: "
    if line:
        return f"{path}: line {line}: "
    return f"{path}: "


class Skips:
    """The skipped rows or terms of one file: the first :data:`MAX_SAID` said, the rest counted."""

    def __init__(self, path: str, unit: str):
        self.path = path
        self.unit = unit  # "row" | "term"
        self.said: list[str] = []
        self.more = 0

    def add(self, line: int, what: str) -> None:
        if len(self.said) < MAX_SAID:
            self.said.append(f"{place(self.path, line)}{what}; the {self.unit} is skipped")
        else:
            self.more += 1

    def sentences(self) -> list[str]:
        if not self.more:
            return list(self.said)
        s = "" if self.more == 1 else "s"
        return self.said + [f"{self.path}: and {self.more} more {self.unit}{s} skipped"]


def decode_utf8(data: bytes, path: str) -> tuple[Optional[str], Optional[str]]:
    """``(text, None)`` for UTF-8 bytes (a byte-order mark dropped), else ``(None, fatal sentence)``."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None, (f"{path}: the file is UTF-16 text (it starts with a UTF-16 byte-order mark), not UTF-8; "
                      f"save it as UTF-8; {NOT_USED}")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return None, (f"{place(path, line)}the file is not UTF-8 (byte 0x{data[e.start]:02x} at byte {col} "
                      f"of the line); save it as UTF-8; {NOT_USED}")
