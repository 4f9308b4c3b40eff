"""The diagnostics cap (setting ``maxProblems``): what the reply carries
against a plain reference implementation of VS Code's rule
(extHostDiagnostics.ts, ``DiagnosticCollection.set``: with more than N
diagnostics for a file it keeps the errors in the order received, then the
warnings, then information, then hints, up to N).  The capped reply must be
that selection less one item, plus our note, so that VS Code never cuts it
again; the ``resultId`` must change exactly when the items sent do."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from pygls.protocol import default_converter

from bleu_ls.qa.analysis import Analyzer, Finding, analyse, problem_findings
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.ignore import IgnoreStore
from bleu_ls.server.views import diaglines
from bleu_ls.server.views.diaglines import NOT_SENT, DiagnosticLines
from bleu_ls.server.documents.document import LineDocument
from bleu_ls.server.views.render import to_diagnostic
from bleu_ls.server.pairs.state import Pair
from bleu_ls.config.settings import Settings

CONVERTER = default_converter()
SEVERITIES = ["error", "warning", "information", "hint"]
LSP_SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def vscode_shows(items: list[dict], limit: int) -> list[dict]:
    """What VS Code's extension host keeps of one file's diagnostics (its
    own "Not showing N further errors and warnings." marker left out)."""
    if len(items) <= limit:
        return list(items)
    kept: list[dict] = []
    for severity in (1, 2, 3, 4):
        for d in items:
            if d["severity"] == severity:
                kept.append(d)
                if len(kept) == limit:
                    return kept
    return kept


def expected_reply(all_items: list[dict], cap: int) -> list[dict]:
    """The reply the cap asks for, the note compared by what it counts."""
    if cap == 0 or len(all_items) <= cap:
        return all_items
    return vscode_shows(all_items, cap)[: cap - 1] + [{"note": (len(all_items), cap - 1)}]


def three_digits(total: int) -> int:
    """``total`` with all but its first three digits set to 0."""
    digits = str(total)
    return int(digits[:3] + "0" * (len(digits) - 3))


def sent(view: DiagnosticLines, total: int) -> list[dict]:
    """The reply's items; the note replaced by what it counts (the total it
    says, to three significant digits, and the number listed)."""
    got = json.loads("[" + view.body() + "]")
    out = []
    for d in got:
        if d.get("code") == NOT_SENT:
            assert d["severity"] == 3 and d["source"] == "bleu-ls"
            assert d["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
            said = three_digits(total)
            assert f"found at least {said:,} problems" in d["message"]
            listed = int(d["message"].split("; ")[1].split(" of them")[0].replace(",", ""))
            assert "bleu-ls check a.hyp" in d["message"]
            out.append({"note": (total, listed)})
        else:
            out.append(d)
    return out


def protocol(doc, findings: list[Finding]) -> list[dict]:
    return [CONVERTER.unstructure(to_diagnostic(doc, f)) for f in findings]


# -- the selection over random findings, edits and caps ----------------------------------

finding_st = st.tuples(st.sampled_from(SEVERITIES), st.integers(0, 3))
line_findings_st = st.lists(finding_st, max_size=3)


class FakeAnalyzer:
    """What DiagnosticLines reads of an analyser: its findings by line, the
    lines the last pass changed (None: all), the number of passes."""

    def __init__(self) -> None:
        self.store = SimpleNamespace(final={}, lines=[])
        self.changed = None
        self.passes = 0

    def set(self, final: dict[int, list[Finding]], changed) -> None:
        self.store.final = {i: fs for i, fs in final.items() if fs}
        self.store.lines = sorted(self.store.final)
        self.changed = changed
        self.passes += 1


def _findings(line: int, spec: list, version: int) -> list[Finding]:
    return [Finding(f"code{k}", sev, f"line {line} #{j} v{version}", line=line)
            for j, (sev, k) in enumerate(spec)]


@given(
    n=st.integers(1, 70),
    first=st.data(),
    head=st.lists(finding_st, max_size=2),
    tail=st.lists(finding_st, max_size=2),
    cap=st.one_of(st.just(0), st.integers(1, 40)),
    block=st.sampled_from([1, 3, 8, diaglines.BLOCK]),
    steps=st.lists(st.tuples(st.lists(st.tuples(st.integers(0, 69), line_findings_st), max_size=4),
                             st.booleans(), st.booleans()), max_size=8),
)
@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_capped_reply_is_vscodes_selection_less_one_and_a_note(
        tmp_path_factory, monkeypatch, n, first, head, tail, cap, block, steps):
    monkeypatch.setattr(diaglines, "BLOCK", block)
    root = tmp_path_factory.mktemp("ws")
    path = Path(root) / "a.hyp"
    pair = Pair(uri=path.as_uri(), path=path, settings=Settings.from_dict({"maxProblems": cap}))
    pair.model = SimpleNamespace(n_paired=n)
    store = IgnoreStore.load(root)
    doc = LineDocument("\n".join(f"line {i} text" for i in range(n)))
    specs = {i: first.draw(line_findings_st) for i in range(n)}
    versions = {i: 0 for i in range(n)}
    analyzer = FakeAnalyzer()
    view = DiagnosticLines(("base",))
    head_f = [Finding("reference-missing", sev, f"head {j}", line=0) for j, (sev, _) in enumerate(head)]
    last = None
    for edits, full, head_change in [([], True, False)] + steps:
        changed = set()
        for at, spec in edits:
            at %= n
            versions[at] += 1
            specs[at] = spec
            changed.add(at)
        if head_change and head_f:
            head_f = head_f[1:]
        final = {i: _findings(i, specs[i], versions[i]) for i in range(n)}
        analyzer.set(final, None if full else changed)
        tail_f = [Finding("worse-than-other", sev, f"tail {j}", line=n - 1) for j, (sev, _) in enumerate(tail)]
        view.refresh(pair, store, doc, analyzer, head_f, tail_f)
        all_items = protocol(doc, head_f + [f for i in range(n) for f in final[i]] + tail_f)
        # all items kept for the lenses, status and actions; the reply capped
        assert [json.loads(x) for x in view.items()] == all_items
        assert protocol(doc, head_f) + [CONVERTER.unstructure(d) for d in view.diagnostics(doc)][len(head_f):] == all_items
        got = sent(view, len(all_items))
        assert got == expected_reply(all_items, cap)
        if cap:
            assert len(got) <= cap  # VS Code shows the reply as it is: no marker of its own
        body = view.body()
        if last is not None:
            assert (last[0] == view.rid) == (last[1] == body)  # a new resultId exactly when the reply changed
        last = (view.rid, body)
        assert list(pair.flagged) == sorted({d["range"]["start"]["line"] for d in all_items})


def test_a_change_outside_the_sent_items_answers_unchanged(tmp_path):
    """50 errors and 1,205 hints, cap 20: a hint's message changing leaves the
    resultId; hints going away leave it too while the count said (to three
    digits: "at least 1,250") holds, and change it when the count crosses a
    step; an error sent changing changes it, and so does an error going
    that moves the next one into the reply."""
    path = tmp_path / "a.hyp"
    n = 1255
    pair = Pair(uri=path.as_uri(), path=path, settings=Settings.from_dict({"maxProblems": 20}))
    pair.model = SimpleNamespace(n_paired=n)
    store = IgnoreStore.load(tmp_path)
    doc = LineDocument("\n".join(["x"] * n))
    analyzer = FakeAnalyzer()
    view = DiagnosticLines(("base",))
    final = {i: [Finding("c", "error" if i < 50 else "hint", f"m{i}", line=i)] for i in range(n)}

    def step(changed):
        analyzer.set(final, changed)
        view.refresh(pair, store, doc, analyzer, [], [])
        return view.rid, view.body()

    rid0, body0 = step(None)
    assert len(json.loads("[" + body0 + "]")) == 20 and "found at least 1,250 problems" in body0
    final[1200] = [Finding("c", "hint", "another message", line=1200)]
    assert step({1200}) == (rid0, body0)
    for i in range(1201, 1206):  # 1,250 problems
        final[i] = []
    assert step(set(range(1201, 1206))) == (rid0, body0)
    final[1206] = []  # 1,249: a step down
    rid2, body2 = step({1206})
    assert rid2 != rid0 and "found at least 1,240 problems" in body2
    final[3] = [Finding("c", "error", "changed", line=3)]
    rid3, body3 = step({3})
    assert rid3 != rid2 and "changed" in body3
    final[7] = []  # an error sent goes: the next error comes in
    rid4, body4 = step({7})
    assert rid4 != rid3 and '"m19"' in body4 and '"m19"' not in body3
    assert [d["severity"] for d in json.loads("[" + body4 + "]")] == [1] * 19 + [3]


# -- the real analysis, severities set per rule -------------------------------------------

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "3", "("]
line_st = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)
loop_st = st.sampled_from(WORDS[:5]).map(lambda w: " ".join([w] * 4))
text_st = st.one_of(line_st, line_st, loop_st)


@given(
    hyp=st.lists(text_st, min_size=1, max_size=30),
    ref=st.lists(text_st, min_size=1, max_size=30),
    severities=st.fixed_dictionaries({rule: st.sampled_from(SEVERITIES) for rule in
                                      ("lowScore", "outlier", "emptyHypothesis", "lengthRatio", "repetition",
                                       "lineCountMismatch")}),
    cap=st.integers(1, 25),
    edits=st.lists(st.tuples(st.integers(0, 29), text_st), max_size=6),
)
@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_capped_reply_of_the_real_analysis(tmp_path_factory, hyp, ref, severities, cap, edits):
    root = tmp_path_factory.mktemp("ws")
    path = Path(root) / "a.hyp"
    diag = {rule: {"severity": sev} for rule, sev in severities.items()}
    diag["outlier"].update(minLines=3, minTokens=0)
    diag["wrongLanguage"] = {"enabled": False}
    s = Settings.from_dict({"diagnostics": diag, "maxProblems": cap})
    assert s.validate() == []
    pair = Pair(uri=path.as_uri(), path=path, settings=s)
    pair.model = PairModel(build_metrics(s), hyp, [ref])
    store = IgnoreStore.load(root)
    analyzer = Analyzer(s)
    view = DiagnosticLines(("base",))
    for at, text in [(None, None)] + edits:
        model = pair.model
        if at is not None:
            at = min(at, model.n_hyp - 1)
            model.splice_hyp(at, at + 1, [text])
        doc = LineDocument("\n".join(model.hyp))
        analyzer.analyse_lines(model, None, {})
        view.refresh(pair, store, doc, analyzer, problem_findings([], []), [])
        all_items = protocol(doc, analyse(model, s, None, {}))
        assert sent(view, len(all_items)) == expected_reply(all_items, cap)
