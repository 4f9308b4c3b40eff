-- Drives a headless Neovim on a large pair for tests/editors/test_neovim.py:
-- opens $BLEU_HYP, jumps to line $BLEU_EDIT_LINE (0-based) as soon as the
-- client is attached, waits for that line's hint, then replaces the line
-- with each text of $BLEU_EDITS_FILE (a JSON list of {text, label}) through
-- nvim_buf_set_lines and times each edit until the hint drawn on the line
-- is the expected label (sacrebleu's, of the new text).  A 10 ms timer
-- records how late Neovim's main loop ran it (its stalls) during the edits.  Records every inlayHint range the client asked for and
-- the methods of its semantic-token requests.  With $BLEU_CPU_SECONDS set,
-- waits until that many seconds after opening and records the CPU time
-- (clock ticks) the server's process tree used so far.
-- Writes JSON to $BLEU_OUT; every wait has a deadline.
local out_path = assert(vim.env.BLEU_OUT, 'BLEU_OUT not set')
local hyp = assert(vim.env.BLEU_HYP, 'BLEU_HYP not set')
local edit_line = tonumber(vim.env.BLEU_EDIT_LINE or '0')
local timeout = tonumber(vim.env.BLEU_TIMEOUT_MS or '60000')
local edits_file = assert(vim.env.BLEU_EDITS_FILE, 'BLEU_EDITS_FILE not set')
-- a pause after each edit's hint (ms): the pushed diagnostics land in it
local gap = tonumber(vim.env.BLEU_EDIT_GAP_MS or '0')

local function now_ms()
  return vim.uv.hrtime() / 1e6
end

local result = { requests = {}, edit_ms = {}, edit_labels = {}, edit_ok = {}, token_methods = {}, stalls = {} }

-- Semantic-token requests from the moment the client attaches (Neovim's own
-- engine starts right after LspAttach).
vim.api.nvim_create_autocmd('LspAttach', {
  callback = function(args)
    local c = vim.lsp.get_client_by_id(args.data.client_id)
    if not c or c.name ~= 'bleu_ls' or c._tokens_recorded then
      return
    end
    c._tokens_recorded = true
    local orig = c.request
    c.request = function(self, method, ...)
      if method:find('semanticTokens') then
        result.token_methods[method] = (result.token_methods[method] or 0) + 1
      end
      return orig(self, method, ...)
    end
  end,
})

--- utime + stime (+ waited-for children's) of ``pid`` and its live descendants, in clock ticks.
local function tree_ticks(pid)
  local total = 0
  local f = io.open('/proc/' .. pid .. '/stat', 'r')
  if f then
    local rest = f:read('*a'):match('%) (.*)$') or ''
    f:close()
    local fields = vim.split(rest, ' ', { plain = true })
    for k = 12, 15 do
      total = total + (tonumber(fields[k]) or 0)
    end
  end
  for _, child in ipairs(vim.api.nvim_get_proc_children(pid)) do
    total = total + tree_ticks(child)
  end
  return total
end

local function finish()
  result.messages = vim.fn.execute('messages')
  local out = assert(io.open(out_path, 'w'))
  out:write(vim.json.encode(result))
  out:close()
  vim.cmd('qa!')
end

local ok, err = xpcall(function()
  local f = assert(io.open(edits_file, 'r'))
  local edits = vim.json.decode(f:read('*a'))
  f:close()
  local t_open = now_ms()
  vim.cmd.edit(vim.fn.fnameescape(hyp))
  local buf = vim.api.nvim_get_current_buf()
  result.line_count = vim.api.nvim_buf_line_count(buf)
  local client
  result.attached = vim.wait(timeout, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'bleu_ls' })[1]
    return client ~= nil and client.initialized == true
  end, 5)
  if not result.attached then
    return
  end
  result.attach_ms = now_ms() - t_open
  result.server_pid = vim.api.nvim_get_proc_children(vim.fn.getpid())[1]
  -- Every inlayHint request the client sends, whoever sends it.
  local orig = client.request
  client.request = function(self, method, params, ...)
    if method == 'textDocument/inlayHint' and params and params.range then
      table.insert(result.requests, { params.range.start.line, params.range['end'].line })
    end
    return orig(self, method, params, ...)
  end
  local hints = require('bleu_ls.hints')
  local function label_at(line)
    for _, h in ipairs(hints.get(buf)) do
      if h.line == line then
        return h.label
      end
    end
    return nil
  end

  -- Jump to the edit line right after opening.
  local t_jump = now_ms()
  vim.api.nvim_win_set_cursor(0, { edit_line + 1, 0 })
  vim.cmd('normal! zz')
  result.jump_ok = vim.wait(timeout, function()
    return label_at(edit_line) ~= nil
  end, 2)
  result.jump_ms = now_ms() - t_jump
  result.before = label_at(edit_line)

  -- the main loop's lateness: a 10 ms repeating timer, late by how much
  local timer = vim.uv.new_timer()
  local last = now_ms()
  timer:start(10, 10, function()
    local t = now_ms()
    local late = t - last - 10
    if late > 50 then
      table.insert(result.stalls, late)
    end
    last = t
  end)
  for k, edit in ipairs(edits) do
    local text, want = edit[1], edit[2]
    local t0 = now_ms()
    vim.api.nvim_buf_set_lines(buf, edit_line, edit_line + 1, false, { text })
    local done = vim.wait(timeout, function()
      return label_at(edit_line) == want
    end, 1)
    result.edit_ms[k] = now_ms() - t0
    result.edit_ok[k] = done
    result.edit_labels[k] = label_at(edit_line) or vim.NIL
    if gap > 0 then
      vim.wait(gap, function()
        return false
      end, 5)
    end
  end
  timer:stop()
  timer:close()
  result.hints_drawn = #hints.get(buf)
  local cpu_s = tonumber(vim.env.BLEU_CPU_SECONDS or '')
  if cpu_s and result.server_pid then
    vim.wait(math.max(0, t_open + cpu_s * 1000 - now_ms()), function()
      return false
    end, 50)
    result.cpu_ticks = tree_ticks(result.server_pid)
    result.cpu_children_ticks = 0
    for _, child in ipairs(vim.api.nvim_get_proc_children(result.server_pid)) do
      result.cpu_children_ticks = result.cpu_children_ticks + tree_ticks(child)
    end
    result.cpu_at_ms = now_ms() - t_open
  end
  result.builtin_tokens = vim.lsp.semantic_tokens.__STHighlighter.active[buf] ~= nil
  result.buffer_line = vim.api.nvim_buf_get_lines(buf, edit_line, edit_line + 1, false)[1]
end, debug.traceback)

if not ok then
  result.error = err
end
finish()
