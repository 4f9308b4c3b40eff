"""Run ``bleu-ls serve`` under a Python audit hook that records, as JSON
lines in the file named by BLEU_LS_AUDIT_LOG, every file the server opens
(with the mode), every directory it lists, and every attempt to start a
process or run code.  The security tests read the log afterwards.

The hook is installed before the package is imported, so the record is
complete for everything the server does.
"""

from __future__ import annotations

import json
import os
import sys

_LOG = open(os.environ["BLEU_LS_AUDIT_LOG"], "a", buffering=1, encoding="utf-8")
_WATCH = {
    "open",
    "os.listdir",
    "os.scandir",
    "glob.glob",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "subprocess.Popen",
    "os.remove",
    "os.rename",
    "os.rmdir",
    "os.mkdir",
    "os.chmod",
    "shutil.rmtree",
    "exec",
    "compile",
}
_busy = False


def _hook(event: str, args: tuple) -> None:
    global _busy
    if _busy or event not in _WATCH:
        return
    _busy = True
    try:
        rec: dict = {"event": event}
        if event == "open":
            path, mode, flags = args
            if not isinstance(path, (str, bytes, os.PathLike)):
                return
            rec["path"] = os.fsdecode(path)
            rec["mode"] = mode
            rec["flags"] = flags
            if (flags or 0) & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC) or (
                mode and any(c in str(mode) for c in "wax+")
            ):
                import traceback

                rec["stack"] = [f"{f.filename}:{f.lineno} {f.name}" for f in traceback.extract_stack(limit=12)[:-1]]
        elif event in ("exec",):
            code = args[0]
            rec["filename"] = getattr(code, "co_filename", None)
        elif event == "compile":
            source, filename = args[0], args[1]
            rec["filename"] = os.fsdecode(filename) if isinstance(filename, (str, bytes)) else str(filename)
            rec["source"] = source[:200].decode("utf-8", "replace") if isinstance(source, bytes) else (source[:200] if isinstance(source, str) else None)
        else:
            rec["args"] = [os.fsdecode(a) if isinstance(a, (str, bytes, os.PathLike)) else repr(a)[:200] for a in args]
        _LOG.write(json.dumps(rec) + "\n")
    except Exception:
        pass
    finally:
        _busy = False


sys.addaudithook(_hook)

from bleu_ls.cli import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main(["serve", *sys.argv[1:]]))
