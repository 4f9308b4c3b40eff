-- bleu-ls: the post-editing draft of a hypothesis buffer.
--   :BleuSetDraft     the buffer's current text becomes the draft (kept in the
--                     user's cache folder by the server, never in the workspace)
--   :BleuForgetDraft  drop the kept draft (none until the file is opened again)
-- HTER against the draft shows in the hover, the code lens and :BleuScore.
local M = {}

local NAME = 'bleu_ls'

local function client_for(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local client = get({ bufnr = bufnr, name = NAME })[1]
  if not client then
    vim.notify('bleu-ls: no bleu-ls server attached to this buffer', vim.log.levels.WARN)
  end
  return client
end

local function run(command)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_for(bufnr)
  if not client then
    return
  end
  local params = { command = command, arguments = { vim.uri_from_bufnr(bufnr) } }
  local function done(err, result)
    if err then
      vim.notify('bleu-ls: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    vim.notify('bleu-ls: ' .. tostring(result), vim.log.levels.INFO)
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  end
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, done, bufnr)
  else
    client.request('workspace/executeCommand', params, done, bufnr)
  end
end

function M.set()
  run('bleuLs.setDraft')
end

function M.forget()
  run('bleuLs.forgetDraft')
end

--- The user commands (called from plugin/bleu_ls.lua).
function M.register()
  vim.api.nvim_create_user_command('BleuSetDraft', M.set, { desc = 'bleu-ls: set the draft to the current text' })
  vim.api.nvim_create_user_command('BleuForgetDraft', M.forget, { desc = 'bleu-ls: forget the kept draft' })
end

return M
