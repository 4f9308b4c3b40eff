"""Edits made while a large document is still being opened (opening.py):
they do not finish the open; the preview answers from the edited text; at
the end the pair is what a fresh open of the final text gives (scores equal
sacrebleu), with the text as first opened as its draft, and the same state
(model, HTER rows, findings) as when the same edits are made after an
ordinary open."""

from __future__ import annotations

import asyncio
import random

import pytest
import sacrebleu
from lsprotocol import types
from sacrebleu.metrics import TER

from bleu_ls.server.views.render import corpus_record

from .test_opening import WORDS, _expected, _hints, _manager, _pair_text


def _change(manager, uri: str, version: int, l1: int, c1: int, l2: int, c2: int, text: str) -> None:
    rng = types.Range(start=types.Position(line=l1, character=c1), end=types.Position(line=l2, character=c2))
    manager.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text)],
        )
    )


def _script(rnd: random.Random, lines: list[str], k: int, states: list) -> list[tuple]:
    """``k`` random edits (wire ranges; every character here is one UTF-16
    unit) applied to ``lines`` (the text split at "\\n"), which follow them;
    the scored lines after each edit are appended to ``states``."""
    out = []
    for _ in range(k):
        n = len(lines) - 1  # the last entry is the empty line after the final break
        i = rnd.randrange(n if rnd.random() < 0.5 else 70)  # half of them on the lines asked for
        kind = rnd.random()
        if kind < 0.5:  # within a line
            a = rnd.randint(0, len(lines[i]))
            b = rnd.randint(a, len(lines[i]))
            text = rnd.choice(["", " ".join(rnd.choices(WORDS, k=rnd.randint(1, 3))) + " "])
            lines[i] = lines[i][:a] + text + lines[i][b:]
            out.append((i, a, i, b, text))
        elif kind < 0.7:  # a new line
            new = " ".join(rnd.choices(WORDS, k=rnd.randint(2, 8)))
            lines.insert(i, new)
            out.append((i, 0, i, 0, new + "\n"))
        elif kind < 0.85 and n > 2:  # a line deleted
            del lines[i]
            out.append((i, 0, i + 1, 0, ""))
        else:  # across lines
            j = min(n - 1, i + rnd.randint(0, 2))
            a = rnd.randint(0, len(lines[i]))
            b = rnd.randint(0, len(lines[j])) if j > i else rnd.randint(a, len(lines[i]))
            mid = rnd.choice(["", "x\ny", " the "])
            joined = lines[i][:a] + mid + lines[j][b:]
            lines[i : j + 1] = joined.split("\n")
            out.append((i, a, j, b, mid))
        states.append(lines[:-1])
    return out


async def _settled(manager, uri):
    pair = manager.pair_for(uri)
    await manager.wait_scored(pair)
    await manager.wait_effort(pair)
    await manager.wait_analysed(pair)
    return pair


