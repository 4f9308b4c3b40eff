"""The analysis store's grouping of findings by line: every line's findings in the order
given, kept as a tuple, whatever the number on one line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bleu_ls.qa.analysis.incremental import ByLine, FindingStore, group
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
    store.full([("term-missing", a), ("term-forbidden", b)])
    assert [f.line for f in store.findings()] == [1, 2, 2, 2, 3]
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


def test_a_stretch_drops_the_line_pair_findings_in_it():
    """Inside a misaligned stretch the line-pair findings go (the stretch says it once); a
    line left with none leaves the store, a line one other rule flags keeps that rule's tuple."""
    low = [Finding("low-score", "warning", f"low {i}", line=i) for i in (0, 1, 2, 4)]
    dup = [Finding("doubled-word", "warning", "dup", line=2)]
    run = [Finding("misaligned", "warning", "run", line=1, data={"start": 1, "end": 2})]
    store = FindingStore()
    store.full([("low-score", low), ("doubled-word", dup), ("misaligned", run)])
    assert list(store.lines) == [0, 1, 2, 4]
    assert [f.message for f in store.findings()] == ["low 0", "run", "dup", "low 4"]
    assert store.final[2] is store.by_code["doubled-word"][2]


def test_findings_kept_under_several_lines_are_placed_on_each():
    """A rule may give one finding for many lines (:class:`ByLine`, the term rules): the store
    keeps that one object under each line, and its readers get it placed on each line."""
    f = Finding("term-missing", "warning", "shared", start_col=2, end_col=5)
    g = Finding("term-forbidden", "warning", "own", line=3)
    store = FindingStore()
    store.full([("term-missing", ByLine({1: (f,), 3: (f,)})), ("term-forbidden", ByLine({3: (g,)}))])
    assert store.final[1][0] is f and store.final[3][0] is f
    got = store.findings()
    assert [(x.line, x.message, x.start_col, x.end_col) for x in got] == [
        (1, "shared", 2, 5), (3, "shared", 2, 5), (3, "own", 0, None)]
    assert got[2] is g  # (a finding on its own line is not copied)
    assert f.line == 0  # (the shared one is not changed)


def test_placed_copies_every_field_but_the_line_and_the_holders_cache():
    from dataclasses import fields, replace

    from bleu_ls.qa.findings import placed

    f = Finding("term-forbidden", "error", "m", span=(3, 9), line=0, start_col=3, end_col=9, key="k",
                data={"term": "x"}, cache=("held",))
    [g] = placed(5, (f,))
    assert g is not f and g.cache is None
    assert [getattr(g, x.name) for x in fields(Finding)] == [getattr(replace(f, line=5, cache=None), x.name)
                                                             for x in fields(Finding)]
    same = (replace(f, line=5),)
    assert placed(5, same) is same


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["set", "del", "pop", "get", "update"]), st.integers(min_value=0, max_value=40),
                          st.integers(min_value=0, max_value=3)), max_size=80))
def test_dense_lines_behave_as_a_dict(ops):
    """:class:`DenseLines` (a list by line) against a dict under random operations: the same
    answers, the same lines (in line order), the same items, equal to each other."""
    from bleu_ls.qa.findings import DenseLines

    d: dict = {}
    m = DenseLines()
    for op, i, v in ops:
        value = (f"v{v}",)
        if op == "set":
            d[i] = value
            m[i] = value
        elif op == "del":
            if i in d:
                del d[i]
                del m[i]
            else:
                with pytest.raises(KeyError):
                    del m[i]
        elif op == "pop":
            assert m.pop(i, None) == d.pop(i, None)
        elif op == "get":
            assert m.get(i) == d.get(i) and (i in m) == (i in d)
        else:
            other = {i: value, i + 1: value}
            d.update(other)
            m.update(other)
        assert len(m) == len(d) and bool(m) == bool(d)
        assert list(m) == sorted(d) and list(m.items()) == sorted(d.items())
        assert m == d and m.keys() == d.keys()
    assert -1 not in m and "x" not in m and m.get(10**6) is None


def test_a_store_of_findings_on_most_lines_keeps_them_in_lists_by_line():
    """Findings on most of a document's lines are kept as lists by line (the rule's and the
    merged ones), a few as dicts; an incremental pass edits either alike."""
    from bleu_ls.qa.findings import DenseLines

    n = 2000
    many = [Finding("term-missing", "warning", f"m{i}", line=i) for i in range(0, n, 2)]
    few = [Finding("doubled-word", "warning", "d", line=i) for i in (3, 4, 1999)]
    store = FindingStore()
    store.full([("doubled-word", few), ("term-missing", many)], n)
    assert isinstance(store.by_code["term-missing"], DenseLines) and isinstance(store.final, DenseLines)
    assert type(store.by_code["doubled-word"]) is dict
    assert store.final[4] == (few[1], many[2]) and store.final[3] == (few[0],) and 5 not in store.final
    store.by_code["doubled-word"] = {3: (few[0],), 1999: (few[2],)}
    store.by_code["term-missing"].pop(4)
    assert store.settle(set(), (4, 5)) == {4}
    assert 4 not in store.final and list(store.lines[:3]) == [0, 2, 3]
    assert [f.line for f in store.findings()] == [0, 2, 3, *range(6, n, 2), 1999]
