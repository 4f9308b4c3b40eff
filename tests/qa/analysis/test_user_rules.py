"""The user's own rules ([[rules]]): the three Xbench checklist modes, case, ``files`` globs,
the settings' sentences for a bad rule, and the time limits that keep a pattern from holding the
analysis up (one sentence, the rule off until its settings change)."""

from __future__ import annotations

import re
import time

import pytest

from bleu_ls.config.settings import Settings
from bleu_ls.config.workspace import resolve_paths
from bleu_ls.qa.analysis import user_rules
from bleu_ls.qa.analysis.analyzer import Analyzer
from bleu_ls.qa.analysis.unreferenced import Unreferenced

NAMES = {"hypothesis": "fr.po", "path": "/w/locale/fr.po"}


def settings(*rules: dict, problems: list | None = None) -> Settings:
    s = Settings.from_dict({"rules": list(rules)})
    got = s.validate()
    if problems is not None:
        problems.extend(got)
    else:
        assert got == []
    return s


def run(s: Settings, hyp: list, source: list | None = None, names: dict = NAMES) -> list:
    return [(f.line, f.code, f.start_col, f.end_col, f.message, f.severity)
            for f in Analyzer(s).analyse(Unreferenced({}, hyp), source, names) if f.code.startswith("rule:")]


# -- the modes ---------------------------------------------------------------------------------------
def test_target_only_flags_each_match_in_the_target():
    s = settings({"code": "fr-quotes", "target": r'"[^"]*"', "message": "Use « » in French."})
    hyp = ['Il a dit "oui" puis "non".', "Il a dit « oui ».", ""]
    got = run(s, hyp, ["He said yes.", "He said yes.", "x"])
    want = [(0, "rule:fr-quotes", m.start(), m.end(), "Use « » in French.", "warning")
            for m in re.finditer(r'"[^"]*"', hyp[0])]
    assert len(want) == 2 and got == want


def test_target_only_runs_without_a_source():
    s = settings({"code": "q", "target": r"\?\?"})
    assert [g[:4] for g in run(s, ["ok", "what??"], None)] == [(1, "rule:q", 4, 6)]


def test_source_only_flags_a_target_without_what_the_source_has():
    s = settings({"code": "brand", "source": r"\bBleuCorp\b"})
    src = ["Welcome to BleuCorp.", "Welcome to BleuCorp.", "Welcome."]
    hyp = ["Bienvenue chez BleuCorp.", "Bienvenue chez nous.", "Bienvenue."]
    got = run(s, hyp, src)
    assert [(g[0], g[2], g[3]) for g in got] == [(1, 0, None)]  # the whole line
    assert got[0][4] == "The source matches the pattern of rule:brand and the target does not."


def test_a_rule_with_a_source_pattern_does_not_run_without_a_source():
    s = settings({"code": "brand", "source": "BleuCorp"})
    assert run(s, ["Bienvenue."], None) == []


def test_both_without_groups_source_matches_and_target_does_not():
    s = settings({"code": "pct", "source": r"\d+ ?%", "target": r"\d+ %"})  # French: a space before %
    src = ["50% off", "50% off", "no number"]
    hyp = ["50 % de remise", "50% de remise", "50% sans"]
    assert [(g[0], g[2], g[3]) for g in run(s, hyp, src)] == [(1, 0, None)]


def test_both_with_groups_a_differing_group_flags_the_target_match():
    s = settings({"code": "decimal", "source": r"(\d+)\.(\d+)", "target": r"(\d+),(\d+)",
                  "message": "Decimal numbers: a comma, and the same digits."})
    src = ["1.5 kg", "2.6 kg", "3.5 kg", "no number"]
    hyp = ["1,5 kg", "2,5 kg", "3.5 kg", "4,5 kg"]
    got = run(s, hyp, src)
    m = re.search(r"(\d+),(\d+)", hyp[1])
    assert [(g[0], g[2], g[3]) for g in got] == [(1, m.start(), m.end()), (2, 0, None)]
    assert got[0][4] == "Decimal numbers: a comma, and the same digits."


def test_groups_are_compared_ignoring_case_unless_case_sensitive():
    rule = {"code": "ph", "source": r"%\((\w+)\)s", "target": r"%\((\w+)\)s"}
    hyp, src = ["Bonjour %(Name)s"], ["Hello %(name)s"]
    assert run(settings(rule), hyp, src) == []
    assert [g[:2] for g in run(settings({**rule, "caseSensitive": True}), hyp, src)] == [(0, "rule:ph")]


