-- bleu-ls Neovim helpers: filetype rules, attach hook, commands, and the
-- Neovim 0.10 fallback (vim.lsp.start from a FileType autocommand).
local M = {}

local NAME = 'bleu_ls'
local HYP_EXT = { 'hyp', 'mt' }

--- The pairing conventions' filetypes: always the server's.
M.mt_filetypes = { 'mthyp', 'mtref', 'mtsrc' }

--- Segment files the server scores per segment, known by their file name
--- (whatever filetype Neovim gives them: po, xml, srt, webvtt).
M.segment_extensions = { 'po', 'pot', 'xlf', 'xliff', 'sdlxliff', 'mxliff', 'tmx', 'srt', 'vtt' }

--- The filetypes Neovim gives segment files and software localization files; a buffer of
--- one of them is the server's only when its file name or place is one (never package.json,
--- docker-compose.yml, gradle.properties or pom.xml).
M.segment_filetypes = { 'po', 'xml', 'srt', 'webvtt', 'json', 'yaml', 'jproperties', 'strings' }

--- Filetypes the server attaches to (lsp/bleu_ls.lua's list).
M.filetypes_list = { 'mthyp', 'mtref', 'mtsrc', 'po', 'xml', 'srt', 'webvtt', 'json', 'yaml', 'jproperties', 'strings' }

--- The folders whose `<lang>.json` or `<lang>/NAME.json` are localization files (the server's l10n_paths.LOCALE_DIRS).
M.locale_dirs = { 'locales', 'locale', 'i18n', 'lang', 'langs', 'languages', 'translations', 'l10n', 'messages' }

--- Whether a path is a software localization file by its place, as the server tells them
--- (formats/l10n_paths.py, android.py, properties.py, apple_strings.py, l10n_yaml.py).
function M.is_l10n_file(name)
  local p = (name or ''):gsub('\\', '/')
  local dir, base = p:match('^(.-)/?([^/]+)$')
  if not base then
    return false
  end
  local parent = dir:match('([^/]+)$') or ''
  local grand = dir:match('([^/]+)/[^/]+$') or ''
  if base:match('%.json$') then
    if base == 'messages.json' and grand == '_locales' then
      return true
    end
    return vim.tbl_contains(M.locale_dirs, parent) or vim.tbl_contains(M.locale_dirs, grand)
  end
  if base:match('%.arb$') or base:match('%.xcstrings$') or base:match('%.stringsdict$') then
    return true
  end
  if base:match('%.strings$') then
    return parent:match('%.lproj$') ~= nil
  end
  if base == 'strings.xml' then
    return parent:match('^values') ~= nil and grand == 'res'
  end
  if base:match('%.properties$') then
    return base:match('_[%a]+[^/]*%.properties$') ~= nil
  end
  if base:match('%.ya?ml$') then
    return p:match('/config/locales/') ~= nil or parent == 'locales' or parent == 'translations'
  end
  return false
end

--- Whether a file name is a segment file's (.po, .xlf, .srt…, any case) or a localization file's.
function M.is_segment_file(name)
  local ext = (name or ''):match('%.([%a]+)$')
  if ext ~= nil and vim.tbl_contains(M.segment_extensions, ext:lower()) then
    return true
  end
  return M.is_l10n_file(name)
end

--- Whether bleu-ls may serve a buffer of a filetype it is configured for: any
--- buffer, except that of the segment files' filetypes (po, xml, srt, webvtt)
--- only a segment file by its name (never pom.xml).
function M.is_bleu_buffer(bufnr)
  if not vim.tbl_contains(M.segment_filetypes, vim.bo[bufnr].filetype) then
    return true
  end
  return M.is_segment_file(vim.api.nvim_buf_get_name(bufnr))
end

--- lsp/bleu_ls.lua's root_dir: the buffers bleu-ls serves get the folder of
--- the nearest root marker (none: no root, as root_markers alone gives);
--- any other XML, PO or subtitle buffer is left alone.
function M.root_dir(bufnr, on_dir)
  if not M.is_bleu_buffer(bufnr) then
    return
  end
  local cfg = vim.lsp.config and vim.lsp.config[NAME]
  local markers = cfg and cfg.root_markers or { 'bleu-ls.toml', '.git' }
  on_dir(vim.fs.root(bufnr, markers))
end

local function has_sibling(path, stem_exts)
  local stem = path:gsub('%.[^./\\]+$', '')
  for _, ext in ipairs(stem_exts) do
    if vim.uv.fs_stat(stem .. '.' .. ext) then
      return true
    end
  end
  return false
end

--- vim.filetype.add rules for the pairing conventions: NAME.hyp is always a
--- hypothesis; NAME.mt, NAME.ref, NAME.ref2…, NAME.src only when their
--- partner exists (otherwise Neovim's own detection applies).
function M.filetypes()
  vim.filetype.add({
    extension = {
      -- WebVTT subtitles (Neovim has no filetype for them): scored per cue
      vtt = 'webvtt',
      -- localization files Neovim has no filetype for
      arb = 'json',
      xcstrings = 'json',
      stringsdict = 'xml',
      strings = 'strings',
      hyp = 'mthyp',
      mt = function(path)
        if has_sibling(path, { 'ref', 'ref1', 'src' }) then
          return 'mthyp'
        end
      end,
      ref = function(path)
        if has_sibling(path, HYP_EXT) then
          return 'mtref'
        end
      end,
      src = function(path)
        if has_sibling(path, HYP_EXT) then
          return 'mtsrc'
        end
      end,
    },
    pattern = {
      ['.*%.ref%d+'] = function(path)
        local stem = path:gsub('%.ref%d+$', '')
        for _, ext in ipairs(HYP_EXT) do
          if vim.uv.fs_stat(stem .. '.' .. ext) then
            return 'mtref'
          end
        end
      end,
    },
  })
end

local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function get_client(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ bufnr = bufnr or 0, name = NAME })
  if not clients[1] then
    vim.notify('bleu-ls: no bleu-ls server attached to this buffer', vim.log.levels.WARN)
    return nil
  end
  return clients[1]
end

local function exec(client, bufnr, command, arguments, on_result)
  request(client, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
    if err then
      vim.notify('bleu-ls: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    on_result(result)
  end, bufnr)
end

--- Per-buffer corpus score text, refreshed from bleuLs/corpusScore.
local status = {}

local function format_score(r)
  if type(r) == 'table' and type(r.corpus) ~= 'table' and type(r.segments) == 'number' then
    -- a segment file (PO, XLIFF, TMX, subtitles): each metric's corpus score by its key
    local parts = {}
    for _, m in ipairs({ { 'bleu', 'BLEU' }, { 'chrf', 'chrF' }, { 'ter', 'TER' } }) do
      if type(r[m[1]]) == 'number' then
        table.insert(parts, string.format('%s %.2f', m[2], r[m[1]]))
      end
    end
    -- HTER against the drafts: once a target differs from its draft (without a reference, whenever a segment has one)
    local e = r.effort
    if type(e) == 'table' and type(e.score) == 'number' and type(e.segmentsEdited) == 'number'
      and (e.segmentsEdited > 0 or #parts == 0) then
      table.insert(parts, string.format('HTER %.1f · %d %s edited', e.score, e.segmentsEdited,
        e.segmentsEdited == 1 and 'segment' or 'segments'))
    end
    return table.concat(parts, ' · ')
  end
  if type(r) ~= 'table' or type(r.corpus) ~= 'table' then
    return ''
  end
  local parts = {}
  if type(r.metrics) == 'table' and next(r.metrics) then
    for _, key in ipairs({ 'bleu', 'chrf' }) do
      local m = r.metrics[key]
      if m and type(m.corpus) == 'table' and type(m.corpus.score) == 'number' then
        table.insert(parts, string.format('%s %.2f', m.metric or key, m.corpus.score))
      end
    end
  elseif type(r.corpus.score) == 'number' then
    table.insert(parts, string.format('BLEU %.2f', r.corpus.score))
  end
  local s = table.concat(parts, ' · ')
  if type(r.delta) == 'number' and math.abs(r.delta) >= 0.005 then
    s = s .. string.format(' (Δ %+.2f)', r.delta)
  end
  return s
end

M._format_score = format_score

function M.refresh_score(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local client = get({ bufnr = bufnr, name = NAME })[1]
  if not client then
    return
  end
  request(client, 'bleuLs/corpusScore', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if not err then
      status[bufnr] = { text = format_score(result), result = result }
    end
  end, bufnr)
end

--- Corpus score of a buffer for the statusline, e.g.
--- vim.o.statusline = "%f %{v:lua.require'bleu_ls'.statusline()}"
function M.statusline(bufnr)
  local s = status[(bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr]
  return s and s.text or ''
end

function M.echo_score()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  request(client, 'bleuLs/corpusScore', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if err then
      vim.notify('bleu-ls: ' .. err.message, vim.log.levels.ERROR)
    elseif result == vim.NIL or result == nil then
      vim.notify('bleu-ls: this file is not paired with a reference', vim.log.levels.INFO)
    else
      status[bufnr] = { text = format_score(result), result = result }
      vim.notify(format_score(result) .. '\n' .. tostring(result.signature or ''), vim.log.levels.INFO)
    end
  end, bufnr)
end

--- Called for every buffer the server attaches to.
---
--- Inlay hints: by default only the lines shown in the buffer's windows are
--- asked for and drawn (require('bleu_ls.hints')); Neovim's own inlay hints
--- would ask for the whole buffer after every change, which at 100k lines
--- costs seconds per keystroke.  Set vim.g.bleu_ls_native_hints = true to
--- use vim.lsp.inlay_hint instead.
--- Pull the diagnostics of every buffer of `client` again (Neovim 0.11 has
--- no handler for workspace/diagnostic/refresh).
local function pull_again(client)
  if not (vim.lsp.diagnostic and vim.lsp.diagnostic.on_diagnostic) then
    return
  end
  for _, b in ipairs(vim.lsp.get_buffers_by_client_id(client.id)) do
    local params = { textDocument = vim.lsp.util.make_text_document_params(b) }
    request(client, 'textDocument/diagnostic', params, function(err, result, ctx)
      vim.lsp.diagnostic.on_diagnostic(err, result, ctx)
    end, b)
  end
end

--- workspace/diagnostic/refresh from the server: the diagnostics of its buffers pulled again.
function M.diagnostic_refresh(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    pull_again(client)
  end
  return vim.NIL
end

--- The quick fixes' command (ignore a check or a line, mark reviewed, turn
--- a check off): run it on the server, then show the diagnostics it left.
function M.ignore_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    return
  end
  exec(client, ctx.bufnr, command.command, command.arguments, function()
    pull_again(client)
    M.refresh_score(ctx.bufnr)
  end)
end

function M.on_attach(client, bufnr)
  client.commands = client.commands or {}
  client.commands['bleuLs.ignore'] = M.ignore_command
  if client.server_capabilities.inlayHintProvider then
    if vim.g.bleu_ls_native_hints and vim.lsp.inlay_hint then
      vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
    else
      require('bleu_ls.hints').attach(client, bufnr)
    end
  end
  -- semantic tokens of a large buffer: the visible lines only (bleu_ls.tokens)
  require('bleu_ls.tokens').attach(client, bufnr)
  local timer = nil
  local group = vim.api.nvim_create_augroup('bleu_ls_buf_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI', 'BufWritePost' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      if timer then
        timer:stop()
        timer:close()
      end
      timer = vim.defer_fn(function()
        timer = nil
        M.refresh_score(bufnr)
      end, 300)
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', {
    group = group,
    buffer = bufnr,
    callback = function()
      status[bufnr] = nil
    end,
  })
  M.refresh_score(bufnr)
end

--- :BleuReport — the visual report (HTML, opened with the system's opener);
--- :BleuReport text — the per-line report in a scratch split.
function M.report(mode)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  if mode ~= 'text' then
    exec(client, bufnr, 'bleuLs.reportHtml', { vim.uri_from_bufnr(bufnr) }, function(html)
      local path, err = require('bleu_ls.report').show(bufnr, html)
      if not path then
        vim.notify('bleu-ls: no report: ' .. tostring(err), vim.log.levels.WARN)
      end
    end)
    return
  end
  exec(client, bufnr, 'bleuLs.showReport', { vim.uri_from_bufnr(bufnr) }, function(text)
    if type(text) ~= 'string' then
      text = vim.inspect(text)
    end
    vim.cmd('botright new')
    local out = vim.api.nvim_get_current_buf()
    vim.bo[out].buftype = 'nofile'
    vim.bo[out].bufhidden = 'wipe'
    vim.bo[out].swapfile = false
    vim.api.nvim_buf_set_lines(out, 0, -1, false, vim.split(text, '\n', { plain = true, trimempty = true }))
    vim.bo[out].modifiable = false
    pcall(vim.api.nvim_buf_set_name, out, 'bleu-ls report: ' .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t'))
  end)
end

--- :BleuNext / :BleuPrev — move the cursor to the next / previous flagged line.
function M.jump(direction)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  local win = vim.api.nvim_get_current_win()
  local cur = vim.api.nvim_win_get_cursor(win)
  local position = { line = cur[1] - 1, character = 0 }
  exec(client, bufnr, 'bleuLs.nextFlagged', { vim.uri_from_bufnr(bufnr), position, direction }, function(pos)
    if type(pos) ~= 'table' or type(pos.line) ~= 'number' then
      vim.notify('bleu-ls: no flagged line', vim.log.levels.INFO)
      return
    end
    local line = pos.line + 1
    local text = vim.api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, false)[1] or ''
    local col = pos.character or 0
    if client.offset_encoding ~= 'utf-8' and col > 0 then
      col = vim.str_byteindex(text, client.offset_encoding, col, false)
    end
    if vim.api.nvim_win_is_valid(win) and vim.api.nvim_win_get_buf(win) == bufnr then
      vim.api.nvim_win_set_cursor(win, { line, col })
    end
  end)
end

--- :BleuPair ref1 [ref2 …] — pair this hypothesis with reference file(s).
function M.pair(files)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  local uris = {}
  for _, f in ipairs(files) do
    table.insert(uris, vim.uri_from_fname(vim.fn.fnamemodify(vim.fn.expand(f), ':p')))
  end
  exec(client, bufnr, 'bleuLs.pairWith', { vim.uri_from_bufnr(bufnr), uris }, function(result)
    local refs = type(result) == 'table' and result.references or {}
    vim.notify('bleu-ls: paired with ' .. table.concat(refs, ', '), vim.log.levels.INFO)
    M.refresh_score(bufnr)
  end)
end

--- :BleuCompare {file} — compare with another system's output; :BleuCompare — stop.
function M.compare(file)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  local other = vim.NIL
  if file and file ~= '' then
    other = vim.uri_from_fname(vim.fn.fnamemodify(vim.fn.expand(file), ':p'))
  end
  exec(client, bufnr, 'bleuLs.compareWith', { vim.uri_from_bufnr(bufnr), other }, function(result)
    local with = type(result) == 'table' and result.compareWith or nil
    if type(with) == 'string' then
      vim.notify('bleu-ls: comparing with ' .. with, vim.log.levels.INFO)
    else
      vim.notify('bleu-ls: no longer comparing', vim.log.levels.INFO)
    end
    M.refresh_score(bufnr)
  end)
end

--- :BleuExport [tsv|json]
function M.export(fmt)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = get_client(bufnr)
  if not client then
    return
  end
  exec(client, bufnr, 'bleuLs.exportScores', { vim.uri_from_bufnr(bufnr), fmt or 'tsv' }, function(path)
    vim.notify('bleu-ls: scores written to ' .. tostring(path), vim.log.levels.INFO)
  end)
end

--- The server configuration from lsp/bleu_ls.lua, with `overrides` laid over it.
function M.config(overrides)
  local file = vim.api.nvim_get_runtime_file('lsp/' .. NAME .. '.lua', false)[1]
  local base = file and dofile(file) or {}
  return vim.tbl_deep_extend('force', base, overrides or {})
end

--- Neovim 0.10 (no vim.lsp.config/enable): start the server with
--- vim.lsp.start from a FileType autocommand.  Also works on 0.11.
function M.start_fallback(overrides)
  local config = M.config(overrides)
  config.name = NAME
  local markers = config.root_markers or { 'bleu-ls.toml', '.git' }
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('bleu_ls_start', { clear = true }),
    pattern = config.filetypes or M.filetypes_list,
    callback = function(args)
      if not M.is_bleu_buffer(args.buf) then
        return
      end
      local c = vim.deepcopy(config)
      c.root_markers = nil
      c.filetypes = nil
      local fname = vim.api.nvim_buf_get_name(args.buf)
      c.root_dir = vim.fs.root and vim.fs.root(args.buf, markers)
        or vim.fs.dirname(vim.fs.find(markers, { upward = true, path = vim.fs.dirname(fname) })[1] or fname)
      if c.settings and c.settings.bleuLs ~= nil and c.init_options == nil then
        c.init_options = c.settings.bleuLs
      end
      c.before_init = nil
      vim.lsp.start(c, { bufnr = args.buf })
    end,
  })
  -- Buffers already open when this runs.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(config.filetypes or M.filetypes_list, vim.bo[buf].filetype) then
      vim.api.nvim_exec_autocmds('FileType', { group = 'bleu_ls_start', buffer = buf })
    end
  end
end

--- One call for both versions: vim.lsp.config + vim.lsp.enable on 0.11+,
--- the FileType fallback on 0.10.
function M.setup(overrides)
  if vim.lsp.config and vim.lsp.enable then
    if overrides then
      vim.lsp.config(NAME, overrides)
    end
    vim.lsp.enable(NAME)
  else
    M.start_fallback(overrides)
  end
end

require('bleu_ls.highlights').setup()

return M
