"""Reading files lazily / in slices gives what the whole read gives: the same
lines under the LSP rule (\\n, \\r\\n, \\r only) and the same error sentences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.engine import InputError, read_text, split_lsp_lines
from bleu_ls.engine import lazytext
from bleu_ls.engine.lazytext import LazyLines, read_lines_sliced, run

# line breaks, and characters that are *not* line breaks for LSP
PIECES = ["a", "b c", "é", "日本", "\n", "\r", "\r\n", "\u2028", "\x0c", "\x85", " ", "\t", "\U0001f600"]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _whole(path) -> list[str]:
    return split_lsp_lines(read_text(str(path)))


@settings(max_examples=150, deadline=None)
@given(text=texts, bom=st.booleans(), chunk=st.integers(1, 9))
def test_sliced_read_equals_the_whole_read(tmp_path_factory, text, bom, chunk):
    path = tmp_path_factory.mktemp("t") / "f.ref"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    assert run(read_lines_sliced(str(path), chunk=chunk)) == _whole(path)


@settings(max_examples=150, deadline=None)
@given(text=texts, bom=st.booleans(), block=st.integers(1, 7))
def test_lazy_lines_equal_the_whole_read(tmp_path_factory, text, bom, block):
    path = tmp_path_factory.mktemp("t") / "f.ref"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    whole = _whole(path)
    old = lazytext.FIRST_BLOCK
    lazytext.FIRST_BLOCK = block
    try:
        lazy = LazyLines(str(path))
    finally:
        lazytext.FIRST_BLOCK = old
    order = list(range(len(whole) + 2))
    got = [lazy.line(i) for i in reversed(order)][::-1]  # far lines first, then the head
    assert got == whole + [None, None]
    assert [lazy.has_line(i) for i in order] == [True] * len(whole) + [False, False]
    lazy.close()


def _same_error(path, chunk=4):
    with pytest.raises(InputError) as whole:
        read_text(str(path))
    with pytest.raises(InputError) as sliced:
        run(read_lines_sliced(str(path), chunk=chunk))
    assert str(sliced.value) == str(whole.value)
    return str(whole.value)


@pytest.mark.parametrize(
    "data",
    [
        b"ok line\n" * 50 + b"bad \xff here\n" + b"more\n",  # not UTF-8, late in the file
        b"ok\n" * 30 + b"cut \xe6\x97\n" + b"x\n",  # a character cut short before a break
        b"a\rb\n" * 20 + b"nul \x00 here\n",  # binary (NUL), counted as the whole read counts
        b"nul early \x00\n" + b"ok\n" * 20 + b"\xc3\x28\n",  # a NUL first, then bad UTF-8: the UTF-8 error wins
    ],
)
def test_bad_files_get_the_whole_reads_words(tmp_path, data):
    path = tmp_path / "bad.ref"
    path.write_bytes(data)
    message = _same_error(path)
    assert str(path) in message
    # the lazy reader answers the lines that are fine and None for the bad one
    lazy = LazyLines(str(path))
    assert lazy.line(1) is not None
    lazy.close()


def test_missing_and_folder_get_the_whole_reads_words(tmp_path):
    _same_error(tmp_path / "nope.ref")
    _same_error(tmp_path)
    with pytest.raises(InputError) as exc:
        LazyLines(str(tmp_path / "nope.ref"))
    assert "no such file" in str(exc.value)


def test_read_all_sliced_reads_every_byte_in_steps(tmp_path):
    """One buffer sized from the file, filled a step at a time; a file that
    grows while it is read, and a stream with no size, are read to the end."""
    import io

    from bleu_ls.engine.lazytext import read_all_sliced

    data = bytes(range(256)) * 1000 + "zwölf\r\n".encode() * 7
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    with open(path, "rb") as fh:
        gen = read_all_sliced(fh, 4096)
        steps = 0
        try:
            while True:
                next(gen)
                steps += 1
                if steps == 3:  # the file grows after the size was taken
                    with open(path, "ab") as more:
                        more.write(b"tail\n" * 5000)
        except StopIteration as stop:
            got = stop.value
    assert bytes(got) == data + b"tail\n" * 5000
    assert steps >= len(data) // 4096
    gen = read_all_sliced(io.BytesIO(data), 1000)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        assert bytes(stop.value) == data
