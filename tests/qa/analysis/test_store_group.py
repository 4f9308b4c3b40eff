"""The analysis store's grouping of findings by line: every line's findings in the order
given, kept as a tuple, whatever the number on one line."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from bleu_ls.qa.analysis.incremental import group
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
