"""The lazily moved offsets of the live indexes (formats/live/arrays.py): after random
moves, splices (counts kept and changed) and single sets, a :class:`Shifted` equals a plain
numpy array edited the same way, and its searches equal ``np.searchsorted``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_ls.formats.live.arrays as live_arrays
from bleu_ls.formats.live.arrays import Shifted


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(live_arrays, "SHIFT", 2)
    monkeypatch.setattr(live_arrays, "BLOCK", 4)


OPS = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 60), st.integers(0, 9)),
    st.tuples(st.just("splice"), st.integers(0, 60), st.integers(0, 5), st.integers(0, 5), st.integers(0, 9)),
    st.tuples(st.just("set"), st.integers(0, 60), st.integers(0, 9)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=40), st.lists(OPS, max_size=15))
def test_random_moves_equal_a_plain_array(steps, ops):
    plain = np.cumsum(np.asarray(steps, np.int64))  # sorted, with repeats
    s = Shifted(plain)
    for op in ops:
        n = len(plain)
        if op[0] == "add":
            i, d = min(op[1], n), op[2]
            s.add_from(i, d)
            plain[i:] += d
        elif op[0] == "splice":
            a = min(op[1], n)
            b = min(n, a + op[2])
            lo = int(plain[a - 1]) + (op[1] % 2) if a else 0  # kept sorted: new values between the neighbours
            vals = np.asarray([lo] * op[3], np.int64)
            d = op[4] + (lo - int(plain[b])) if b < n and int(plain[b]) + op[4] < lo else op[4]
            s.splice(a, b, vals, d)
            tail = plain[b:] + d
            plain = np.concatenate((plain[:a], vals, tail))
        elif n:
            i = min(op[1], n - 1)
            v = int(plain[i])  # the same value (sorted order kept): what the index does after a move is read
            s.set(i, v)
        assert s.values().tolist() == plain.tolist()
        assert len(s) == len(plain)
        if len(plain):
            which = np.arange(len(plain))[::-1]
            assert s.take(which).tolist() == plain[which].tolist()
            assert [s.get(i) for i in range(len(plain))] == plain.tolist()
        for x in range(-1, int(plain[-1]) + 3 if len(plain) else 2):
            for side in ("left", "right"):
                assert s.searchsorted(x, side) == int(np.searchsorted(plain, x, side)), (x, side)
