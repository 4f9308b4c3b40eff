-- bleu-ls for Neovim 0.11+: `vim.lsp.enable('bleu_ls')` picks this file up
-- from 'runtimepath'.  Override any field with vim.lsp.config('bleu_ls', {...}),
-- e.g. cmd = { '/path/to/venv/bin/bleu-ls', 'serve' } or
-- settings = { bleuLs = { chrf = { enabled = true } } }.

---@type vim.lsp.Config
return {
  cmd = { 'bleu-ls', 'serve' },
  -- srt, webvtt, po: files scored per segment (the server claims them by file name)
  filetypes = { 'mthyp', 'mtref', 'mtsrc', 'srt', 'webvtt', 'po' },
  root_markers = { 'bleu-ls.toml', '.git' },
  -- Answered for workspace/configuration (section "bleuLs") and sent as
  -- initializationOptions.  Keys are the server's camelCase settings.
  settings = { bleuLs = vim.empty_dict() },
  before_init = function(params, config)
    local s = config.settings and config.settings.bleuLs
    if s ~= nil then
      params.initializationOptions = s
    end
  end,
}
