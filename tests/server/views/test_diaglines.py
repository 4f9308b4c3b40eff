"""The diagnostics kept per line (bleu_ls.server.views.diaglines) against the
plain definition: every finding of a fresh analysis (problems first, then
the analysis, then the comparison), less what the ignore store hides, each
unstructured and encoded by the protocol's converter — after every step of
random edit scripts, with and without ignore entries."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings as hsettings, strategies as st
from pygls.protocol import default_converter

from bleu_ls.qa.analysis import Analyzer, Finding, analyse, problem_findings
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.ignore import IgnoreStore
from bleu_ls.server.views import diaglines
from bleu_ls.server.views.diaglines import DiagnosticLines, encode_diagnostic
from bleu_ls.server.documents.document import LineDocument
from bleu_ls.server.views.render import to_diagnostic
from bleu_ls.server.pairs.state import Pair
from bleu_ls.config.settings import Settings

CONVERTER = default_converter()
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "Zürich", "东京", "😀", "3", "(", "tab\there"]
line_st = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
loop_st = st.sampled_from(WORDS[:6]).map(lambda w: " ".join([w] * 4))
text_st = st.one_of(line_st, line_st, loop_st)


def protocol_json(doc, f: Finding) -> str:
    return json.dumps(CONVERTER.unstructure(to_diagnostic(doc, f)), separators=(",", ":"))


@given(
    lines=st.lists(text_st, min_size=1, max_size=5),
    line=st.integers(0, 8),
    start=st.integers(0, 12),
    width=st.one_of(st.none(), st.integers(0, 6)),
    severity=st.sampled_from(["error", "warning", "information", "info", "hint", "odd"]),
    data=st.dictionaries(st.sampled_from(["bleu", "phrase", "n", "x"]),
                         st.one_of(st.floats(allow_nan=False), st.integers(), st.text(max_size=4), st.none()), max_size=3),
    encoding=st.sampled_from(["utf-16", "utf-8", "utf-32"]),
)
@hsettings(max_examples=200, deadline=None)
def test_encoded_diagnostic_is_the_protocols_json(lines, line, start, width, severity, data, encoding):
    doc = LineDocument("\n".join(lines), encoding=encoding)
    f = Finding("low-score", severity, "m “é” \"q\"\n", line=line, start_col=start, end_col=None if width is None else start + width, data=data)
    assert encode_diagnostic(doc, f) == protocol_json(doc, f)
    assert encode_diagnostic(None, f) == protocol_json(None, f)


def oracle(pair: Pair, store: IgnoreStore, doc, settings) -> tuple[list[str], int, int]:
    findings = problem_findings(pair.problems, pair.settings_problems)
    findings += analyse(pair.model, settings, pair.source_lines, {})
    kept = store.filter(pair.path, findings, doc.line)
    return [protocol_json(doc, f) for f in kept.findings], kept.ignored, kept.reviewed


step_st = st.one_of(
    st.tuples(st.just("hyp"), st.integers(0, 30), st.integers(0, 2), st.lists(text_st, max_size=2)),
    st.tuples(st.just("hyp"), st.integers(0, 30), st.just(1), text_st.map(lambda x: [x])),
    st.tuples(st.just("ref"), st.integers(0, 30), st.integers(0, 1), st.lists(text_st, max_size=2)),
    st.tuples(st.just("problem"), st.integers(0, 1), st.just(0), st.just([])),
    st.tuples(st.just("none"), st.just(0), st.just(0), st.just([])),
)


@given(
    hyp=st.lists(text_st, min_size=1, max_size=30),
    ref=st.lists(text_st, min_size=1, max_size=30),
    steps=st.lists(step_st, max_size=10),
    ignore=st.lists(st.tuples(st.sampled_from(["line", "reviewed", "code"]), st.integers(0, 30),
                              st.sampled_from(["low-score", "outlier", "repetition"])), max_size=4),
    block=st.sampled_from([1, 3, diaglines.BLOCK]),
)
# an edited line whose held outlier finding stays the same object: its range must follow the new text
@example(hyp=["the the the the", "the", "", "the"], ref=["the the the the", "", "", "the the the the"],
         steps=[("hyp", 1, 2, ["the the", ""])], ignore=[], block=1)
@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_kept_lines_equal_the_plain_definition(tmp_path_factory, monkeypatch, hyp, ref, steps, ignore, block):
    monkeypatch.setattr(diaglines, "BLOCK", block)  # the reply joined from blocks of this many lines
    root = tmp_path_factory.mktemp("ws")
    path = Path(root) / "a.hyp"
    s = Settings.from_dict({"diagnostics": {"outlier": {"minLines": 3, "minTokens": 0}, "wrongLanguage": {"enabled": False}}})
    pair = Pair(uri=path.as_uri(), path=path, settings=s)
    pair.model = PairModel(build_metrics(s), hyp, [ref])
    store = IgnoreStore.load(root)
    for kind, at, code in ignore:
        store.add(path, kind, hyp[at % len(hyp)], code if kind == "code" else None)
    analyzer = Analyzer(s)
    view = DiagnosticLines(("base",))
    rids = []
    for kind, at, width, lines in [("none", 0, 0, [])] + steps:
        model = pair.model
        if kind == "hyp":
            at = min(at, model.n_hyp)
            model.splice_hyp(at, min(at + width, model.n_hyp), lines)
        elif kind == "ref":
            at = min(at, len(model.refs[0]))
            model.splice_ref(0, at, min(at + width, len(model.refs[0])), lines)
        elif kind == "problem":
            pair.problems = ["the reference could not be read"] if at else []
        doc = LineDocument("\n".join(model.hyp))
        analyzer.analyse_lines(model, None, {})
        head = problem_findings(pair.problems, pair.settings_problems)
        view.refresh(pair, store, doc, analyzer, head, [])
        items, ignored, reviewed = oracle(pair, store, doc, s)
        assert view.items() == items
        assert view.body() == ",".join(items)
        assert (pair.ignored, pair.reviewed) == (ignored, reviewed)
        assert [json.loads(x) for x in items] == [CONVERTER.unstructure(d) for d in view.diagnostics(doc)]
        assert pair.flagged == sorted({json.loads(x)["range"]["start"]["line"] for x in items})
        if rids and rids[-1][0] == view.rid:
            assert rids[-1][1] == items  # the same resultId: the same diagnostics
        rids.append((view.rid, items))
