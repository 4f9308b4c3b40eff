"""Post-editing: the machine-translation draft a hypothesis file started from.

Plain Python, shared by the language server and the command line:

* :mod:`.store` keeps the draft of a file outside the workspace, in the
  user's cache folder, so it survives editor restarts;
* :mod:`.track` keeps, for every current line, its partner line in the draft
  while lines are edited, inserted and deleted;
* :mod:`.diff` finds the words of a line that were changed against the draft
  and the words that match no reference word (for highlighting and hover).

The effort numbers themselves (HTER, edit counts) come from the engine's TER.
"""

from .diff import Span, changed_spans, unmatched_spans, word_diff
from .store import DraftStore, StoredDraft, cache_root
from .track import DraftTrack, align

__all__ = [
    "DraftStore",
    "DraftTrack",
    "Span",
    "StoredDraft",
    "align",
    "cache_root",
    "changed_spans",
    "unmatched_spans",
    "word_diff",
]
