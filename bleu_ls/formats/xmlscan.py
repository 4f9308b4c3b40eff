"""A safe, position-keeping XML event scanner over the standard library's expat.

What it guarantees, whatever the file:

* **Nothing is fetched or expanded.**  No DTD is read (parameter-entity
  parsing off, no external-entity handler), and a document that *declares*
  an entity (``<!ENTITY …>`` in its internal subset) is refused at that
  declaration with one :func:`~bleu_ls.formats.finding.problem`: that covers
  "billion laughs" (nested internal entities) and ``SYSTEM`` entities pointing
  at local files alike — the declaration is never used, nothing is read.  A
  reference to an entity the file does not define (``&nbsp;`` under an
  external DTD) is kept as its literal text.
* **Offsets are ``str`` indices of the decoded text.**  Bytes are decoded
  first (:func:`decode_xml`: BOM, then the XML declaration's encoding, then
  UTF-8), the text is handed to expat as UTF-8 with the declaration
  overridden, and expat's byte offsets (``CurrentByteIndex``) are mapped back
  to character offsets.
* **Never an exception on content.**  Malformed XML stops the scan with one
  problem at the error's position; the events before it have been delivered.

The scanner calls a handler's ``start(name, attrs)``, ``end(name)`` and
``text(data)`` (expat's own callbacks, no wrapper: this is the hot path);
``name`` is ``local`` or ``namespace}local``.  Before the scan it sets
``handler.pos`` to a function giving the current event's offset, which the
handler calls only for the events it keeps: the ``<`` of a tag (for the end
of an empty element ``<x/>``: the offset just after it), or the first file
character a piece of character data comes from (with buffering off, see
:meth:`Scanner.set_buffering`).
"""

from __future__ import annotations

import codecs
import re
import xml.parsers.expat as expat
from typing import Callable, Optional, Protocol

from .finding import Finding, problem
from .model import SegmentDocument, line_col

NS_SEP = "}"
XML_NS = "http://www.w3.org/XML/1998/namespace"

_DECL = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")
#: A start tag (with its attributes) from its ``<``: group 1 is "/" for an empty element.
_TAG = re.compile(r"""<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(/?)>""")


class Handler(Protocol):
    pos: Callable[[], int]

    def start(self, name: str, attrs: dict) -> None: ...

    def end(self, name: str) -> None: ...

    def text(self, data: str) -> None: ...


class _Refused(Exception):
    """Raised inside an expat callback to stop the scan with a problem."""

    def __init__(self, message: str):
        self.message = message


def decode_xml(data: bytes) -> tuple[str, str, Optional[str]]:
    """Decode an XML file's bytes: ``(text, encoding, problem-sentence-or-None)``.

    A byte-order mark wins, then UTF-16 without a mark (``<\\0?\\0``), then the
    declaration's ``encoding``, then UTF-8.  The mark is not part of the text.
    Undecodable bytes are replaced (U+FFFD) and said in the problem sentence.
    """
    enc = None
    if data.startswith(codecs.BOM_UTF8):
        enc, data = "utf-8", data[3:]
    elif data.startswith(codecs.BOM_UTF32_LE) or data.startswith(codecs.BOM_UTF32_BE):
        enc = "utf-32"
    elif data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        enc = "utf-16"
    elif data.startswith(b"<\0?\0"):
        enc = "utf-16-le"
    elif data.startswith(b"\0<\0?"):
        enc = "utf-16-be"
    problem = None
    if enc is None:
        m = _DECL.match(data[:200])
        enc = "utf-8"
        if m:
            name = m.group(1).decode("ascii")
            try:
                enc = codecs.lookup(name).name
            except LookupError:
                problem = f"The declared encoding {name!r} is not known; the file was read as UTF-8."
            if enc in ("utf-16", "utf-32"):
                # declared UTF-16 but no mark and ASCII-looking bytes: it is not UTF-16
                enc = "utf-8"
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as e:
        text = data.decode(enc, errors="replace")
        problem = f"The file is not valid {enc} at byte {e.start}; undecodable bytes were replaced."
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, enc, problem


