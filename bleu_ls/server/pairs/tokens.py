"""Semantic tokens of a line file: the words of a hypothesis line changed since the draft,
and the words that match no reference word.

Two token types of our own (:data:`TOKEN_TYPES`); a changed word that also
matches no reference word is a ``bleuChanged`` token with the ``unmatched``
modifier (tokens may not overlap).  The words and spans come from
:mod:`bleu_ls.postedit.diff`; this module turns them into LSP's relative
integer encoding, in the negotiated position encoding.

Cost: each line's encoded tokens are kept in ``pair.token_lines``
(:mod:`bleu_ls.server.views.token_lines`), in step with the document through the
manager's splices, so after an edit a full request computes the edited lines
and joins the blocks' ready JSON text; a delta request (``full/delta``)
answers with the blocks that changed since the answer it names; a range
request looks at its lines only.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING, Optional, Sequence, Union

from lsprotocol import types

from ...postedit import changed_spans, unmatched_spans
from ..documents.document import UTF8, UTF16
from ..wire.protocol import Encoded
from ..views.token_lines import Answer, TokenLines

if TYPE_CHECKING:
    from ..documents.document import LineDocument
    from ..roles import ManagerRole as PairManager  # what it uses of the manager
    from ..roles import PairRole as Pair

#: The token types the server registers (their index is the type on the wire).
TOKEN_TYPES = ["bleuChanged", "bleuUnmatched"]
#: ``unmatched`` on a ``bleuChanged`` token: the changed word matches no reference word either.
TOKEN_MODIFIERS = ["unmatched"]
CHANGED, UNMATCHED = 0, 1
MOD_UNMATCHED = 1
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

#: A full request computes this many uncached lines between two looks at the event loop.
SLICE = 400
#: A full answer with more lines than this still to compute (a large file's
#: first answer) is given at once with the lines computed so far (the range
#: requests of the visible lines compute theirs); the rest is computed in the
#: background, a few milliseconds at a time, and the editor asked to refresh.
COLD_LINES = 2000
#: the background fill's work between pauses, and its pause (seconds)
FILL_SECONDS = 0.004
FILL_PAUSE = 0.003

_WORD = re.compile(r"\S+")
_EMPTY: tuple = ()


def line_tokens(
    line: str, draft_line: Optional[str], refs: Optional[Sequence[str]], lowercase: bool = False
) -> list[tuple[int, int, int, int]]:
    """(start, end, type, modifiers) per marked word of ``line``, in code points.

    ``draft_line`` None: no draft to compare with (nothing is "changed");
    ``refs`` None: no reference (nothing is "unmatched").
    """
    changed = changed_spans(draft_line, line) if draft_line is not None and draft_line != line else []
    unmatched = set(unmatched_spans(line, refs, lowercase)) if refs is not None else set()
    if not changed and not unmatched:
        return []
    out = []
    k = 0
    for m in _WORD.finditer(line):
        s, e = m.span()
        while k < len(changed) and changed[k][1] <= s:
            k += 1
        is_changed = k < len(changed) and changed[k][0] <= s
        if is_changed:
            out.append((s, e, CHANGED, MOD_UNMATCHED if (s, e) in unmatched else 0))
        elif (s, e) in unmatched:
            out.append((s, e, UNMATCHED, 0))
    return out


_CODECS = {UTF8: "utf-8", UTF16: "utf-16-le"}


def _column(line: str, index: int, encoding: str) -> int:
    """Code point ``index`` of ``line`` in ``encoding`` units (a non-ASCII line)."""
    codec = _CODECS.get(encoding)
    if codec is None:
        return index
    n = len(line[:index].encode(codec, "surrogatepass"))
    return n if codec == "utf-8" else n // 2


def _encode(line: str, toks: list[tuple[int, int, int, int]], encoding: str) -> tuple[int, ...]:
    """A line's tokens as LSP integers, without the first token's line delta."""
    out: list[int] = []
    prev = 0
    ascii_line = line.isascii()
    for s, e, kind, mods in toks:
        if ascii_line:
            us, ue = s, e
        else:
            us, ue = _column(line, s, encoding), _column(line, e, encoding)
        if out:
            out.append(0)
        out.extend((us - prev, ue - us, kind, mods))
        prev = us
    return tuple(out)


def _inputs(pair: "Pair", draft, model, doc: "LineDocument", lines: list[int]):
    """(line, draft line, reference lines) of each of ``lines``: what decides its tokens."""
    partner = getattr(draft, "partner", None)
    dlines = getattr(draft, "draft", None)
    paired = model.n_paired if model is not None else 0
    for i in lines:
        line = doc.lines[i]
        if draft is None:
            d = None
        elif partner is not None and dlines is not None and i < len(partner):
            j = int(partner[i])
            d = dlines[j] if j >= 0 else ""
        else:
            d = draft.draft_line(i) or ""
        r = [ref[i] for ref in model.refs] if model is not None and i < paired else None
        yield line, d, r


class Tokens:
    """The semantic token answers of a server.  Each pair's encoded lines
    (:class:`~bleu_ls.server.views.token_lines.TokenLines`, ``pair.token_lines``)
    are kept in step with the document by the manager's splices; this class
    computes the lines that wait, assembles answers and deltas."""

    def __init__(self, manager: "PairManager") -> None:
        self.manager = manager
        #: uri -> the last full answer (``token_lines.Answer``), for delta requests
        self.sent: dict[str, Answer] = {}
        self._ids = 0
        #: uri -> the background fill of a large document's lines
        self.filling: dict[str, asyncio.Task] = {}

    def _setup(self, pair: "Pair", doc: "LineDocument") -> Optional[tuple]:
        """Bring ``pair.token_lines`` to the document's state (reset when what
        every line depends on changed); None: nothing to mark."""
        hl = pair.settings.highlights
        draft = getattr(pair, "draft", None) if hl.changed else None
        model = pair.model if hl.unmatched else None
        if draft is None and model is None:
            return None
        encoding = self.manager.encoding
        lowercase = bool(pair.settings.bleu.lowercase)
        config = (encoding, _Same(draft), _Same(model), model.ref_version if model is not None else -1, lowercase)
        tl = pair.token_lines
        if not tl.valid(doc.n_lines, config):
            tl.reset(doc.n_lines, config, shifts=model is not None)
        return draft, model, lowercase, encoding

    def cache_for(self, pair: "Pair") -> TokenLines:
        return pair.token_lines

    def _fill(self, pair: "Pair", doc: "LineDocument", setup: tuple, lines: list[int]) -> None:
        draft, model, lowercase, encoding = setup

        def compute(idx: list[int]):
            for line, d, r in _inputs(pair, draft, model, doc, idx):
                yield _encode(line, line_tokens(line, d, r, lowercase), encoding) if line else _EMPTY

        pair.token_lines.fill(lines, compute)

    def data(self, uri: str, start: int = 0, end: Optional[int] = None) -> list[int]:
        """The LSP ``data`` array for lines [start, end) (all when ``end`` is None)."""
        pair, doc = self.manager.pair_for(uri), self.manager.docs.get(uri)
        if pair is None or doc is None:
            return []
        setup = self._setup(pair, doc)
        n = doc.n_lines
        start, stop = max(0, start), n if end is None else max(0, min(end, n))
        if setup is None or start >= stop:
            return []
        tl = pair.token_lines
        encs = tl.line_encs(start, stop)
        todo = [start + k for k, e in enumerate(encs) if e is None]
        if todo:
            self._fill(pair, doc, setup, todo)
            encs = tl.line_encs(start, stop)
        out: list[int] = []
        prev = 0
        for k, e in enumerate(encs):
            if e:
                out.append(start + k - prev)
                out.extend(e)
                prev = start + k
        return out

    async def _complete(self, uri: str):
        """Compute every line still waiting, in slices (other requests and
        edits go on in between); the pair and document, or None."""
        while True:
            pair, doc = self.manager.pair_for(uri), self.manager.docs.get(uri)
            if pair is None or doc is None:
                return None
            setup = self._setup(pair, doc)
            if setup is None:
                return None
            todo = pair.token_lines.missing()
            if len(todo) <= SLICE:
                self._fill(pair, doc, setup, todo)
                return pair
            self._fill(pair, doc, setup, todo[:SLICE])
            await asyncio.sleep(0)

    async def _fill_in_background(self, uri: str) -> None:
        """Compute every line still waiting, FILL_SECONDS at a time between
        real pauses; then ask the editor for the tokens again."""
        pos = 0  # lines before this are done (edits meanwhile: found in the next round)
        while True:
            pair, doc = self.manager.pair_for(uri), self.manager.docs.get(uri)
            if pair is None or doc is None:
                return
            setup = self._setup(pair, doc)
            if setup is None:
                return
            tl = pair.token_lines
            deadline = time.perf_counter() + FILL_SECONDS
            while time.perf_counter() < deadline:
                todo = tl.missing_from(pos, 16)
                if not todo:
                    break
                self._fill(pair, doc, setup, todo)
                pos = todo[-1] + 1
            else:
                await asyncio.sleep(FILL_PAUSE)
                continue
            if pos == 0:
                break  # a whole round found nothing left
            pos = 0
            await asyncio.sleep(FILL_PAUSE)
        if self.manager.workspace_cap("semantic_tokens"):
            self.manager.client.workspace_semantic_tokens_refresh(None)

    async def answer(self, uri: str) -> Optional[Answer]:
        """The whole document's answer (None: no tokens to give)."""
        await self.manager.wait_opened(uri)  # a large document: built in the background first
        pair, doc = self.manager.pair_for(uri), self.manager.docs.get(uri)
        setup = self._setup(pair, doc) if pair is not None and doc is not None else None
        if setup is not None and pair is not None and len(pair.token_lines.missing_from(0, COLD_LINES + 1)) > COLD_LINES:
            task = self.filling.get(uri)
            if task is None or task.done():
                self.filling[uri] = asyncio.ensure_future(self._fill_in_background(uri))
        else:
            pair = await self._complete(uri)
        if pair is None:
            return None
        self._ids += 1
        answer = pair.token_lines.answer(str(self._ids))
        self.sent[uri] = answer
        for gone in [u for u in self.sent if u not in self.manager.pairs]:
            del self.sent[gone]
        return answer

    async def full(self, uri: str) -> Encoded:
        """A full answer (JSON text made from the blocks' texts)."""
        answer = await self.answer(uri)
        if answer is None:
            return Encoded('{"data":[]}')
        return Encoded(answer.json)

    async def delta(self, uri: str, previous: str) -> Union[Encoded, types.SemanticTokensDelta]:
        """Only what changed since the answer ``previous`` (a full answer when it is unknown)."""
        last = self.sent.get(uri)
        answer = await self.answer(uri)
        if answer is None:
            return Encoded('{"data":[]}')
        if last is None or _result_id(last) != previous:
            return Encoded(answer.json)
        start, count, insert = TokenLines.delta(last, answer)
        edits = [types.SemanticTokensEdit(start=start, delete_count=count, data=insert)] if count or insert else []
        return types.SemanticTokensDelta(edits=edits, result_id=_result_id(answer))

    async def range(self, params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
        rng = params.range
        return await self.lines(params.text_document.uri, rng.start.line, range_end(rng))

    async def lines(self, uri: str, start: int, end: int) -> types.SemanticTokens:
        """The tokens of lines [start, end)."""
        # A large document being opened is built in the background first:
        # VS Code asks for the range's tokens with its first hints, and
        # building the model here held those hints 0.3-0.6 s at 100k lines.
        await self.manager.wait_opened(uri)
        return types.SemanticTokens(data=self.data(uri, start, end))


def range_end(rng: types.Range) -> int:
    """The line after a range's last (its end at column 0: that line is not in it)."""
    return rng.end.line + (1 if rng.end.character > 0 else 0)


class _Same:
    """Compares by identity (a draft or model in a cache key)."""

    __slots__ = ("obj",)

    def __init__(self, obj) -> None:
        self.obj = obj

    def __eq__(self, other) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


def _result_id(answer: Answer) -> str:
    return answer.result_id
