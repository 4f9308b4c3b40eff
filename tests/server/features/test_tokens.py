"""Semantic tokens without a client: the changed and unmatched words, their
columns in each position encoding, range against full, and the cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from bleu_ls.postedit import DraftTrack
from bleu_ls.server.features.tokens import TOKEN_TYPES, Tokens, line_tokens
from bleu_ls.server.pairs.manager import PairManager

ENCODINGS = {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}
UNIT = {"utf-8": 1, "utf-16": 2, "utf-32": 4}


def decode(data: list[int], lines: list[str], encoding: str) -> list[tuple[int, str, str, int]]:
    """(line, word, token type, modifiers) per token, the word cut out of the
    line by its columns in ``encoding`` units (what a client does)."""
    assert len(data) % 5 == 0
    out = []
    line = col = 0
    for k in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[k : k + 5]
        assert dl >= 0 and length > 0
        col = dc if dl else col + dc
        line += dl
        raw = lines[line].encode(ENCODINGS[encoding], "surrogatepass")
        u = UNIT[encoding]
        word = raw[col * u : (col + length) * u].decode(ENCODINGS[encoding])
        out.append((line, word, TOKEN_TYPES[kind], mods))
    return out


@pytest.fixture(autouse=True)
def _cache_of_our_own(tmp_path_factory, monkeypatch):
    """The drafts the server keeps go to a cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


class FakeClient:
    def text_document_publish_diagnostics(self, params) -> None:
        pass

    def window_show_message(self, params) -> None:
        pass


DRAFT = ["the cat sat on the mat", "Grüße aus 😀 Köln", "unchanged line here", "ein Hund bellte"]
HYP = ["the small cat sat on a mat", "Grüße 😀 aus 𝔘𝔫𝔦 Köln", "unchanged line here", "ein Hund bellte laut"]
REF = ["the cat is on a mat", "Grüße aus Köln", "nothing here at all", "ein Hund bellte laut"]


def _manager(tmp_path: Path, encoding: str, *, ref: bool = True):
    (tmp_path / "news.hyp").write_text("\n".join(HYP) + "\n", encoding="utf-8")
    if ref:
        (tmp_path / "news.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    # the unmatched words are an opt-in view (off by default): on here
    (tmp_path / "bleu-ls.toml").write_text("[highlights]\nunmatched = true\n", encoding="utf-8")
    manager = PairManager(FakeClient())
    manager.roots = [tmp_path]
    manager.encoding = encoding
    manager.reload_settings()
    uri = (tmp_path / "news.hyp").as_uri()
    manager.open(uri, "\n".join(HYP) + "\n", 1)
    pair = manager.pair_for(uri)
    assert pair is not None
    return manager, pair, uri


def _edit(manager, uri: str, line: int, text: str, version: int) -> None:
    doc = manager.docs[uri]
    end = doc.end_column(line)
    manager.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=end)),
                    text=text,
                )
            ],
        )
    )


def test_line_tokens_mark_changed_words_and_flag_the_unmatched_ones():
    toks = line_tokens("the small cat sat on a mat", "the cat sat on the mat", ["the cat is on a mat"])
    line = "the small cat sat on a mat"
    got = [(line[s:e], TOKEN_TYPES[t], m) for s, e, t, m in toks]
    assert got == [("small", "bleuChanged", 1), ("sat", "bleuUnmatched", 0), ("a", "bleuChanged", 0)]
    assert line_tokens("a b", None, None) == []
    assert line_tokens("a b", "a b", ["a b"]) == []


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
async def test_changed_words_with_astral_characters_and_umlauts(tmp_path, encoding):
    manager, pair, uri = _manager(tmp_path, encoding, ref=False)
    pair.draft = DraftTrack(DRAFT, HYP)
    pair.settings.highlights.unmatched = False
    tokens = Tokens(manager)
    got = decode(tokens.data(uri), HYP, encoding)
    # SequenceMatcher keeps "Grüße aus Köln" and sees "😀" (moved) and "𝔘𝔫𝔦" as inserted
    assert got == [
        (0, "small", "bleuChanged", 0),
        (0, "a", "bleuChanged", 0),
        (1, "😀", "bleuChanged", 0),
        (1, "𝔘𝔫𝔦", "bleuChanged", 0),
        (3, "laut", "bleuChanged", 0),
    ]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
