"""shutdown with requests still being handled: the editor gets its answer (and so sends exit)."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from bleu_ls.server.server import create_server


def test_shutdown_while_requests_are_pending_answers():
    ls = create_server()
    proto = ls.protocol
    pending = proto._request_futures
    # requests handled in plain Futures (thread and generator handlers) leave the
    # table from inside cancel(), as pygls's own done-callback does
    for i in range(3):
        f: Future = Future()
        pending[f"r{i}"] = f
        f.add_done_callback(lambda fut, key=f"r{i}": pending.pop(key, None))
    gen = proto.lsp_shutdown(None)
    handler, args, _kwargs = next(gen)  # the server's own shutdown handler comes first
    handler(*args)
    with pytest.raises(StopIteration):
        gen.send(None)
    assert pending == {}
    assert proto._shutdown
