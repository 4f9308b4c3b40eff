"""The loop's own reader of the editor's pipe reads what a blocking reader reads."""

import asyncio
import io
import os
import sys
import threading

import pytest
from hypothesis import given, settings, strategies as st

from bleu_ls.server.wire import transport

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the loop watches POSIX pipes")


def _script(messages):
    """(header lines, body lengths) → the bytes on the wire."""
    out = bytearray()
    for headers, body in messages:
        for h in headers:
            out += h
        out += body
    return bytes(out)


def _reference(data: bytes, plan):
    """What blocking reads of ``data`` give for ``plan`` (("line",) or ("body", n))."""
    f = io.BytesIO(data)
    return [f.readline() if step[0] == "line" else f.read(step[1]) for step in plan]


def _loop_reads(data: bytes, plan, cuts, pause: float = 0.0):
    """The same reads through :class:`transport.LoopReader`, the data
    written into a real pipe in pieces cut at ``cuts``."""
    r, w = os.pipe()

    def writer():
        last = 0
        with os.fdopen(w, "wb", buffering=0) as out:
            for c in sorted(set(cuts)) + [len(data)]:
                if c > last:
                    out.write(data[last:c])
                    last = c
                    if pause:
                        threading.Event().wait(pause)

    async def main():
        stream = os.fdopen(r, "rb", buffering=0)
        reader = await transport.LoopReader.open(stream)
        assert reader is not None
        got = []
        for step in plan:
            got.append(bytes(await reader.readline() if step[0] == "line" else await reader.readexactly(step[1])))
        got.append(await reader.readline())  # the end of the input
        stream.close()
        return got

    t = threading.Thread(target=writer)
    t.start()
    try:
        return asyncio.run(main())
    finally:
        t.join()


@st.composite
def _wire(draw):
    messages, plan = [], []
    for _ in range(draw(st.integers(1, 6))):
        body = draw(st.binary(max_size=300))
        headers = [b"Content-Length: %d\r\n" % len(body)]
        if draw(st.booleans()):
            headers.append(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
        headers.append(b"\r\n")
        messages.append((headers, body))
        plan += [("line",)] * len(headers) + [("body", len(body))]
    data = _script(messages)
    cuts = draw(st.lists(st.integers(0, len(data)), max_size=12))
    return data, plan, cuts


@settings(max_examples=60, deadline=None)
@given(_wire())
def test_messages_cut_anywhere_read_as_a_blocking_reader_reads_them(wire):
    data, plan, cuts = wire
    got = _loop_reads(data, plan, cuts)
    assert got[:-1] == _reference(data, plan)
    assert got[-1] == b""


def test_a_body_larger_than_the_buffer_limit_arrives_whole_and_later_messages_follow():
    big = os.urandom(3 * transport.HIGH_WATER + 12345)
    small = b'{"jsonrpc": "2.0"}'
    data = _script([([b"Content-Length: %d\r\n" % len(big), b"\r\n"], big),
                    ([b"Content-Length: %d\r\n" % len(small), b"\r\n"], small)])
    plan = [("line",), ("line",), ("body", len(big)), ("line",), ("line",), ("body", len(small))]
    cuts = list(range(0, len(data), 1 << 20))
    assert _loop_reads(data, plan, cuts, pause=0.002)[:-1] == _reference(data, plan)


def test_many_messages_written_ahead_of_the_reader_are_all_read():
    # more than the high-water mark arrives before anything is read: the
    # loop stops reading the pipe, then resumes as the reader catches up
    body = b"x" * 1000
    messages = [([b"Content-Length: 1000\r\n", b"\r\n"], body)] * (3 * transport.HIGH_WATER // 1000)
    data = _script(messages)
    plan = [("line",), ("line",), ("body", 1000)] * len(messages)
    got = _loop_reads(data, plan, [])
    assert got[:-1] == _reference(data, plan) and got[-1] == b""


def test_an_overlong_header_line_is_one_bad_line_and_the_next_message_is_read():
    junk = b"y" * (transport.LINE_LIMIT * 3) + b"\r\n"  # arrives in pieces, the newline last
    body = b"{}"
    data = junk + b"Content-Length: 2\r\n\r\n" + body
    got = _loop_reads(data, [("line",), ("line",), ("line",), ("body", 2)], [5, len(junk) // 2])
    assert got[0] == b"?\n"
    assert got[1:4] == [b"Content-Length: 2\r\n", b"\r\n", body]


def test_input_ending_inside_a_body_gives_what_came():
    data = b"Content-Length: 10\r\n\r\nabc"
    got = _loop_reads(data, [("line",), ("line",), ("body", 10)], [4])
    assert got[2] == b"abc" and got[3] == b""


def test_a_regular_file_is_not_watched_by_the_loop(tmp_path):
    p = tmp_path / "in"
    p.write_bytes(b"Content-Length: 2\r\n\r\n{}")

    async def main():
        with open(p, "rb") as f:
            return await transport.LoopReader.open(f)

    assert asyncio.run(main()) is None


@pytest.mark.parametrize("pieces", [1, 3])
def test_each_message_is_read_as_soon_as_its_last_byte_arrives(pieces):
    # the editor waits for the answer before it writes again: a body must
    # not wait for more input to be handed over
    r, w = os.pipe()
    bodies = [b'{"id": %d}' % i + b" " * (5000 * i) for i in range(4)]
    got_one = threading.Semaphore(0)
    failed = []

    def writer():
        with os.fdopen(w, "wb", buffering=0) as out:
            for body in bodies:
                msg = b"Content-Length: %d\r\n\r\n" % len(body) + body
                step = -(-len(msg) // pieces)
                for k in range(0, len(msg), step):
                    out.write(msg[k:k + step])
                    threading.Event().wait(0.02)  # the reader is waiting for the rest
                if not got_one.acquire(timeout=10):
                    failed.append(body[:12])
                    return

    async def main():
        stream = os.fdopen(r, "rb", buffering=0)
        reader = await transport.LoopReader.open(stream)
        got = []
        for _ in bodies:
            await asyncio.wait_for(reader.readline(), 10)
            await asyncio.wait_for(reader.readline(), 10)
            got.append(bytes(await asyncio.wait_for(reader.readexactly(len(bodies[len(got)])), 10)))
            got_one.release()
        stream.close()
        return got

    t = threading.Thread(target=writer)
    t.start()
    try:
        assert asyncio.run(main()) == bodies
    finally:
        t.join()
    assert not failed
