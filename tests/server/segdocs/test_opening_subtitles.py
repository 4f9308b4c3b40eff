"""A large subtitle file opens in two steps too (segdocs/opening.py): the time offset
estimated from the first cues of both files, those cues paired by time, the rows no
unread cue can join shown at once; after the whole read the state is exactly a one-step
open's (a differential property over random timings), and the editor is asked to refresh
(a prefix whose offset is not the whole file's gets its hints corrected then)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.server.segdocs import opening
from bleu_ls.formats.subtitles import estimate_offset, read_srt

from .test_opening import _docs, _hints, _state

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "subtitles"
WORDS = "the cat sat on a mat dog ran fast and slow we will meet at noon".split()


def _clock(ms: int, sep: str = ",") -> str:
    ms = max(0, ms)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{milli:03d}"


def _srt(cues: list[tuple[int, int, str]]) -> str:
    return "\n".join(f"{k + 1}\n{_clock(a)} --> {_clock(b)}\n{t}\n" for k, (a, b, t) in enumerate(cues))


def _film(seed: int, n: int, shift: int, split_every: int = 0, merge_every: int = 0, late_shift: int = 0,
          late_from: int = 10**9) -> list[tuple[int, int, str]]:
    """Cues of one film: the same dialogue times (a gap of 0.1-3 s, 0.8-4 s long) in every
    seed's words, moved by ``shift`` ms (``late_shift`` more from cue ``late_from``), some
    cues split in two or merged with the next."""
    times = random.Random(99)
    rng = random.Random(seed)
    out, t = [], 1000
    for k in range(n):
        t += times.randrange(100, 3000)
        d = times.randrange(800, 4000)
        a, b = t + shift + (late_shift if k >= late_from else 0), t + d + shift + (late_shift if k >= late_from else 0)
        t += d
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 9)))
        if split_every and k % split_every == split_every - 1:
            mid = (a + b) // 2
            out += [(a, mid - 20, words), (mid, b, "and " + words)]
        elif merge_every and k % merge_every == merge_every - 1 and out:
            pa, _, pw = out.pop()
            out.append((pa, b, pw + " " + words))
        else:
            out.append((a, b, words))
    return out


@pytest.fixture
def small_steps(monkeypatch):
    monkeypatch.setattr(opening, "LARGE_CHARS", 0)
    monkeypatch.setattr(opening, "PREFIX_SEGMENTS", 60)
    monkeypatch.setattr(opening, "REF_PREFIX_SEGMENTS", 90)
    monkeypatch.setattr(opening, "START_DELAY", 0)


def _one_and_two_steps(root: Path, uri: str, text: str):
    """(the one-step open's state, the first hints of the two-step open, its state after the whole read, its refreshes)."""
    whole = _docs(root)
    whole.open(uri, text, 1)  # no event loop: at once
    assert whole.docs[uri].loading is None
    expected = _state(whole, uri)

    async def run():
        docs = _docs(root)
        docs.open(uri, text, 1)
        sp = docs.docs[uri]
        assert sp.loading is not None
        first = _hints(docs, uri)
        await sp.loading
        return docs, first

    docs, first = asyncio.run(run())
    return expected, first, _state(docs, uri), docs.manager.publisher.refreshes, docs.docs[uri]


def test_first_subtitle_hints_are_the_complete_answers_and_the_end_state_a_one_step_open(tmp_path, small_steps):
    hyp = _srt(_film(1, 400, 0, merge_every=17))
    (tmp_path / "film.ref.srt").write_text(_srt(_film(2, 430, 7300, split_every=9)), encoding="utf-8")
    uri = (tmp_path / "film.hyp.srt").as_uri()
    expected, first, after, refreshes, sp = _one_and_two_steps(tmp_path, uri, hyp)
    assert abs(sp.offset_ms - 7300) <= 20  # rounded to 40 ms
    assert len(first) > 30 and set(first) <= set(expected[0])
    assert max(line for line, _, _ in first) < max(line for line, _, _ in expected[0])
    assert after == expected and refreshes == 1
    assert any(len(r) == 2 for r in sp.row_refs)  # split cues: one hypothesis cue against two


def test_a_prefix_timed_apart_from_the_rest_is_corrected_by_the_whole_read(tmp_path, small_steps):
    # the reference's first 40 cues are 3 s later than the rest: the first hints pair them with
    # that offset, the whole read with the whole file's (and the editor is asked to refresh)
    hyp = _srt(_film(1, 400, 0))
    ref = _film(2, 400, 0, late_shift=-3000, late_from=40)
    ref = [(a + 3000, b + 3000, w) for a, b, w in ref]
    (tmp_path / "film.ref.srt").write_text(_srt(ref), encoding="utf-8")
    uri = (tmp_path / "film.hyp.srt").as_uri()
    h, r = read_srt(hyp).segments, read_srt(_srt(ref)).segments
    assert estimate_offset(h[:60], r[:90]) != estimate_offset(h, r)
    expected, first, after, refreshes, _ = _one_and_two_steps(tmp_path, uri, hyp)
    assert first and not set(first) <= set(expected[0])  # the prefix's rows: corrected after the whole read
    assert after == expected and refreshes == 1


def test_the_real_pair_in_two_timings_pairs_cue_for_cue_in_two_steps(tmp_path, monkeypatch):
    monkeypatch.setattr(opening, "LARGE_CHARS", 0)
    monkeypatch.setattr(opening, "PREFIX_SEGMENTS", 6)
    monkeypatch.setattr(opening, "REF_PREFIX_SEGMENTS", 9)
    monkeypatch.setattr(opening, "START_DELAY", 0)

    def later(m):  # the film's own release: the dialogue 88.55 s later than this cut
        h, mi, s, ms = map(int, re.match(r"(\d+):(\d+):(\d+)\.(\d+)", m.group(0)).groups())
        return _clock(((h * 60 + mi) * 60 + s) * 1000 + ms + 88_550, ".")

    en = re.sub(r"\d{2}:\d{2}:\d{2}\.\d{3}", later, (DATA / "sintel-en.vtt").read_text(encoding="utf-8"))
    (tmp_path / "sintel.ref.vtt").write_text((DATA / "sintel-de.vtt").read_text(encoding="utf-8"), encoding="utf-8")
    uri = (tmp_path / "sintel.hyp.vtt").as_uri()
    expected, first, after, refreshes, sp = _one_and_two_steps(tmp_path, uri, en)
    assert abs(sp.offset_ms + 88_550) <= 20
    assert sp.row_hs.tolist() == list(range(14)) and sp.row_refs == [[i] for i in range(14)]
    assert first and set(first) <= set(expected[0])
    assert after == expected and refreshes == 1


@st.composite
def _timings(draw):
    n = draw(st.integers(5, 160))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    shift = draw(st.sampled_from([0, 120, -700, 2500, 61_000]))
    hyp, ref, t = [], [], 500
    for _ in range(n):
        t += rng.randrange(0, 1500)
        d = rng.randrange(1, 5000)
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 5)))
        kind = rng.random()
        if kind < 0.08:  # only in the hypothesis
            hyp.append((t, t + d, words))
        elif kind < 0.16:  # only in the reference
            ref.append((t + shift, t + d + shift, words))
        elif kind < 0.26:  # split in the reference
            hyp.append((t, t + d, words))
            ref += [(t + shift, t + shift + d // 2, words), (t + shift + d // 2, t + d + shift, "b " + words)]
        else:
            hyp.append((t, t + d, words))
            jitter = rng.randrange(-300, 300)
            ref.append((t + shift + jitter, t + d + shift + jitter, words[::-1]))
        t += d - rng.randrange(0, 400) * (rng.random() < 0.1)  # a few overlapping cues
    if draw(st.booleans()) and len(hyp) > 3:  # one cue out of time order
        k = rng.randrange(1, len(hyp))
        hyp.insert(rng.randrange(0, k), hyp.pop(k))
    return hyp, ref, draw(st.integers(1, 40)), draw(st.integers(1, 60))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=_timings())
def test_two_steps_end_as_one_step_for_random_timings(tmp_path_factory, monkeypatch, case):
    hyp_cues, ref_cues, n_hyp, n_ref = case
    root = tmp_path_factory.mktemp("subs")
    monkeypatch.setattr(opening, "LARGE_CHARS", 0)
    monkeypatch.setattr(opening, "PREFIX_SEGMENTS", n_hyp)
    monkeypatch.setattr(opening, "REF_PREFIX_SEGMENTS", n_ref)
    monkeypatch.setattr(opening, "START_DELAY", 0)
    hyp = _srt(hyp_cues)
    (root / "a.ref.srt").write_text(_srt(ref_cues), encoding="utf-8")
    uri = (root / "a.hyp.srt").as_uri()
    if not ref_cues:
        return
    expected, first, after, refreshes, sp = _one_and_two_steps(root, uri, hyp)
    assert after == expected and refreshes == 1
    h, r = read_srt(hyp).segments, read_srt(_srt(ref_cues)).segments
    starts = [int(s.extra["start_ms"]) for s in h]
    if estimate_offset(h[:n_hyp], r[:n_ref]) == estimate_offset(h, r) and starts == sorted(starts):
        # the prefix's offset is the whole file's and the timing in time order: every first hint is final
        assert set(first) <= set(expected[0])


def test_an_edit_during_the_whole_read_ends_as_a_fresh_open_of_the_edited_text(tmp_path, small_steps):
    from lsprotocol import types

    hyp = _srt(_film(1, 300, 0))
    (tmp_path / "film.ref.srt").write_text(_srt(_film(2, 300, 7300, split_every=9)), encoding="utf-8")
    uri = (tmp_path / "film.hyp.srt").as_uri()
    lines = hyp.split("\n")
    t = 6  # the second cue's text line: a word typed; the tenth cue deleted (its four lines)
    d0 = lines.index("10")
    edited = list(lines)
    edited[t] = "zebra " + edited[t]
    del edited[d0:d0 + 4]
    edited_text = "\n".join(edited)
    fresh = _docs(tmp_path)
    fresh.open(uri, edited_text, 3)
    expected = _state(fresh, uri)

    async def run():
        docs = _docs(tmp_path)
        docs.open(uri, hyp, 1)
        sp = docs.docs[uri]
        task = sp.loading
        for v, (l0, l1, new) in enumerate([(t, t, "zebra "), (d0, d0 + 4, "")], start=2):
            rng = types.Range(start=types.Position(line=l0, character=0), end=types.Position(line=l1, character=0))
            docs.change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))
            await asyncio.sleep(0)
        assert sp.loading is task and sp.index.text == edited_text
        during = _hints(docs, uri)  # the prefix read and paired again: the edited text's
        await task
        return docs, during

    docs, during = asyncio.run(run())
    assert during and set(during) <= set(expected[0])
    assert _state(docs, uri) == expected
