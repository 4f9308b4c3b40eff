-- Drives a headless Neovim for tests/editors/test_neovim.py: opens
-- $BLEU_HYP (with the user's init.lua already loaded), waits for the
-- bleu-ls client, its diagnostics and inlay hints, makes an edit through
-- nvim_buf_set_lines, runs :BleuNext and :BleuReport, and writes what it saw
-- as JSON to $BLEU_OUT.  Every wait has a deadline; a timeout is recorded,
-- never hangs.
local out_path = assert(vim.env.BLEU_OUT, 'BLEU_OUT not set')
local hyp = assert(vim.env.BLEU_HYP, 'BLEU_HYP not set')
local edit_line = tonumber(vim.env.BLEU_EDIT_LINE or '0')
local edit_text = vim.env.BLEU_EDIT_TEXT or ''
local timeout = tonumber(vim.env.BLEU_TIMEOUT_MS or '30000')

local result = { events = {} }
local function note(what)
  table.insert(result.events, string.format('%.0f ms %s', vim.uv.hrtime() / 1e6 - result.t0, what))
end
result.t0 = vim.uv.hrtime() / 1e6

local function finish()
  result.messages = vim.fn.execute('messages')
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
  vim.cmd('qa!')
end

local ok, err = xpcall(function()
  vim.cmd.edit(vim.fn.fnameescape(hyp))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  result.nvim_version = tostring(vim.version())

  local client
  result.attached = vim.wait(timeout, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
    return client ~= nil and client.initialized == true
  end, 50)
  note('attached=' .. tostring(result.attached))
  if not result.attached then
    return
  end
  result.client_name = client.name
  result.offset_encoding = client.offset_encoding
  result.cmd = client.config.cmd
  result.server_name = client.server_info and client.server_info.name or vim.NIL
  -- bleu-ls draws the hints of the visible lines itself (bleu_ls.hints);
  -- with vim.g.bleu_ls_native_hints, Neovim's own inlay hints do.
  local viewport = require('bleu_ls.hints')
  result.hints_enabled = viewport.is_enabled(buf) or vim.lsp.inlay_hint.is_enabled({ bufnr = buf })
  result.hints_mode = viewport.is_enabled(buf) and 'viewport' or 'native'

  local nlines = vim.api.nvim_buf_line_count(buf)
  local function hints()
    if viewport.is_enabled(buf) then
      return viewport.get(buf)
    end
    local out = {}
    for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
      local ih = h.inlay_hint
      local label = ih.label
      if type(label) == 'table' then
        local parts = {}
        for _, p in ipairs(label) do
          table.insert(parts, p.value)
        end
        label = table.concat(parts)
      end
      table.insert(out, { line = ih.position.line, character = ih.position.character, label = label })
    end
    table.sort(out, function(a, b)
      return a.line < b.line
    end)
    return out
  end
  local function diags()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(out, { line = d.lnum, col = d.col, code = d.code, severity = d.severity, message = d.message })
    end
    table.sort(out, function(a, b)
      return a.line < b.line or (a.line == b.line and tostring(a.code) < tostring(b.code))
    end)
    return out
  end

  -- Hints for every line (the server answers once lines are scored).
  local want = tonumber(vim.env.BLEU_EXPECT_HINTS or nlines)
  result.hints_ready = vim.wait(timeout, function()
    return #hints() >= want
  end, 50)
  result.hints = hints()
  note('hints=' .. #result.hints)

  -- Diagnostics: wait until some arrive and the set stays put for 1 s.
  local last, stable_since = nil, nil
  result.diagnostics_ready = vim.wait(timeout, function()
    local now = vim.json.encode(diags())
    if now ~= last then
      last, stable_since = now, vim.uv.now()
      return false
    end
    return #diags() > 0 and vim.uv.now() - stable_since > 1000
  end, 100)
  result.diagnostics = diags()
  note('diagnostics=' .. #result.diagnostics)

  -- Corpus score, as the statusline helper sees it.
  result.status_ready = vim.wait(timeout, function()
    return require('bleu_ls').statusline(buf) ~= ''
  end, 50)
  result.statusline = require('bleu_ls').statusline(buf)

  -- :BleuNext from the first line.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('BleuNext')
  vim.wait(5000, function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= 1
  end, 20)
  result.next_flagged_line = vim.api.nvim_win_get_cursor(0)[1] - 1
  vim.cmd('BleuPrev')
  local after_next = result.next_flagged_line + 1
  vim.wait(5000, function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= after_next
  end, 20)
  result.prev_flagged_line = vim.api.nvim_win_get_cursor(0)[1] - 1

  -- The edit.
  local before = nil
  for _, h in ipairs(result.hints) do
    if h.line == edit_line then
      before = h.label
    end
  end
  result.edit_before = before
  vim.api.nvim_buf_set_lines(buf, edit_line, edit_line + 1, false, { edit_text })
  note('edited')
  local changed = vim.wait(timeout, function()
    for _, h in ipairs(hints()) do
      if h.line == edit_line and h.label ~= before then
        return true
      end
    end
    return false
  end, 20)
  result.edit_changed = changed
  for _, h in ipairs(hints()) do
    if h.line == edit_line then
      result.edit_after = h
    end
  end
  note('edit hint changed=' .. tostring(changed))
  result.buffer_lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  -- :BleuReport writes the visual report and hands it to the system's
  -- opener (recorded here instead of starting a browser).
  local opened = nil
  vim.ui.open = function(path)
    opened = path
    return {}, nil
  end
  vim.cmd('BleuReport')
  vim.wait(timeout, function()
    return opened ~= nil
  end, 20)
  result.report_html_path = opened

  -- :BleuReport text opens a scratch split with the server's per-line report.
  local nbufs = #vim.api.nvim_list_bufs()
  vim.cmd('BleuReport text')
  vim.wait(timeout, function()
    return #vim.api.nvim_list_bufs() > nbufs
  end, 20)
  local rbuf = vim.api.nvim_get_current_buf()
  if rbuf ~= buf then
    result.report = vim.api.nvim_buf_get_lines(rbuf, 0, -1, false)
  end
  vim.cmd('wincmd p')
end, debug.traceback)

if not ok then
  result.error = err
end
finish()
