"""Every number in the report's data block against sacrebleu 2.6 (exact equality)."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from .conftest import MQM, SAMPLES, lines

def _paired(systems, refs, metric, n):
    _, res = PairedTest(systems, {"m": metric}, refs, test_type="bs", n_samples=n)()
    return next(v for k, v in res.items() if k != "System")


def _assert_lines(data, key, hyps, refs, sentence):
    for s, hyp in enumerate(hyps):
        got = data["systems"][s]["line_scores"][key]
        want = [sentence(h, [r[i] for r in refs]).score for i, h in enumerate(hyp)]
        assert got == want


def test_one_system_scores_interval_and_lines_equal_sacrebleu(report):
    hyp, ref = lines(SAMPLES / "news.hyp"), lines(SAMPLES / "news.ref")
    code, _, data, _ = report(SAMPLES / "news.hyp", "--ref", SAMPLES / "news.ref", "--metric", "bleu", "chrf")
    assert code == 0
    sys0 = data["systems"][0]
    for key, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        want = metric.corpus_score(hyp, [ref], n_bootstrap=1000)
        got = sys0["corpus"][key]
        assert (got["score"], got["mean"], got["ci"]) == (want.score, want._mean, want._ci)
        assert got["p_value"] is None
        meta = next(m for m in data["metrics"] if m["key"] == key)
        assert meta["bootstrap_signature"] == metric.get_signature().format()
        plain = type(metric)()
        plain.corpus_score(hyp, [ref])
        assert meta["signature"] == plain.get_signature().format()
    _assert_lines(data, "bleu", [hyp], [ref], sacrebleu.sentence_bleu)
    _assert_lines(data, "chrf", [hyp], [ref], sacrebleu.sentence_chrf)
    assert sys0["corpus"]["bleu"]["precisions"] == BLEU().corpus_score(hyp, [ref]).precisions


def test_two_systems_two_references_paired_test_equals_sacrebleu(report, tmp_path):
    a = lines(SAMPLES / "chat.hyp")
    b = [" ".join(line.split()[:-1]) for line in a]  # a second system: each line less its last word
    b_file = tmp_path / "b.hyp"
    b_file.write_text("".join(x + "\n" for x in b), encoding="utf-8")
    ref_files = [SAMPLES / "chat.ref", SAMPLES / "chat.ref2"]
    refs = [lines(f) for f in ref_files]
    code, _, data, err = report(SAMPLES / "chat.hyp", b_file, "--ref", *ref_files, "--bootstrap", "300",
                                "--metric", "bleu", "chrf")
    assert code == 0, err
    for key, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        want = _paired([("a", a), ("b", b)], refs, metric, 300)
        got = [data["systems"][s]["corpus"][key] for s in range(2)]
        assert [(g["score"], g["mean"], g["ci"], g["p_value"]) for g in got] == [
            (w.score, w.mean, w.ci, w.p_value) for w in want
        ]
    _assert_lines(data, "bleu", [a, b], refs, sacrebleu.sentence_bleu)
    _assert_lines(data, "chrf", [a, b], refs, sacrebleu.sentence_chrf)


@pytest.mark.skipif(not MQM.is_dir(), reason="shared WMT data (../shared/data) not present")
def test_wmt_systems_every_number_equals_sacrebleu(report):
    paths = sorted(MQM.glob("*.hyp"))[:4]
    systems = [(p.stem, lines(p)) for p in paths]
    ref = lines(MQM / "ref.txt")
    code, _, data, err = report(*paths, "--ref", MQM / "ref.txt", "--src", MQM / "src.txt", "--metric", "bleu", "chrf")
    assert code == 0, err
    for key, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        want = _paired(systems, [ref], metric, 1000)
        got = [rec["corpus"][key] for rec in data["systems"]]
        assert [(g["score"], g["mean"], g["ci"], g["p_value"]) for g in got] == [
            (w.score, w.mean, w.ci, w.p_value) for w in want
        ]
    hyps = [h for _, h in systems]
    _assert_lines(data, "bleu", hyps, [ref], sacrebleu.sentence_bleu)
    _assert_lines(data, "chrf", hyps, [ref], sacrebleu.sentence_chrf)
    _check_buckets(data, hyps, ref)
    _check_histograms_and_lists(data, hyps, ref)


def _check_buckets(data, hyps, ref):
    b = data["buckets"]
    labels_lines = {label: [] for label in b["labels"]}
    for i, r in enumerate(ref):
        n = len(r.split())
        k = sum(n >= e for e in b["edges"])
        labels_lines[b["labels"][k]].append(i)
    assert b["lines"] == [len(v) for v in labels_lines.values()]
    for s, hyp in enumerate(hyps):
        for k, idx in enumerate(labels_lines.values()):
            got = b["scores"]["bleu"][s][k]
            if not idx:
                assert got is None
                continue
            want = sacrebleu.corpus_bleu([hyp[i] for i in idx], [[ref[i] for i in idx]]).score
            assert got == want
            assert b["scores"]["chrf"][s][k] == sacrebleu.corpus_chrf([hyp[i] for i in idx], [[ref[i] for i in idx]]).score


def _check_histograms_and_lists(data, hyps, ref):
    for s, hyp in enumerate(hyps):
        scores = [sacrebleu.sentence_bleu(h, [ref[i]]).score for i, h in enumerate(hyp)]
        counts = [0] * 10
        for v in scores:
            counts[min(int(v // 10), 9)] += 1
        assert data["systems"][s]["histogram"]["bleu"]["counts"] == counts
        weakest = data["weakest"][s]["lines"]
        assert [w["scores"]["bleu"][0] for w in weakest] == sorted(scores)[: len(weakest)]
        for w in weakest:
            assert w["scores"]["bleu"][0] == scores[w["line"] - 1]
    base = [sacrebleu.sentence_bleu(h, [ref[i]]).score for i, h in enumerate(hyps[0])]
    for c in data["comparisons"]:
        other = [sacrebleu.sentence_bleu(h, [ref[i]]).score for i, h in enumerate(hyps[c["system"]])]
        d = [o - b for o, b in zip(other, base)]
        assert (c["wins"], c["ties"], c["losses"]) == (
            sum(x > 0 for x in d), sum(x == 0 for x in d), sum(x < 0 for x in d))
        for entry in c["better_lines"] + c["worse_lines"]:
            assert entry["difference"] == d[entry["line"] - 1]
        assert max(d) == c["better_lines"][0]["difference"]
        assert min(d) == c["worse_lines"][0]["difference"]
        assert not any(math.isnan(x) for x in c["curve"])


def test_lower_is_better_metric_ter_equals_sacrebleu(monkeypatch):
    """TER (when the settings enable it): paired test as sacrebleu's, weakest = highest TER,
    and a comparison's "better" means a lower TER."""
    from sacrebleu.metrics import TER

    from bleu_ls.engine import PairModel, build_metrics
    from bleu_ls.report import Options, ReportInput, System, render_report
    from bleu_ls.config.settings import Settings

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    settings = Settings()
    settings.bleu.enabled = False
    settings.ter.enabled = True
    metrics = build_metrics(settings)
    a, ref = lines(SAMPLES / "news.hyp"), lines(SAMPLES / "news.ref")
    b = [" ".join(x.split()[::-1]) if i % 3 == 0 else x for i, x in enumerate(a)]  # some lines scrambled
    systems = [System(n, PairModel.from_lines(metrics, h, [ref])) for n, h in (("a", a), ("b", b))]
    _, data = render_report(ReportInput(systems, ["ref"], settings=settings, options=Options(bootstrap=200)))
    want = _paired([("a", a), ("b", b)], [ref], TER(), 200)
    got = [rec["corpus"]["ter"] for rec in data["systems"]]
    assert [(g["score"], g["mean"], g["ci"], g["p_value"]) for g in got] == [
        (w.score, w.mean, w.ci, w.p_value) for w in want
    ]
    per_line = [TER().sentence_score(h, [ref[i]]).score for i, h in enumerate(a)]
    weakest = data["weakest"][0]["lines"]
    assert [w["scores"]["ter"][0] for w in weakest] == sorted(per_line, reverse=True)[: len(weakest)]
    comp = data["comparisons"][0]
    b_line = [TER().sentence_score(h, [ref[i]]).score for i, h in enumerate(b)]
    assert comp["losses"] == sum(y > x for x, y in zip(per_line, b_line)) > 0
    assert all(entry["difference"] < 0 for entry in comp["worse_lines"])
