-- bleu-ls for Neovim 0.11+: `vim.lsp.enable('bleu_ls')` picks this file up
-- from 'runtimepath'.  Override any field with vim.lsp.config('bleu_ls', {...}),
-- e.g. cmd = { '/path/to/venv/bin/bleu-ls', 'serve' } or
-- settings = { bleuLs = { chrf = { enabled = true } } }.

---@type vim.lsp.Config
return {
  cmd = { 'bleu-ls', 'serve' },
  -- The MT filetypes, and the filetypes Neovim gives segment files (PO, XLIFF,
  -- TMX, SubRip, WebVTT): of those, root_dir takes only the buffers whose file
  -- name is a segment file's (a .po, .xlf, .srt…, never any XML file), and
  -- their filetype and syntax stay Neovim's.
  -- Software localization files too (JSON, YAML, .properties, Apple .strings; root_dir
  -- takes them by their place only: locales/de/app.json, res/values-de/strings.xml…).
  filetypes = { 'mthyp', 'mtref', 'mtsrc', 'po', 'xml', 'srt', 'webvtt', 'json', 'yaml', 'jproperties', 'strings' },
  root_markers = { 'bleu-ls.toml', '.git' },
  root_dir = function(bufnr, on_dir)
    require('bleu_ls').root_dir(bufnr, on_dir)
  end,
  -- Answered for workspace/configuration (section "bleuLs") and sent as
  -- initializationOptions.  Keys are the server's camelCase settings.
  settings = { bleuLs = vim.empty_dict() },
  -- Findings the server works out after a change (adequacy values from its worker, a
  -- large file's first pass) reach a pulling editor through workspace/diagnostic/refresh;
  -- Neovim 0.11 has no handler for it, so bleu_ls pulls the diagnostics again itself.
  capabilities = { workspace = { diagnostics = { refreshSupport = true } } },
  handlers = {
    ['workspace/diagnostic/refresh'] = function(err, result, ctx)
      return require('bleu_ls').diagnostic_refresh(err, result, ctx)
    end,
  },
  before_init = function(params, config)
    local s = config.settings and config.settings.bleuLs
    if s ~= nil then
      params.initializationOptions = s
    end
  end,
}
