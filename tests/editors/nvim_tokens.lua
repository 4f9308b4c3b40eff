-- Drives a headless Neovim for the semantic-token test of
-- tests/editors/test_neovim.py: opens $BLEU_HYP, waits for bleu-ls, replaces
-- line $BLEU_EDIT_LINE with $BLEU_EDIT_TEXT, waits for the semantic-token
-- highlights to show the edit, and writes every bleu-ls token extmark
-- (row, byte columns, highlight group) and the groups' links to $BLEU_OUT.
-- Every wait has a deadline: a timeout is recorded, never hangs.
local out_path = assert(vim.env.BLEU_OUT, 'BLEU_OUT not set')
local hyp = assert(vim.env.BLEU_HYP, 'BLEU_HYP not set')
local edit_line = tonumber(vim.env.BLEU_EDIT_LINE or '0')
local edit_text = vim.env.BLEU_EDIT_TEXT or ''
local timeout = tonumber(vim.env.BLEU_TIMEOUT_MS or '30000')
local result = {}

local function marks(buf)
  local out = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find('semantic_tokens') then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
        local group = m[4].hl_group
        if type(group) == 'string' and (group:find('bleu') or group:find('unmatched')) then
          table.insert(out, { row = m[2], col = m[3], end_col = m[4].end_col, group = group })
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
  result.before_ready = vim.wait(timeout, function()
    return #marks(buf) > 0
  end, 50)
  result.before = marks(buf)
  vim.api.nvim_buf_set_lines(buf, edit_line, edit_line + 1, false, { edit_text })
  result.after_ready = vim.wait(timeout, function()
    for _, m in ipairs(marks(buf)) do
      if m.row == edit_line and m.group:find('bleuChanged') then
        return true
      end
    end
    return false
  end, 50)
  vim.wait(300) -- let a late second answer land, then take what is shown
  result.after = marks(buf)
  result.links = {}
  for _, g in ipairs({ '@lsp.type.bleuChanged', '@lsp.type.bleuUnmatched' }) do
    result.links[g] = vim.api.nvim_get_hl(0, { name = g }).link or vim.NIL
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
