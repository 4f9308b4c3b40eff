"""Protocol abuse through the real server process over stdio.

Each test writes something a sane client never sends, then checks that the
server is still alive and that a normal request (inlay hints of a paired
document) still gets its answer, with the scores sacrebleu gives.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sacrebleu

from benchmarks.lsp_client import RawClient

HYP = ["the cat sat on the mat", "hello world", "a dog ran in the park today"]
REF = ["the cat sat on a mat", "hello there world", "a dog ran through the park today"]


def expected_labels(hyp: list[str], ref: list[str]) -> list[str]:
    n = min(len(hyp), len(ref))
    return [f"BLEU {sacrebleu.sentence_bleu(hyp[i].rstrip(), [ref[i]]).score:.1f}" for i in range(n)]


def write_pair(root: Path, name: str = "doc") -> Path:
    (root / f"{name}.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    hyp = root / f"{name}.hyp"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    return hyp


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    root = tmp_path_factory.mktemp("abuse")
    hyp = write_pair(root)
    client = RawClient(cwd=root)
    client.initialize(root, {"watchIntervalMs": 100})
    uri = client.open(hyp)
    client.root = root
    client.uri = uri
    yield client
    client.close()


def assert_serving(c: RawClient, uri: str, hyp: list[str] = HYP, timeout: float = 30) -> None:
    assert c.alive(), "".join(c.stderr_lines)[-3000:]
    labels = [h["label"] for h in c.hints(uri, timeout=timeout)]
    assert labels == expected_labels(hyp, REF)


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


# -- the wire ---------------------------------------------------------------------------
GARBAGE = {
    "malformed-json": frame(b"{not json at all"),
    "truncated-json": frame(b'{"jsonrpc": "2.0", "id": 77, "method": "textDocument/hover", "params": {'),
    "not-utf8-body": frame(b"\xff\xfe\x00garbage\x85"),
    "json-array-batch": frame(b'[{"jsonrpc": "2.0", "id": 78, "method": "shutdown"}]'),
    "json-scalar": frame(b"42"),
    "json-null": frame(b"null"),
    "no-jsonrpc-field": frame(b'{"id": 79, "method": "textDocument/hover", "params": {}}'),
    "wrong-jsonrpc-version": frame(b'{"jsonrpc": "1.0", "id": 80, "method": "shutdown"}'),
    "header-without-length": b"X-Junk: yes\r\n\r\n",
    "non-numeric-length": b"Content-Length: lots\r\n\r\n",
    "empty-body": b"Content-Length: 0\r\n\r\n",
    "extra-header": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
    + frame(b'{"jsonrpc": "2.0", "method": "$/noSuchNotification"}'),
}


@pytest.mark.parametrize("case", list(GARBAGE))
def test_garbage_on_the_wire(session: RawClient, case: str) -> None:
    mark = session.mark()
    session.write_raw(GARBAGE[case])
    assert_serving(session, session.uri)
    # ignored with a log line, not a pop-up of a Python exception at the user
    popups = [m for m in session.notifications[mark:] if m["method"] == "window/showMessage"]
    assert not popups, popups


def test_garbage_leaves_a_log_line(tmp_path: Path) -> None:
    hyp = write_pair(tmp_path, "log")
    c = RawClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        uri = c.open(hyp)
        c.write_raw(GARBAGE["malformed-json"])
        assert_serving(c, uri)
    finally:
        c.close()
    log = "".join(c.stderr_lines)
    assert "could not be read" in log or "Unable to handle message" in log, log[-2000:]


def test_unknown_request_gets_method_not_found(session: RawClient) -> None:
    reply = session.request("bleuLs/noSuchThing", {"x": 1})
    assert reply["error"]["code"] == -32601
    session.notify("$/noSuchNotification", {"x": 1})  # must be ignored silently
    session.notify("noSuchNotification", None)
    assert_serving(session, session.uri)


@pytest.mark.parametrize(
    "params",
    [
        "just a string",
        [1, 2, 3],
        {"textDocument": {"uri": "file:///x"}},  # range missing
        {"textDocument": {"uri": "file:///x"}, "range": {"start": {"line": -1, "character": -5}, "end": {"line": 2, "character": 0}}},
        {"textDocument": {"uri": "file:///x"}, "range": {"start": {"line": "zero", "character": 0}, "end": {"line": 2, "character": 0}}},
        {"textDocument": {"uri": "file:///x"}, "range": {"start": {"line": 1e30, "character": 0}, "end": {"line": 2, "character": 0}}},
    ],
    ids=["string", "array", "missing-range", "negative", "string-line", "huge-float"],
)
def test_bad_params_get_invalid_params(session: RawClient, params) -> None:
    reply = session.request("textDocument/inlayHint", params, timeout=15)
    assert "error" in reply and reply["error"]["code"] in (-32602, -32603), reply
    assert_serving(session, session.uri)


def test_string_request_ids_are_answered(session: RawClient) -> None:
    session.send(
        {
            "jsonrpc": "2.0",
            "id": "abc-1",
            "method": "textDocument/inlayHint",
            "params": {
                "textDocument": {"uri": session.uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}},
            },
        }
    )
    reply = session.wait("abc-1")
    assert [h["label"] for h in reply["result"]] == expected_labels(HYP, REF)


# -- positions ---------------------------------------------------------------------------
def test_positions_past_the_end(session: RawClient) -> None:
    uri = session.uri
    big = {"line": 10_000_000, "character": 10_000_000}
    hints = session.result(
        "textDocument/inlayHint",
        {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": big}},
    )
    assert [h["label"] for h in hints] == expected_labels(HYP, REF)
    assert session.result("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {"start": big, "end": big}}) in ([], None)
    for pos in ({"line": 1, "character": 10_000}, big):
        reply = session.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        assert "result" in reply
    assert "result" in session.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
    assert_serving(session, uri)


def test_edit_past_the_end_appends(tmp_path: Path) -> None:
    """A change whose range lies past the end applies at the end (clamped)."""
    hyp = write_pair(tmp_path, "tail")
    c = RawClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        uri = c.open(hyp)
        assert_serving(c, uri)
        # "hello world" -> "hello world" + " again" via a column far past the end of line 1
        c.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 1, "character": 999}, "end": {"line": 1, "character": 999}}, "text": " there"}],
            },
        )
        want = [HYP[0], "hello world there", HYP[2]]
        assert_serving(c, uri, want)
        # a negative position is refused as a whole (the notification is dropped, logged)
        c.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 3},
                "contentChanges": [{"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 3}}, "text": "X"}],
            },
        )
        assert_serving(c, uri, want)
    finally:
        c.close()


# -- documents -----------------------------------------------------------------------------
def test_change_and_close_of_a_never_opened_document(session: RawClient) -> None:
    ghost = (session.root / "ghost.hyp").as_uri()
    session.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": ghost, "version": 5},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "boo"}],
        },
    )
    session.notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 6}, "contentChanges": [{"text": "boo"}]})
    session.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    session.notify("textDocument/didSave", {"textDocument": {"uri": ghost}})
    assert session.result("textDocument/inlayHint", {"textDocument": {"uri": ghost}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 5, "character": 0}}}) in ([], None)
    reply = session.request("textDocument/hover", {"textDocument": {"uri": ghost}, "position": {"line": 0, "character": 0}})
    assert "result" in reply or "error" in reply
    assert_serving(session, session.uri)


def test_versions_going_backwards(tmp_path: Path) -> None:
    """Versions are the client's business: the text is what counts, and
    edits still apply in the order they arrive."""
    hyp = write_pair(tmp_path, "ver")
    c = RawClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        uri = c.open(hyp, version=10)
        assert_serving(c, uri)
        lines = list(HYP)
        for version, new in [(5, "the cat sat on a mat"), (3, "the cat"), (7, "the dog sat on the mat"), (0, "the cat sat on a mat")]:
            c.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": len(lines[0])}}, "text": new}],
                },
            )
            lines[0] = new
            assert_serving(c, uri, lines)
        # a second didOpen of the same document replaces it
        c.open(hyp, "\n".join(HYP) + "\n", version=1)
        assert_serving(c, uri)
    finally:
        c.close()


def test_requests_before_initialize(tmp_path: Path) -> None:
    hyp = write_pair(tmp_path, "early")
    c = RawClient(cwd=tmp_path)
    try:
        # every request is answered (a result or an error), nothing hangs
        for method, params in [
            ("textDocument/hover", {"textDocument": {"uri": hyp.as_uri()}, "position": {"line": 0, "character": 0}}),
            ("textDocument/inlayHint", {"textDocument": {"uri": hyp.as_uri()}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}}),
            ("workspace/executeCommand", {"command": "bleuLs.showReport", "arguments": [hyp.as_uri()]}),
        ]:
            reply = c.request(method, params, timeout=15)
            assert "result" in reply or "error" in reply
        c.notify("textDocument/didOpen", {"textDocument": {"uri": hyp.as_uri(), "languageId": "plaintext", "version": 1, "text": "early bird"}})
        c.notify("initialized", {})
        assert c.alive()
        c.initialize(tmp_path)
        uri = c.open(hyp)
        assert_serving(c, uri)
    finally:
        c.close()


def test_twenty_megabyte_did_open(tmp_path: Path) -> None:
    """A 20 MB message: a huge document opened in one go.  The server reads
    it, answers the hints of the visible lines promptly, and keeps going."""
    n_lines = 400_000
    filler = "the quick brown fox jumps over the lazy dog again and again "  # 60 chars
    lines = [f"{filler}{i}" for i in range(n_lines)]
    lines[:3] = HYP
    text = "\n".join(lines) + "\n"
    assert len(text.encode()) > 20_000_000
    (tmp_path / "huge.ref").write_text("\n".join(REF + [f"{filler}{i}" for i in range(3, n_lines)]) + "\n", encoding="utf-8")
    c = RawClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        uri = (tmp_path / "huge.hyp").as_uri()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        t0 = time.monotonic()
        hints = c.result(
            "textDocument/inlayHint",
            {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}},
            timeout=120,
        )
        first = time.monotonic() - t0
        assert [h["label"] for h in hints] == expected_labels(HYP, REF)
        # and the server is responsive while it scores the rest in the background
        t0 = time.monotonic()
        far = c.result(
            "textDocument/inlayHint",
            {"textDocument": {"uri": uri}, "range": {"start": {"line": n_lines - 2, "character": 0}, "end": {"line": n_lines - 1, "character": 0}}},
            timeout=60,
        )
        second = time.monotonic() - t0
        assert [h["label"] for h in far] == ["BLEU 100.0", "BLEU 100.0"]
        print(f"20 MB didOpen: first hints after {first:.2f} s, far hints {second:.2f} s")
        assert second < 10, second
    finally:
        c.close()
