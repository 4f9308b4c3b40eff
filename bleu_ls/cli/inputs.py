"""The input step every command shares: read the files, pair segments by key,
refuse files whose line counts differ.

Line files are read as sacrebleu's command line reads them
(:func:`bleu_ls.engine.read_lines`).  When the files hold segments (gettext
PO, XLIFF, TMX, subtitles) they are read into documents
(:func:`bleu_ls.formats.read.read_documents`), every other file's segments
are paired by key with the first file's (:func:`bleu_ls.formats.match.align`)
and each row is then a segment (:func:`bleu_ls.formats.rows.segment_rows`:
its key, its line, what was left unpaired).  Bad input raises
:class:`~bleu_ls.engine.InputError` with one sentence; each command prints it
after its own ``bleu-ls COMMAND: error:``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..engine import InputError, read_lines
from ..formats.match import Alignment, align
from ..formats.model import SegmentDocument
from ..formats.read import read_documents
from ..formats.rows import SegmentRows, segment_rows


@dataclass(frozen=True)
class LineCounts:
    """How a command says that its files' line counts differ: ``sentence`` with
    ``{counts}`` (one ``each`` per file, joined by commas) and ``{rule}``."""

    rule: str
    each: str = "{name} has {n} lines"
    sentence: str = "line counts differ: {counts}; {rule}"

    def problem(self, names: Sequence[str], texts: Sequence[Sequence[str]]) -> Optional[str]:
        """The sentence, or None when every file has as many lines as the first."""
        if len({len(t) for t in texts}) <= 1:
            return None
        counts = ", ".join(self.each.format(name=name, n=len(t)) for name, t in zip(names, texts))
        return self.sentence.format(counts=counts, rule=self.rule)


@dataclass
class Paired:
    """Segment documents, the others' segments paired by key with the first's."""

    docs: list[SegmentDocument]
    alignment: Alignment
    rows: SegmentRows

    @property
    def texts(self) -> list[list[str]]:
        """Per document, its text of each row (the first's own, then each partner's)."""
        return [self.alignment.hyp_texts, *self.alignment.texts]


@dataclass
class Inputs:
    """Per file, in the order given, its lines or (segment files) its text of each paired row."""

    texts: list[list[str]]
    #: segment files: their documents, pairing and rows; None for line files
    segments: Optional[Paired] = None

    @property
    def rows(self) -> Optional[SegmentRows]:
        return self.segments.rows if self.segments is not None else None


def pair_segments(docs: list[SegmentDocument], names: Sequence[str]) -> Paired:
    """``docs[1:]`` paired by key with ``docs[0]`` (``names``: the other documents' paths, as shown)."""
    al = align(docs[0], docs[1:])
    return Paired(docs, al, segment_rows(docs[0], docs[1:], names, al))


def read_segments(
    paths: Sequence[str], names: Optional[Sequence[str]] = None, keep_problems: Sequence[str] = ()
) -> Optional[Paired]:
    """The files as segment documents paired by key, or None when every one is a line file
    (then only their first bytes were read).  ``names``: the other files as the rows name them
    (default: their paths); ``keep_problems``: formats whose problems in the first file stay in
    its document (see :func:`~bleu_ls.formats.read.read_documents`)."""
    docs = read_documents(paths, keep_problems)
    if docs is None:
        return None
    return pair_segments(docs, list(paths[1:]) if names is None else names)


def read_line_files(paths: Sequence[str], counts: Optional[LineCounts] = None) -> list[list[str]]:
    """Each file's lines, in order; with ``counts``, unequal line counts raise its sentence."""
    texts = [read_lines(p) for p in paths]
    _refuse_counts(counts, paths, texts)
    return texts


def read_inputs(
    paths: Sequence[str],
    counts: Optional[LineCounts] = None,
    names: Optional[Sequence[str]] = None,
    keep_problems: Sequence[str] = (),
) -> Inputs:
    """The files as segments paired by key (:func:`read_segments`), else as lines; ``counts``:
    how the command refuses files of unequal length (paired segments always agree)."""
    paired = read_segments(paths, names, keep_problems)
    texts = paired.texts if paired is not None else [read_lines(p) for p in paths]
    _refuse_counts(counts, paths, texts)
    return Inputs(texts, paired)


def _refuse_counts(counts: Optional[LineCounts], names: Sequence[str], texts: Sequence[Sequence[str]]) -> None:
    problem = counts.problem(names, texts) if counts is not None else None
    if problem:
        raise InputError(problem)
