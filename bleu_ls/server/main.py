"""``bleu-ls serve``: run the language server over stdio (default) or TCP."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Optional, Sequence


#: seconds a thread may keep the interpreter while another waits for it
SWITCH_INTERVAL = 0.0001
#: the variables that set the threads of numpy's BLAS (OpenBLAS, and others)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls serve",
        description="Run the bleu-ls language server (stdio by default).",
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default; accepted for clients that add it)")
    p.add_argument("--tcp", action="store_true", help="listen on a TCP port instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="TCP address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    p.add_argument("--log-file", help="write the server log to this file (default: stderr)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    # Before numpy is imported: its BLAS would sum the paired test's 1,000
    # resamples on every core (100k lines: 1.7 s wall, 3.1 s CPU against
    # 1.9 s / 1.9 s on one thread), taking the editor's core for a 10%
    # shorter wait.  A value the user set is kept; worker processes inherit it.
    for var in BLAS_THREADS:
        os.environ.setdefault(var, "1")
    level = logging.WARNING if args.verbose == 0 else logging.INFO if args.verbose == 1 else logging.DEBUG
    handler: logging.Handler
    if args.log_file:
        try:
            handler = logging.FileHandler(args.log_file, encoding="utf-8")
        except OSError as exc:
            print(f"bleu-ls serve: cannot open log file {args.log_file}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        handler = logging.StreamHandler(sys.stderr)  # never stdout: it carries the protocol
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    if level > logging.DEBUG:
        logging.getLogger("pygls").setLevel(max(level, logging.WARNING))

    from .background import memory
    from .server import create_server

    memory.one_heap()  # before any thread starts (see memory.py)
    # The event loop answers the editor in short bursts while worker threads
    # (the first analysis, installing a batch pass's rows) run Python for
    # seconds: each time the loop wants the interpreter back it waits up to
    # the switch interval (5 ms by default) for the busy thread to let go,
    # at every wake-up of a request.  60-line hint requests at 1M lines
    # during the first analysis (p50 / p95): 13-15 / 38-41 ms at 1 ms;
    # 6.5 / 15.7 ms at 0.1 ms with the background threads at a lower
    # priority (background.py); 3.9-5.7 / 9.4-12.4 ms with the loop also
    # reading stdin itself (transport.py).
    sys.setswitchinterval(SWITCH_INTERVAL)

    server = create_server()
    try:
        if args.tcp:
            if args.host not in ("127.0.0.1", "localhost", "::1"):
                logging.getLogger("bleu_ls").warning(
                    "listening on %s:%s: anyone who can reach this address can read files through the server",
                    args.host,
                    args.port,
                )
                print(
                    f"bleu-ls serve: warning: binding {args.host}, not localhost; other machines may connect",
                    file=sys.stderr,
                )
            server.start_tcp(args.host, args.port)
        else:
            from .wire.transport import start_io

            start_io(server)
    finally:
        # the editor went away (exit, or its end of the pipe closed): a long
        # line still being counted must not keep this process alive
        from .background.scoring import stop_worker_processes

        stop_worker_processes()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
