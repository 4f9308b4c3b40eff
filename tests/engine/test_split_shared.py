"""Splitting a text with equal lines held once: the same lines as
``str.split`` / the LSP line rules, each distinct line one object."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.engine import text as text_module
from bleu_ls.engine import split_lsp_lines, split_shared
from bleu_ls.engine.lazytext import read_lines_sliced, run


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\r\n", max_size=60), st.sampled_from(["\n", "\r\n"]), st.integers(1, 9))
def test_same_parts_as_str_split(text, sep, block):
    old = text_module.SHARE_BLOCK
    text_module.SHARE_BLOCK = block
    try:
        assert split_shared(text, sep) == text.split(sep)
    finally:
        text_module.SHARE_BLOCK = old


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\r"])
def test_equal_lines_are_one_object(sep, monkeypatch):
    monkeypatch.setattr(text_module, "SHARE_BLOCK", 16)
    lines = [f"line {i % 7} {'é' * (i % 7)}" for i in range(200)]
    got = split_lsp_lines(sep.join(lines) + sep)
    assert got == lines
    assert len({id(x) for x in got}) == 7


def test_a_file_read_in_blocks_shares_lines_across_blocks(tmp_path):
    lines = [f"Der Satz Nummer {i % 50}." for i in range(5000)]
    path = tmp_path / "a.ref"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = run(read_lines_sliced(str(path), chunk=1000))
    assert got == lines and len({id(x) for x in got}) == 50
