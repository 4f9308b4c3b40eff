"""The server end to end: diagnostics, edits, references, corpus score,
settings, commands, hover — with VS Code-like and Neovim-like clients."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from pathlib import Path

import pytest
import sacrebleu
from lsprotocol import types

from bleu_ls.qa.analysis import CODES

from .conftest import _close, _session, eventually, units
from .test_source_checks import CODES_HERE as SOURCE_CODES
from .test_spelling import CODES_HERE as SPELLING_CODES
from .test_terms import CODES_HERE as TERM_CODES

#: codes whose findings through the real server are tested in their own modules
CODES_HERE = (*SOURCE_CODES, *TERM_CODES, *SPELLING_CODES, "rule",  # rule: the user's own rules (test_user_rules.py)
              "length-limit")  # off on line files until maxRatio is set (test_length_limit.py)

WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima "
    "mike november oscar papa quebec romeo sierra tango"
).split()


def corpus(n=30, seed=1):
    rnd = random.Random(seed)
    ref = [" ".join(rnd.sample(WORDS, 8)) for _ in range(n)]
    hyp = []
    for r in ref:
        toks = r.split()
        k = rnd.randrange(len(toks))
        toks[k] = rnd.choice(WORDS)
        if rnd.random() < 0.5:
            toks = toks[1:] + toks[:1]
        hyp.append(" ".join(toks))
    src = [f"quelle {i} " + r.upper() for i, r in enumerate(ref)]
    return hyp, ref, src


def crafted():
    hyp, ref, src = corpus()
    hyp[1] = "zulu yankee xray whiskey victor uniform tango papa"  # low-score
    hyp[2] = ""  # empty-hypothesis
    hyp[3] = src[3]  # untranslated (+ outlier: the document's weakest line)
    hyp[4] = " ".join(ref[4].split()[:2])  # length-ratio
    hyp[5] = "golf " * 9 + "golf"  # repetition
    return hyp[:28], ref, src  # line-count-mismatch


def text(lines):
    return "\n".join(lines) + "\n"


#: ``low-score`` is off by default (the hint shows the score): the tests of
#: its findings turn it on in the workspace
LOW_SCORE_ON = "[diagnostics.low_score]\nenabled = true\n"


def label_value(label: str, name: str = "BLEU") -> float:
    m = re.search(rf"{name} (-?[0-9.]+)", label)
    assert m, label
    return float(m.group(1))


@pytest.mark.workspace_toml(LOW_SCORE_ON)
async def test_every_diagnostic_code(any_session):
    s = any_session
    hyp, ref, src = crafted()
    s.write("d.ref", text(ref))
    s.write("d.src", text(src))
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    lone = s.open("lonely.hyp", "nothing pairs with me\n")
    lone_diags, _, _ = await s.diagnostics(lone)
    got = {d.code for d in diags} | {d.code for d in lone_diags}
    # those: test_source_checks.py (adequacy, on by default, may arrive later from its worker) and
    # test_terms.py (they need a glossary), test_user_rules.py (they need rules)
    assert got - set(CODES_HERE) == set(CODES) - set(CODES_HERE)
    assert all(d.source == "bleu-ls" for d in diags + lone_diags)
    by_code = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d.range.start.line)
    assert 1 in by_code["low-score"]
    assert by_code["empty-hypothesis"] == [2]
    assert by_code["untranslated"] == [3]
    assert by_code["length-ratio"] == [4]
    assert by_code["repetition"] == [5]
    assert by_code["line-count-mismatch"] == [27]
    [unpaired] = lone_diags
    assert unpaired.range.start.line == 0 and "lonely.ref" in unpaired.message


@pytest.mark.workspace_toml(LOW_SCORE_ON)
async def test_one_did_change_changes_that_line_only(any_session):
    s = any_session
    hyp, ref, src = crafted()
    hyp = hyp[:28]
    s.write("d.ref", text(ref[:28]))
    uri = s.open("d.hyp", text(hyp))
    before = {h.position.line: h.label for h in await s.hints(uri)}
    diags0, _, _ = await s.diagnostics(uri)
    c0 = await s.corpus(uri)
    assert c0["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref[:28]]).score
    # line 1 (low-score) becomes its reference with one word changed
    new_line = ref[1].replace(ref[1].split()[0], "zulu")
    s.change(uri, [{"range": ((1, 0), (1, units(hyp[1], s.encoding))), "text": new_line}])
    hyp2 = list(hyp)
    hyp2[1] = new_line
    after = {h.position.line: h.label for h in await s.hints(uri)}
    assert set(after) == set(before)
    changed = {i for i in after if after[i] != before[i]}
    assert changed == {1}
    assert label_value(after[1]) == round(sacrebleu.sentence_bleu(new_line, [ref[1]]).score, 1)
    diags1, _, _ = await s.diagnostics(uri)

    def key(ds, line=None):
        return sorted((d.code, d.range.start.line, d.message) for d in ds if line is None or d.range.start.line != line)

    assert "low-score" in {d.code for d in diags0 if d.range.start.line == 1}
    assert "low-score" not in {d.code for d in diags1 if d.range.start.line == 1}
    # outlier ranks the whole document; everything off line 1 unchanged otherwise
    assert [k for k in key(diags1, 1) if k[0] != "outlier"] == [k for k in key(diags0, 1) if k[0] != "outlier"]
    c1 = await s.corpus(uri)
    assert c1["corpus"]["score"] == sacrebleu.corpus_bleu(hyp2, [ref[:28]]).score
    assert c1["corpus"]["score"] != c0["corpus"]["score"]
    assert c1["delta"] == pytest.approx(c1["corpus"]["score"] - c0["corpus"]["score"])


async def test_corpus_score_equals_sacrebleu(session):
    s = session
    hyp, ref, _ = corpus(60, seed=7)
    _, ref2, _ = corpus(60, seed=8)
    s.write("m.ref", text(ref))
    s.write("m.ref2", text(ref2))
    s.write("m.hyp", text(hyp))
    uri = s.open("m.hyp")
    c = await s.corpus(uri)
    expected = sacrebleu.corpus_bleu(hyp, [ref, ref2])
    assert c["corpus"]["score"] == expected.score
    assert c["corpus"]["counts"] == expected.counts
    assert c["corpus"]["totals"] == expected.totals
    assert c["corpus"]["bp"] == expected.bp
    assert c["lines"] == 60
    # and the CLI's JSON on the same files
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "bleu_ls", "score", str(s.root / "m.hyp"), str(s.root / "m.ref"), str(s.root / "m.ref2"),
         "--format", "json"],
        capture_output=True, text=True, check=True, cwd=s.root,
    )
    cli = json.loads(out.stdout)
    assert c["corpus"] == cli["corpus"] and c["signature"] == cli["signature"]
    assert c["signature"].startswith("nrefs:2|")
    assert c["delta"] == 0.0
    # the code lens says the same
    lenses = await s.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert lenses[0].range.start.line == 0
    assert lenses[0].command.title.startswith(f"BLEU {expected.score:.2f} · 60 lines")
    assert "nrefs:2" in lenses[0].command.tooltip


async def test_reference_edited_in_open_buffer(session):
    s = session
    hyp, ref, _ = corpus(10)
    s.write("r.ref", text(ref))
    uri = s.open("r.hyp", text(hyp))
    ref_uri = s.open("r.ref")
    before = await s.hints(uri, 0, 9)
    refresh0 = s.rec.inlay_refresh
    # make reference line 4 equal to the hypothesis line (unsaved edit)
    s.change(ref_uri, [{"range": ((4, 0), (4, len(ref[4]))), "text": hyp[4]}])
    after = await eventually(
        lambda: _labels_if(s, uri, lambda hs: label_value(hs[4].label) == 100.0), timeout=2
    )
    assert after, "the hypothesis did not follow the reference buffer"
    assert [h.label for i, h in enumerate(after) if i != 4] == [h.label for i, h in enumerate(before) if i != 4]

    async def refreshed():
        return s.rec.inlay_refresh > refresh0

    assert await eventually(refreshed, timeout=1)  # both clients support inlayHint/refresh
    ref_now = list(ref)
    ref_now[4] = hyp[4]
    assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref_now]).score


async def _labels_if(s, uri, cond):
    hs = await s.hints(uri, 0, 9)
    return hs if hs and cond(hs) else None


async def test_reference_changed_on_disk_within_one_second(session):
    s = session
    hyp, ref, _ = corpus(10)
    ref_path = s.write("w.ref", text(ref))
    uri = s.open("w.hyp", text(hyp))
    await s.hints(uri)
    if s.kind == "vscode":
        await asyncio.sleep(0.2)
        methods = [r.method for r in s.rec.registrations]
        assert "workspace/didChangeWatchedFiles" in methods
    ref2 = list(ref)
    ref2[7] = hyp[7]
    ref_path.write_text(text(ref2), encoding="utf-8")
    t0 = time.monotonic()
    s.notify_disk(ref_path)  # VS Code: its watcher reports it; Neovim: the server polls
    got = await eventually(lambda: _labels_if(s, uri, lambda hs: label_value(hs[7].label) == 100.0), timeout=1.0)
    assert got, f"not reflected within {time.monotonic() - t0:.2f}s"
    assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref2]).score


async def test_pull_diagnostics_unchanged_when_nothing_changed(session):
    s = session
    hyp, ref, src = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, rid, unchanged = await s.diagnostics(uri)
    assert diags and rid and not unchanged
    _, rid2, unchanged2 = await s.diagnostics(uri, previous=rid)
    assert unchanged2 and rid2 == rid
    # an edit that changes a diagnostic gives a full report with a new id
    s.change(uri, [{"range": ((2, 0), (2, 0)), "text": ref[2]}])
    diags3, rid3, unchanged3 = await s.diagnostics(uri, previous=rid)
    assert not unchanged3 and rid3 != rid
    assert "empty-hypothesis" not in {d.code for d in diags3}


async def test_push_diagnostics_debounced_newest_version(push_session):
    s = push_session
    hyp, ref, _ = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, _, _ = await s.diagnostics(uri)
    assert "empty-hypothesis" in {d.code for d in diags}
    for ch in "abc":  # quick typing on the empty line
        s.change(uri, [{"range": ((2, 0), (2, 0)), "text": ch}])
    diags, _, _ = await s.diagnostics(uri)
    assert s.client.pushed_versions[uri] == s.versions[uri]
    assert "empty-hypothesis" not in {d.code for d in diags}


@pytest.mark.workspace_toml(LOW_SCORE_ON)
async def test_settings_change_takes_effect(session):
    s = session
    hyp, ref, _ = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    diags, rid, _ = await s.diagnostics(uri)
    assert "low-score" in {d.code for d in diags}
    hint0 = (await s.hints(uri, 0, 0))[0].label
    new = {"diagnostics": {"lowScore": {"enabled": False}}, "hints": {"bleuFormat": "B={bleu:.3f}"}}
    s.client.set_configuration(new, section="bleuLs")
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"bleuLs": new}))

    async def switched():
        d, _, _ = await s.diagnostics(uri)
        return d is not None and "low-score" not in {x.code for x in d} and d

    assert await eventually(switched, timeout=2)
    label = (await s.hints(uri, 0, 0))[0].label
    assert label.startswith("B=") and label != hint0
    assert float(label[2:]) == round(sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score, 3)


async def test_unchanged_settings_do_not_pair_again(session):
    """Editors send didChangeConfiguration at start-up and on any change of
    the user's settings (Neovim right after opening the first file): when
    bleu-ls's own settings did not change, the open pair is not built again
    (at 100k lines that cost ~0.3 s of the event loop, and every view was
    asked to refresh); a real change still takes effect."""
    s = session
    hyp, ref, _ = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))
    assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    await s.diagnostics(uri)

    def counts():
        return (s.rec.inlay_refresh, s.rec.lens_refresh, s.rec.tokens_refresh)

    async def quiet():  # the open's own background passes are over
        before = counts()
        await asyncio.sleep(0.6)
        return counts() == before
    assert await eventually(quiet, timeout=10)
    before = counts()
    for _ in range(3):
        s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"bleuLs": {}}))
    await s.hints(uri, 0, 0)  # the notifications were handled
    await asyncio.sleep(0.6)
    assert counts() == before
    new = {"hints": {"bleuFormat": "B={bleu:.2f}"}}
    s.client.set_configuration(new, section="bleuLs")
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"bleuLs": new}))

    async def refreshed():
        return s.rec.inlay_refresh > before[0]
    assert await eventually(refreshed, timeout=3)
    assert (await s.hints(uri, 0, 0))[0].label == f"B={sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score:.2f}"


async def test_incremental_edits_after_form_feed_and_line_separators(session):
    s = session
    hyp = ["one\fpage break", "two\u2028still two", "three\x85still three", "four", "five six"]
    ref = ["one page break", "two still two", "three still three", "four", "five six seven"]
    s.write("f.ref", text(ref))
    uri = s.open("f.hyp", text(hyp))
    hs = await s.hints(uri)
    assert [h.position.line for h in hs] == [0, 1, 2, 3, 4]
    assert [h.position.character for h in hs] == [units(x, s.encoding) for x in hyp]
    # replace "six" on line 4 (pygls' own model would clamp this range)
    col = units("five ", s.encoding)
    s.change(uri, [{"range": ((4, col), (4, col + 3)), "text": "six seven"}])
    # and edit inside line 2, after the NEL
    c2 = units("three\x85still ", s.encoding)
    s.change(uri, [{"range": ((2, c2), (2, c2 + 5)), "text": "three"}])
    hyp[4] = "five six seven"
    hyp[2] = "three\x85still three"
    hs = await s.hints(uri)
    assert [h.position.character for h in hs] == [units(x, s.encoding) for x in hyp]
    assert label_value(hs[4].label) == 100.0
    for h in hs:
        i = h.position.line
        assert label_value(h.label) == round(sacrebleu.sentence_bleu(hyp[i], [ref[i]]).score, 1)


async def test_hover(session):
    s = session
    hyp, ref, src = corpus(5)
    hyp[2] = "alpha bravo"
    s.write("h.ref", text(ref))
    s.write("h.src", text(src))
    uri = s.open("h.hyp", text(hyp))
    h = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=2, character=0))
    )
    v = h.contents.value
    score = sacrebleu.sentence_bleu(hyp[2], [ref[2]])
    assert f"BLEU {score.score:.2f}" in v
    assert re.search(rf"^1\s+{score.counts[0]} / {score.totals[0]}\s+{score.precisions[0]:.1f}", v, re.M), v
    assert ref[2] in v and src[2] in v
    assert "Missing reference n-grams" in v
    assert "nrefs:1" in v
    assert "since open" not in v  # no change yet, so no change shown


async def test_the_first_hover_of_a_large_file_answers_before_its_first_check(session):
    """A hover sent right after opening a file over publish.THREAD_LINES lines,
    and a hint request sent right behind it: the hover answers with what is
    known (the score, the reference) and says the line's findings are being
    checked (the first analysis runs in a worker thread, not on the event loop
    while every request waits); the hints are answered; once the diagnostics
    are in, the hover lists the line's finding."""
    from bleu_ls.server.views.publish import THREAD_LINES
    from bleu_ls.server.views.render import CHECKING

    s = session
    n = 3 * THREAD_LINES
    hyp = [f"the cat number {i} sat on the mat" for i in range(n)]
    hyp[3] = ""  # an empty line where the reference has words: a finding
    ref = [f"the cat number {i} sat on a mat" for i in range(n)]
    s.write("big.ref", text(ref))
    uri = s.open("big.hyp", text(hyp))

    def hover_at(line: int):
        return s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0)))

    first, hints = await asyncio.gather(hover_at(3), s.hints(uri, 0, 60))
    assert first is not None and CHECKING in first.contents.value
    assert f"**Reference:** {ref[3]}" in first.contents.value
    assert set(range(60)) <= {h.position.line for h in hints}
    diags, _, _ = await s.diagnostics(uri)
    on_3 = [d for d in diags if d.range.start.line == 3]
    assert on_3
    after = (await hover_at(3)).contents.value
    assert CHECKING not in after
    for d in on_3:  # (a message of plain words: said as it is, one list item)
        assert f"- {' '.join(d.message.split())}" in after


