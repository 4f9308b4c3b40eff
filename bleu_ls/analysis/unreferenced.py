"""A document's lines with no reference: what the analyser reads of a pair
model (:class:`bleu_ls.engine.PairModel`), without scores.

A PO, XLIFF, TMX or subtitle file checked alone, or a line file with only its
source, is analysed as a model whose references are none: the rules that
need a reference (``needs_reference`` in the rule table) do not run, and
the others (the text checks, the source checks against the file's own
source, ``adequacy`` ranked by similarity to the source alone) run as they
do on a pair.  The metrics are kept for their tokenizer only.
"""

from __future__ import annotations

from typing import Optional, Sequence


class _NoEdits:
    """No edit log: every pass over such a model looks at every line."""

    @staticmethod
    def since(_version: int) -> Optional[list]:
        return None


class Unreferenced:
    """The hypothesis lines of a document with no reference."""

    refs: tuple = ()
    n_refs = 0
    version = 0
    edits = _NoEdits()

    def __init__(self, metrics: dict, hyp: Sequence[str]) -> None:
        self.metrics = metrics
        self.hyp = list(hyp)
        self.n_hyp = self.n_paired = len(self.hyp)
        #: what the analyser's memos are keyed by (a new model: a new lineage)
        self.lineage = object()