def test_case_is_ignored_by_default():
    rule = {"code": "ok", "target": r"\bOK\b"}
    assert len(run(settings(rule), ["c'est ok"])) == 1
    assert run(settings({**rule, "caseSensitive": True}), ["c'est ok"]) == []


def test_severity_is_the_rules_else_the_rows():
    s = settings({"code": "a", "target": "x", "severity": "error"}, {"code": "b", "target": "y"})
    s.diagnostics.rule.severity = "hint"
    assert {g[1]: g[5] for g in run(s, ["x y"])} == {"rule:a": "error", "rule:b": "hint"}
    s.diagnostics.rule.enabled = False
    assert run(s, ["x y"]) == []


# -- files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("files, path, applies", [
    ([], "/w/a/fr.po", True),
    (["*.po"], "/w/a/b/fr.po", True),  # no folder part: any folder
    (["*.xlf"], "/w/a/fr.po", False),
    (["/w/locale/*.po"], "/w/locale/fr.po", True),
    (["/w/locale/*.po"], "/w/locale/sub/fr.po", False),  # * does not cross folders
    (["/w/**/*.po"], "/w/locale/sub/fr.po", True),
    (["/w/**/*.po"], "/w/fr.po", True),
    (["fr.p?"], "/w/fr.po", True),
    (["[!f]r.po"], "/w/fr.po", False),
])
def test_files_globs(files, path, applies):
    assert user_rules.applies(tuple(files), path, path.rsplit("/", 1)[1]) is applies


def test_files_globs_with_a_folder_are_read_against_the_workspace_root(tmp_path):
    data = resolve_paths({"rules": [{"code": "a", "target": "x", "files": ["locale/*.po", "*.xlf", "./b/**"]}]}, tmp_path)
    root = tmp_path.as_posix()
    assert data["rules"][0]["files"] == [f"{root}/locale/*.po", "*.xlf", f"{root}/b/**"]
    s = settings(*data["rules"])
    hyp = ["x"]
    assert run(s, hyp, None, {"hypothesis": "fr.po", "path": str(tmp_path / "locale" / "fr.po")}) != []
    assert run(s, hyp, None, {"hypothesis": "fr.po", "path": str(tmp_path / "other" / "fr.po")}) == []
    assert run(s, hyp, None, {"hypothesis": "de.xlf", "path": str(tmp_path / "deep" / "de.xlf")}) != []


# -- settings ---------------------------------------------------------------------------------------
def test_a_bad_rule_is_one_sentence_naming_it_and_is_left_out():
    problems: list = []
    s = settings({"code": "broken", "target": "(unclosed"}, {"code": "", "target": "x"},
                 {"code": "nothing"}, {"code": "sev", "target": "x", "severity": "fatal"},
                 {"code": "good", "target": "y"}, problems=problems)
    assert problems == [
        "rules[0] (rule:broken): the target pattern '(unclosed' does not compile: missing ) at position 10; the rule is off",
        "rules[1] needs a code of letters, digits, '.', '_' or '-' (its findings are rule:<code>), not ''; the rule is off",
        "rules[2] (rule:nothing) needs a source or a target pattern; the rule is off",
        "rules[3] (rule:sev): severity must be one of error, warning, information, hint, not 'fatal'; the rule is off",
    ]
    assert [r.code for r in s.rules] == ["good"]


def test_rules_from_toml_keys_snake_or_camel():
    s = Settings.from_dict({"rules": [{"code": "a", "target": "x", "case_sensitive": True}]})
    assert s.rules[0].case_sensitive is True
    assert s.to_dict()["rules"][0]["caseSensitive"] is True


# -- time limits ---------------------------------------------------------------------------------------
CATASTROPHIC = r"(a|aa)+$"  # exponential backtracking in the regex package too ((a+)+$ it optimises)


def test_a_catastrophic_pattern_is_switched_off_with_one_sentence():
    s = settings({"code": "slow", "target": CATASTROPHIC}, {"code": "fine", "target": "b"})
    hyp = ["a" * 40 + "b"] * 3 + ["x"] * 50 + ["a" * 40 + "b"]
    t = time.perf_counter()
    got = run(s, hyp)
    assert time.perf_counter() - t < 5  # (unbounded, one line alone takes hours)
    slow = [g for g in got if g[1] == "rule:slow"]
    assert slow == [(0, "rule:slow", 0, None, "rule:slow: the pattern took longer than 20 ms on line 1; "
                     "the rule is off until its settings change", "warning")]
    # the other rule goes on, on every line
    assert [g[0] for g in got if g[1] == "rule:fine"] == [0, 1, 2, 53]


