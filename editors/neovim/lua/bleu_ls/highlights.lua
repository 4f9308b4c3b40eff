-- bleu-ls highlights: the score hints (BleuLsHint) and the server's semantic
-- tokens bleuChanged (changed since the draft) and bleuUnmatched (in no
-- reference, an opt-in view), shown through @lsp.type.* groups.
-- One colour language with VS Code and the report (docs/colours.md): teal =
-- changed by you (Neovim's diff colours), red = not in any reference.
-- The links below are defaults (`default = true`): a colorscheme or a user's
-- own nvim_set_hl for these groups wins.  They are set again after every
-- :colorscheme, which clears highlight groups.  In the default colour
-- scheme each resolves to at least 4.5:1 against its background, light and
-- dark (tests/test_colours.py); LspInlayHint there is a dim 2.3:1, too faint
-- for the scores a translator reads.
local M = {}

--- group -> what it links to by default
M.links = {
  BleuLsHint = 'Comment',
  ['@lsp.type.bleuChanged'] = 'DiffText',
  ['@lsp.typemod.bleuChanged.unmatched'] = 'DiffText',
  ['@lsp.type.bleuUnmatched'] = 'Removed',
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
