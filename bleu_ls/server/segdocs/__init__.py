"""Segment documents: PO, XLIFF, TMX, SubRip and WebVTT files open in the editor,
scored per segment — each document's live index, its rows paired with the
reference's segments (by key; subtitles by time), the hints at the end of each
target, the checks and their diagnostics, the hover, lens and state actions.

A document is claimed by its file name (never by the editor's languageId) and
paired with its reference of the same format by the pairing rules and
conventions of :mod:`bleu_ls.config.pairing` (``NAME.hyp.srt`` with ``NAME.ref.srt``,
a ``[[pairs]]`` rule).  Subtitles pair by time
(:func:`~bleu_ls.formats.subtitles.match_by_time`): each group of hypothesis
cues and the reference cues covering the same time is one row of a
:class:`~bleu_ls.engine.PairModel` (its texts joined by a space), and the
row's hint sits at the end of the group's last cue's text.

state.py (a document's state, positions) → rows.py (pairing) → checks.py
(findings, diagnostics) → answers.py (hints, hover, lens) and actions.py
(state actions, next segment to review) → opening.py (a large file opened in two
steps: its first segments, then the whole read in a thread) → docs.py
(:class:`SegmentDocs`, the owner).  drafts.py (each segment's draft: the file's
MT draft, or the target as first seen kept per key in the draft store; HTER
against it, the hover's draft diff) and draft_tokens.py (the changed words as
semantic tokens inside targets) sit beside answers.py.
"""