class Scanner:
    """Scan one decoded XML text, delivering events with ``str`` offsets."""

    def __init__(self, text: str, region: Optional[tuple[int, int, str, str]] = None):
        """``region = (a, b, before, after)``: scan ``before + text[a:b] + after`` only, offsets still
        those of ``text`` (what ``before``/``after`` add maps to ``a``/``b``): re-reading a few units
        of a large document inside its root element's start tag."""
        self.text = text
        fed = text
        self._region: Optional[tuple[int, int, int]] = None
        if region is not None:
            a, b, before, after = region
            fed = before + text[a:b] + after
            self._region = (a, len(before), b - a)
        self._fed = fed
        self._ascii = False
        self._utf8: bytes | bytearray = b""  # encoded in run(): whole, or piece by piece with ``stop``
        self._lb = 0  # last byte offset mapped
        self._lc = 0  # its char offset
        self.problem: Optional[Finding] = None
        self.stopped = False
        self._parser: Optional[expat.XMLParserType] = None

    # --- offsets -----------------------------------------------------------
    def char_offset(self, b: int) -> int:
        if self._ascii:
            return b
        if b < self._lb:
            self._lb, self._lc = 0, 0
        if b != self._lb:
            self._lc += len(self._utf8[self._lb : b].decode("utf-8", errors="surrogatepass"))
            self._lb = b
        return self._lc

    def pos(self) -> int:
        assert self._parser is not None  # only called during run()
        b = self._parser.CurrentByteIndex
        if self._region is not None:
            return self._map(self.char_offset(b))
        if self._ascii:
            return b
        lb = self._lb
        if b == lb:
            return self._lc
        if b > lb:  # the usual step forward, inlined: this runs for every event kept
            self._lc += len(self._utf8[lb:b].decode("utf-8", errors="surrogatepass"))
            self._lb = b
            return self._lc
        return self.char_offset(b)

    def _map(self, c: int) -> int:
        assert self._region is not None  # only called with a region
        a, lead, n = self._region
        return a + max(0, min(c - lead, n))

    def set_buffering(self, on: bool) -> None:
        """Join character data into one call (outside the elements whose text is read: fewer calls).

        Off while a handler reads text: then every piece of character data is
        delivered where it starts (an entity, a line break: their own call), so
        ``pos()`` inside ``text`` is the file offset of the piece.
        """
        if self._parser is not None:
            self._parser.buffer_text = on

    def tag_end(self, start: int) -> tuple[int, bool]:
        """(offset after the start tag at ``start``, is it an empty element ``<x/>``)."""
        m = _TAG.match(self.text, start)
        if m is None:  # cannot happen on well-formed input; be calm anyway
            e = self.text.find(">", start)
            e = len(self.text) if e < 0 else e + 1
            return e, self.text[e - 2 : e] == "/>"
        return m.end(), bool(m.group(1))

    def close_tag_end(self, start: int) -> int:
        e = self.text.find(">", start)
        return len(self.text) if e < 0 else e + 1

    # --- the scan ----------------------------------------------------------
    def run(self, handler: Handler, stop: Optional[Callable[[], bool]] = None, chunk: int = 1 << 16) -> Optional[Finding]:
        """Deliver every event to ``handler``; return the problem that stopped the scan, if any.

        With ``stop``, the text is fed in pieces of ``chunk`` characters and the scan
        ends quietly (no problem, :attr:`stopped` set) as soon as ``stop()`` is
        true after a piece: a prefix read for the first hints of a large file.
        """
        p = expat.ParserCreate(encoding="UTF-8", namespace_separator=NS_SEP)
        self._parser = p
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        pos = self.pos
        handler.pos = pos
        def entity_decl(name, is_param, value, base, system_id, public_id, notation):
            raise _Refused(
                "The file declares an entity (<!ENTITY " + str(name) + " …>); bleu-ls does not expand or "
                "fetch declared entities, so the file is not read past this point."
            )

        def skipped(name, is_param):
            if not is_param:  # an entity an unread DTD may define: keep its literal text
                handler.text("&" + name + ";")

        p.StartElementHandler = handler.start
        p.EndElementHandler = handler.end
        p.CharacterDataHandler = handler.text
        self.set_buffering(True)
        p.EntityDeclHandler = entity_decl
        p.SkippedEntityHandler = skipped
        p.ExternalEntityRefHandler = lambda *a: 1  # never fetch; treat as empty
        try:
            fed = self._fed
            if stop is None:
                self._ascii = fed.isascii()
                self._utf8 = fed.encode("utf-8", errors="surrogatepass")
                p.Parse(self._utf8, True)
            else:  # encode as it goes: a prefix read of a large text costs the prefix only
                self._utf8 = bytearray()
                for i in range(0, len(fed), chunk):
                    piece = fed[i:i + chunk].encode("utf-8", errors="surrogatepass")
                    self._utf8 += piece
                    p.Parse(piece, False)
                    if stop():
                        self.stopped = True
                        return None
                p.Parse(b"", True)
        except _Refused as r:
            self.problem = self._problem(self.pos(), r.message)
        except expat.ExpatError as e:
            off = self.char_offset(max(0, p.ErrorByteIndex)) if p.ErrorByteIndex >= 0 else len(self._utf8)
            if self._region is not None:
                off = self._map(off)
            off = min(off, len(self.text))
            ln, col = line_col(self.text, off)
            msg = expat.ErrorString(e.code) if e.code is not None else str(e)
            if msg.startswith("not well-formed (") and msg.endswith(")"):
                msg = msg[len("not well-formed ("):-1]
            self.problem = problem(off, ln, col, f"The XML is not well-formed at line {ln + 1}, column {col + 1}: {msg}.")
        except RecursionError:
            self.problem = self._problem(self.pos(), "The XML nests too deeply to be read.")
        finally:
            self._parser = None
            p.StartElementHandler = p.EndElementHandler = p.CharacterDataHandler = None
        return self.problem

    def _problem(self, off: int, message: str) -> Finding:
        off = min(off, len(self.text))
        ln, col = line_col(self.text, off)
        return problem(off, ln, col, message)


