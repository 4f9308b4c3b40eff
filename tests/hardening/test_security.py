"""Security through the real server: what it reads, runs, writes and binds.

The server runs under a Python audit hook (audited_server.py) that records
every file it opens, every directory it lists and every attempt to start a
process or compile code; the tests then check the record:

* it reads only files named by pairing rules, conventions, settings or
  commands, inside the workspace unless a rule names an absolute path — a
  relative rule climbing out with ``..`` and a symbolic link leading out are
  refused with a plain-words diagnostic, and the file behind them is never
  opened;
* it never runs file content (text that is Python or shell is just text);
* it writes only on ``bleuLs.exportScores``, and only the export file;
* ``--tcp`` binds 127.0.0.1 by default and warns when told to bind elsewhere.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.lsp_client import REPO, RawClient
from .test_protocol_abuse import HYP, REF, expected_labels

EVIL = [
    '__import__("os").system("touch PWNED_PY")',
    "$(touch PWNED_SH) `touch PWNED_TICK`",
    "{bleu.__class__.__init__.__globals__}",
]
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
SPAWN = {"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "subprocess.Popen"}


def read_log(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_write(rec: dict) -> bool:
    """An open for writing (not Python's own probe of the temp folder at
    import time, which writes and removes one empty file there)."""
    mode = rec.get("mode") or ""
    flags = rec.get("flags") or 0
    if any("_get_default_tempdir" in frame for frame in rec.get("stack", [])):
        return False
    return rec["event"] == "open" and (any(c in str(mode) for c in "wax+") or bool(flags & WRITE_FLAGS))


def under(path: str, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
        return True
    except ValueError:
        return False


@pytest.fixture
def world(tmp_path: Path):
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    ref_text = "\n".join(REF) + "\n"
    hyp_text = "\n".join(HYP) + "\n"
    (outside / "secret.ref").write_text(ref_text, encoding="utf-8")
    (outside / "allowed.ref").write_text(ref_text, encoding="utf-8")
    (ws / "private.key").write_text("-----BEGIN KEY-----\n", encoding="utf-8")
    (ws / "notes.txt").write_text("nothing to see\n", encoding="utf-8")
    # conventions
    (ws / "doc.hyp").write_text(hyp_text, encoding="utf-8")
    (ws / "doc.ref").write_text(ref_text, encoding="utf-8")
    (ws / "evil.hyp").write_text("\n".join(EVIL) + "\n", encoding="utf-8")
    (ws / "evil.ref").write_text("\n".join(EVIL) + "\n", encoding="utf-8")
    # a link inside the workspace that leads out of it
    (ws / "link.hyp").write_text(hyp_text, encoding="utf-8")
    (ws / "link.ref").symlink_to(outside / "secret.ref")
    # rules: one climbing out with "..", one naming an absolute path
    (ws / "escape.hyp").write_text(hyp_text, encoding="utf-8")
    (ws / "abs.hyp").write_text(hyp_text, encoding="utf-8")
    (ws / "bleu-ls.toml").write_text(
        "[[pairs]]\n"
        'hypothesis = "escape.hyp"\n'
        'references = ["../outside/secret.ref"]\n\n'
        "[[pairs]]\n"
        'hypothesis = "abs.hyp"\n'
        f'references = ["{outside / "allowed.ref"}"]\n',
        encoding="utf-8",
    )
    return ws, outside


def audited_client(ws: Path, log: Path) -> RawClient:
    argv = [sys.executable, str(Path(__file__).with_name("audited_server.py")), "--stdio"]
    return RawClient(cwd=ws, argv=argv, env={"BLEU_LS_AUDIT_LOG": str(log), "PYTHONDONTWRITEBYTECODE": "1"})


def diagnostics_for(c: RawClient, uri: str, timeout: float = 20) -> list[dict]:
    return c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, timeout=timeout)["params"]["diagnostics"]


def test_reads_runs_and_writes_only_what_it_should(world, tmp_path: Path) -> None:
    ws, outside = world
    log = tmp_path / "audit.jsonl"
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    c = audited_client(ws, log)
    try:
        c.initialize(ws, {"watchIntervalMs": 100})
        uris = {name: c.open(ws / name) for name in ("doc.hyp", "evil.hyp", "link.hyp", "escape.hyp", "abs.hyp")}
        # scores where the reference is allowed
        assert [h["label"] for h in c.hints(uris["doc.hyp"])] == expected_labels(HYP, REF)
        assert [h["label"] for h in c.hints(uris["abs.hyp"])] == expected_labels(HYP, REF)
        evil_hints = c.hints(uris["evil.hyp"])
        assert len(evil_hints) == len(EVIL) and all(h["label"] == "BLEU 100.0" for h in evil_hints)
        # none where it is not, with a word saying why
        for name in ("link.hyp", "escape.hyp"):
            assert c.hints(uris[name]) == []
            diags = diagnostics_for(c, uris[name])
            assert any("outside the workspace" in d["message"] for d in diags), (name, diags)
        # edits, hovers, lenses, a report: still no write
        c.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uris["evil.hyp"], "version": 2},
             "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "exec('x') "}]},
        )
        for uri in uris.values():
            c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}})
            c.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        c.request("workspace/executeCommand", {"command": "bleuLs.showReport", "arguments": [uris["doc.hyp"]]})
        time.sleep(0.5)
        n_before_export = len(read_log(log))
        # drafts are kept in the user's cache folder (bleu-ls/drafts), never in the workspace
        allowed = ("/dev/", "/proc/")
        writes = [r for r in read_log(log) if is_write(r) and not r["path"].startswith(allowed)]
        assert all("/bleu-ls/drafts/" in r["path"] and not r["path"].startswith(str(ws)) for r in writes), writes
        # the one write: the export, beside the file
        exported = c.result("workspace/executeCommand", {"command": "bleuLs.exportScores", "arguments": [uris["doc.hyp"], "tsv"]})
        time.sleep(0.3)
    finally:
        c.close()
    records = read_log(log)
    assert records, "the audit hook recorded nothing"
    opened = [r for r in records if r["event"] == "open"]
    # -- reads: nothing outside but the absolutely named file; nothing unnamed inside
    outside_opened = {os.path.realpath(r["path"]) for r in opened if under(r["path"], outside)}
    assert outside_opened == {os.path.realpath(outside / "allowed.ref")}, outside_opened
    listed = [r for r in records if r["event"] in ("os.listdir", "os.scandir", "glob.glob")]
    assert not any(under(str(a), outside) for r in listed for a in r.get("args", []) if a.startswith("/")), listed
    inside_opened = {Path(os.path.realpath(r["path"])).name for r in opened if under(r["path"], ws)}
    assert {"doc.ref", "evil.ref", "bleu-ls.toml"} <= inside_opened  # the hook does see reads
    assert "private.key" not in inside_opened and "notes.txt" not in inside_opened, inside_opened
    assert inside_opened <= {"bleu-ls.toml", "doc.ref", "evil.ref", Path(exported).name, "link.ref"} | {
        n for n in ("doc.hyp", "evil.hyp", "abs.hyp", "escape.hyp", "link.hyp")
    }, inside_opened
    # -- runs: no process started, no file content compiled
    assert not [r for r in records if r["event"] in SPAWN], [r for r in records if r["event"] in SPAWN]
    compiled = [r for r in records if r["event"] == "compile"]
    for r in compiled:
        src = r.get("source") or ""
        assert not any(marker in src for marker in ("PWNED", "exec('x')")), r
        assert not (r.get("filename") and under(r["filename"], ws)), r
    assert not any((ws / f).exists() or Path(f).exists() for f in ("PWNED_PY", "PWNED_SH", "PWNED_TICK"))
    # -- writes: only the export, only after it was asked for
    writes = [
        (i, r) for i, r in enumerate(records)
        if is_write(r) and not r["path"].startswith(("/dev/", "/proc/")) and "/bleu-ls/drafts/" not in r["path"]
    ]
    assert writes, "the export wrote nothing"
    assert all(i >= n_before_export for i, _ in writes), writes
    assert {os.path.realpath(r["path"]) for _, r in writes} == {os.path.realpath(exported)}
    assert Path(exported).parent == ws and Path(exported).name.startswith("doc.")
    after = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    assert {p: b for p, b in after.items() if p != Path(exported)} == before


# -- TCP ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> set[str]:
    """Local addresses with a TCP socket listening on ``port`` (from /proc/net/tcp{,6})."""
    out = set()
    for name, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            rows = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            addr, state = cols[1], cols[3]
            host, p = addr.split(":")
            if state == "0A" and int(p, 16) == port:
                if width == 8:
                    out.add(socket.inet_ntoa(bytes.fromhex(host)[::-1]))
                else:
                    out.add("v6:" + host)
    return out


def start_tcp(*args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [sys.executable, "-m", "bleu_ls", "serve", "--tcp", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
    )


def wait_listening(port: int, proc: subprocess.Popen, timeout: float = 20) -> set[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        addrs = listening(port)
        if addrs:
            return addrs
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {port}")


def stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def lsp_over_tcp(port: int) -> dict:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        s.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")][0].split(b":")[1])
        while len(rest) < length:
            rest += s.recv(65536)
        return json.loads(rest[:length])


def test_tcp_binds_localhost_by_default() -> None:
    port = free_port()
    proc = start_tcp("--port", str(port))
    try:
        assert wait_listening(port, proc) == {"127.0.0.1"}
        reply = lsp_over_tcp(port)
        assert reply["id"] == 1 and "capabilities" in reply["result"]
    finally:
        err = stop(proc)
    assert "warning" not in err.lower()


def test_tcp_warns_when_binding_elsewhere() -> None:
    port = free_port()
    proc = start_tcp("--host", "0.0.0.0", "--port", str(port))
    try:
        assert wait_listening(port, proc) == {"0.0.0.0"}
    finally:
        err = stop(proc)
    assert "warning" in err.lower() and "0.0.0.0" in err
