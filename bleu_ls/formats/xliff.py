"""XLIFF 1.2 and XLIFF 2.0–2.2 read into segments, with exact positions.

Entry points: :func:`read_xliff` (a file's bytes), :func:`read_xliff_text`
(a decoded text, e.g. the server's buffer: offsets are indices of that very
string).  The version is read from the root element (``version`` attribute,
then namespace); one function reads both.

What becomes a segment (see ``docs/formats.md``, "XLIFF and TMX", for the full table):

* XLIFF 1.2: each ``trans-unit`` (``translate="no"`` units are skipped); when
  the unit has a ``seg-source`` with ``<mrk mtype="seg">`` *and* its target
  has such ``mrk``\\s, one segment per ``mrk`` of the ``seg-source``, its
  target the target ``mrk`` with the same ``mid``.  Key ``original/id``,
  ``#mid`` appended only when the unit has more than one segment.
* XLIFF 2: each ``segment`` of a ``unit`` (``ignorable`` is not a segment).
  Key ``file-id/unit-id``, ``#segment-id`` (or ``#n``) appended only when the
  unit has more than one segment.
* A key met twice gets ``#2``, ``#3``… (and ``extra["duplicate"]``); the
  file is not malformed for it, so it is not a problem.

The draft: XLIFF 1.2 — the first ``alt-trans`` of machine-translation origin
(:func:`~.xliff1.is_mt_alt_trans`), else the target itself when its
``state-qualifier`` is ``mt-suggestion`` or ``leveraged-mt``; XLIFF 2 — the
first ``<mtc:match type="mt">`` whose ``ref`` names the segment (or one of
the ``mrk``\\s of its source; a unit of one segment takes any ``ref``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Union, cast

from .model import XLIFF1, Segment, SegmentDocument
from .xliff1 import Xliff1Structure
from .xliff2 import Xliff2Structure
from .xliff_reader import XliffHandler, StopReading
from .xmlscan import Scanner, end_read, read_xml_bytes, run_reader

if TYPE_CHECKING:
    from .live.text import ChunkText  # the live index's text, edited in place


class _Reader(Xliff1Structure, Xliff2Structure, XliffHandler):
    """The scanner's handler for both versions: the shared events and output, each version's structure."""


def read_xliff_text(text: str, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an XLIFF 1.2 or 2.x document from its decoded text (offsets index ``text``).

    This is the server's call: it holds the buffer's text, and the offsets of
    the segments are indices of that string (the LSP line model's own).  With
    ``max_segments``, reading stops quietly once that many segments are read
    (64 KB at a time): ``header["partial"] == "true"`` then, and no problem is
    said for the rest — the first hints of a large file come from this, the
    full read can follow in the background.
    """
    sc = Scanner(text)
    r = _Reader(text, sc)
    problem = run_reader(sc, r, text, max_segments, StopReading, "XLIFF")
    doc = SegmentDocument(
        format=r.fmt or XLIFF1,
        segments=r.segments,
        source_lang=r.source_lang,
        target_lang=r.target_lang,
        header=dict(r.header),
        problems=list(r.problems),
        text=text,
    )
    dups = sum(1 for s in r.segments if s.extra.get("duplicate"))
    if dups:
        doc.header["duplicate-keys"] = str(dups)
    missing = "This is not an XLIFF file: no <xliff> element was found." if r.fmt is None else None
    return end_read(doc, sc, problem, path, missing)


def read_xliff(data: bytes, path: str = "", max_segments: Optional[int] = None) -> SegmentDocument:
    """Read an XLIFF file's bytes; offsets index ``decode_xml(data)[0]`` (the BOM left out)."""
    return read_xml_bytes(read_xliff_text, data, path, max_segments)


_STATE_ATTR = re.compile(r"""(\s)state(\s*=\s*)(["'])(.*?)\3""", re.S)


def state_edit(text: Union[str, "ChunkText"], seg: Segment, value: str) -> Optional[tuple[int, int, str]]:
    """The edit that sets a segment's state: ``(start, end, new text)`` replacing the tag that holds it.

    XLIFF 1.2: the ``<target>`` start tag (None when the unit has no target); XLIFF 2: the
    ``<segment>`` start tag.  An existing ``state`` gets the new value, else ``state="value"`` is
    added before the tag's end; nothing else in the tag changes.  For the code action "mark as
    translated / final"; ``text`` is the text the segment was read from.
    """
    span = cast("Optional[tuple[int, int]]", seg.extra.get("state_tag") if seg.extra else None)
    if not span:
        return None
    a, b = span
    tag = text[a:b]
    if not tag.startswith("<") or not tag.endswith(">"):
        return None
    m = _STATE_ATTR.search(tag)
    if m:
        new = tag[:m.start(4)] + value + tag[m.end(4):]
    else:
        cut = len(tag) - (2 if tag.endswith("/>") else 1)
        new = tag[:cut].rstrip() + f' state="{value}"' + tag[cut:]
    return a, b, new
