"""The editor's messages read by the event loop itself.

pygls reads stdin in a worker thread, one blocking call per header line
and per body: a request crossed between that thread and the event loop
six times before it was handled.  While a background pass holds the
interpreter (the first analysis of a 1M-line document runs for two
minutes), each crossing waits for the interpreter lock: a 60-line hint
request that costs 2 ms took 6–15 ms.  Here the loop watches the pipe and
buffers what arrives, so a request waits for the lock once, when the loop
wakes; a body is read into one buffer of its length as it arrives.  Where
stdin cannot be watched by the loop (a regular file, a platform whose loop
cannot), pygls's own reader is used.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections import deque
from typing import Any, BinaryIO, Optional, Union

from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async

log = logging.getLogger(__name__)

#: the longest header line kept (a longer one is read as one bad header)
LINE_LIMIT = 1 << 16
#: bytes buffered ahead of the reader before the loop stops reading the pipe
HIGH_WATER = 1 << 22


class _Pipe(asyncio.Protocol):
    """What arrived on the pipe: chunks, or straight into a body's buffer."""

    def __init__(self) -> None:
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.eof = False
        self.transport: Optional[asyncio.ReadTransport] = None
        self.paused = False
        self.waiter: Optional[asyncio.Future] = None
        self.sink: Optional[memoryview] = None  # a body being read: its unfilled part
        self.filled = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        sink = self.sink
        if sink is not None:
            k = min(len(data), len(sink) - self.filled)
            sink[self.filled:self.filled + k] = data[:k]
            self.filled += k
            data = data[k:]
            if self.filled == len(sink):
                self._wake()
            if not data:
                return
        self.chunks.append(data)
        self.size += len(data)
        self._wake()
        if self.size > HIGH_WATER and not self.paused and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake()
        return False

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.eof = True
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def wait(self) -> None:
        """Until more arrives (or the input ends)."""
        if self.paused and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        self.waiter = asyncio.get_running_loop().create_future()
        try:
            await self.waiter
        finally:
            self.waiter = None

    def take(self, n: int) -> bytes:
        """The first ``n`` buffered bytes (``n`` <= :attr:`size`)."""
        parts = []
        while n:
            head = self.chunks[0]
            if len(head) <= n:
                parts.append(self.chunks.popleft())
                n -= len(head)
                self.size -= len(head)
            else:
                parts.append(head[:n])
                self.chunks[0] = head[n:]
                self.size -= n
                n = 0
        if self.paused and self.size <= HIGH_WATER and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def newline_at(self) -> int:
        """Bytes up to and including the first buffered newline (-1: none yet)."""
        offset = 0
        for chunk in self.chunks:
            i = chunk.find(b"\n")
            if i >= 0:
                return offset + i + 1
            offset += len(chunk)
        return -1


class LoopReader:
    """``readline`` / ``readexactly`` over a pipe watched by the event loop.

    A body is read into one buffer of its length as it arrives (a 130 MB
    document is held once, not once per copy)."""

    def __init__(self, pipe: _Pipe) -> None:
        self._pipe = pipe

    @classmethod
    async def open(cls, stream: BinaryIO) -> Optional["LoopReader"]:
        """A reader of ``stream``, or None when the loop cannot watch it."""
        if sys.platform == "win32":  # the proactor loop reads overlapped handles only
            return None
        loop = asyncio.get_running_loop()
        pipe = _Pipe()
        try:
            await loop.connect_read_pipe(lambda: pipe, stream)
        except (ValueError, OSError, NotImplementedError):
            return None
        return cls(pipe)

    async def readline(self) -> bytes:
        """One line with its newline; ``b""`` at the end of the input."""
        pipe = self._pipe
        dropped = False
        while True:
            at = pipe.newline_at()
            if at >= 0:
                line = pipe.take(at)
                return b"?\n" if dropped or at > LINE_LIMIT else line  # an overlong line is no header
            if pipe.eof:
                line = pipe.take(pipe.size)
                return b"?\n" if dropped and line else line
            if pipe.size > LINE_LIMIT:  # no newline in sight: drop what came
                pipe.take(pipe.size)
                dropped = True
            await pipe.wait()

    async def readexactly(self, n: int) -> Union[bytes, bytearray]:
        """``n`` bytes (fewer when the input ends first)."""
        pipe = self._pipe
        if pipe.size >= n:
            return pipe.take(n)
        body = bytearray(n)
        view = memoryview(body)
        have = pipe.size
        view[:have] = pipe.take(have)
        pipe.sink, pipe.filled = view, have
        try:
            while pipe.filled < n and not pipe.eof:
                await pipe.wait()
            got = pipe.filled
        finally:
            pipe.sink = None
            view.release()
        if got < n:
            del body[got:]
        return body


def start_io(server: Any, stdin: Optional[BinaryIO] = None, stdout: Optional[BinaryIO] = None) -> None:
    """Serve ``server`` (a pygls server) over stdin/stdout until the editor
    ends the session; as pygls's ``start_io``, with the loop reading."""
    stdin = stdin or sys.stdin.buffer
    server._stop_event = stop = threading.Event()  # what the server's shutdown sets
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

    async def serve() -> None:
        reader: Any = await LoopReader.open(stdin)
        if reader is None:
            log.info("stdin cannot be watched by the event loop: reading it in a thread")
            reader = StdinAsyncReader(stdin, server.thread_pool)
        await run_async(stop_event=stop, reader=reader, protocol=server.protocol, logger=log,
                        error_handler=server.report_server_error)

    try:
        asyncio.run(serve())
    except BrokenPipeError:
        log.error("the editor's end of the connection closed; stopping")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
