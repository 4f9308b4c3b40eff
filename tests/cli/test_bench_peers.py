"""The peer rows of `python -m benchmarks` (bleuscore, fastchrf, sacrebleu-mojo):
a peer that cannot run here is skipped with a note that says why."""

from __future__ import annotations

import sys

from benchmarks import peer_table, peers
from benchmarks.run import Report


def test_a_missing_peer_is_named_with_the_reason(monkeypatch):
    monkeypatch.setattr(peers.importlib.util, "find_spec", lambda name: None)
    ok, why = peers.available("bleuscore")
    assert not ok and "bleuscore is not installed" in why and "bleu-ls[bench]" in why


def test_mojo_needs_python_312():
    ok, why = peers.available("mojo_bleu_chrf")
    if sys.version_info < (3, 12):
        assert not ok and "Python >= 3.12" in why
    else:
        assert ok or "not installed" in why


def test_peer_rows_skip_every_missing_peer(monkeypatch, tmp_path):
    monkeypatch.setattr(peer_table, "available", lambda peer: (False, f"{peer} is not installed"))
    monkeypatch.setattr(peer_table, "CACHE", tmp_path)
    monkeypatch.setattr(peer_table.corpus, "ensure", lambda n: (tmp_path / "h", tmp_path / "r"))
    report = Report()
    peer_table.peer_rows(report, 10, 1)
    assert report.rows == []
    assert [n.split(":")[0] for n in report.notes] == [
        "Peer row bleu vs bleuscore skipped",
        "Peer row chrf vs fastchrf skipped",
        "Peer row BLEU + chrF vs sacrebleu-mojo skipped",
    ]
    assert all("is not installed" in n for n in report.notes)
