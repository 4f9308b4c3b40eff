"""Which format a file is, and reading it into a :class:`SegmentDocument`.

``detect_format`` goes by the extension (and, for ``.xml``, by the first
bytes); ``read_document`` reads the bytes, decodes them as the format says
(PO: the header's charset; subtitles: UTF-8, a BOM dropped; XML: the XML
readers decode their own bytes; line files: exactly as ``engine.read_lines``)
and hands them to the format's reader, imported only then.  Every failure is
an :class:`~bleu_ls.engine.text.InputError` with one sentence naming the file
(and the line and column where there is one).
"""

from __future__ import annotations

import importlib
import os
from typing import Callable, Optional, Sequence

from ..engine.text import InputError, decode_utf8, looks_binary, open_binary, read_error
from .finding import Finding
from .model import LINES, SegmentDocument
from .table import ROWS, SNIFFED, by_extension, by_path, row, sniffed

#: Extension (lower case, with the dot) -> format (the rows' extensions, formats/table.py).  XLIFF 1.2
#: and 2.x share their extensions; the XLIFF reader tells them apart (see ``read_document``).
EXTENSIONS = by_extension()

#: The families whose files may be scored against each other (XLIFF 1.2 against 2.x is one family).
FAMILY = {r.name: r.family for r in ROWS}

#: How the families are named in sentences.
FAMILY_NAMES = {r.family: r.family_sentence for r in ROWS}

#: format -> (module, function names to try, what the function takes).  The
#: XML readers decode their own bytes; the others take the decoded text.
READERS: dict[str, tuple[str, tuple[str, ...], str]] = {
    r.name: (r.reader_module, r.reader_names, r.reader_takes) for r in ROWS if r.segmented and r.reader_module
}

FORMAT_NAMES = {r.name: r.label for r in ROWS if r.label}


#: the rows that know their files by the path (Android's res/values*/strings.xml)
PATHED = tuple(r for r in ROWS if r.paths is not None)


def detect_format(path: str, head: bytes = b"") -> str:
    """The format of ``path`` by its place where a row knows its files so (the rows' ``paths``:
    ``locales/de/app.json``, Android's ``res/values*/strings.xml``), then by its extension; ``.xml``
    by whether ``head`` holds ``<xliff`` or ``<tmx`` (the rows' markers); a line file otherwise."""
    found = by_path(os.fspath(path))
    if found is not None:
        return found
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    if ext in SNIFFED and head:
        found = sniffed(head)
        if found is not None:
            return found
    return LINES


def partner_format(first: str, first_name: str, fmt: str, name: str) -> str:
    """The format a file given beside a file of format ``first`` is read in: its own, except that a file of
    no known format with the same extension as a file known by its path (``old/de.json`` beside
    ``locales/de/app.json``: a reference, a draft) is read in that file's format."""
    same_ext = os.path.splitext(name)[1].lower() == os.path.splitext(first_name)[1].lower()
    if not row(fmt).segmented and row(first).paths is not None and same_ext:
        return first
    return fmt


def family(fmt: str) -> str:
    return FAMILY.get(fmt, fmt)


def read_bytes(path: str) -> bytes:
    name = os.fspath(path)
    with open_binary(name) as fh:
        try:
            return fh.read()
        except OSError as exc:
            raise read_error(exc, name) from None


def _reader(fmt: str, name: str) -> tuple[Callable, str]:
    module, functions, takes = READERS[fmt]
    what = FORMAT_NAMES.get(fmt, fmt)
    try:
        mod = importlib.import_module(f"{__package__}.{module}")
    except ImportError:
        raise InputError(f"{name}: {what} files are not supported yet by this version of bleu-ls") from None
    for fn in functions:
        if callable(getattr(mod, fn, None)):
            return getattr(mod, fn), takes
    raise InputError(f"{name}: {what} files are not supported yet by this version of bleu-ls")


def decode_po(data: bytes, name: str) -> str:
    """A PO file's text in the charset its header declares (UTF-8 when none), a BOM dropped."""
    from .po import po_charset

    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    charset = po_charset(data)
    if charset == "utf-8":
        return decode_utf8(data, name)
    try:
        text = data.decode(charset)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{name}: not {charset} text as its header declares: byte 0x{data[exc.start]:02x} at line {line}"
        ) from None
    if "\x00" in text:
        raise looks_binary(text.count("\n", 0, text.index("\x00")) + 1, name)
    return text


