"""Compare with another system through the real server (bleuLs.compareWith):
per-line differences in the hints, worse-than-other diagnostics, and the
paired bootstrap test in the lens and corpusScore — equal to sacrebleu's."""

from __future__ import annotations

import re

import sacrebleu
from lsprotocol import types
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from .conftest import eventually

REF = [
    "the cat is sitting on the mat",
    "the quick brown fox jumped over the lazy dog",
    "it is pouring rain in the city today",
    "he read that book last night at home",
    "we will meet at the station at twelve",
    "nice weather for a walk in the park",
]
MINE = [
    "the cat is sitting on the mat",
    "a quick brown fox jumps over a lazy dog",
    "it rains",
    "he read the book yesterday at home",
    "we meet at the station at noon",
    "nice weather for a walk in the park",
]
OTHER = [
    "a cat sits on the mat",
    "the quick brown fox jumped over the lazy dog",
    "it is pouring rain in the city today",
    "he read a book",
    "we will meet at the station at twelve",
    "the weather is nice",
]


def _text(lines):
    return "\n".join(lines) + "\n"


async def test_compare_with_another_system(session):
    s = session
    s.write("sys.ref", _text(REF))
    other = s.write("other.hyp", _text(OTHER))
    uri = s.open("sys.hyp", _text(MINE))
    res = await s.command("bleuLs.compareWith", uri, other.as_uri())
    assert res["lines"] == len(OTHER)

    # hints: this line's BLEU minus the other's, as sacrebleu's sentence BLEU gives them
    hints = await s.hints(uri)
    for h in hints:
        i = h.position.line
        d = sacrebleu.sentence_bleu(MINE[i], [REF[i]]).score - sacrebleu.sentence_bleu(OTHER[i], [REF[i]]).score
        assert h.label.endswith(f"{d:+.1f} vs other.hyp"), h.label

    # diagnostics: the lines at least 10 points worse than the other system, and only those
    want = {
        i for i in range(len(REF))
        if sacrebleu.sentence_bleu(MINE[i], [REF[i]]).score - sacrebleu.sentence_bleu(OTHER[i], [REF[i]]).score <= -10
    }
    assert want  # lines 2 and 4 are much worse
    diags, _, _ = await s.diagnostics(uri)
    assert {d.range.start.line for d in diags if d.code == "worse-than-other"} == want

    # the paired test (system: this file, baseline: the other) equals sacrebleu's PairedTest
    _, res_bs = PairedTest([("other", OTHER), ("mine", MINE)], {"m": BLEU()}, [REF], test_type="bs", n_samples=1000)()
    base, system = next(v for k, v in res_bs.items() if k != "System")
    want_p = system.p_value

    async def paired():
        c = await s.corpus(uri)
        rec = c.get("compare") or {}
        return rec if rec.get("paired") else None

    rec = await eventually(paired, timeout=15)
    assert rec and rec["paired"]["bleu"]["system"]["p_value"] == want_p
    assert rec["paired"]["bleu"]["system"]["score"] == sacrebleu.corpus_bleu(MINE, [REF]).score
    assert rec["paired"]["bleu"]["baseline"]["score"] == sacrebleu.corpus_bleu(OTHER, [REF]).score
    got = rec["paired"]["bleu"]
    assert (got["system"]["mean"], got["system"]["ci"]) == (system.mean, system.ci)
    assert (got["baseline"]["mean"], got["baseline"]["ci"]) == (base.mean, base.ci)
    lens = await s.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    title = lens[0].command.title
    delta = sacrebleu.corpus_bleu(MINE, [REF]).score - sacrebleu.corpus_bleu(OTHER, [REF]).score
    assert f"vs other.hyp: Δ {delta:+.2f}, p = {want_p:.4f}" in title, title

    # an edit changes that line's difference; stopping the comparison removes it all
    s.change(uri, [{"range": ((2, 0), (2, len(MINE[2]))), "text": REF[2]}])

    async def line2():
        hs = await s.hints(uri, 2, 2)
        return hs[0].label if hs and hs[0].label.endswith("+0.0 vs other.hyp") else None

    assert await eventually(line2)
    await s.command("bleuLs.compareWith", uri, None)
    hints = await s.hints(uri)
    assert not any("vs other.hyp" in h.label for h in hints)
    diags, _, _ = await s.diagnostics(uri)
    assert not any(d.code == "worse-than-other" for d in diags)


async def test_compare_with_a_missing_file_is_one_sentence(session):
    s = session
    s.write("a.ref", "x y z\n")
    uri = s.open("a.hyp", "x y z\n")
    try:
        await s.command("bleuLs.compareWith", uri, (s.root / "nope.hyp").as_uri())
    except Exception as exc:
        assert re.search(r"nope\.hyp.*(no such file|not found)", str(exc)), str(exc)
    else:
        raise AssertionError("expected an error reply")
