-- :BleuReport — the visual report of a hypothesis buffer (the HTML of
-- `bleu-ls report`, rendered by the server for the buffer as it is now),
-- written to Neovim's cache folder and opened with the system's opener.
local M = {}

--- Where the report of `name` is written (never beside the user's files).
function M.path_for(name)
  local dir = vim.fs.joinpath(vim.fn.stdpath('cache'), 'bleu-ls', 'reports')
  vim.fn.mkdir(dir, 'p')
  local safe = (name ~= '' and name or 'report'):gsub('[^%w%._-]', '_')
  return vim.fs.joinpath(dir, safe .. '.html')
end

--- Write `html` for buffer `bufnr` and open it; returns the path, or nil and why.
function M.show(bufnr, html)
  if type(html) ~= 'string' or html == '' then
    return nil, 'the server sent no report'
  end
  local path = M.path_for(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t'))
  local f, err = io.open(path, 'w')
  if not f then
    return nil, err
  end
  f:write(html)
  f:close()
  local opened = false
  if vim.ui and vim.ui.open then
    local ok, _, open_err = pcall(vim.ui.open, path)
    opened = ok and not open_err
  end
  local how = opened and 'opened ' or 'written to '
  vim.notify('bleu-ls: report ' .. how .. path, vim.log.levels.INFO)
  return path
end

return M