def decode_utf8_or_latin1(data: bytes, name: str) -> str:
    """UTF-8 (a BOM dropped), or ISO-8859-1 when the bytes are not UTF-8: what Java 9+ reads a
    ``.properties`` resource bundle as."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if "\x00" in text:
        raise looks_binary(text.count("\n", 0, text.index("\x00")) + 1, name)
    return text


def decode(fmt: str, data: bytes, name: str) -> str:
    """The text of a file of format ``fmt`` (not for the XML formats, which decode themselves)."""
    how = row(fmt).decoding
    if how == "charset":
        return decode_po(data, name)
    if how == "utf-8-or-latin-1":
        return decode_utf8_or_latin1(data, name)
    if how == "utf16-or-utf8":
        from .apple_strings import decode_strings

        return decode_strings(data)[0]
    return decode_utf8(data, name)


def parse(fmt: str, data: bytes, name: str, text: Optional[str] = None) -> SegmentDocument:
    """The document of ``data`` (or of the already decoded ``text``) read as ``fmt``."""
    r = row(fmt)
    if not r.segmented:
        text = decode_utf8(data, name) if text is None else text
        doc = r.text_reader(text)  # type: ignore[misc]
    else:
        fn, takes = _reader(fmt, name)
        if takes == "bytes":
            if text is None:
                return fn(data)
            # an open buffer is already decoded: the XML readers' text entry points
            # (re-encoding it would be decoded again as the declaration says)
            from_text = row(fmt).text_reader
            return from_text(text) if from_text is not None else fn(text.encode("utf-8"))
        text = decode(fmt, data, name) if text is None else text
        doc = fn(text)
    if doc.text is None:
        doc.text = text
    return doc


def read_document(path: str, fmt: Optional[str] = None) -> SegmentDocument:
    """``path`` read into segments (``InputError`` when it cannot be read or decoded).

    Malformed content does not raise: it is in the document's ``problems``
    (see :func:`first_problem` for the CLI's sentence)."""
    name = os.fspath(path)
    data = read_bytes(name)
    if fmt is None:
        fmt = detect_format(name, data[:4096])
    return parse(fmt, data, name)


def problem_sentence(name: str, problem: Finding) -> str:
    """``path:line:col: message`` (1-based line and column)."""
    return f"{name}:{problem.line + 1}:{problem.column + 1}: {problem.message}"


def first_problem(name: str, doc: SegmentDocument) -> Optional[str]:
    """The CLI's sentence for the first problem of ``doc`` (None when there is none)."""
    if not doc.problems:
        return None
    p = min(doc.problems, key=lambda q: q.offset)
    more = len(doc.problems) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return problem_sentence(name, p) + tail


def _head(name: str) -> bytes:
    try:
        with open(name, "rb") as fh:
            return fh.read(4096)
    except OSError:
        return b""  # the read proper says what is wrong


def read_documents(paths: Sequence[str], keep_problems: Sequence[str] = ()) -> Optional[list[SegmentDocument]]:
    """The CLI's reading of a command's files: None when all are line files (read them
    as before), else one document per path.

    Raises ``InputError`` with one sentence when the files mix formats or one is malformed
    (except the first file when its format is in ``keep_problems``: its problems stay in
    its document, for ``check`` to show as findings)."""
    names = [os.fspath(p) for p in paths]
    formats = [detect_format(n, _head(n)) for n in names]
    formats = [formats[0], *(partner_format(formats[0], names[0], f, n) for f, n in zip(formats[1:], names[1:]))]
    if not any(row(f).segmented for f in formats):
        return None
    for n in names:  # a missing file or a folder is said as such, before any talk of formats
        open_binary(n).close()
    fams = [family(f) for f in formats]
    if len(set(fams)) > 1:
        k = next(i for i, f in enumerate(fams) if f != fams[0])
        raise InputError(
            f"{names[0]} is {FAMILY_NAMES[fams[0]]} and {names[k]} is {FAMILY_NAMES[fams[k]]}; "
            "files of different formats cannot be scored against each other"
        )
    docs = []
    for i, (n, f) in enumerate(zip(names, formats)):
        doc = read_document(n, f)
        if i == 0 and f in keep_problems:
            docs.append(doc)
            continue
        sentence = first_problem(n, doc)
        if sentence:
            raise InputError(sentence)
        docs.append(doc)
    return docs


#: formats whose first segments can be read alone (:func:`read_prefix`)
PREFIX_FORMATS = tuple(r.name for r in ROWS if r.prefix_reader is not None)


def read_prefix(fmt: str, text: str, max_segments: int) -> Optional[SegmentDocument]:
    """About the first ``max_segments`` segments of a decoded ``text``, each as the full
    read gives it (same key, target, offsets), for the first hints of a large file;
    None for a format that cannot be read in part, or when the prefix has a problem
    (then only a full read says what the file is).

    The row's prefix reader: XLIFF, TMX and subtitles stop their scan once that many are read;
    PO is read up to a blank line (:func:`~.po.read_po_prefix`)."""
    reader = row(fmt).prefix_reader
    if reader is None:
        return None
    doc = reader(text, max_segments=max_segments)
    if doc.problems:
        return None
    doc.text = text
    return doc


def decode_file(path: str, fmt: str) -> str:
    """The decoded text of a file of format ``fmt`` (the XML formats as they declare; ``InputError`` when unreadable)."""
    data = read_bytes(path)
    if row(fmt).decoding == "xml":
        from .xmlscan import decode_xml

        return decode_xml(data)[0]
    return decode(fmt, data, os.fspath(path))