async def test_unmatched_words_and_range_agrees_with_full(tmp_path, encoding):
    manager, pair, uri = _manager(tmp_path, encoding)
    pair.settings.highlights.changed = False
    tokens = Tokens(manager)
    full = tokens.data(uri)
    got = decode(full, HYP, encoding)
    assert got == [
        (0, "small", "bleuUnmatched", 0),
        (0, "sat", "bleuUnmatched", 0),
        (1, "😀", "bleuUnmatched", 0),
        (1, "𝔘𝔫𝔦", "bleuUnmatched", 0),
        (2, "unchanged", "bleuUnmatched", 0),
        (2, "line", "bleuUnmatched", 0),
    ]
    for start, end in [(0, 1), (1, 3), (2, 4), (0, 4), (3, 4)]:
        part = decode(tokens.data(uri, start, end), HYP, encoding)
        assert part == [t for t in got if start <= t[0] < end]


async def test_switched_off_kinds_give_no_tokens(tmp_path):
    manager, pair, uri = _manager(tmp_path, "utf-16")
    pair.draft = DraftTrack(DRAFT, HYP)
    pair.settings.highlights.changed = False
    pair.settings.highlights.unmatched = False
    assert Tokens(manager).data(uri) == []


async def test_an_edit_rebuilds_only_that_line(tmp_path):
    manager, pair, uri = _manager(tmp_path, "utf-16")
    pair.draft = DraftTrack(DRAFT, HYP)
    tokens = Tokens(manager)
    before = decode(tokens.data(uri), HYP, "utf-16")
    cache = tokens.cache_for(pair)
    assert cache.built == 4
    _edit(manager, uri, 3, "ein Hund bellte", 2)
    lines = HYP[:3] + ["ein Hund bellte"]
    after = decode(tokens.data(uri), lines, "utf-16")
    assert cache.built == 5
    assert [t for t in after if t[0] != 3] == [t for t in before if t[0] != 3]
    assert before[-1] == (3, "laut", "bleuChanged", 0)
    assert [t for t in after if t[0] == 3] == []  # back to the draft, and every word in the reference
    # a new full request after no edit computes nothing
    tokens.data(uri)
    assert cache.built == 5


def test_the_server_offers_full_and_range_with_its_legend():
    from bleu_ls.server.server import create_server

    fm = create_server().protocol.fm
    for method in (
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA,
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
    ):
        assert method in fm.features
        assert list(fm.feature_options[method].token_types) == ["bleuChanged", "bleuUnmatched"]


def test_highlight_settings_parse_and_a_wrong_type_is_one_sentence():
    from bleu_ls.config.settings import Settings

    problems: list[str] = []
    s = Settings.from_dict({"highlights": {"unmatched": False, "changed": "yes"}}, problems)
    assert s.highlights.unmatched is False and s.highlights.changed is True
    assert problems == ["highlights.changed must be true or false; kept True"]


async def test_a_line_inserted_since_the_draft_is_all_changed(tmp_path):
    manager, pair, uri = _manager(tmp_path, "utf-8", ref=False)
    pair.draft = DraftTrack(HYP, HYP)
    manager.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=0)),
                    text="ganz neu hier\n",
                )
            ],
        )
    )
    lines = HYP[:1] + ["ganz neu hier"] + HYP[1:]
    got = decode(Tokens(manager).data(uri), lines, "utf-8")
    assert got == [(1, "ganz", "bleuChanged", 0), (1, "neu", "bleuChanged", 0), (1, "hier", "bleuChanged", 0)]


def test_delta_edit_turns_the_old_answer_into_the_new_one():
    import random

    from bleu_ls.server.views.token_lines import delta_edit

    rnd = random.Random(5)
    for _ in range(300):
        old = [rnd.randrange(4) for _ in range(rnd.randrange(0, 9000))]
        new = list(old)
        a = rnd.randrange(len(new) + 1)
        b = min(len(new), a + rnd.randrange(0, 50))
        new[a:b] = [rnd.randrange(4) for _ in range(rnd.randrange(0, 50))]
        start, count, data = delta_edit(old, new)
        assert old[:start] + data + old[start + count :] == new
        assert count <= b - a and len(data) <= len(new) - len(old) + (b - a)
    assert delta_edit([1, 2, 3], [1, 2, 3]) == (3, 0, [])
