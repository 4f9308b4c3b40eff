-- bleu-ls semantic tokens (changed / unmatched words) of the visible lines
-- only, for large buffers.
--
-- Neovim's own semantic tokens (vim.lsp.semantic_tokens) ask for the WHOLE
-- buffer's tokens (full, then full/delta after each change): at 100k lines
-- that is ~280k tokens and ~7 MB of JSON to compute, send and convert.  For
-- a buffer of more than vim.g.bleu_ls_viewport_tokens_lines lines (default
-- 10,000; decided once per buffer, when the server first attaches to it) the
-- built-in engine is kept off for bleu-ls in that buffer, and the tokens of
-- the lines around each window are asked for instead
-- (textDocument/semanticTokens/range) on attach, scrolling, resizing and
-- text changes (debounced), and drawn as extmarks with the groups Neovim's
-- own engine uses (@lsp.type.*, @lsp.mod.*, @lsp.typemod.*, see
-- highlights.lua).  Smaller buffers keep Neovim's own engine.
local M = {}

local METHOD = 'textDocument/semanticTokens/range'
local REFRESH = 'workspace/semanticTokens/refresh'
local ns = vim.api.nvim_create_namespace('bleu_ls_semantic_tokens')
M.namespace = ns

--- Lines above which a buffer gets the tokens of its visible lines only.
M.default_limit = 10000
--- Delay between a change (or scroll) and the request, in milliseconds.
M.debounce_ms = 10

