-- bleu-ls semantic highlighting: the server marks words with the token
-- types bleuChanged (changed since the draft) and bleuUnmatched (in no
-- reference); Neovim shows them through @lsp.type.* highlight groups.
-- The links below are defaults (`default = true`): a colorscheme or a user's
-- own nvim_set_hl for these groups wins.  They are set again after every
-- :colorscheme, which clears highlight groups.
local M = {}

--- group -> what it links to by default
M.links = {
  ['@lsp.type.bleuChanged'] = 'DiffText',
  ['@lsp.typemod.bleuChanged.unmatched'] = 'DiffText',
  ['@lsp.type.bleuUnmatched'] = 'SpellRare',
}

function M.apply()
  for group, target in pairs(M.links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

function M.setup()
  M.apply()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('bleu_ls_highlights', { clear = true }),
    callback = M.apply,
  })
end

return M
