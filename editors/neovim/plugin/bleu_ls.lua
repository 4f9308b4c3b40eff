-- bleu-ls: filetypes for the pairing conventions, inlay hints on attach and
-- the :Bleu* commands.  Loaded automatically once editors/neovim is on
-- 'runtimepath'.
if vim.g.loaded_bleu_ls then
  return
end
vim.g.loaded_bleu_ls = true

require('bleu_ls').filetypes()

local group = vim.api.nvim_create_augroup('bleu_ls', { clear = true })

vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'bleu_ls' then
      require('bleu_ls').on_attach(client, args.buf)
    end
  end,
})

local function cmd(name, fn, opts)
  vim.api.nvim_create_user_command(name, fn, opts or {})
end

cmd('BleuReport', function(o)
  require('bleu_ls').report(o.fargs[1])
end, { nargs = '?', complete = function()
  return { 'html', 'text' }
end, desc = 'bleu-ls: the report of this hypothesis (html: in the browser; text: per-line scores in a split)' })

cmd('BleuNext', function()
  require('bleu_ls').jump('next')
end, { desc = 'bleu-ls: go to the next flagged line' })

cmd('BleuPrev', function()
  require('bleu_ls').jump('previous')
end, { desc = 'bleu-ls: go to the previous flagged line' })

cmd('BleuPair', function(o)
  require('bleu_ls').pair(o.fargs)
end, { nargs = '+', complete = 'file', desc = 'bleu-ls: pair this hypothesis with reference file(s)' })

cmd('BleuExport', function(o)
  require('bleu_ls').export(o.fargs[1])
end, { nargs = '?', complete = function()
  return { 'tsv', 'json' }
end, desc = 'bleu-ls: write NAME.scores.tsv (or .json) beside the file' })

cmd('BleuScore', function()
  require('bleu_ls').echo_score()
end, { desc = 'bleu-ls: corpus score of this file' })

require('bleu_ls.draft').register()
