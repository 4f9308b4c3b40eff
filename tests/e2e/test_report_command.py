"""The visual report of an open pair through the real server
(``bleuLs.reportHtml``, what the VS Code webview shows): its numbers equal
sacrebleu's on the buffer's current text, unsaved edits included."""

from __future__ import annotations

import sacrebleu
from sacrebleu.metrics import BLEU

from tests.report.conftest import data_of

HYP = ["The cat sat on the mat .", "A quick brown fox", "It is raining today", "extra line without reference"]
REF = ["The cat is sitting on the mat .", "The quick brown fox jumped", "It is pouring rain today"]


async def test_report_of_the_open_pair_equals_sacrebleu_after_an_edit(session):
    session.write("doc.ref", "\n".join(REF) + "\n")
    uri = session.open("doc.hyp", "\n".join(HYP) + "\n")
    session.change(uri, [{"range": ((1, 0), (1, len(HYP[1]))), "text": "The quick brown fox jumped"}])
    html = await session.command("bleuLs.reportHtml", uri)
    assert isinstance(html, str) and html.lstrip().lower().startswith("<!doctype html")
    data = data_of(html)
    hyp = [HYP[0], "The quick brown fox jumped", HYP[2]]  # the paired lines, as edited
    sys0 = data["systems"][0]
    want = BLEU().corpus_score(hyp, [REF], n_bootstrap=1000)
    got = sys0["corpus"]["bleu"]
    assert (got["score"], got["mean"], got["ci"]) == (want.score, want._mean, want._ci)
    assert sys0["line_scores"]["bleu"] == [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyp, REF)]
    # every listed line links to its 1-based line number
    assert 'data-line="1"' in html or 'data-line="2"' in html


async def test_report_of_a_file_that_is_not_paired_is_an_error(session):
    uri = session.open("lonely.hyp", "no reference here\n")
    try:
        await session.command("bleuLs.reportHtml", uri)
    except Exception as exc:  # the client raises the server's error reply
        assert "not an open, paired hypothesis file" in str(exc)
    else:
        raise AssertionError("expected an error reply")
