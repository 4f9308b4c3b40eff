"""After the first pass in worker processes, the server is alone again: the
forkserver and the resource tracker it started have exited (after a scoring
pass and after a pass counting HTER rows)."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.corpus import Corpus
from benchmarks.lsp_client import RawClient
from benchmarks.scale import tree_rss
from bleu_ls.server.background.scoring import BATCH_LINES

REPO = Path(__file__).resolve().parents[3]


def assert_alone(c: RawClient) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and tree_rss(c.proc.pid)[1] > 1:
        time.sleep(0.1)
    assert tree_rss(c.proc.pid)[1] == 1


def test_batch_pass_leaves_no_helper_processes(tmp_path: Path) -> None:
    n = BATCH_LINES + 500
    hyps, refs = Corpus(seed=21).pairs(n)
    (tmp_path / "big.hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "big.ref").write_text("\n".join(refs) + "\n", encoding="utf-8")
    c = RawClient(cwd=REPO)
    try:
        c.initialize(tmp_path, pull=True)
        uri = c.open(tmp_path / "big.hyp")
        report = c.result("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=300)
        assert report["kind"] == "full"
        assert_alone(c)
        # a second large change goes through worker processes again, which exit too
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": "\n".join(reversed(hyps)) + "\n"}]})
        again = c.result("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=300)
        assert again["kind"] == "full" and again["items"] != report["items"]
        # every line now differs from the draft (the text as first seen): its HTER
        # rows are counted in worker processes too; once counted, they exit as well
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            rec = c.result("bleuLs/corpusScore", {"textDocument": {"uri": uri}}, timeout=300)
            effort = (rec or {}).get("effort") or {}
            if effort.get("pending") == 0:
                break
            time.sleep(0.2)
        assert effort.get("pending") == 0
        assert_alone(c)
    finally:
        c.close()
