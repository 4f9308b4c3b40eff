-- :checkhealth bleu_ls — is the server there, what can it do, which
-- configuration applies.  The server's own environment answers
-- (`bleu-ls --version`, `bleu-ls health --format json`): the Python it runs
-- on, the optional tokenizers (the ja and ko extras), the language
-- identifier and the sentence encoder (loaded as the server loads them) and
-- the settings of the current folder (bleu-ls.toml, then Neovim's).
local M = {}

local NAME = 'bleu_ls'

--- The configuration Neovim starts the server with.
local function server_config()
  if vim.lsp.config then
    local ok, c = pcall(function()
      return vim.lsp.config[NAME]
    end)
    if ok and type(c) == 'table' then
      return c, 'vim.lsp.config'
    end
  end
  return require('bleu_ls').config(), 'lsp/bleu_ls.lua'
end

local function run(args, timeout_ms)
  local ok, res = pcall(function()
    return vim.system(args, { text = true }):wait(timeout_ms)
  end)
  if not ok then
    return nil, tostring(res)
  end
  if res.code ~= 0 then
    local err = vim.trim((res.stderr or '') ~= '' and res.stderr or (res.stdout or ''))
    return nil, (err ~= '' and err or ('exit code ' .. tostring(res.code)))
  end
  return res.stdout or ''
end

local function enabled()
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(NAME)
  end
  return nil
end

function M.check()
  local h = vim.health
  local cfg, origin = server_config()

  h.start('bleu-ls: server')
  local cmd = cfg.cmd
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' then
    h.info('cmd is not a command line (' .. type(cmd) .. '): the server is not checked')
    return
  end
  local exe = vim.fn.exepath(cmd[1])
  if exe == '' then
    h.error(('`%s` not found (cmd from %s: %s)'):format(cmd[1], origin, table.concat(cmd, ' ')), {
      'Install the server: pip install bleu-ls (or pipx install bleu-ls)',
      "Or point Neovim at it: vim.lsp.config('bleu_ls', { cmd = { '/path/to/venv/bin/bleu-ls', 'serve' } })",
    })
    return
  end
  local version, verr = run({ exe, '--version' }, 20000)
  if not version then
    h.error(('`%s --version` failed: %s'):format(exe, verr), { 'Reinstall the server: pip install --force-reinstall bleu-ls' })
    return
  end
  h.ok(('%s (%s)'):format(vim.trim(version), exe))

  local root = vim.fs.root and vim.fs.root(0, cfg.root_markers or { 'bleu-ls.toml', '.git' }) or nil
  root = root or vim.fn.getcwd()
  local settings = cfg.settings and cfg.settings.bleuLs
  local args = { exe, 'health', '--format', 'json', root }
  if type(settings) == 'table' and next(settings) ~= nil then
    vim.list_extend(args, { '--settings', vim.json.encode(settings) })
  end
  local out, herr = run(args, 120000)
  local ok, report = pcall(vim.json.decode, out or '')
  if not out or not ok or type(report) ~= 'table' then
    h.warn('`bleu-ls health` gave no report (a server older than this plugin?): ' .. tostring(herr or out), {
      'Update the server: pip install -U bleu-ls',
    })
    return
  end

  h.start('bleu-ls: Python')
  h.ok(('Python %s (%s)'):format(report.python.version, report.python.executable))

  h.start('bleu-ls: optional tokenizers')
  for _, name in ipairs({ 'ja-mecab', 'ko-mecab' }) do
    local t = report.tokenizers[name]
    if t and t.ok then
      h.ok(name .. ': ' .. t.message)
    elseif t then
      h.info(name .. ': ' .. t.message .. ' (needed only for bleu.tokenize = "' .. name .. '")')
    end
  end

  h.start('bleu-ls: models')
  for _, item in ipairs({
    { 'languageIdentifier', 'language identifier (the wrong-language check)' },
    { 'sentenceEncoder', 'sentence encoder (the adequacy check)' },
  }) do
    local r = report[item[1]]
    if r and r.ok then
      h.ok(('%s: %s in %.2f s'):format(item[2], r.message, r.seconds or 0))
    elseif r then
      h.warn(item[2] .. ': ' .. r.message)
    end
  end

  h.start('bleu-ls: configuration')
  local on = enabled()
  if on == false then
    h.warn("vim.lsp.enable('bleu_ls') has not been called: the server starts for no buffer", {
      "Add vim.lsp.enable('bleu_ls') to init.lua (or require('bleu_ls').setup())",
    })
  elseif on then
    h.ok("enabled (vim.lsp.enable('bleu_ls'))")
  end
  h.info(('cmd: %s (from %s)'):format(table.concat(cmd, ' '), origin))
  h.info('filetypes: ' .. table.concat(cfg.filetypes or {}, ', '))
  local exts = vim.tbl_map(function(e)
    return '*.' .. e
  end, require('bleu_ls').segment_extensions)
  h.info('segment files (by name; po, xml, srt, webvtt buffers of other names are left alone): ' .. table.concat(exts, ' '))
  h.info('folder: ' .. root)
  local c = report.config or {}
  h.info('bleu-ls.toml: ' .. (type(c.file) == 'string' and c.file or 'none (defaults)'))
  if type(settings) == 'table' and next(settings) ~= nil then
    h.info('Neovim settings (bleuLs): ' .. vim.json.encode(settings))
  end
  h.info(('settings applied: metrics %s, tokenize %s'):format(table.concat(c.metrics or {}, ', '), tostring(c.tokenize)))
  local problems = c.problems or {}
  if #problems == 0 then
    h.ok('no problem in the settings')
  else
    for _, p in ipairs(problems) do
      h.warn(p)
    end
  end
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ name = NAME })
  if #clients == 0 then
    h.info('no bleu-ls client running (open a .hyp file)')
  end
  for _, client in ipairs(clients) do
    local bufs = vim.tbl_keys(client.attached_buffers or {})
    h.ok(('client %d running: root %s, positions %s, %d buffer(s)'):format(
      client.id,
      tostring(client.root_dir or client.config.root_dir),
      tostring(client.offset_encoding),
      #bufs
    ))
  end
end

return M
