"""What a helper sees of a pair and of the pair manager, and what a feature
asks of an open document: three :class:`typing.Protocol` classes, below
every room of the server.

The manager (:mod:`.pairs.manager`) and the pair state (:mod:`.pairs.state`)
sit above the helpers they drive (post-editing, views, background work,
binding and opening): a helper is handed the manager or a pair and uses
these names of them, so it never imports the manager's module (not even for
its type hints) and can be read alone.  :class:`~.pairs.state.Pair` and
:class:`~.pairs.manager.PairManager` have every name listed here; values
whose types live in the rooms above are typed ``Any``.

:class:`DocumentAnswers` is the seam between the features and the kinds of
document: a feature asks the manager for a document's answers
(``manager.answers(uri)``) and never tests which kind it is.  A line file's
are :class:`~.pairs.answers.LineAnswers`, a segment file's (PO, XLIFF, TMX,
subtitles) :class:`~.segdocs.docs.SegmentAnswers`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Mapping, Optional, Protocol, Sequence, Union

import numpy as np
from lsprotocol import types

from ..engine import PairModel
from ..config.pairing import PairSpec
from ..postedit import DraftStore, DraftTrack
from ..config.settings import Settings
from .wire.protocol import Encoded


class PairRole(Protocol):
    """One open hypothesis document and what it is scored against
    (:class:`~.pairs.state.Pair`, whose docstring tells each field)."""

    uri: str
    path: Path
    hypothesis_like: bool
    spec: Optional[PairSpec]
    settings: Settings
    model: Optional[PairModel]
    source_lines: Optional[list[str]]
    #: a file with its source and no reference: its lines for the rule table, and the source file
    alone: Any
    alone_source: Optional[Path]
    problems: list[str]
    settings_problems: list[str]
    baseline: Optional[dict[str, Optional[float]]]
    baseline_lines: dict[str, np.ndarray]
    bg_task: Optional[asyncio.Task]
    token_lines: Any  # views.token_lines.TokenLines
    push_task: Optional[asyncio.Task]
    settle_task: Optional[asyncio.Future]
    push_dirty: bool
    diag_cache: Any
    hint_cache: Any
    flagged: Sequence[int]
    ignored: int
    reviewed: int
    hints_pending: bool
    draft: Optional[DraftTrack]
    draft_origin: Optional[str]
    draft_path: Optional[Path]
    draft_revision: Optional[str]
    draft_problem: Optional[str]
    draft_detail: Optional[str]
    draft_forgotten: bool
    effort: Any  # Optional[postedit.effort.EffortRows]
    effort_task: Optional[asyncio.Task]
    draft_model: Optional[PairModel]
    paired: dict
    paired_task: Optional[asyncio.Task]
    paired_gen: int
    paired_version: int
    preview: Any
    opening: Any
    open_task: Optional[asyncio.Task]
    compare: Any  # Optional[postedit.compare.OtherSystem]

    @property
    def references(self) -> list[Path]: ...

    @property
    def source(self) -> Optional[Path]: ...

    def take_baseline(self) -> None: ...


class ManagerRole(Protocol):
    """The open documents and their pairs (:class:`~.pairs.manager.PairManager`):
    the names its helpers use."""

    client: Any
    docs: dict[str, Any]  # by URI: documents.document.LineDocument
    manual_pairs: dict[Path, PairSpec]
    analyzers: dict[str, Any]  # by URI: analysis.Analyzer
    settings: Settings
    #: the position encoding agreed with the client ("utf-8", "utf-16", "utf-32")
    encoding: str
    watcher: Any  # pairs.watching.FileWatcher
    publisher: Any  # views.publish.Publisher
    drafts: DraftStore
    adequacy: Any  # checks.qe_background.BackgroundAdequacy
    caps: Any  # the client's capabilities (lsprotocol ClientCapabilities)

    @property
    def pairs(self) -> Mapping[str, PairRole]:
        """The pairs by URI (helpers read it; the manager's own dict of its Pairs)."""
        ...

    @property
    def pull_diagnostics(self) -> bool: ...

    @property
    def progress_supported(self) -> bool: ...

    def workspace_cap(self, name: str, attr: str = "refresh_support") -> bool: ...

    def root_for(self, path: Path) -> Optional[Path]: ...

    def open_paths(self) -> dict[Path, Any]: ...

    def after_change(self, pair: Any, external: bool) -> None: ...

    async def wait_scored(self, pair: Any) -> None: ...

    async def wait_analysed(self, pair: Any) -> None: ...

    def pair_for(self, uri: str) -> Optional[PairRole]: ...

    def peek(self, uri: str) -> Optional[PairRole]: ...

    async def wait_opened(self, uri: str) -> None: ...

    def score_rest_later(self, pair: Any) -> None: ...

    def findings(self, pair: Any) -> list: ...

    def line_findings(self, pair: Any, i: int) -> Optional[list]: ...

    def diagnostics(self, pair: Any) -> tuple[list[types.Diagnostic], Optional[str]]: ...

    def set_draft(self, pair: Any) -> str: ...

    def forget_draft(self, pair: Any) -> str: ...


#: what a pulled diagnostics request is answered with
Report = Union[types.RelatedFullDocumentDiagnosticReport, types.RelatedUnchangedDocumentDiagnosticReport, Encoded]


class DocumentAnswers(Protocol):
    """What the features ask of an open document, whichever kind it is: one
    implementation per kind, handed by ``PairManager.answers(uri)``.  A URI
    that is no open document gets the line files' answers (each says "nothing"
    in its own way, as the features always did).  A command's answer that
    cannot be given raises :class:`ValueError` with the sentence to show."""

    async def hints(self, params: types.InlayHintParams) -> Union[list[types.InlayHint], Encoded]:
        """The inlay hints of the range (a line file's: the reply's ready JSON text)."""
        ...

    def resolve_hint(self, hint: types.InlayHint) -> types.InlayHint:
        """A hint sent without its tooltip, with it."""
        ...

    def hover(self, params: types.HoverParams) -> Optional[types.Hover]: ...

    async def lens(self, uri: str) -> list[types.CodeLens]:
        """The code lens on the first line: the corpus scores."""
        ...

    async def corpus(self, uri: str) -> Optional[dict[str, Any]]:
        """What ``bleuLs/corpusScore`` answers (None: nothing to score)."""
        ...

    async def diagnostics(self, params: types.DocumentDiagnosticParams) -> tuple[Report, Optional[str]]:
        """The pulled report and the result id the editor holds once answered
        (None: not followed for a refresh after an edit, ``views/pulled.py``)."""
        ...

    async def tokens_full(self, uri: str) -> Encoded: ...

    async def tokens_delta(self, uri: str, previous: str) -> Union[Encoded, types.SemanticTokensDelta]:
        """What changed since the answer ``previous`` (or a full answer)."""
        ...

    async def tokens_range(self, uri: str, start: int, end: int) -> types.SemanticTokens:
        """The tokens of lines [start, end)."""
        ...

    async def code_actions(self, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        """The quick fixes of the range (None: none)."""
        ...

    def completion(self, params: types.CompletionParams) -> Optional[types.CompletionList]:
        """The glossary's target terms for the segment or line at the position (None: none)."""
        ...

    async def next_review(self, uri: str, line: int, character: int, direction: str) -> Optional[dict[str, Any]]:
        """Where the next (``"previous"``) place to look at is, wrapping: a flagged
        line, a segment that needs review; None when there is none."""
        ...

    async def set_draft(self, uri: str) -> str:
        """The current text becomes the draft; the sentence that says so."""
        ...

    async def forget_draft(self, uri: str) -> str: ...