async def test_hover_says_which_precisions_the_smoothing_made(session):
    s = session
    s.write("m.ref", "a b x d e\n")
    uri = s.open("m.hyp", "a b c d e\n")
    h = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0))
    )
    v = h.contents.value
    score = sacrebleu.sentence_bleu("a b c d e", ["a b x d e"])
    assert score.counts[2:] == [0, 0] and score.precisions[2] > 0  # exp smoothing at work
    assert re.search(rf"^1\s+4 / 5\s+{score.precisions[0]:.1f}$", v, re.M), v
    for n in (3, 4):
        p = score.precisions[n - 1]
        assert re.search(rf"^{n}\s+0 / {score.totals[n - 1]}\s+{p:.1f}  smoothed \(exp\): no match$", v, re.M), v


async def test_hover_and_lens_show_a_change_once_there_is_one(session):
    s = session
    hyp, ref, _src = corpus(5)
    s.write("c.ref", text(ref))
    uri = s.open("c.hyp", text(hyp))
    before = sacrebleu.sentence_bleu(hyp[1], [ref[1]]).score
    lens = await s.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert all("since open" not in (c.command.title if c.command else "") for c in lens)
    s.change(uri, [{"range": ((1, 0), (1, len(hyp[1]))), "text": ref[1]}])
    after = sacrebleu.sentence_bleu(ref[1], [ref[1]]).score

    async def hover_has_delta():
        h = await s.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=0))
        )
        return h.contents.value if f"(Δ {after - before:+.2f} since open)" in h.contents.value else None

    assert await eventually(hover_has_delta)


