"""The analysis store's grouping of findings by line: every line's findings in the order
given, kept as a tuple, whatever the number on one line."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from bleu_ls.qa.analysis.incremental import FindingStore, group, share
from bleu_ls.qa.findings import Finding


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=6), max_size=60))
def test_group_keeps_each_lines_findings_in_order(lines):
    findings = [Finding("doubled-word", "warning", f"finding {k}", line=i) for k, i in enumerate(lines)]
    got = group(findings)
    assert set(got) == set(lines)
    for i, fs in got.items():
        assert type(fs) is tuple
        assert list(fs) == [f for f in findings if f.line == i]
        assert all(a is b for a, b in zip(fs, [f for f in findings if f.line == i]))


def test_a_line_of_many_findings():
    findings = [Finding("doubled-word", "warning", str(k), line=3) for k in range(5000)]
    assert group(findings) == {3: tuple(findings)}


def test_a_line_one_rule_flags_keeps_one_tuple():
    """The store's findings of a line that one rule alone flags are that rule's tuple (one
    tuple, not two); a line two rules flag has its own, in the listed order."""
    a = [Finding("term-missing", "warning", f"m{i}", line=i) for i in (1, 2, 2)]
    b = [Finding("term-forbidden", "warning", "f", line=2), Finding("term-forbidden", "warning", "g", line=3)]
    store = FindingStore()
    got = store.full([("term-missing", a), ("term-forbidden", b)])
    assert [f.line for f in got] == [1, 2, 2, 2, 3]
    missing, forbidden = store.by_code["term-missing"], store.by_code["term-forbidden"]
    assert store.final[1] is missing[1]
    assert store.final[3] is forbidden[3]
    assert store.final[2] == (*a[1:], b[0]) and store.final[2] is not missing[2]
    # an incremental pass: line 2 loses its forbidden term, line 1 gets one
    c = Finding("term-forbidden", "warning", "h", line=1)
    store.by_code["term-forbidden"] = {1: (c,), 3: forbidden[3]}
    assert store.settle(set(), (1, 3)) == {1, 2}
    assert store.final[2] is missing[2]
    assert store.final[1] == (a[0], c)
    assert store.findings() == [a[0], c, *a[1:], b[1]]


def test_share_keeps_a_tuple_that_differs():
    """A line one rule flags whose final findings differ from the rule's (dropped inside a
    misaligned stretch) keeps its own tuple."""
    f, g = Finding("low-score", "warning", "x", line=0), Finding("low-score", "warning", "y", line=0)
    assert share({0: (f,)}, [{0: (f, g)}])[0] == (f,)
    own = (f, g)
    assert share({0: (f, g)}, [{0: own}, {}])[0] is own
    assert share({0: (f, g)}, [{0: own}, {0: (g,)}])[0] is not own  # (two rules: the line's own tuple)
