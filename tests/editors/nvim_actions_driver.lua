-- Drives a headless Neovim for test_neovim.py's code-action round trip:
-- opens $BLEU_HYP, waits for the bleu-ls diagnostics, puts the cursor on
-- the first flagged line, runs vim.lsp.buf.code_action with a filter on
-- $BLEU_ACTION_TITLE and apply = true, and waits for that line's
-- diagnostics to go.  Writes what it saw as JSON to $BLEU_OUT; every wait
-- has a deadline.
local out_path = assert(vim.env.BLEU_OUT, 'BLEU_OUT not set')
local hyp = assert(vim.env.BLEU_HYP, 'BLEU_HYP not set')
local title = assert(vim.env.BLEU_ACTION_TITLE, 'BLEU_ACTION_TITLE not set')
local timeout = tonumber(vim.env.BLEU_TIMEOUT_MS or '30000')
local result = {}

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
  result.attached = vim.wait(timeout, function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
    return c ~= nil and c.initialized == true
  end, 50)
  if not result.attached then
    return
  end
  local function diags()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(out, { line = d.lnum, code = d.code })
    end
    table.sort(out, function(a, b)
      return a.line < b.line or (a.line == b.line and tostring(a.code) < tostring(b.code))
    end)
    return out
  end
  -- wait until diagnostics arrive and stay put for 1 s
  local last, since = nil, nil
  result.diagnostics_ready = vim.wait(timeout, function()
    local now = vim.json.encode(diags())
    if now ~= last then
      last, since = now, vim.uv.now()
      return false
    end
    return #diags() > 0 and vim.uv.now() - since > 1000
  end, 100)
  result.before = diags()
  if #result.before == 0 then
    return
  end
  local line = result.before[1].line
  result.line = line
  vim.api.nvim_win_set_cursor(0, { line + 1, 0 })
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(action)
      return action.title == title
    end,
  })
  result.gone = vim.wait(timeout, function()
    for _, d in ipairs(diags()) do
      if d.line == line then
        return false
      end
    end
    return true
  end, 50)
  result.after = diags()
end, debug.traceback)

if not ok then
  result.error = err
end
finish()
