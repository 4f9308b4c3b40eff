"""HTER rows: the batch job listed from a snapshot, installed in slices, and
where the background fill starts; numbers against sacrebleu's TER."""

from __future__ import annotations

from sacrebleu.metrics import TER

from bleu_ls.engine.ter import TerMetric
from bleu_ls.postedit import DraftTrack
from bleu_ls.server.postedit.effort import EffortRows, job_from, result_rows

DRAFT = ["the cat sat on the mat", "a dog barked", "birds sing in old trees", "the train leaves at noon"]
POST = ["the cat sat on a mat", "a dog barked", "old trees, birds sing", "the train leaves at noon today"]


def _rows():
    metric = TerMetric(case_sensitive=True)
    return EffortRows(metric, DraftTrack(DRAFT, POST), POST)


def test_a_batch_installed_in_slices_gives_sacrebleus_ter_and_skips_lines_edited_meanwhile():
    effort = _rows()
    job = job_from(effort.batch_snapshot())
    assert job == ([0, 1, 2, 3], DRAFT, POST)
    results = effort.metric.alignments  # one line at a time, as the worker processes count them
    counted = [results(d, [x])[0] for d, x in zip(job[1], job[2])]
    effort.splice(2, 3, ["old trees sing"])  # edited after the job was listed

    taken = list(effort.install_steps(job, result_rows(counted), step=2))
    assert taken == [2, 1]  # line 2 changed meanwhile: not taken
    assert not effort.fresh[2] and effort.first_stale() == 2
    effort.ensure(0, 4)
    assert effort.first_stale() == 4
    post = [POST[0], POST[1], "old trees sing", POST[3]]
    ter = TER(case_sensitive=True)
    for i in range(4):
        assert effort.line(i)["num_edits"] == ter.sentence_score(DRAFT[i], [post[i]]).num_edits
    assert effort.corpus()["score"] == ter.corpus_score(DRAFT, [post]).score
