"""Hostile reference files under the real server (stdio): the reference is
deleted while paired, replaced by a folder, re-saved in another encoding,
turned binary, unreadable, or missing from the start.  The server keeps
serving, tells the user once in plain words (an error diagnostic on line 1
of the hypothesis), and recovers by itself when the file is fixed.

The client here has no dynamic file watching (as Neovim on Linux), so the
server notices the disk by itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

import pytest

from benchmarks.lsp_client import RawClient, server_argv
from .test_protocol_abuse import HYP, REF, expected_labels

GOOD_REF = ("\n".join(REF) + "\n").encode()
POLL_MS = 100


def _delete(p: Path) -> None:
    p.unlink()


def _folder(p: Path) -> None:
    p.unlink()
    p.mkdir()


def _latin1(p: Path) -> None:
    p.write_bytes("the cat sat on a mat\nhello there world\ncafé au lait\n".encode("latin-1"))


def _binary(p: Path) -> None:
    p.write_bytes(b"SQLite format 3\x00\x10\x00\x01\x01\x00@  \x00\x00\x00\x02")


def _png(p: Path) -> None:
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")


def _fix(p: Path) -> None:
    if p.is_dir():
        shutil.rmtree(p)
    p.write_bytes(GOOD_REF)


BREAKS = {
    "deleted": (_delete, ["no such file"]),
    "folder": (_folder, ["folder"]),
    "not-utf8": (_latin1, ["not utf-8", "line 3"]),
    "binary": (_binary, ["binary"]),
    "png": (_png, ["not utf-8"]),
}


def error_diagnostics(c: RawClient, uri: str, since: int = 0) -> list[dict]:
    """The error diagnostics of the latest push for ``uri``."""
    pushes = [m for m in c.notifications[since:] if m["method"] == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
    if not pushes:
        return []
    return [d for d in pushes[-1]["params"]["diagnostics"] if d.get("severity") == 1]


def wait_until(pred, timeout: float = 15.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(step)


def hints_now(c: RawClient, uri: str) -> list[str]:
    return [h["label"] for h in c.hints(uri, timeout=15)]


def start(root: Path, argv=None) -> tuple[RawClient, str]:
    hyp = root / "doc.hyp"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    c = RawClient(cwd=root, argv=argv)
    c.initialize(root, {"watchIntervalMs": POLL_MS})
    return c, c.open(hyp)


def mentions(diags: list[dict], words: list[str]) -> bool:
    text = " ".join(d["message"] for d in diags).lower()
    return all(w.lower() in text for w in words)


@pytest.mark.parametrize("case", list(BREAKS))
def test_reference_broken_while_paired_then_fixed(tmp_path: Path, case: str) -> None:
    breaker, words = BREAKS[case]
    ref = tmp_path / "doc.ref"
    ref.write_bytes(GOOD_REF)
    c, uri = start(tmp_path)
    try:
        assert hints_now(c, uri) == expected_labels(HYP, REF)
        mark = c.mark()
        breaker(ref)
        # told in plain words: an error diagnostic on line 1 that names the file
        diags = wait_until(lambda: (d := error_diagnostics(c, uri, mark)) and mentions(d, words) and d)
        assert all(d["range"]["start"]["line"] == 0 for d in diags)
        assert any("doc.ref" in d["message"] for d in diags)
        assert not any("Traceback" in d["message"] for d in diags)
        # still serving: requests answered, edits taken
        hints_now(c, uri)
        c.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 5}}, "text": "hello"}],
            },
        )
        time.sleep(5 * POLL_MS / 1000)
        assert c.alive()
        # told once: no stream of pop-ups about it
        shown = [m for m in c.notifications[mark:] if m["method"] == "window/showMessage" and "doc.ref" in m["params"]["message"]]
        assert len(shown) <= 1, shown
        # recovers by itself once the file is fixed
        _fix(ref)
        wait_until(lambda: hints_now(c, uri) == expected_labels(HYP, REF))
        mark = c.mark()
        c.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 3},
                "contentChanges": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 5}}, "text": "hello"}],
            },
        )
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, since=mark)
        assert not error_diagnostics(c, uri, mark) or not mentions(error_diagnostics(c, uri, mark), words)
    finally:
        c.close()


def test_reference_missing_from_the_start_then_created(tmp_path: Path) -> None:
    c, uri = start(tmp_path)
    try:
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
        # an unpaired hypothesis: no scores, no crash, a word about it
        assert hints_now(c, uri) == []
        assert c.alive()
        (tmp_path / "doc.ref").write_bytes(GOOD_REF)
        wait_until(lambda: hints_now(c, uri) == expected_labels(HYP, REF))
    finally:
        c.close()


def _nobody_can_run() -> bool:
    if shutil.which("setpriv") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(
        ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", sys.executable, "-c", "import bleu_ls.server.server"],
        capture_output=True, cwd="/", env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])),
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _nobody_can_run(), reason="needs root, setpriv and a package nobody can import")
def test_reference_unreadable_then_readable() -> None:
    """A real permission refusal: the server runs as nobody; the reference
    becomes mode 000 while paired, then readable again."""
    root = Path(tempfile.mkdtemp(prefix="bleu-ls-perm-"))
    os.chmod(root, 0o777)
    ref = root / "doc.ref"
    ref.write_bytes(GOOD_REF)
    ref.chmod(0o644)
    argv = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *server_argv()]
    c, uri = start(root, argv)
    try:
        assert hints_now(c, uri) == expected_labels(HYP, REF)
        mark = c.mark()
        ref.chmod(0o000)
        os.utime(ref)  # a change the poller sees
        diags = wait_until(lambda: (d := error_diagnostics(c, uri, mark)) and mentions(d, ["permission denied"]) and d)
        assert all(d["range"]["start"]["line"] == 0 for d in diags)
        ref.chmod(0o644)
        os.utime(ref)
        wait_until(lambda: hints_now(c, uri) == expected_labels(HYP, REF))
    finally:
        c.close()
        shutil.rmtree(root, ignore_errors=True)


def test_reference_replaced_by_a_fifo_then_fixed(tmp_path: Path) -> None:
    """A named pipe in place of the reference: opening it would block the
    server until someone writes to it; it is refused with a word instead."""
    ref = tmp_path / "doc.ref"
    ref.write_bytes(GOOD_REF)
    c, uri = start(tmp_path)
    try:
        assert hints_now(c, uri) == expected_labels(HYP, REF)
        mark = c.mark()
        ref.unlink()
        os.mkfifo(ref)
        diags = wait_until(lambda: (d := error_diagnostics(c, uri, mark)) and mentions(d, ["not a regular file"]) and d)
        assert all(d["range"]["start"]["line"] == 0 for d in diags)
        assert c.hints(uri, timeout=5) == []
        ref.unlink()
        ref.write_bytes(GOOD_REF)
        wait_until(lambda: hints_now(c, uri) == expected_labels(HYP, REF))
    finally:
        if c.proc.poll() is None and not c.alive():
            c.proc.kill()
        c.close()


def _long_line_session(tmp_path: Path, n_chars: int, init: Optional[dict] = None) -> dict:
    """A hypothesis whose first line is ``n_chars`` long, then a short one:
    the server opens it, scores both, takes an edit on the long line, and
    keeps answering requests for the other line while it scores the long one
    (a line over the ``maxLineBytes`` cap: in a worker process)."""
    import sacrebleu

    from .test_cli_hostile import _long_line

    line = _long_line(n_chars)
    ref_line = " ".join(reversed(line.split(" ")))
    (tmp_path / "long.hyp").write_text(line + "\nshort line here\n", encoding="utf-8")
    (tmp_path / "long.ref").write_text(ref_line + "\nshort line there\n", encoding="utf-8")
    c = RawClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path, init)
        t0 = time.monotonic()
        uri = c.open(tmp_path / "long.hyp")
        short = f"BLEU {sacrebleu.sentence_bleu('short line here', ['short line there']).score:.1f}"
        want = [f"BLEU {sacrebleu.sentence_bleu(line, [ref_line]).score:.1f}", short]
        wait_until(lambda: hints_now(c, uri) == want, timeout=120)
        opened = time.monotonic() - t0
        c.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2},
             "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x "}]},
        )
        t0 = time.monotonic()
        assert c.hints(uri, 1, 1, timeout=120)[0]["label"] == want[1]
        edited = time.monotonic() - t0
        # while the long line is scored: the other line's hint and hover answer
        edited_want = f"BLEU {sacrebleu.sentence_bleu('x ' + line, [ref_line]).score:.1f}"
        waits = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            hints, dt = c.timed("textDocument/inlayHint", _hint_params(uri, 0, 1))
            waits.append(dt)
            _, dt = c.timed("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 0}})
            waits.append(dt)
            if [h["label"] for h in hints or []] == [edited_want, short]:
                break
            time.sleep(0.02)
        assert [h["label"] for h in c.hints(uri)] == [edited_want, short]
        assert c.alive()
        waits.sort()
        p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))] * 1000
        return {"open_s": opened, "edit_s": edited, "rss_mib": c.rss_kib() / 1024, "p95_ms": p95, "n": len(waits),
                "max_ms": waits[-1] * 1000}
    finally:
        c.close()


def _hint_params(uri: str, a: int, b: int) -> dict:
    return {"textDocument": {"uri": uri}, "range": {"start": {"line": a, "character": 0}, "end": {"line": b, "character": 0}}}


def test_one_megabyte_line_in_the_editor(tmp_path: Path) -> None:
    fig = _long_line_session(tmp_path, 1_000_000)
    print("1 MB line: open->hints {open_s:.2f} s, edit->answer {edit_s:.2f} s, RSS {rss_mib:.0f} MiB".format(**fig))


def test_a_line_over_a_lowered_cap_is_scored_while_other_requests_answer(tmp_path: Path) -> None:
    fig = _long_line_session(tmp_path, 300_000, {"maxLineBytes": 100_000})
    print("300 KB line over a 100 KB cap: edit->answer {edit_s:.2f} s, other-line hint/hover p95 {p95_ms:.1f} ms, max {max_ms:.1f} ms over {n} requests".format(**fig))


@pytest.mark.slow
def test_ten_megabyte_line_in_the_editor(tmp_path: Path) -> None:
    fig = _long_line_session(tmp_path, 10_000_000)
    print(
        "10 MB line: open->hints {open_s:.2f} s, edit->answer {edit_s:.2f} s, RSS {rss_mib:.0f} MiB, "
        "other-line hint/hover while it is scored p95 {p95_ms:.1f} ms ({n} requests)".format(**fig)
    )