def test_the_rule_stays_off_after_edits_and_comes_back_with_new_settings():
    s = settings({"code": "slow", "target": CATASTROPHIC})
    hyp = ["x", "a" * 40 + "b", "y"]
    model = Unreferenced({}, hyp)
    a = Analyzer(s)
    first = [(f.line, f.code) for f in a.analyse(model, None, NAMES)]
    assert first == [(1, "rule:slow")]
    t = time.perf_counter()
    for k in range(5):  # typing on the line: no second sentence, no time spent on the pattern
        model.splice_hyp(1, 2, ["a" * (40 + k) + "b"])
        got = [(f.line, f.code, f.message) for f in a.analyse(model, None, NAMES)]
        assert [g[:2] for g in got] == [(1, "rule:slow")] and "took longer than 20 ms on line 2" in got[0][2]
    assert time.perf_counter() - t < 1
    # a settings change (another pattern) is a new rule set: on again
    s2 = settings({"code": "slow", "target": "a+b$"})
    a.set_settings(s2)
    assert [(f.line, f.code, f.start_col) for f in a.analyse(model, None, NAMES)] == [(1, "rule:slow", 0)]


class _Preempted:
    """A pattern whose first ``n`` searches are stopped by the wall clock with no CPU time
    spent (the process was preempted), as on a busy machine; then it matches."""

    def __init__(self, n: int) -> None:
        self.n, self.calls = n, 0

    def search(self, text, pos=0, timeout=None):
        self.calls += 1
        if self.calls <= self.n:
            raise TimeoutError("regex timed out")
        return re.compile("x").search(text, pos)


def test_a_search_stopped_by_the_wall_clock_alone_is_tried_again():
    clock = user_rules._Clock(user_rules.PER_PASS)
    pattern = _Preempted(2)
    m = user_rules._search(pattern, "a x", clock)
    assert (m.span(), pattern.calls) == ((2, 3), 3)


def test_a_search_past_the_wall_limit_is_slow_even_without_cpu_time(monkeypatch):
    clock = user_rules._Clock(user_rules.PER_PASS)
    clock.wall -= user_rules.WALL_FACTOR * user_rules.PER_SEGMENT  # as if preempted that long
    with pytest.raises(user_rules._Slow):
        user_rules._search(_Preempted(1), "a x", clock)


def test_a_preempted_rule_is_not_switched_off():
    s = settings({"code": "quotes", "target": r'"'})
    rules = user_rules.rule_set(s)
    rule = rules.rules[0]
    preempted = _Preempted(1)
    hits = user_rules.line_hits(rule._replace(target=preempted), 'say "x"', None, user_rules._Clock(user_rules.PER_PASS))
    assert hits == [(5, 6)] and preempted.calls >= 2


def test_the_pass_budget_switches_off_a_rule_slow_on_every_line(monkeypatch):
    monkeypatch.setattr(user_rules, "PER_PASS", 0.05)
    # slow but under the per-segment limit on each line: ~1 ms each (distinct lines: no memo)
    s = settings({"code": "heavy", "target": r"(a|aa)+c"})
    hyp = ["a" * 16 + f"b{i}" for i in range(400)]
    t = time.perf_counter()
    got = run(s, hyp)
    assert time.perf_counter() - t < 5
    assert len(got) == 1 and got[0][1] == "rule:heavy"
    assert "took longer than 0.05 s over this document" in got[0][4]


def test_an_edit_rechecks_the_edited_line_only_and_memoises_by_text(monkeypatch):
    s = settings({"code": "q", "target": '"[^"]*"'})
    calls = []
    real = user_rules.line_hits

    def counting(rule, target, source, clock):
        calls.append(target)
        return real(rule, target, source, clock)

    monkeypatch.setattr(user_rules, "line_hits", counting)
    hyp = [f'line {i} "q"' if i % 2 else f"line {i}" for i in range(100)]
    model = Unreferenced({}, hyp)
    a = Analyzer(s)
    assert len([f for f in a.analyse(model, None, NAMES)]) == 50
    assert len(calls) == 100
    calls.clear()
    model.splice_hyp(1, 2, ["line 1 fixed"])
    got = a.analyse(model, None, NAMES)
    assert calls == ["line 1 fixed"] and len(got) == 49 and 1 not in {f.line for f in got}
