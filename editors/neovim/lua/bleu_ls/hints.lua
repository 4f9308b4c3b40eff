-- bleu-ls inlay hints for the visible lines only.
--
-- Neovim 0.11's own inlay hints (vim.lsp.inlay_hint) ask the server for the
-- hints of the WHOLE buffer after every change: at 100k lines that is 100k
-- hints and 16 MB of JSON per keystroke.  Here the hints of the lines shown
-- in each window (plus a margin of a screen above and below) are requested
-- on attach, on scrolling, resizing and text changes (debounced), and drawn
-- as extmarks that look like Neovim's own hints (inline virtual text at the
-- hint's position), in highlight group BleuLsHint (linked to Comment by
-- default: see highlights.lua).
local M = {}

local METHOD = 'textDocument/inlayHint'
local ns = vim.api.nvim_create_namespace('bleu_ls_hints')

--- Delay between a change (or scroll) and the request, in milliseconds.
M.debounce_ms = 10
--- Lines requested beyond each edge of a window (at least one screen).
M.margin = 100

--- bufnr -> { client_id, enabled, timer, tick, labels = { [extmark id] = hint } }
local state = {}

local function request(client, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(METHOD, params, handler, bufnr)
  end
  return client.request(METHOD, params, handler, bufnr)
end

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, p in ipairs(label or {}) do
    table.insert(parts, p.value or '')
  end
  return table.concat(parts)
end

--- The 0-based line ranges { first, last } to ask for: the lines of every
--- window showing the buffer, widened by a margin; overlapping ones merged.
function M.wanted_ranges(bufnr)
  local ranges = {}
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
    local top = vim.fn.line('w0', win) - 1
    local bottom = vim.fn.line('w$', win) - 1
    local margin = math.max(M.margin, bottom - top + 1)
    table.insert(ranges, { math.max(0, top - margin), math.min(count - 1, bottom + margin) })
  end
  table.sort(ranges, function(x, y)
    return x[1] < y[1]
  end)
  local merged = {}
  for _, r in ipairs(ranges) do
    local prev = merged[#merged]
    if prev and r[1] <= prev[2] + 1 then
      prev[2] = math.max(prev[2], r[2])
    else
      table.insert(merged, { r[1], r[2] })
    end
  end
  return merged
end

--- Remove the hints of lines [first, last] (0-based, inclusive).
local function clear(bufnr, first, last)
  local st = state[bufnr]
  if last < first then
    return
  end
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, { first, 0 }, { last, -1 }, {})) do
    st.labels[m[1]] = nil
  end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, first, last + 1)
end

--- Spaces to put before a label of `label_w` cells so that it does not
--- straddle two screen rows of a wrapping window whose text area is `width`
--- cells wide, when the line's text before it takes `used` cells: 0 when it
--- fits on the row, else the rest of the row (the label then starts the next).
function M.wrap_pad(width, used, label_w)
  if width <= 0 or label_w >= width then
    return 0
  end
  local avail = width - (used % width)
  if used > 0 and used % width == 0 then
    avail = 0
  end
  if label_w <= avail then
    return 0
  end
  return avail
end

--- The text width of the first wrapping window showing the buffer (nil: none wraps).
local function wrap_width(bufnr)
  for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
    if vim.wo[win].wrap then
      local info = vim.fn.getwininfo(win)[1]
      return info.width - info.textoff
    end
  end
  return nil
end

local function draw(bufnr, client, first, last, hints)
  local st = state[bufnr]
  clear(bufnr, first, last)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local width = wrap_width(bufnr)
  for _, h in ipairs(hints or {}) do
    local line = h.position.line
    if line >= first and line <= last and line < count then
      local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''
      local col = h.position.character
      if client.offset_encoding ~= 'utf-8' then
        col = vim.str_byteindex(text, client.offset_encoding, col, false)
      end
      col = math.min(col, #text)
      local label = label_text(h.label)
      local vt = {}
      local lead = h.paddingLeft and ' ' or ''
      if width then
        -- in a wrapping window a label never breaks in two: it moves to the next row whole
        local used = vim.fn.strdisplaywidth(text:sub(1, col)) + #lead
        local pad = M.wrap_pad(width, used, vim.fn.strdisplaywidth(label))
        if pad > 0 then
          lead = lead .. string.rep(' ', pad)
        end
      end
      if lead ~= '' then
        table.insert(vt, { lead })
      end
      table.insert(vt, { label, 'BleuLsHint' })
      if h.paddingRight then
        table.insert(vt, { ' ' })
      end
      local id = vim.api.nvim_buf_set_extmark(bufnr, ns, line, col, { virt_text = vt, virt_text_pos = 'inline' })
      st.labels[id] = { character = h.position.character, label = label }
    end
  end
end

--- Ask for the hints of the visible lines of ``bufnr`` now.
function M.request_now(bufnr)
  local st = state[bufnr]
  if not st or not st.enabled or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if not client then
    return
  end
  local ranges = M.wanted_ranges(bufnr)
  -- lines no window shows any more lose their hints (they are asked for
  -- again when they come into view)
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
      if err or not state[bufnr] or not vim.api.nvim_buf_is_loaded(bufnr) then
        return
      end
      -- An answer about an older text: a newer request is already on its way.
      if vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
        return
      end
      draw(bufnr, client, first, last, result)
      st.drawn_tick = tick
    end, bufnr)
  end
end

--- Ask for the hints of the visible lines after a short pause (bursts of
--- keystrokes or scroll events make one request).
function M.refresh(bufnr)
  local st = state[bufnr]
  if not st or not st.enabled then
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

--- The server asks for fresh hints (e.g. the background scoring finished).
function M.on_refresh(_, _, ctx)
  for bufnr, st in pairs(state) do
    if st.client_id == ctx.client_id then
      M.refresh(bufnr)
    end
  end
  return vim.NIL
end

--- Start drawing the visible lines' hints of ``bufnr`` for ``client``.
function M.attach(client, bufnr)
  if state[bufnr] then
    state[bufnr].client_id = client.id
    state[bufnr].enabled = true
    M.refresh(bufnr)
    return
  end
  state[bufnr] = { client_id = client.id, enabled = true, labels = {} }
  client.handlers = client.handlers or {}
  client.handlers['workspace/inlayHint/refresh'] = M.on_refresh
  require('bleu_ls.follow').follow(bufnr, {
    name = 'bleu_ls_hints_',
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

--- Switch the hints of ``bufnr`` on or off.
function M.enable(enable, bufnr)
  local st = state[bufnr]
  if not st then
    return
  end
  st.enabled = enable
  if enable then
    M.refresh(bufnr)
  else
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
    st.labels = {}
  end
end

function M.is_enabled(bufnr)
  local st = state[bufnr]
  return st ~= nil and st.enabled == true
end

--- The hints drawn in ``bufnr``: { line, character, label } (0-based line;
--- ``character`` as the server sent it), sorted by line.
function M.get(bufnr)
  local st = state[bufnr]
  local out = {}
  if not st then
    return out
  end
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, {})) do
    local h = st.labels[m[1]]
    if h then
      table.insert(out, { line = m[2], character = h.character, label = h.label })
    end
  end
  table.sort(out, function(a, b)
    return a.line < b.line
  end)
  return out
end

--- The change tick of the buffer text the drawn hints belong to.
function M.drawn_tick(bufnr)
  local st = state[bufnr]
  return st and st.drawn_tick or nil
end

return M