--- bufnr -> { client_id, timer, drawn_tick } for buffers on the viewport path
local state = {}
--- bufnr -> true (viewport) / false (Neovim's own engine): the choice made at first attach
local decided = {}

local function limit()
  local v = tonumber(vim.g.bleu_ls_viewport_tokens_lines)
  return v or M.default_limit
end

local function request(client, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(METHOD, params, handler, bufnr)
  end
  return client.request(METHOD, params, handler, bufnr)
end

local function priorities()
  return (vim.hl or vim.highlight).priorities.semantic_tokens
end

--- Whether bleu-ls tokens of ``bufnr`` are drawn here (not by Neovim's engine).
function M.owns(bufnr, client_id)
  local st = state[bufnr]
  return st ~= nil and (client_id == nil or st.client_id == client_id)
end

--- Neovim 0.11 starts its own engine for every attached client a moment
--- after LspAttach (vim.schedule); a buffer on the viewport path must not
--- send even that first whole-document request.
local function guard_builtin()
  local st_mod = vim.lsp.semantic_tokens
  if not st_mod or st_mod._bleu_ls_guarded then
    return
  end
  local start = st_mod.start
  st_mod.start = function(bufnr, client_id, opts)
    local b = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
    if M.owns(b, client_id) then
      return
    end
    return start(bufnr, client_id, opts)
  end
  st_mod._bleu_ls_guarded = true
end

--- Remove the marks of lines [first, last] (0-based, inclusive).
local function clear(bufnr, first, last)
  if last >= first then
    vim.api.nvim_buf_clear_namespace(bufnr, ns, first, last + 1)
  end
end

--- Decode the relative integers of a semantic tokens answer and draw them
--- over lines [first, last], replacing the marks there.
local function draw(bufnr, client, first, last, data)
  clear(bufnr, first, last)
  local legend = vim.tbl_get(client.server_capabilities, 'semanticTokensProvider', 'legend') or {}
  local types, mods = legend.tokenTypes or {}, legend.tokenModifiers or {}
  local ft = vim.bo[bufnr].filetype
  local base = priorities()
  local encoding = client.offset_encoding or 'utf-16'
  local count = vim.api.nvim_buf_line_count(bufnr)
  local lines, lines_from = nil, nil
  local function text_of(line)
    if not lines then
      lines_from = first
      lines = vim.api.nvim_buf_get_lines(bufnr, first, math.min(last + 1, count), false)
    end
    return lines[line - lines_from + 1] or ''
  end
  local function mark(line, s, e, group, delta)
    vim.api.nvim_buf_set_extmark(bufnr, ns, line, s, {
      end_col = e,
      hl_group = group .. '.' .. ft,
      priority = base + delta,
      strict = false,
    })
  end
  local line, char = 0, 0
  for i = 1, #(data or {}) - 4, 5 do
    local dl, ds = data[i], data[i + 1]
    line = line + dl
    char = dl == 0 and char + ds or ds
    local ttype = types[data[i + 3] + 1]
    if ttype and line >= first and line <= last and line < count then
      local s, e = char, char + data[i + 2]
      if encoding ~= 'utf-8' then
        local text = text_of(line)
        s = vim.str_byteindex(text, encoding, s, false)
        e = vim.str_byteindex(text, encoding, e, false)
      end
      mark(line, s, e, '@lsp.type.' .. ttype, 0)
      local bits, k = data[i + 4], 1
      while bits > 0 do
        if bits % 2 == 1 and mods[k] then
          mark(line, s, e, '@lsp.mod.' .. mods[k], 1)
          mark(line, s, e, '@lsp.typemod.' .. ttype .. '.' .. mods[k], 2)
        end
        bits, k = math.floor(bits / 2), k + 1
      end
    end
  end
end

--- Ask for the tokens of the visible lines of ``bufnr`` now.
function M.request_now(bufnr)
  local st = state[bufnr]
  if not st or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if not client then
    return
  end
  local ranges = require('bleu_ls.hints').wanted_ranges(bufnr)
  -- lines no window shows any more lose their marks (asked for again when seen)
  local from = 0
  for _, r in ipairs(ranges) do
    clear(bufnr, from, r[1] - 1)
    from = r[2] + 1
  end
  clear(bufnr, from, vim.api.nvim_buf_line_count(bufnr) - 1)
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local uri = vim.uri_from_bufnr(bufnr)
  for _, r in ipairs(ranges) do
    local first, last = r[1], r[2]
    local params = {
      textDocument = { uri = uri },
      range = { start = { line = first, character = 0 }, ['end'] = { line = last + 1, character = 0 } },
    }
    request(client, params, function(err, result)
      if err or state[bufnr] ~= st or not vim.api.nvim_buf_is_loaded(bufnr) then
        return
      end
      -- An answer about an older text: a newer request is already on its way.
      if vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
        return
      end
      draw(bufnr, client, first, last, type(result) == 'table' and result.data or {})
      st.drawn_tick = tick
    end, bufnr)
  end
end

--- Ask for the visible lines' tokens after a short pause.
function M.refresh(bufnr)
  local st = state[bufnr]
  if not st then
    return
  end
  if st.timer then
    st.timer:stop()
  else
    st.timer = vim.uv.new_timer()
  end
  st.timer:start(M.debounce_ms, 0, vim.schedule_wrap(function()
    M.request_now(bufnr)
  end))
end

local function detach(bufnr)
  local st = state[bufnr]
  if st and st.timer then
    st.timer:stop()
    st.timer:close()
  end
  state[bufnr] = nil
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  end
end

--- workspace/semanticTokens/refresh (e.g. a setting changed): our buffers ask
--- again, and Neovim's own engine gets it too (the smaller buffers).
local function on_refresh_with(previous)
  return function(err, result, ctx)
    for bufnr, st in pairs(state) do
      if st.client_id == ctx.client_id and #vim.fn.win_findbuf(bufnr) > 0 then
        M.refresh(bufnr)
      end
    end
    local h = previous or vim.lsp.handlers[REFRESH]
    if h then
      return h(err, result, ctx)
    end
    return vim.NIL
  end
end

--- Decide once per buffer: Neovim's own engine (false) or the visible lines (true).
function M.viewport(bufnr)
  if decided[bufnr] == nil then
    decided[bufnr] = vim.api.nvim_buf_line_count(bufnr) > limit()
    vim.api.nvim_create_autocmd('BufWipeout', {
      buffer = bufnr,
      once = true,
      callback = function()
        decided[bufnr] = nil
      end,
    })
  end
  return decided[bufnr]
end

--- Called when the server attaches to ``bufnr``.
function M.attach(client, bufnr)
  local provider = client.server_capabilities.semanticTokensProvider
  if not (provider and provider.range) or not M.viewport(bufnr) then
    return
  end
  guard_builtin()
  client.handlers = client.handlers or {}
  if not client._bleu_ls_tokens_refresh then
    client.handlers[REFRESH] = on_refresh_with(client.handlers[REFRESH])
    client._bleu_ls_tokens_refresh = true
  end
  if state[bufnr] then
    state[bufnr].client_id = client.id
    M.refresh(bufnr)
    return
  end
  state[bufnr] = { client_id = client.id }
  -- in case Neovim's engine started already (it is scheduled after LspAttach)
  pcall(vim.lsp.semantic_tokens.stop, bufnr, client.id)
  require('bleu_ls.follow').follow(bufnr, {
    name = 'bleu_ls_tokens_',
    active = function(b)
      return state[b] ~= nil
    end,
    client_id = function(b)
      return state[b] and state[b].client_id
    end,
    refresh = function(b)
      M.refresh(b)
    end,
    detach = detach,
  })
  M.refresh(bufnr)
end

--- The change tick of the buffer text the drawn tokens belong to (nil: none drawn).
function M.drawn_tick(bufnr)
  local st = state[bufnr]
  return st and st.drawn_tick or nil
end

return M
