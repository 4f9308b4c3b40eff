"""A large segment document opens in two steps (segdocs/opening.py): the first hints
come from its first segments paired by key, equal to the complete answer's for those
rows; the whole is read in a thread; an edit made meanwhile ends in the state a fresh
open of the edited text gives."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from lsprotocol import types

from bleu_ls.server.segdocs import opening
from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.config.settings import Settings

WORDS = "the cat sat on a mat dog ran fast and slow we will meet at noon".split()


def _words(rng: random.Random, n: int = 6) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _xlf(ids: list[int], seed: int) -> str:
    rng = random.Random(seed)
    units = "\n".join(
        f'<trans-unit id="u{i}">\n<source>src {i % 37} {_words(rng, 3)}</source>\n<target>{_words(rng)}</target>\n</trans-unit>'
        for i in ids
    )
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'<file original="app" source-language="en" target-language="de" datatype="plaintext">\n<body>\n{units}\n</body>\n</file>\n</xliff>\n')


def _po(ids: list[int], seed: int) -> str:
    rng = random.Random(seed)
    out = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n']
    for i in ids:
        if i % 11 == 0:
            out.append(f'msgid "one {i}"\nmsgid_plural "many {i}"\nmsgstr[0] "{_words(rng)}"\nmsgstr[1] "{_words(rng)}"\n')
        else:
            out.append(f'#: a.c:{i}\nmsgid "entry {i}"\nmsgstr "{_words(rng)}"\n')
    return "\n".join(out)


def _pair(kind: str) -> tuple[str, str, str]:
    """(extension, hypothesis text, reference text): the reference in another order, some units missing."""
    rng = random.Random(5)
    ids = list(range(1500 if kind == "xlf" else 400))
    ref_ids = [i for i in ids if i % 13 != 4]
    for _ in range(60):  # a little out of order
        a = rng.randrange(len(ref_ids) - 5)
        ref_ids[a], ref_ids[a + 3] = ref_ids[a + 3], ref_ids[a]
    ref_ids += [1000 + i for i in range(20)]  # reference units the hypothesis does not have
    make = _xlf if kind == "xlf" else _po
    return kind, make(ids, 1), make(ref_ids, 2)


class _Publisher:
    def __init__(self) -> None:
        self.refreshes = 0

    def schedule_refresh(self) -> None:
        self.refreshes += 1


def _docs(root: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: root,
                              client=None, publisher=_Publisher())
    return SegmentDocs(manager)  # type: ignore[arg-type]


def _hints(docs: SegmentDocs, uri: str) -> list[tuple[int, int, str]]:
    params = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10**6, character=0)),
    )
    return [(h.position.line, h.position.character, h.label) for h in docs.hints(params)]


def _state(docs: SegmentDocs, uri: str):
    sp = docs.docs[uri]
    return (_hints(docs, uri), list(sp.model.hyp), list(sp.model.refs[0]), sp.row_hs.tolist(), sp.row_refs,
            sp.unpaired_hyp, sp.unpaired_ref, [(s.key, s.target, s.target_span) for s in sp.index.segments()])


@pytest.fixture
def small_steps(monkeypatch):
    monkeypatch.setattr(opening, "LARGE_CHARS", 0)
    monkeypatch.setattr(opening, "PREFIX_SEGMENTS", 60)
    monkeypatch.setattr(opening, "REF_PREFIX_SEGMENTS", 90)
    monkeypatch.setattr(opening, "START_DELAY", 0)


@pytest.mark.parametrize("kind", ["xlf", "po"])
def test_first_hints_from_the_prefix_equal_the_complete_answer(tmp_path, small_steps, kind):
    ext, hyp, ref = _pair(kind)
    (tmp_path / f"a.ref.{ext}").write_text(ref, encoding="utf-8")
    uri = (tmp_path / f"a.hyp.{ext}").as_uri()

    whole = _docs(tmp_path)
    whole.open(uri, hyp, 1)  # no event loop: read at once
    assert whole.docs[uri].loading is None
    expected = _state(whole, uri)

    async def run():
        docs = _docs(tmp_path)
        docs.open(uri, hyp, 1)
        sp = docs.docs[uri]
        assert sp.loading is not None and len(sp.index) < 1000 and len(sp.index) < len(whole.docs[uri].index)  # the first segments only
        first = _hints(docs, uri)
        await sp.loading
        return docs, first

    docs, first = asyncio.run(run())
    assert len(first) > 20
    assert set(first) <= set(expected[0])  # each first hint is the complete answer's, at its place
    last_line = max(line for line, _, _ in first)
    assert len(first) < len(expected[0]) and max(line for line, _, _ in expected[0]) > last_line
    assert _state(docs, uri) == expected
    assert docs.manager.publisher.refreshes == 1


@pytest.mark.parametrize("kind", ["xlf", "po"])
def test_an_edit_during_the_full_read_ends_as_a_fresh_open_of_the_edited_text(tmp_path, small_steps, kind):
    ext, hyp, ref = _pair(kind)
    (tmp_path / f"a.ref.{ext}").write_text(ref, encoding="utf-8")
    uri = (tmp_path / f"a.hyp.{ext}").as_uri()
    lines = hyp.split("\n")
    # typing inside the third target, and a unit (an entry) deleted further down
    t = [k for k, s in enumerate(lines) if s.startswith(("<target>", 'msgstr "'))][2]
    col = len("<target>") if ext == "xlf" else len('msgstr "')
    if ext == "xlf":
        d0 = next(k for k, s in enumerate(lines) if s == '<trans-unit id="u200">')
        d1 = d0 + 4
    else:
        d0 = next(k for k, s in enumerate(lines) if s == '#: a.c:201')
        d1 = d0 + 4
    edits = [((t, col), (t, col), "zebra "), ((d0, 0), (d1, 0), "")]
    edited = hyp.split("\n")
    edited[t] = edited[t][:col] + "zebra " + edited[t][col:]
    del edited[d0:d1]
    edited_text = "\n".join(edited)

    fresh = _docs(tmp_path)
    fresh.open(uri, edited_text, 3)
    expected = _state(fresh, uri)

    async def run():
        docs = _docs(tmp_path)
        docs.open(uri, hyp, 1)
        sp = docs.docs[uri]
        task = sp.loading
        for v, ((l0, c0), (l1, c1), new) in enumerate(edits, start=2):
            rng = types.Range(start=types.Position(line=l0, character=c0), end=types.Position(line=l1, character=c1))
            docs.change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)],
            ))
            await asyncio.sleep(0)
        assert sp.loading is task and sp.index.text == edited_text
        during = _hints(docs, uri)  # the prefix read again: its hints are the edited text's
        await task
        return docs, during

    docs, during = asyncio.run(run())
    assert during and set(during) <= set(expected[0])
    assert docs.docs[uri].index.text == edited_text
    assert _state(docs, uri) == expected


def test_a_small_file_or_no_loop_opens_at_once(tmp_path):
    ext, hyp, ref = _pair("xlf")
    (tmp_path / f"a.ref.{ext}").write_text(ref, encoding="utf-8")
    uri = (tmp_path / f"a.hyp.{ext}").as_uri()

    async def run():
        docs = _docs(tmp_path)
        docs.open(uri, hyp, 1)  # under LARGE_CHARS
        return docs.docs[uri].loading, len(docs.docs[uri].index)

    assert asyncio.run(run()) == (None, 1500)


def test_a_malformed_prefix_opens_at_once(tmp_path, small_steps):
    ext, hyp, ref = _pair("xlf")
    (tmp_path / f"a.ref.{ext}").write_text(ref, encoding="utf-8")
    uri = (tmp_path / f"a.hyp.{ext}").as_uri()
    broken = hyp.replace("<target>", "<target", 1)

    async def run():
        docs = _docs(tmp_path)
        docs.open(uri, broken, 1)
        return docs.docs[uri]

    sp = asyncio.run(run())
    assert sp.loading is None and sp.index.problems