@pytest.mark.workspace_toml(LOW_SCORE_ON)
async def test_commands(session):
    s = session
    hyp, ref, src = crafted()
    s.write("d.ref", text(ref))
    uri = s.open("d.hyp", text(hyp))

    async def with_low_score():  # (the settings file written after start-up is read soon, not at once)
        d, _, _ = await s.diagnostics(uri)
        return d if d and "low-score" in {x.code for x in d} else None

    diags = await eventually(with_low_score)
    flagged = sorted({d.range.start.line for d in diags})
    pos = await s.command("bleuLs.nextFlagged", uri, {"line": flagged[0], "character": 0})
    assert pos["line"] == flagged[1]
    # the status counts lines and problems apart, as Problems lists them
    c = await s.corpus(uri)
    assert (c["flagged"], c["problems"]) == (len(flagged), len(diags))
    assert c["problems"] > c["flagged"], "crafted() has a line with two findings"
    pos = await s.command("bleuLs.nextFlagged", uri, {"line": flagged[-1], "character": 0})
    assert pos["line"] == flagged[0]  # wraps
    pos = await s.command("bleuLs.nextFlagged", uri, {"line": flagged[0], "character": 0}, "previous")
    assert pos["line"] == flagged[-1]
    report = await s.command("bleuLs.showReport", uri)
    assert hyp[0] in report and len(report.splitlines()) >= len(hyp)
    assert not (s.root / "d.hyp.scores.tsv").exists()  # nothing written unless asked
    path = await s.command("bleuLs.exportScores", uri, "tsv")
    rows = Path(path).read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("line\tbleu") and len(rows) == 1 + 28 + 1
    assert float(rows[1].split("\t")[1]) == pytest.approx(sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score, abs=1e-4)
    jpath = await s.command("bleuLs.exportScores", uri, "json")
    assert json.loads(Path(jpath).read_text(encoding="utf-8"))["lines"] == 28
    # pairWith: a file no convention pairs
    s.write("other-reference.txt", text(ref))
    nuri = s.open("notes.txt", text(hyp))
    assert await s.hints(nuri) == []
    await s.command("bleuLs.pairWith", nuri, [s.uri("other-reference.txt")])
    hs = await s.hints(nuri, 0, 3)
    assert len(hs) == 4
    assert label_value(hs[0].label) == round(sacrebleu.sentence_bleu(hyp[0], [ref[0]]).score, 1)


