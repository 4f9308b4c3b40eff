"""What a helper sees of a pair and of the pair manager: two
:class:`typing.Protocol` classes, below every room of the server.

The manager (:mod:`.pairs.manager`) and the pair state (:mod:`.pairs.state`)
sit above the helpers they drive (post-editing, views, background work,
binding and opening): a helper is handed the manager or a pair and uses
these names of them, so it never imports the manager's module (not even for
its type hints) and can be read alone.  :class:`~.pairs.state.Pair` and
:class:`~.pairs.manager.PairManager` have every name listed here; values
whose types live in the rooms above are typed ``Any``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Mapping, Optional, Protocol, Sequence

import numpy as np

from ..engine import PairModel
from ..config.pairing import PairSpec
from ..postedit import DraftStore, DraftTrack
from ..config.settings import Settings


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