def local_name(name: str) -> tuple[str, str]:
    """(namespace, local) of an expat name."""
    ns, sep, local = name.rpartition(NS_SEP)
    return ns, local


def problem_at(text: str, offset: int, message: str) -> Finding:
    ln, col = line_col(text, offset)
    return problem(offset, ln, col, message)


_ROOT = re.compile(r"<([A-Za-z_][\w.:-]*)([^>]*)>")
_VERSION = re.compile(r"""\bversion\s*=\s*["']([^"']*)["']""")


def sniff_xml(head: str) -> Optional[str]:
    """The segment format of an XML text from its first kilobytes: ``"xliff1"``, ``"xliff2"``, ``"tmx"`` or None.

    Skips the declaration, comments, processing instructions and a DOCTYPE;
    reads the root element's name and ``version`` (XLIFF: 2.x or the 2.0
    namespace → ``xliff2``, else ``xliff1``).  For the format dispatch.
    """
    i = 0
    n = len(head)
    while i < n:
        j = head.find("<", i)
        if j < 0:
            return None
        if head.startswith("<?", j):
            i = head.find("?>", j) + 2
        elif head.startswith("<!--", j):
            i = head.find("-->", j) + 3
        elif head.startswith("<!", j):
            i = head.find(">", j) + 1
        else:
            m = _ROOT.match(head, j)
            if not m:
                return None
            local = m.group(1).rpartition(":")[2]
            if local == "tmx":
                return "tmx"
            if local == "xliff":
                v = _VERSION.search(m.group(2))
                if (v and v.group(1).startswith("2")) or "xliff:document:2" in m.group(2):
                    return "xliff2"
                return "xliff1"
            return None
        if i <= j:
            return None
    return None


def run_reader(sc: "Scanner", reader, text: str, max_segments: Optional[int], stop: type[BaseException], what: str) -> Optional[Finding]:
    """Run ``reader`` over ``sc`` (the XLIFF and TMX readers' shared loop): the
    scanner's problem, none when ``reader`` raised ``stop`` (it had read enough),
    or one sentence for a bug of the reader (the segments read so far kept).
    With ``max_segments`` the scan stops quietly once that many are read."""
    try:
        done = None if max_segments is None else (lambda: len(reader.segments) >= max_segments)
        return sc.run(reader, done)
    except stop:
        return None
    except Exception as e:
        return problem_at(text, 0, f"bleu-ls could not read this {what} file (an internal error: {type(e).__name__}: {e}).")


def end_read(doc: SegmentDocument, sc: Scanner, problem: Optional[Finding], path: str, missing_root: Optional[str]) -> SegmentDocument:
    """The end of an XLIFF or TMX read: the problem that stopped the scan, else
    ``missing_root`` (the sentence for a file whose root element never came,
    given when the read found none) unless something was said already; the
    header's ``partial`` (the scan stopped once enough segments were read) and
    ``path``."""
    if problem is not None:
        doc.problems.append(problem)
    elif missing_root is not None and not doc.problems:
        assert doc.text is not None  # the XML readers keep it
        doc.problems.append(problem_at(doc.text, 0, missing_root))
    if sc.stopped:
        doc.header["partial"] = "true"
    if path:
        doc.header.setdefault("path", path)
    return doc


def read_xml_bytes(read_text: Callable[[str, str, Optional[int]], SegmentDocument], data: bytes, path: str,
                   max_segments: Optional[int]) -> SegmentDocument:
    """``read_text`` over the decoded ``data`` (offsets index ``decode_xml(data)[0]``,
    the BOM left out); the header says the encoding, a decoding problem comes first."""
    text, enc, problem = decode_xml(data)
    doc = read_text(text, path, max_segments)
    doc.header["encoding"] = enc
    if problem:
        doc.problems.insert(0, problem_at(text, 0, problem))
    return doc
