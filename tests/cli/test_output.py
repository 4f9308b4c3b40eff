"""Command output goes out in large writes whatever the stream's buffering
(PYTHONUNBUFFERED=1 made ``json.dump`` one system call per token)."""

from __future__ import annotations

import io
import json
import sys

from bleu_ls.cli import score


class Counting(io.StringIO):
    """A stream that counts its writes (as a write-through stdout would make system calls)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, s: str) -> int:
        self.writes += 1
        return super().write(s)


def test_score_json_of_thousands_of_lines_in_a_few_writes(tmp_path, monkeypatch):
    hyp = [f"the cat number {i} sat on the mat" for i in range(3000)]
    ref = [f"the cat {i} sat on a mat" for i in range(3000)]
    (tmp_path / "h.txt").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    out = Counting()
    monkeypatch.setattr(sys, "stdout", out)
    assert score.main([str(tmp_path / "h.txt"), str(tmp_path / "r.txt"), "--format", "json"]) == 0
    data = json.loads(out.getvalue())
    assert len(json.dumps(data)) > 100_000
    assert out.writes < 20, out.writes
