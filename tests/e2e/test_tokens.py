"""Semantic tokens through the real server, in a UTF-16 (VS Code-like) and a
UTF-8 (Neovim-like) client: the words changed since the draft, the words
matching no reference word, range against full, and an edit's reach."""

from __future__ import annotations

import pytest
from lsprotocol import types

from bleu_ls.server.pairs.manager import Pair
from tests.server.features.test_tokens import decode

HYP = ["Grüße aus 😀 Köln", "the cat sat on the mat", "ein Hund bellte laut", "über 𝔘𝔫𝔦 Straße"]
REF = ["Grüße aus Köln", "the cat is on a mat", "ein Hund bellte", "über die Straße"]


@pytest.fixture(autouse=True)
def _cache_outside_the_workspace(tmp_path_factory, monkeypatch):
    """Drafts bleu-ls keeps go to a cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


def _open(session, name: str = "talk.hyp", ref: bool = True) -> str:
    session.write(name, "\n".join(HYP) + "\n")
    if ref:
        session.write(name.replace(".hyp", ".ref"), "\n".join(REF) + "\n")
    return session.open(name)


async def _full(session, uri: str) -> list[int]:
    res = await session.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(res.data) if res else []


async def _range(session, uri: str, start: int, end: int) -> list[int]:
    res = await session.client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)),
        )
    )
    return list(res.data) if res else []


async def test_unmatched_words_in_the_clients_encoding(session):
    uri = _open(session)
    got = decode(await _full(session, uri), HYP, session.encoding)
    # Without a draft of its own yet, every word is as first seen: only the reference speaks.
    unmatched = [(line, word) for line, word, kind, _m in got if kind == "bleuUnmatched"]
    assert unmatched == [(0, "😀"), (1, "sat"), (1, "the"), (2, "laut"), (3, "𝔘𝔫𝔦")]
    assert not [t for t in got if t[2] == "bleuChanged"]


async def test_range_agrees_with_full_and_an_edit_reaches_only_its_line(session):
    uri = _open(session)
    full = decode(await _full(session, uri), HYP, session.encoding)
    for start, end in [(0, 1), (1, 3), (3, 4), (0, 4)]:
        part = decode(await _range(session, uri, start, end), HYP, session.encoding)
        assert part == [t for t in full if start <= t[0] < end]
    # line 2: "laut" goes, "Köln" comes (not in that line's reference)
    edited = "ein Hund bellte Köln"
    col = len("ein Hund bellte ")
    session.change(uri, [{"range": ((2, col), (2, col + 4)), "text": "Köln"}])
    lines = HYP[:2] + [edited] + HYP[3:]
    after = decode(await _full(session, uri), lines, session.encoding)
    assert [t for t in after if t[0] != 2] == [t for t in full if t[0] != 2]
    assert [(w, k) for line, w, k, _m in after if line == 2] in (
        [("Köln", "bleuUnmatched")],
        [("Köln", "bleuChanged")],  # with a draft, the new word is a changed one (and unmatched)
    )


@pytest.mark.skipif("draft" not in Pair.__dataclass_fields__, reason="this server has no draft yet (issue 9, item 2)")
async def test_changed_words_against_the_draft(session):
    uri = _open(session, "notes.hyp", ref=False)
    await _full(session, uri)  # the text as first seen is the draft
    # line 0: "😀" becomes "🎉 sehr"; line 3: "𝔘𝔫𝔦" becomes "die"
    a = len("Grüße aus ".encode("utf-16-le")) // 2 if session.encoding == "utf-16" else len("Grüße aus ".encode())
    w = 2 if session.encoding == "utf-16" else 4
    session.change(uri, [{"range": ((0, a), (0, a + w)), "text": "🎉 sehr"}])
    b = len("über ".encode("utf-16-le")) // 2 if session.encoding == "utf-16" else len("über ".encode())
    session.change(uri, [{"range": ((3, b), (3, b + 3 * w)), "text": "die"}])
    lines = ["Grüße aus 🎉 sehr Köln", HYP[1], HYP[2], "über die Straße"]
    got = decode(await _full(session, uri), lines, session.encoding)
    assert [(line, word, kind) for line, word, kind, _m in got] == [
        (0, "🎉", "bleuChanged"),
        (0, "sehr", "bleuChanged"),
        (3, "die", "bleuChanged"),
    ]


async def test_a_delta_request_sends_only_what_changed(session):
    uri = _open(session)
    res = await session.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    old, rid = list(res.data), res.result_id
    assert rid
    col = len("ein Hund bellte ")
    session.change(uri, [{"range": ((2, col), (2, col + 4)), "text": "Köln"}])
    delta = await session.client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=rid)
    )
    assert isinstance(delta, types.SemanticTokensDelta) and delta.result_id != rid
    data = list(old)
    for edit in sorted(delta.edits, key=lambda e: -e.start):
        data[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
    assert data == await _full(session, uri)
    assert sum(len(e.data or []) for e in delta.edits) <= 10  # one line's tokens, not the document's


@pytest.mark.parametrize("kind", ["vscode", "neovim"])
async def test_full_and_delta_after_many_edits_equal_tokens_from_scratch(tmp_path, kind):
    """Random edits (in-line changes, lines inserted and deleted, across the
    server's blocks of lines): every full answer equals the tokens computed
    afresh for the text as it is now, and each delta applied to the previous
    answer gives the same integers."""
    import random

    from bleu_ls.server.features.tokens import _encode, line_tokens

    from .conftest import _close, _session

    session = await _session(kind, tmp_path, init_options={"bleuLs": {"highlights": {"changed": False}}})
    try:
        await _many_edits(session, random, _encode, line_tokens)
    finally:
        await _close(session)


async def _many_edits(session, random, _encode, line_tokens):
    rnd = random.Random(9)
    words = ["the", "cat", "Köln", "über", "😀", "Straße", "sat", "on", "a", "mat", "laut", "Hund"]
    n = 700  # several blocks of lines
    refs = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(0, 6))) for _ in range(n)]
    lines = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(0, 6))) for _ in range(n)]
    session.write("big.ref", "\n".join(refs) + "\n")
    session.write("big.hyp", "\n".join(lines) + "\n")
    uri = session.open("big.hyp")
    enc = session.encoding

    def scratch(cur):  # the unmatched words (changed words are switched off)
        out, prev = [], 0
        for i, line in enumerate(cur):
            r = [refs[i]] if i < len(refs) else None
            toks = _encode(line, line_tokens(line, None, r), enc) if line else ()
            if toks:
                out += [i - prev, *toks]
                prev = i
        return out

    res = await session.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    data, rid = list(res.data), res.result_id
    assert data == scratch(lines)
    for step in range(25):
        i = rnd.randrange(len(lines))
        kind = rnd.random()
        if kind < 0.5:  # a word typed in place
            w = rnd.choice(words) + " "
            session.change(uri, [{"range": ((i, 0), (i, 0)), "text": w}])
            lines[i] = w + lines[i]
        elif kind < 0.75:  # lines inserted
            new = [" ".join(rnd.choice(words) for _ in range(3)) for _ in range(rnd.randrange(1, 4))]
            session.change(uri, [{"range": ((i, 0), (i, 0)), "text": "".join(x + "\n" for x in new)}])
            lines[i:i] = new
        else:  # lines deleted
            j = min(len(lines) - 1, i + rnd.randrange(1, 4))
            session.change(uri, [{"range": ((i, 0), (j, 0)), "text": ""}])
            del lines[i:j]
        if step % 2:
            delta = await session.client.text_document_semantic_tokens_full_delta_async(
                types.SemanticTokensDeltaParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=rid)
            )
            assert isinstance(delta, types.SemanticTokensDelta)
            for edit in sorted(delta.edits, key=lambda e: -e.start):
                data[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
            rid = delta.result_id
        else:
            res = await session.client.text_document_semantic_tokens_full_async(
                types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
            data, rid = list(res.data), res.result_id
        assert data == scratch(lines), step


async def test_a_large_files_first_full_answer_comes_at_once_and_the_rest_follows(session):
    """Over COLD_LINES lines still to compute, the full answer is given with
    the lines computed so far (here: those of a range request); the rest is
    computed in the background, the editor is asked to refresh, and the next
    full answer equals the tokens computed afresh."""
    import random

    from bleu_ls.server.features.tokens import COLD_LINES, _encode, line_tokens

    from .conftest import eventually

    rnd = random.Random(4)
    words = ["the", "cat", "Köln", "über", "😀", "Straße", "sat", "on", "a", "mat"]
    n = 2 * COLD_LINES + 300
    refs = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(1, 6))) for _ in range(n)]
    lines = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(1, 6))) for _ in range(n)]
    session.write("big.ref", "\n".join(refs) + "\n")
    session.write("big.hyp", "\n".join(lines) + "\n")
    uri = session.open("big.hyp")
    enc = session.encoding

    def scratch(rows):
        out, prev = [], 0
        for i in rows:
            toks = _encode(lines[i], line_tokens(lines[i], None, [refs[i]]), enc)
            if toks:
                out += [i - prev, *toks]
                prev = i
        return out

    want_range = scratch(range(100, 160))
    assert want_range
    assert await _range(session, uri, 100, 160) == want_range
    first = await _full(session, uri)
    everything = scratch(range(n))
    assert 0 < len(first) < len(everything)
    async def refreshed():
        return session.rec.tokens_refresh > 0

    assert await eventually(refreshed, timeout=120)
    assert await _full(session, uri) == everything
