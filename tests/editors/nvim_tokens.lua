-- Drives a headless Neovim for the semantic-token tests of
-- tests/editors/test_neovim.py: opens $BLEU_HYP, waits for bleu-ls, jumps to
-- line $BLEU_JUMP_LINE (0-based, optional), replaces line $BLEU_EDIT_LINE
-- with $BLEU_EDIT_TEXT, waits for the semantic-token highlights to show the
-- edit, and writes every bleu-ls token extmark (row, byte columns, highlight
-- group, namespace), the window's lines, the groups' links and the methods
-- of the semantic-token requests the client sent to $BLEU_OUT.  With
-- $BLEU_TOGGLE_UNMATCHED=1 it then turns the unmatched-word highlights off
-- in the client's settings (workspace/didChangeConfiguration) and records
-- the marks again.  Every wait has a deadline: a timeout is recorded, never hangs.
local out_path = assert(vim.env.BLEU_OUT, 'BLEU_OUT not set')
local hyp = assert(vim.env.BLEU_HYP, 'BLEU_HYP not set')
local edit_line = tonumber(vim.env.BLEU_EDIT_LINE or '0')
local jump_line = tonumber(vim.env.BLEU_JUMP_LINE or '')
local edit_text = vim.env.BLEU_EDIT_TEXT or ''
local timeout = tonumber(vim.env.BLEU_TIMEOUT_MS or '30000')
local result = { methods = {}, token_ranges = {} }

-- Every request the client sends from the moment it attaches (Neovim's own
-- semantic-token engine starts right after LspAttach).
vim.api.nvim_create_autocmd('LspAttach', {
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'bleu_ls' or client._recorded then
      return
    end
    client._recorded = true
    local orig = client.request
    client.request = function(self, method, params, ...)
      if method:find('semanticTokens') then
        table.insert(result.methods, method)
        if params and params.range then
          table.insert(result.token_ranges, { params.range.start.line, params.range['end'].line })
        end
      end
      return orig(self, method, params, ...)
    end
  end,
})

local function marks(buf)
  local out = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find('semantic_tokens') then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
        local group = m[4].hl_group
        if type(group) == 'string' and (group:find('bleu') or group:find('unmatched')) then
          table.insert(out, { row = m[2], col = m[3], end_col = m[4].end_col, group = group, ns = name })
        end
      end
    end
  end
  table.sort(out, function(a, b)
    if a.row ~= b.row then return a.row < b.row end
    if a.col ~= b.col then return a.col < b.col end
    return a.group < b.group
  end)
  return out
end

local function window_lines()
  return { vim.fn.line('w0') - 1, vim.fn.line('w$') - 1 }
end

local function marked_in_window(buf, pred)
  local w = window_lines()
  for _, m in ipairs(marks(buf)) do
    if m.row >= w[1] and m.row <= w[2] and (pred == nil or pred(m)) then
      return true
    end
  end
  return false
end

local ok, err = xpcall(function()
  vim.cmd.edit(vim.fn.fnameescape(hyp))
  local buf = vim.api.nvim_get_current_buf()
  local client
  result.attached = vim.wait(timeout, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
    return client ~= nil and client.initialized == true
  end, 50)
  if not result.attached then
    return
  end
  if jump_line then
    vim.api.nvim_win_set_cursor(0, { jump_line + 1, 0 })
    vim.cmd('normal! zz')
  end
  result.before_ready = vim.wait(timeout, function()
    return marked_in_window(buf)
  end, 50)
  vim.wait(300) -- let a late answer land
  result.before = marks(buf)
  vim.api.nvim_buf_set_lines(buf, edit_line, edit_line + 1, false, { edit_text })
  result.after_ready = vim.wait(timeout, function()
    return marked_in_window(buf, function(m)
      return m.row == edit_line and m.group:find('bleuChanged') ~= nil
    end)
  end, 50)
  vim.wait(300) -- let a late second answer land, then take what is shown
  result.after = marks(buf)
  result.window = window_lines()
  result.line_count = vim.api.nvim_buf_line_count(buf)
  result.builtin_active = vim.lsp.semantic_tokens.__STHighlighter.active[buf] ~= nil
  result.links = {}
  for _, g in ipairs({ '@lsp.type.bleuChanged', '@lsp.type.bleuUnmatched' }) do
    result.links[g] = vim.api.nvim_get_hl(0, { name = g }).link or vim.NIL
  end
  if vim.env.BLEU_TOGGLE_UNMATCHED == '1' then
    client.settings = vim.tbl_deep_extend('force', client.settings or {}, {
      bleuLs = { highlights = { unmatched = false } },
    })
    client:notify('workspace/didChangeConfiguration', { settings = client.settings })
    result.toggled_ready = vim.wait(timeout, function()
      return not marked_in_window(buf, function(m)
        return m.group:find('nmatched') ~= nil
      end)
    end, 50)
    vim.wait(300)
    result.toggled = marks(buf)
  end
end, debug.traceback)
if not ok then
  result.error = err
end
result.messages = vim.fn.execute('messages')
local f = assert(io.open(out_path, 'w'))
f:write(vim.json.encode(result))
f:close()
vim.cmd('qa!')
