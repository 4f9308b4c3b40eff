"""Helpers for the report tests: run ``bleu-ls report`` in-process and read
the data block back out of the HTML."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bleu_ls.cli.report import main as report_main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
MQM = REPO / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"
ARTIFACTS = REPO / ".artifacts" / "report"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.blocks: dict = {}
        self._id = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("type") == "application/json":
            self._id = a.get("id")
            self.blocks[self._id] = ""

    def handle_endtag(self, tag):
        self._id = None

    def handle_data(self, data):
        if self._id is not None:
            self.blocks[self._id] += data


def data_of(html: str) -> dict:
    p = _Scripts()
    p.feed(html)
    return json.loads(p.blocks["bleu-ls-data"])


@pytest.fixture
def report(tmp_path, capsys, monkeypatch):
    """report(*args) -> (exit status, html, data, stderr); data None when no file was written."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)

    def run(*args: str, out: Path | None = None):
        out = out or tmp_path / "report.html"
        argv = [str(a) for a in args]
        if "-o" not in argv:
            argv += ["-o", str(out)]
        code = report_main(argv)
        err = capsys.readouterr().err
        if code != 0 or not out.exists():
            return code, None, None, err
        html = out.read_text(encoding="utf-8")
        return code, html, data_of(html), err

    return run
