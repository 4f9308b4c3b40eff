"""The state of one open hypothesis document: :class:`Pair`.

Owned by the pair manager (:mod:`.manager`), which creates, binds and drops
pairs; features read them through the manager.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from ...engine import PairModel
from ...config.pairing import PairSpec
from ...postedit import DraftTrack
from ...config.settings import Settings
from ..postedit.compare import OtherSystem
from ..postedit.effort import EffortRows
from ..views.token_lines import TokenLines


@dataclass
class Pair:
    """One open hypothesis document and what it is scored against.

    Baselines (what a score is compared with: ``baseline``, the scores when
    the file was first fully scored) live here too; the other kind, the
    draft (``draft``: a :class:`~bleu_ls.postedit.DraftTrack` or None) with
    its HTER rows and paired test, is set by :mod:`..postedit.drafts` and
    :mod:`..postedit.paired` and read by :mod:`..views.render` / :mod:`..views.effort_render`.
    """

    uri: str
    path: Path
    hypothesis_like: bool = False
    spec: Optional[PairSpec] = None
    settings: Settings = field(default_factory=Settings)
    model: Optional[PairModel] = None
    source_lines: Optional[list[str]] = None
    #: a file with its source and no reference (``NAME.src`` beside it, or a rule's ``source``):
    #: its lines as the rule table reads them (:class:`~bleu_ls.qa.analysis.unreferenced.Unreferenced`,
    #: spliced with the document's edits; ``source_lines`` its source's), and that source file
    alone: Any = None
    alone_source: Optional[Path] = None
    #: reference/source problems in plain words (shown on line 1)
    problems: list[str] = field(default_factory=list)
    settings_problems: list[str] = field(default_factory=list)
    #: corpus scores and per-line scores when first fully scored
    baseline: Optional[dict[str, Optional[float]]] = None
    baseline_lines: dict[str, np.ndarray] = field(default_factory=dict)
    bg_task: Optional[asyncio.Task] = None
    #: the semantic tokens of the document's lines, kept in step by the manager's splices
    token_lines: TokenLines = field(default_factory=TokenLines)
    push_task: Optional[asyncio.Task] = None
    #: a first (or large) analysis running in a worker thread (publish.settle)
    settle_task: Optional[asyncio.Future] = None
    push_dirty: bool = False
    #: the diagnostics kept per line (publish.py / diaglines.py); None: build again
    diag_cache: Any = None
    #: inlay hint labels and tooltips by statistics rows (render.RenderedHints)
    hint_cache: Any = None
    #: the lines carrying a diagnostic, in order (a diaglines.FlaggedLines once analysed)
    flagged: Sequence[int] = field(default_factory=list)
    #: findings hidden by .bleu-ls/ignore.json, lines hidden as reviewed (publish.py)
    ignored: int = 0
    reviewed: int = 0
    #: an inlay hint answer left lines out (still being scored): refresh when done
    hints_pending: bool = False
    # -- post-editing (see drafts.py): the draft, its line partners, HTER rows
    draft: Optional[DraftTrack] = None
    #: "file" (a draft file), "git" (the file at a revision) or "cache" (the text as first seen, or set by command)
    draft_origin: Optional[str] = None
    draft_path: Optional[Path] = None
    #: the revision of a "git" draft as shown: ``HEAD (abc1234)``
    draft_revision: Optional[str] = None
    #: the draft's problem in a few words (hover, lens) and in full
    draft_problem: Optional[str] = None
    draft_detail: Optional[str] = None
    #: bleuLs.forgetDraft: no draft until the document is opened again
    draft_forgotten: bool = False
    effort: Optional[EffortRows] = None
    effort_task: Optional[asyncio.Task] = None
    #: the draft's statistics against the references (paired.py)
    draft_model: Optional[PairModel] = None
    #: by metric key: {"confidence": …, "paired": …} of the latest test
    paired: dict = field(default_factory=dict)
    paired_task: Optional[asyncio.Task] = None
    paired_gen: int = 0
    #: the model version ``paired`` was computed on (shown only while it is current)
    paired_version: int = -1
    #: a large document being opened (opening.py): line scores before the
    #: model is built, the remaining steps (a generator) and their task
    preview: Any = None
    opening: Any = None
    open_task: Optional[asyncio.Task] = None
    #: another system's output compared with this one (bleuLs.compareWith; compare.py)
    compare: Optional[OtherSystem] = None

    @property
    def references(self) -> list[Path]:
        return list(self.spec.references) if self.spec else []

    @property
    def source(self) -> Optional[Path]:
        return self.spec.source if self.spec else None

    def take_baseline(self) -> None:
        """Remember the corpus and line scores once every line is scored."""
        model = self.model
        if model is None or model.stale_count():
            return
        self.baseline = {k: model.corpus(k).score for k in model.metrics}
        self.baseline_lines = {k: np.array(model.values(k), copy=True) for k in model.metrics}
