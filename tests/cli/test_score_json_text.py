"""The JSON report of `bleu-ls score` is written by templates (``encode_records``);
its text must be ``json.dump(doc, ensure_ascii=False, indent=1)``'s, byte for byte."""

from __future__ import annotations

import io
import json

import pytest

from bleu_ls.cli.score import encode_records, render_json
from bleu_ls.engine import PairModel

RECORDS = [
    {"line": 1, "score": 18.240676320522173, "counts": [17, 8, 4, 1], "bp": 1.0},
    {"line": 2, "score": float("nan"), "counts": [0, 0, 0, 0], "bp": float("inf")},
    {"line": 3, "score": None, "counts": [0, 0, 0, 0], "bp": 0.0},
    {"line": 4, "score": 1e-300, "counts": [1, 2, 3, 4], "bp": -float("inf")},
    {"key": "msgid \"100%\" ü\n", "line": 7, "score": 3.0},
    {"line": 5, "score": True, "counts": [], "bp": 2},
    {"line": 6, "score": 5, "extra": {"a": [1, 2.5]}, "counts": [1.5]},
    {"100%s": 1, "%d": [2, 3]},
    {},
]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_records_as_json_writes_them(level):
    for recs in ([RECORDS[0]] * 3, RECORDS, RECORDS[::-1], RECORDS[4:]):
        text = "[\n" + "".join(encode_records(recs, level, block=2)) + "\n" + " " * (level - 1) + "]"
        # the list as json writes it with its items at this level: inside level - 1 objects
        doc: object = recs
        for _ in range(level - 1):
            doc = {"k": doc}
        expected = json.dumps(doc, ensure_ascii=False, indent=1)
        assert text == expected[expected.index("[") : expected.rindex("]") + 1]


def _model(hyp, ref, keys):
    from bleu_ls.cli.metric_args import settings_from_args
    from bleu_ls.cli.score import build_parser
    from bleu_ls.engine import build_metrics

    metrics = build_metrics(settings_from_args(build_parser().parse_args(["h", "r", "-m", *keys])))
    return PairModel.from_lines(metrics, hyp, [ref], workers=1)


@pytest.mark.parametrize("keys", [["bleu"], ["chrf"], ["ter"], ["bleu", "chrf", "ter"]])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_report_text_equals_json_dump(keys, n):
    hyp = ["a b c d", "", "x y 100 %", "the cat sat .", "é è ü"][:n]
    ref = ["a b c e", "z", "", "the cat sat !", "é è u"][:n]
    model = _model(hyp, ref, keys)
    out = io.StringIO()
    render_json(model, out)
    from bleu_ls.cli.score import metric_report

    reports = {k: metric_report(model, k) for k in keys}
    doc = reports[keys[0]] if len(keys) == 1 else reports
    want = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    assert out.getvalue() == want


@pytest.mark.parametrize("keys", [["bleu"], ["chrf"], ["bleu", "chrf"]])
def test_chunks_made_from_record_values_equal_the_records(keys):
    from bleu_ls.cli.score import json_level, line_records, render_chunk

    hyp = ["a b c d", "", "x y 100 %", "the cat sat .", "é è ü", "a"]
    ref = ["a b c e", "z", "", "the cat sat !", "é è u", "a"]
    model = _model(hyp, ref, keys)
    level = json_level(len(keys))
    for k in keys:
        metric = model.metrics[k]
        stats, scores = model.stats_array(k), model.values(k)
        want = "".join(encode_records(line_records(model, k), level))
        assert render_chunk(level, k, metric, stats, scores, 0) == want
        # a chunk further on numbers its lines from there
        part = render_chunk(level, k, metric, stats[2:], scores[2:], 2)
        assert part == want[want.index(" " * level + "{\n" + " " * (level + 1) + '"line": 3') :]


def test_a_line_whose_values_are_not_finite_goes_through_json():
    from bleu_ls.cli.score import render_chunk

    model = _model(["a b", "c d", "e f"], ["a b", "c x", "e f"], ["chrf"])
    metric = model.metrics["chrf"]

    class Odd(type(metric)):  # type: ignore[misc]
        def line_record_values(self, stats, scores):
            first, _, last = scores.tolist()
            return iter([(first,), (float("nan"),), (last,)])

        def sentence_score(self, stats):
            s = super().sentence_score(stats)
            if stats == model.stats_array("chrf")[1].tolist():
                s.score = float("nan")
            return s

    odd = Odd.__new__(Odd)
    odd.__dict__.update(metric.__dict__)
    text = render_chunk(2, "chrf", odd, model.stats_array("chrf"), model.values("chrf"), 0)
    assert '"score": NaN' in text
    assert json.loads("[" + text.replace("NaN", "null") + "]")[1] == {"line": 2, "score": None}