async def test_unreadable_reference_reported_and_recovered(session):
    s = session
    toml = s.write("bleu-ls.toml", '[[pairs]]\nhypothesis = "out/*.txt"\nreferences = ["refs/{1}.txt"]\n')
    s.write("refs/b.txt", "good\n")
    (s.root / "refs" / "b.txt").write_bytes(b"ok line\n\x00\x01binary\n")
    s.notify_disk(toml)  # the configuration file appeared after start-up
    uri = s.open("out/b.txt", "ok line\nsecond\n")

    async def reported():
        d, _, _ = await s.diagnostics(uri)
        return d

    diags = await eventually(reported, timeout=2)
    assert diags and diags[0].range.start.line == 0
    assert "binary" in diags[0].message and "Traceback" not in diags[0].message
    assert await s.hints(uri) == []
    (s.root / "refs" / "b.txt").write_text("ok line\nsecond\n", encoding="utf-8")
    s.notify_disk(s.root / "refs" / "b.txt")
    hs = await eventually(lambda: s.hints(uri), timeout=2)
    assert hs and label_value(hs[1].label) == 100.0
    diags, _, _ = await s.diagnostics(uri)
    assert not [d for d in diags if d.code == "reference-error"]


async def test_large_file_visible_range_first_and_progress(session):
    s = session
    n = 40000
    hyp, ref, _ = corpus(200, seed=3)
    hyp = (hyp * (n // 200))[:n]
    ref = (ref * (n // 200))[:n]
    s.write("big.ref", text(ref))
    t0 = time.monotonic()
    uri = s.open("big.hyp", text(hyp))
    hs = await s.hints(uri, 20000, 20040)
    first = time.monotonic() - t0
    assert len(hs) == 41
    c = await s.corpus(uri)
    total = time.monotonic() - t0
    assert c["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert first < total / 2, (first, total)
    # work-done progress was reported while scoring (both clients support it)
    kinds = [getattr(v, "kind", None) for vs in s.client.progress_reports.values() for v in vs]
    assert "begin" in kinds and "end" in kinds


async def test_inserting_a_line_repairs_the_following_lines(session):
    s = session
    hyp, ref, _ = corpus(12)
    s.write("i.ref", text(ref))
    uri = s.open("i.hyp", text(hyp))
    await s.hints(uri)
    # the user deletes line 3 by mistake: every later line now meets the wrong reference
    s.change(uri, [{"range": ((3, 0), (4, 0)), "text": ""}])
    hyp2 = hyp[:3] + hyp[4:]
    hs = await s.hints(uri, 2, 20)
    assert [h.position.line for h in hs] == list(range(2, 11))
    for h in hs:
        i = h.position.line
        assert label_value(h.label) == round(sacrebleu.sentence_bleu(hyp2[i], [ref[i]]).score, 1)
    diags, _, _ = await s.diagnostics(uri)
    mism = [d for d in diags if d.code == "line-count-mismatch"]
    assert mism and mism[0].range.start.line == 10
    # and puts it back
    s.change(uri, [{"range": ((3, 0), (3, 0)), "text": hyp[3] + "\n"}])
    assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score


async def test_closing_a_reference_buffer_goes_back_to_the_disk_file(session):
    s = session
    hyp, ref, _ = corpus(6)
    s.write("k.ref", text(ref))
    uri = s.open("k.hyp", text(hyp))
    ref_uri = s.open("k.ref", text(hyp))  # unsaved: the reference buffer equals the hypothesis
    assert (await s.corpus(uri))["corpus"]["score"] == pytest.approx(100.0)
    s.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=ref_uri))
    )
    assert (await s.corpus(uri))["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score


async def test_initialization_options_and_settings_file(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text("[hints]\nbleuFormat = \"toml {bleu:.0f}\"\n", encoding="utf-8")
    hyp, ref, _ = corpus(4)
    (tmp_path / "s.ref").write_text(text(ref), encoding="utf-8")
    s = await _session("neovim", tmp_path, init_options={"bleuLs": {"chrf": {"enabled": True}}})
    try:
        uri = s.open("s.hyp", text(hyp))
        hs = await s.hints(uri, 0, 0)
        assert hs[0].label.startswith("toml ")  # from bleu-ls.toml
        assert "chrF" in hs[0].label  # from initializationOptions
    finally:
        await _close(s)


DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"


async def test_real_mt_output_per_line_and_corpus_equal_sacrebleu(session):
    if not (DATA / "ref.txt").is_file():
        pytest.skip(f"real MT data not found at {DATA}")
    system = sorted(p for p in DATA.glob("*.hyp"))[0]
    s = session
    hyp = system.read_text(encoding="utf-8").splitlines()
    ref = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
    s.write("sys.ref", (DATA / "ref.txt").read_text(encoding="utf-8"))
    s.write("sys.src", (DATA / "src.txt").read_text(encoding="utf-8"))
    s.client.set_configuration({"chrf": {"enabled": True}}, section="bleuLs")
    s.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"bleuLs": {"chrf": {"enabled": True}}})
    )
    uri = s.open("sys.hyp", system.read_text(encoding="utf-8"))

    async def with_chrf():
        c = await s.corpus(uri)
        return c if c and "chrf" in c["metrics"] else None

    c = await eventually(with_chrf, timeout=3)
    assert c["corpus"]["score"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert c["metrics"]["chrf"]["corpus"]["score"] == sacrebleu.corpus_chrf(hyp, [ref]).score
    path = await s.command("bleuLs.exportScores", uri, "json")
    per_line = json.loads(Path(path).read_text(encoding="utf-8"))["perLine"]
    assert len(per_line) == len(hyp)
    for rec, h, r in zip(per_line, hyp, ref):
        assert rec["bleu"] == sacrebleu.sentence_bleu(h, [r]).score
        assert rec["chrf"] == sacrebleu.sentence_chrf(h, [r]).score


@pytest.mark.parametrize("kind", ["vscode", "neovim"])
async def test_first_analysis_of_a_large_file_in_a_worker_thread_equals_check(kind, tmp_path):
    """Over publish.THREAD_LINES lines, the first analysis (and one after a
    large paste) runs in a worker thread on a copy of the model; the
    diagnostics pulled then, and after an edit, equal `bleu-ls check`'s
    from-scratch analysis of the same text (every one of them: maxProblems 0,
    as `check` lists all)."""
    s = await _session(kind, tmp_path, init_options={"bleuLs": {"maxProblems": 0}})
    try:
        await _first_analysis_equals_check(s)
    finally:
        await _close(s)


async def _first_analysis_equals_check(s) -> None:
    import subprocess
    import sys

    from bleu_ls.server.views.publish import THREAD_LINES

    base_hyp, base_ref, base_src = crafted()
    n = 2 * THREAD_LINES + 500
    rnd = random.Random(11)
    idx = [rnd.randrange(len(base_hyp)) for _ in range(n)]
    hyp = [base_hyp[i] + (f" w{j % 97}" if base_hyp[i] else "") for j, i in enumerate(idx)]
    ref = [base_ref[i] + f" w{j % 89}" for j, i in enumerate(idx)]
    src = [base_src[i] for i in idx]
    s.write("big.ref", text(ref))
    s.write("big.src", text(src))
    uri = s.open("big.hyp", text(hyp))

    def pulled(diags):
        return sorted((d.range.start.line, d.code, d.message) for d in diags)

    def checked(lines):
        (s.root / "check").mkdir(exist_ok=True)
        for name, body in (("big.hyp", lines), ("big.ref", ref), ("big.src", src)):
            (s.root / "check" / name).write_text(text(body), encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-m", "bleu_ls", "check", str(s.root / "check" / "big.hyp"), "--format", "json"],
            capture_output=True, text=True,
        )
        assert proc.returncode in (0, 1), proc.stderr
        [pair] = json.loads(proc.stdout)["pairs"]
        return sorted((d["line"] - 1, d["code"], d["message"]) for d in pair["diagnostics"])

    async def settled(want):
        """The pulled diagnostics once the adequacy values (computed in a
        worker process, they come later) have arrived."""
        deadline = time.monotonic() + 180
        while True:
            diags, _, _ = await s.diagnostics(uri)
            got = pulled(diags)
            if got == want or time.monotonic() > deadline:
                return got
            await asyncio.sleep(0.5)

    want = checked(hyp)
    assert len(want) > 100
    assert await settled(want) == want
    # an edit: the next analysis is on the loop, from the memos
    k = n // 2
    s.change(uri, [{"range": ((k, 0), (k, len(hyp[k]))), "text": src[k]}])
    hyp[k] = src[k]
    want = checked(hyp)
    got = await settled(want)
    assert got == want
    assert (k, "untranslated") in {(ln, code) for ln, code, _ in got}