def _state(manager, pair) -> dict:
    model = pair.model
    effort = pair.effort
    return {
        "hyp": list(model.hyp),
        "values": {k: list(model.values(k)) for k in model.metrics},
        "stats": {k: model.corpus(k).score for k in model.metrics},
        "draft": list(pair.draft.draft),
        "partners": pair.draft.partner.tolist(),
        "hter": [effort.line(i) for i in range(len(effort.lines))],
        "effort": effort.corpus(),
        "findings": sorted((f.line, f.code, f.message, f.start_col, f.end_col) for f in manager.findings(pair)),
    }


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_edits_while_opening_end_as_after_an_ordinary_open(tmp_path, monkeypatch, seed):
    hyp, ref = _pair_text(2_500, seed=seed + 10)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()
    opened_text = "\n".join(hyp) + "\n"
    rnd = random.Random(seed)
    lines = opened_text.split("\n")
    states: list[list[str]] = []
    script = _script(rnd, lines, 25, states)
    final = lines[:-1]  # the scored lines
    steps = [rnd.randint(0, 3) for _ in script]

    async def lazy_run():
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-lazy"))
        manager, _client = _manager(tmp_path, monkeypatch)
        manager.open(uri, opened_text, 1)
        pair = manager.peek(uri)
        gen = pair.opening
        queued_while_opening = 0
        for v, (edit, k) in enumerate(zip(script, steps), start=2):
            for _ in range(k):  # the background steps go on between edits
                if pair.opening is gen:
                    next(gen, None)
            opening_before = pair.opening is not None
            _change(manager, uri, v, *edit)
            if opening_before:
                queued_while_opening += 1
                assert pair.opening is gen  # the edit did not finish the open
            if pair.preview is not None and v % 3 == 0:  # the preview answers from the edited text
                now = states[v - 2]
                assert _hints(manager, uri, 0, 60) == _expected(now, ref, 0, 60)
                assert pair.opening is gen
        assert queued_while_opening >= 3
        if pair.preview is not None:  # the preview answers from the edited text
            assert _hints(manager, uri, 0, 60) == _expected(final, ref, 0, 60)
            assert pair.opening is gen
        built = await _settled(manager, uri)
        assert built.opening is None and built.preview is None
        state = _state(manager, built)
        manager.shutdown()
        return state

    async def eager_run():
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-eager"))
        manager, _client = _manager(tmp_path, monkeypatch, lazy=False)
        manager.open(uri, opened_text, 1)
        for v, edit in enumerate(script, start=2):
            _change(manager, uri, v, *edit)
        state = _state(manager, await _settled(manager, uri))
        manager.shutdown()
        return state

    lazy = asyncio.run(lazy_run())
    eager = asyncio.run(eager_run())
    # the oracles: sacrebleu on the final text, the draft is the text as opened
    n = min(len(final), len(ref))
    stripped = [h.rstrip() for h in final[:n]]
    assert lazy["hyp"] == [h.rstrip() for h in final]
    assert lazy["stats"]["bleu"] == sacrebleu.corpus_bleu(stripped, [ref[:n]]).score
    for i in random.Random(seed).sample(range(n), 40):
        assert lazy["values"]["bleu"][i] == pytest.approx(sacrebleu.sentence_bleu(stripped[i], [ref[i]]).score)
    assert lazy["draft"] == hyp
    ter = TER(case_sensitive=True)
    checked = 0
    for i, p in enumerate(lazy["partners"]):
        if p >= 0 and hyp[p] != final[i] and final[i].strip():
            assert lazy["hter"][i]["score"] == pytest.approx(ter.sentence_score(hyp[p], [final[i]]).score)
            checked += 1
    assert checked >= 5
    # the differential: the same state as the same edits made after an ordinary open
    assert lazy == eager


def test_an_edit_before_the_text_is_split_keeps_the_text_as_opened(tmp_path, monkeypatch):
    """The first edit comes before the background steps start: the lines as
    opened are kept then (the draft), the edit is not in them."""
    hyp, ref = _pair_text(3_000, seed=21)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, _client = _manager(tmp_path, monkeypatch)
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.peek(uri)
        assert not manager.docs[uri].is_split
        _change(manager, uri, 2, 3, 0, 3, 0, "dog ")
        _change(manager, uri, 3, 2_900, 0, 2_901, 0, "")
        assert pair.model is None and pair.opening is not None
        final = list(hyp)
        final[3] = "dog " + final[3]
        del final[2_900]
        assert _hints(manager, uri, 0, 10) == _expected(final, ref, 0, 10)
        built = await _settled(manager, uri)
        assert built.draft.draft == hyp
        assert built.model.hyp == [h.rstrip() for h in final]
        n = min(len(final), len(ref))
        assert corpus_record(built)["corpus"]["score"] == sacrebleu.corpus_bleu(
            [h.rstrip() for h in final[:n]], [ref[:n]]
        ).score
        manager.shutdown()

    asyncio.run(run())


def test_the_preview_leaves_a_line_over_the_cap_to_the_model(tmp_path, monkeypatch):
    """A line over maxLineBytes is never scored by the preview (on the event
    loop); the editor is asked again once the model has counted it."""
    hyp, ref = _pair_text(3_000, seed=22)
    hyp[4] = " ".join(["cat"] * 400)
    ref[4] = " ".join(["cat"] * 300)
    (tmp_path / "big.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    uri = (tmp_path / "big.hyp").as_uri()

    async def run():
        manager, client = _manager(tmp_path, monkeypatch)
        manager.init_options = {"maxLineBytes": 1_000}
        manager.reload_settings()
        manager.open(uri, "\n".join(hyp) + "\n", 1)
        pair = manager.peek(uri)
        expected = _expected(hyp, ref, 0, 10)
        got = _hints(manager, uri, 0, 10)
        assert 4 in expected and got == {i: v for i, v in expected.items() if i != 4}
        assert pair.preview.long_left_out
        await _settled(manager, uri)
        await asyncio.sleep(0.5)  # the refresh request goes out after a short delay
        assert client.refreshes >= 1
        assert _hints(manager, uri, 0, 10) == expected
        manager.shutdown()

    asyncio.run(run())
