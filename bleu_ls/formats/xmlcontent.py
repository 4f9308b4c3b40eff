"""The scored text of an XML element's content, with its map back to the file.

Shared by the XLIFF and TMX readers (with :class:`ContentEvents`, the
character-data handler they both are).  A :class:`Content` receives the
character data and inline codes between a start tag and its end tag (as
:class:`~bleu_ls.formats.xmlscan.Scanner` delivers them) and builds:

* the scored text: entities decoded (by expat), the content of code elements
  (``bpt``/``ept``/``ph``/``it``/``ut``) left out, the text inside paired codes
  (``g``, ``pc``, ``mrk``, ``hi``…) kept, every line break one space;
* the :class:`~bleu_ls.formats.model.Run` list mapping it to file offsets
  (a decoded entity or a folded line break is not covered by a run);
* the :class:`~bleu_ls.formats.model.InlineCode` list, in order.
"""

from __future__ import annotations

from typing import Callable, Optional

from .model import InlineCode, Run
from .xmlscan import Scanner


class Content:
    __slots__ = ("file", "parts", "n", "runs", "codes", "start", "end", "code_depth", "tag_start", "extra", "empty")

    def __init__(self, file: str, start: int, tag_start: Optional[int] = None):
        self.file = file
        self.parts: list[str] = []
        self.n = 0  # length of the scored text so far
        self.runs: list[list[int]] = []  # [text_start, file_start, length]
        self.codes: list[InlineCode] = []
        #: [start, end) of the content in the file (end set by finish())
        self.start = start
        self.end = start
        #: > 0 while inside a code element whose content is code, not text
        self.code_depth = 0
        #: the ``<`` of the element's start tag
        self.tag_start = start if tag_start is None else tag_start
        self.extra: Optional[dict] = None
        #: the element is an empty-element tag (``<target/>``), when the reader knows it
        self.empty: Optional[bool] = None

    # --- text ----------------------------------------------------------------
    def _run(self, off: int, length: int) -> None:
        runs = self.runs
        if runs:
            last = runs[-1]
            if last[0] + last[2] == self.n and last[1] + last[2] == off:
                last[2] += length
                return
        runs.append([self.n, off, length])

    def add(self, data: str, off: int) -> None:
        """Character data ``data`` delivered by the scanner at file offset ``off``."""
        if self.code_depth:
            return
        f = self.file
        if f.startswith(data, off) and not (data == "&" and f.startswith(("&amp;", "&#"), off)):
            if "\n" not in data:
                self._run(off, len(data))
                self.parts.append(data)
                self.n += len(data)
                return
            first = True
            for piece in data.split("\n"):
                if not first:
                    self.parts.append(" ")
                    self.n += 1
                    off += 1
                first = False
                if piece:
                    self._run(off, len(piece))
                    self.parts.append(piece)
                    self.n += len(piece)
                    off += len(piece)
            return
        self._align(data, off)

    def _align(self, data: str, fp: int) -> None:
        """Slow path: data that differs from the file (entities, CR LF, character references)."""
        f = self.file
        flen = len(f)
        for c in data:
            if c == "\n":
                self.parts.append(" ")
                self.n += 1
                if f.startswith("\r\n", fp):
                    fp += 2
                elif fp < flen and f[fp] in "\r\n":
                    fp += 1
                continue
            if fp < flen and f[fp] == c and not (c == "&" and f.startswith(("&amp;", "&#"), fp)):
                self._run(fp, 1)
                fp += 1
            elif fp < flen and f[fp] == "&":
                j = f.find(";", fp)
                fp = flen if j < 0 else j + 1
            self.parts.append(c)
            self.n += 1

    def add_char(self, c: str) -> None:
        """A character the file writes as markup (XLIFF 2 ``<cp hex=…/>``)."""
        if not self.code_depth:
            self.parts.append(c)
            self.n += len(c)

    # --- codes ---------------------------------------------------------------
    def code(self, code: InlineCode) -> int:
        self.codes.append(code)
        return len(self.codes) - 1

    # --- result --------------------------------------------------------------
    def finish(self, end: int) -> None:
        self.end = end

    def text(self) -> str:
        return "".join(self.parts)

    def run_tuple(self) -> tuple[Run, ...]:
        """The runs; none when the scored text is the content itself, character for character
        (``Segment.file_offset`` then maps ``i`` to ``start + i``: the same, without the objects)."""
        runs = self.runs
        if len(runs) == 1 and runs[0][0] == 0 and runs[0][1] == self.start and runs[0][2] == self.n == self.end - self.start:
            return ()
        return tuple(Run(a, b, c) for a, b, c in runs)

    def run_count(self) -> int:
        """How many runs :meth:`run_tuple` gives."""
        runs = self.runs
        if len(runs) == 1 and runs[0][0] == 0 and runs[0][1] == self.start and runs[0][2] == self.n == self.end - self.start:
            return 0
        return len(runs)

    def run_ints(self, base: int, out: list[int]) -> None:
        """The runs of :meth:`run_tuple` added to ``out`` as ``text_start, file_start - base, length``
        (:meth:`~bleu_ls.formats.model.Segment.packed`'s form)."""
        if self.run_count():
            for a, b, c in self.runs:
                out += (a, b - base, c)


class ContentEvents:
    """The XLIFF and TMX readers' shared character-data handling: ``text`` gives
    each piece to the contents being read (:attr:`active`, with ``sc`` the
    scanner and ``pos`` its offset function); the scanner's buffering is off
    while one is open, so that every piece comes with its own offset."""

    active: list[Content]
    sc: Scanner
    pos: Callable[[], int]

    def _activate(self, c: Content) -> None:
        if not self.active:
            self.sc.set_buffering(False)
        self.active.append(c)

    def _deactivate(self, c: Content) -> None:
        self.active.remove(c)
        if not self.active:
            self.sc.set_buffering(True)

    def text(self, data: str) -> None:
        if self.active:
            off = self.pos()
            for c in self.active:
                c.add(data, off)


class LineCounter:
    """0-based line of an offset, cheap for offsets asked in (nearly) increasing order."""

    __slots__ = ("text", "off", "line")

    def __init__(self, text: str):
        self.text = text
        self.off = 0
        self.line = 0

    def __call__(self, off: int) -> int:
        if off >= self.off:
            self.line += self.text.count("\n", self.off, off)
        else:
            self.line -= self.text.count("\n", off, self.off)
        self.off = off
        return self.line
