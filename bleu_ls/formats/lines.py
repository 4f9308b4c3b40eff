"""A line file as segments: one line = one segment, key = the 1-based line number.

The lines are the engine's (``engine.text.split_file_lines``, as the CLI and
sacrebleu's command line read a file: split on ``\\n``, right-stripped, a
final newline adds no line); this module only adds the positions.
"""

from __future__ import annotations

from ..engine.text import read_text, split_file_lines
from .model import LINES, Segment, SegmentDocument


def lines_document(text: str) -> SegmentDocument:
    """The decoded ``text`` of a line file as a document of one segment per line."""
    lines = split_file_lines(text)
    segments: list[Segment] = []
    start = 0
    for i, line in enumerate(lines):
        segments.append(Segment(key=str(i + 1), target=line, target_span=(start, start + len(line)), line=i))
        nl = text.find("\n", start)
        start = len(text) if nl < 0 else nl + 1
    return SegmentDocument(LINES, segments)


def read_lines_document(path: str) -> SegmentDocument:
    """A line file read as ``engine.text.read_lines`` reads it, into segments (raises ``InputError``)."""
    return lines_document(read_text(path))
