"""Reading a glossary file: its kind, its bytes, the reader of its kind. Never raises.

:func:`read_glossary` reads a path, :func:`read_glossary_bytes` bytes already
read.  The kind comes from the extension — ``.tbx`` and ``.xml`` (TBX; an XML
file whose root is not ``<tbx>``/``<martif>`` is said so), ``.csv``,
``.tsv``, ``.txt`` — or, for any other name, from the first bytes: ``<``
(TBX), a tab on the first line (TSV), a comma (CSV), else a plain list.

Whatever the file, the answer is a :class:`~.model.Glossary`: a missing or
unreadable file, a directory, a file over :data:`MAX_BYTES`, an empty file,
malformed XML, an entity declaration, text that is not UTF-8 (CSV, TSV,
``.txt``; TBX follows its XML declaration), an unknown CSV column — each
gives no concepts and one sentence naming the file and the place.
"""

from __future__ import annotations

import codecs
import os
import stat
from typing import Optional

from ..xmlscan import decode_xml
from .model import Glossary
from .problems import NOT_USED, place
from .table import decode_table, read_list_text, read_table_text
from .tbx import read_tbx_text

#: a glossary larger than this is refused unread
MAX_BYTES = 50 * 1024 * 1024

TBX, CSV, TSV, TXT = "tbx", "csv", "tsv", "txt"
KINDS = (TBX, CSV, TSV, TXT)
_EXTENSIONS = {".tbx": TBX, ".xml": TBX, ".csv": CSV, ".tsv": TSV, ".txt": TXT}


def _fatal(path: str, sentence: str) -> Glossary:
    return Glossary(path, (), [], [sentence])


def _too_large(path: str, size: int) -> Glossary:
    return _fatal(path, f"{path}: the file is {size / (1024 * 1024):.1f} MB, over the "
                        f"{MAX_BYTES // (1024 * 1024)} MB limit for a glossary; it is not read; {NOT_USED}")


def read_glossary(path: str) -> Glossary:
    """The glossary at ``path`` (problems name the file as ``path`` is written)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return _fatal(path, f"{path}: the file does not exist; {NOT_USED}")
    except OSError as e:
        return _fatal(path, f"{path}: the file cannot be read ({e.strerror or e}); {NOT_USED}")
    if stat.S_ISDIR(st.st_mode):
        return _fatal(path, f"{path}: this is a directory, not a glossary file; {NOT_USED}")
    if not stat.S_ISREG(st.st_mode):
        return _fatal(path, f"{path}: this is not a regular file; {NOT_USED}")
    if st.st_size > MAX_BYTES:
        return _too_large(path, st.st_size)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        return _fatal(path, f"{path}: the file cannot be read ({e.strerror or e}); {NOT_USED}")
    return read_glossary_bytes(data, path)


def kind_of(path: str, data: bytes) -> str:
    """The kind of a glossary: by extension, else sniffed from its first bytes."""
    ext = os.path.splitext(path)[1].lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    head = data[:4096]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or head.startswith((b"<\0", b"\0<")):
        return TBX  # UTF-16 text: only XML declares how to read it
    if head.startswith(codecs.BOM_UTF8):
        head = head[3:]
    stripped = head.lstrip()
    if stripped.startswith(b"<"):
        return TBX
    first = stripped.split(b"\n", 1)[0]
    if b"\t" in first:
        return TSV
    if b"," in first:
        return CSV
    return TXT


def read_glossary_bytes(data: bytes, path: str, kind: Optional[str] = None) -> Glossary:
    """The glossary in ``data`` (``kind``: one of :data:`KINDS`, else from ``path`` and the bytes)."""
    if len(data) > MAX_BYTES:
        return _too_large(path, len(data))
    if not data.strip() or data in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return _fatal(path, f"{path}: the file is empty; {NOT_USED}")
    if kind is None or kind not in KINDS:
        kind = kind_of(path, data)
    try:
        if kind == TBX:
            return _read_tbx(data, path)
        text, fatal = decode_table(data, path)
        if fatal is not None:
            return fatal
        assert text is not None
        if kind == TXT:
            return read_list_text(text, path)
        return read_table_text(text, path, "\t" if kind == TSV else ",")
    except Exception as e:  # a bug of a reader: one sentence, never a traceback
        return _fatal(path, f"{path}: bleu-ls could not read this glossary (an internal error: "
                            f"{type(e).__name__}: {e}); {NOT_USED}")


def _read_tbx(data: bytes, path: str) -> Glossary:
    text, enc, problem = decode_xml(data)
    if problem is not None:
        if "is not known" in problem:
            name = problem.split("'")[1] if problem.count("'") >= 2 else "?"
            return _fatal(path, f'{place(path, 1)}the XML declaration names the encoding "{name}", which is not '
                                f"known; {NOT_USED}")
        raw = data[3:] if data.startswith(codecs.BOM_UTF8) else data
        try:
            raw.decode(enc)
            line = 1
        except UnicodeDecodeError as e:
            line = raw[: e.start].decode(enc, errors="replace").count("\n") + 1
        return _fatal(path, f"{place(path, line)}the file is not valid {enc} text"
                            f"{' (the encoding its XML declaration names, UTF-8 if none)' if enc != 'utf-16' else ''}; "
                            f"{NOT_USED}")
    if not text.strip():
        return _fatal(path, f"{path}: the file is empty; {NOT_USED}")
    return read_tbx_text(text, path)
