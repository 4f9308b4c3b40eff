-- Following a buffer for a feature drawn around its windows (inlay hints,
-- semantic tokens): refresh(bufnr) after every change of its text and when
-- a window shows it, scrolls or is resized; detach(bufnr) when the buffer
-- goes away or the feature's client detaches from it.
local M = {}

--- opts: name (prefix of the autocommand group), active(bufnr) -> boolean,
--- client_id(bufnr) -> the client's id, refresh(bufnr), detach(bufnr).
function M.follow(bufnr, opts)
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not opts.active(bufnr) then
        return true -- detach
      end
      opts.refresh(bufnr)
    end,
    on_reload = function()
      opts.refresh(bufnr)
    end,
    on_detach = function()
      opts.detach(bufnr)
    end,
  })
  local group = vim.api.nvim_create_augroup(opts.name .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'BufWinEnter', 'WinScrolled', 'WinResized', 'VimResized' }, {
    group = group,
    callback = function()
      if opts.active(bufnr) and #vim.fn.win_findbuf(bufnr) > 0 then
        opts.refresh(bufnr)
      end
    end,
  })
  vim.api.nvim_create_autocmd('LspDetach', {
    group = group,
    buffer = bufnr,
    callback = function(args)
      if opts.active(bufnr) and args.data and args.data.client_id == opts.client_id(bufnr) then
        opts.detach(bufnr)
        pcall(vim.api.nvim_del_augroup_by_id, group)
      end
    end,
  })
end

return M
