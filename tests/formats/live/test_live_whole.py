"""The TMX index's fallback (live_whole.WholeIndex): read whole on an edit, it reports only the
segments between those the edit left as they were and those it moved — after
random edits its segments equal a fresh read, and the segments it says are kept
are the ones before the edit, or moved by it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.text as live_text
from bleu_ls.formats.live.whole import WholeIndex
from bleu_ls.formats.read import parse
from bleu_ls.formats.live.xml_reread import shift_segment

@pytest.fixture(autouse=True, scope="module")
def small_pieces():
    """The index's text in small pieces (formats/live/text.py): the edits cross them."""
    old, live_text.CHUNK = live_text.CHUNK, 64
    yield
    live_text.CHUNK = old


DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "tmx"
PIECES = ["<seg>Hello</seg>", "Bonjour", " ", "</tuv>", "x", "",
          '<tu tuid="z"><tuv xml:lang="en"><seg>Hello</seg></tuv><tuv xml:lang="fr"><seg>Salut</seg></tuv></tu>\n']


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["sample.tmx", "mixed-languages.tmx"]), data=st.data())
def test_the_change_names_every_segment_the_edit_touched(name, data):
    index = WholeIndex("tmx", (DATA / name).read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(1, 6))):
        before = index.segments()
        n, t = len(index), index.text
        if n and data.draw(st.booleans()):
            a, b = index.target_span(data.draw(st.integers(0, n - 1)))
            start = data.draw(st.integers(a, b))
            end = data.draw(st.integers(start, b))
        else:
            start = data.draw(st.integers(0, len(t)))
            end = min(len(t), start + data.draw(st.integers(0, 5)))
        ch = index.edit(start, end, data.draw(st.sampled_from(PIECES)))
        fresh = parse("tmx", b"", "buffer", text=index.text).segments
        assert index.segments() == fresh
        if ch.kind == "none":
            continue
        count = 1 if ch.kind == "text" else ch.count
        assert len(fresh) - count == len(before) - (ch.end - ch.start)
        assert fresh[: ch.start] == before[: ch.start]
        tail = len(before) - ch.end
        assert fresh[len(fresh) - tail :] == [shift_segment(s, ch.delta, ch.line_delta) for s in before[ch.end :]]
