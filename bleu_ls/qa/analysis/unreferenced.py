"""A document's lines with no reference: what the analyser reads of a pair
model (:class:`bleu_ls.engine.PairModel`), without scores.

A PO, XLIFF, TMX or subtitle file checked alone, or a line file with only its
source, is analysed as a model whose references are none: the rules that
need a reference (``needs_reference`` in the rule table) do not run, and
the others (the text checks, the source checks against the file's own
source, ``adequacy`` ranked by similarity to the source alone) run as they
do on a pair.  The metrics are kept for their tokenizer only.

``bleu-ls check`` builds one from a file; the language server keeps one per
open segment document and splices the segments an edit touched into it
(:meth:`Unreferenced.splice_hyp`: an edit log, as the pair model keeps, so
the analyser's next pass works out the edited lines only).
"""

from __future__ import annotations

from typing import Optional, Sequence

from ...engine.pair_parts import EditLog


class Unreferenced:
    """The hypothesis lines of a document with no reference."""

    refs: tuple = ()
    n_refs = 0

    def __init__(self, metrics: dict, hyp: Sequence[str]) -> None:
        self.metrics = metrics
        self.hyp = list(hyp)
        self.n_hyp = self.n_paired = len(self.hyp)
        self.version = 0
        self.edits = EditLog(0)
        #: what the analyser's memos are keyed by (a copy made with ``copy`` shares it)
        self.lineage = object()

    def splice_hyp(self, start: int, end: int, lines: Sequence[str]) -> None:
        """Lines ``[start, end)`` replaced by ``lines`` (logged for the analyser)."""
        self.version += 1
        self.edits.add(self.version, None, start, end, len(lines))
        self.hyp[start:end] = lines
        self.n_hyp = self.n_paired = len(self.hyp)

    def copy(self, follow: bool = True) -> "Unreferenced":
        """The same lines at the same version (and lineage, and edit log): an
        analyser that reads the copy in a worker thread then follows this
        model's edits made since (``follow``: as ``PairModel.copy`` is asked; a
        copy is only read, so it always may)."""
        other = Unreferenced.__new__(Unreferenced)
        other.metrics, other.hyp = self.metrics, list(self.hyp)
        other.n_hyp = other.n_paired = self.n_hyp
        other.version, other.edits, other.lineage = self.version, self.edits, self.lineage
        return other


def segment_lines(segments: Sequence) -> tuple[list[str], Optional[list[str]]]:
    """A segment file with no reference as the analyser reads it: one line per
    segment, its target; and its source, where the target has text (an empty
    target is the format checks' to name, ``target-empty``: no rule reads its
    source), or None when a segment carries no source (subtitles).  ``bleu-ls
    check`` and the server read a lone file through this one function."""
    hyp = [s.target for s in segments]
    if not segments or any(s.source is None for s in segments):
        return hyp, None
    return hyp, [s.source if s.target else "" for s in segments]


def segment_languages(segments: Sequence) -> Optional[list[str]]:
    """Each segment's target language where a file's targets are in several (a TMX with a
    ``tuv`` per language: ``extra["lang"]``), for the rules that read the language of a line
    (terminology); None when the segments do not say it or all say the same."""
    langs = [s.extra.get("lang") or "" for s in segments] if segments and segments[0].extra.get("lang") else None
    if not langs or len(set(langs)) < 2:
        return None
    return langs
