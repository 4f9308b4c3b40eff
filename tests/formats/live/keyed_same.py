"""What the key-value live indexes' tests hold an index to after edits: a fresh read of its text."""

from __future__ import annotations

from typing import Any, Callable


def assert_same_as_fresh(idx: Any, want: Any) -> list:
    """``idx`` after its edits against ``want``, the same text read afresh and paired with the same
    source: its segments (key, target, place, line, source first, for a readable failure), header,
    problems and target spans; returns ``idx``'s segments."""
    got = idx.segments()
    assert [(s.key, s.target, s.target_span, s.line, s.source) for s in got] == \
        [(s.key, s.target, s.target_span, s.line, s.source) for s in want.segments()]
    assert got == want.segments()
    assert idx.header == want.header
    assert [(p.message, p.span) for p in idx.problems] == [(p.message, p.span) for p in want.problems]
    assert [idx.target_span(i) for i in range(len(idx))] == [s.target_span for s in want.segments()]
    return got


def count_whole_reads(idx: Any) -> list:
    """A list that gets one item for each whole read of the index's text from now on (its ``reset``)."""
    calls: list = []
    whole = idx.reset

    def counted(text: str) -> None:
        calls.append(1)
        whole(text)

    idx.reset = counted
    return calls


def edit_at_random(idx: Any, edits: list, check: Callable[[Any], None]) -> None:
    """Each (position, length, text) of ``edits`` applied to ``idx``, the position wrapped into its
    text, and ``check(idx)`` after each."""
    for pos, length, new in edits:
        n = len(idx.text)
        start = pos % (n + 1)
        idx.edit(start, min(n, start + length), new)
        check(idx)


def edit_at_anchors(idx: Any, edits: list, anchor: str, check: Callable[[Any], None]) -> None:
    """Each (position, length, text) of ``edits`` applied to ``idx`` at the first ``anchor`` from the
    position (wrapped into its text; the end when there is none after it), and ``check(idx)`` after each."""
    for pos, length, new in edits:
        text = idx.text
        start = text.find(anchor, pos % (len(text) + 1))
        start = start if start >= 0 else len(text)
        idx.edit(start, min(len(text), start + length), new)
        check(idx)
