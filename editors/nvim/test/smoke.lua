-- Headless test of the impactd Neovim module against the real impactd, used as a person uses
-- it (tests/clients/nvim-smoke.sh checks the output).
--
--   IMPACTD=build/bin/impactd FIXTURE=path/to/stale-pin.cpp \
--     nvim --headless -u NONE --cmd 'set rtp+=editors/nvim' -c 'luafile editors/nvim/test/smoke.lua'
--
-- Opens FIXTURE (a copy that disagrees with its builder, inside a git repository), waits up
-- to 20 s for diagnostics from "impactd" and writes to stdout, one line each:
--   DIAG <lnum> <severity> <message>   lnum 0-based (as in LSP), severity ERROR|WARN|INFO|HINT,
--                                      message JSON-encoded (one line)
--   HOVER <first non-empty line of the hover at the first diagnostic's start>
--   ACTION <title>                     for each code action there
--   INFO <line>                        what :ImpactInfo shows once the server is ready
--   FIX <title>                        the quick fix picked from vim.lsp.buf.code_action()'s menu
--   LIST <line>                        the rewritten list (from its first line to "};")
--   CLEARED <severities left>          the buffer's ERROR diagnostics went away, unsaved
--   INFO2 <line>                       :ImpactInfo after the fix
--   MIRROR <file name> <line> <text>   where "Go to mirror" (picked from the menu) landed, 1-based
-- Exit 0; exit 1 with a "FAIL <reason>" line on a timeout or any error.
-- Works on Neovim 0.7 and later.

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function fail(reason)
  out('FAIL ' .. reason)
  vim.cmd('1cquit')
end

local function main()
  local server, fixture = os.getenv('IMPACTD'), os.getenv('FIXTURE')
  if not server or server == '' or not fixture or fixture == '' then
    return fail('set IMPACTD (the server binary) and FIXTURE (a file to open)')
  end
  -- This file is editors/nvim/test/smoke.lua: put editors/nvim on the runtimepath.
  local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
  vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':h'))

  vim.cmd('filetype on') -- -u NONE leaves filetype detection off
  require('impactd').setup({ cmd = { server } })
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()

  local function client()
    local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
      or vim.lsp.buf_get_clients(bufnr)
    for _, c in pairs(attached) do
      if c.name == 'impactd' then
        return c
      end
    end
  end
  local function diagnostics()
    local found = {}
    local c = client()
    local namespace = c and vim.lsp.diagnostic.get_namespace(c.id)
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'impactd' or (namespace and d.namespace == namespace) then
        table.insert(found, d)
      end
    end
    table.sort(found, function(a, b)
      return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
    end)
    return found
  end

  if not vim.wait(20000, function() return #diagnostics() > 0 end, 100) then
    if not client() then
      return fail('no impactd client attached to ' .. fixture .. ' (filetype ' .. vim.bo.filetype .. ')')
    end
    return fail('no diagnostics from impactd within 20 s')
  end
  local diags = diagnostics()
  for _, d in ipairs(diags) do
    out(string.format('DIAG %d %s %s', d.lnum, vim.diagnostic.severity[d.severity],
      vim.fn.json_encode(d.message)))
  end

  local c = client()
  local first = diags[1]
  -- The LSP position of the first diagnostic: as sent (0.8+ keeps it in user_data), or
  -- converted back from the byte column (0.7).
  local start = first.user_data and first.user_data.lsp and first.user_data.lsp.range
    and first.user_data.lsp.range.start
  if not start then
    local ok, character = pcall(vim.lsp.util.character_offset, bufnr, first.lnum, first.col,
      c.offset_encoding)
    start = { line = first.lnum, character = ok and character or first.col }
  end
  local position = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = start }

  local response = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', position, 10000)
  local hover = response and response[c.id] and response[c.id].result
  local line = ''
  if hover and hover.contents then
    for _, l in ipairs(vim.lsp.util.convert_input_to_markdown_lines(hover.contents)) do
      if vim.trim(l) ~= '' then
        line = l
        break
      end
    end
  end
  out('HOVER ' .. line)

  -- The diagnostics at that line, as the server sent them (0.8+ keeps them in user_data).
  local context = {}
  for _, d in ipairs(diags) do
    if d.lnum == first.lnum then
      local lsp = d.user_data and d.user_data.lsp
      if lsp and lsp.range then
        table.insert(context, lsp)
      else
        table.insert(context, {
          range = { start = { line = d.lnum, character = d.col },
                    ['end'] = { line = d.end_lnum, character = d.end_col } },
          severity = d.severity, message = d.message, source = d.source, code = d.code,
        })
      end
    end
  end
  local params = {
    textDocument = position.textDocument,
    range = { start = position.position, ['end'] = position.position },
    context = { diagnostics = context },
  }
  response = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 10000)
  local actions = response and response[c.id] and response[c.id].result or {}
  for _, action in ipairs(actions) do
    out('ACTION ' .. action.title)
  end

  -- :ImpactInfo once the server says it is ready.
  local impactd = require('impactd')
  local function impact_info(tag)
    if not vim.wait(10000, function()
      local s = impactd.statuses[c.id]
      return s ~= nil and s.state == 'ready'
    end, 50) then
      return fail('no impactd/status "ready": ' .. vim.inspect(impactd.statuses[c.id]))
    end
    vim.cmd('ImpactInfo')
    for _, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
      out(tag .. ' ' .. l)
    end
    vim.cmd('close')
    return true
  end
  if not impact_info('INFO') then
    return
  end

  -- The quick fix and "Go to mirror", picked from the code-action menu as a person would.
  local function pick(prefix)
    local picked
    vim.ui.select = function(items, opts, on_choice)
      for _, it in ipairs(items) do
        local title = opts and opts.format_item and opts.format_item(it)
        if type(title) ~= 'string' then
          title = (it[2] or it.action or {}).title or ''
        end
        if title:sub(1, #prefix) == prefix then
          picked = title
          return on_choice(it)
        end
      end
      picked = false
      on_choice(nil)
    end
    vim.lsp.buf.code_action()
    vim.wait(10000, function() return picked ~= nil end, 50)
    return picked
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local fix = pick('Update ')
  if not fix then
    return fail('no "Update … to match …" in the code-action menu')
  end
  out('FIX ' .. fix)
  if not vim.wait(10000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50) then
    return fail('the quick fix did not change the buffer')
  end
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local top = first.lnum + 1 -- the list's first line: above its elements
  while top > 1 and lines[top - 1]:find('KernelArgument{', 1, true) do
    top = top - 1
  end
  for i = top - 1, #lines do
    out('LIST ' .. lines[i])
    if lines[i]:find('};', 1, true) then
      break
    end
  end
  -- Without a save: the server judges the buffer.
  local function errors()
    return #vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })
  end
  if not vim.wait(10000, function() return errors() == 0 end, 50) then
    return fail(string.format('%d ERROR diagnostics left after the quick fix', errors()))
  end
  local left = {}
  for _, d in ipairs(diagnostics()) do
    table.insert(left, vim.diagnostic.severity[d.severity])
  end
  out(string.format('CLEARED [%s] modified=%s', table.concat(left, ' '), tostring(vim.bo[bufnr].modified)))
  if not vim.wait(10000, function()
    local s = impactd.statuses[c.id]
    return s ~= nil and s.state == 'ready' and s.mismatches == 0
  end, 50) then
    return fail('impactd/status did not come back ready with 0 mismatches: ' .. vim.inspect(impactd.statuses[c.id]))
  end
  if not impact_info('INFO2') then
    return
  end

  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local mirror = pick('Go to mirror: attention_dense.py')
  if not mirror then
    return fail('no "Go to mirror: attention_dense.py…" in the code-action menu')
  end
  if not vim.wait(10000, function() return vim.api.nvim_get_current_buf() ~= bufnr end, 50) then
    return fail('"' .. mirror .. '" opened nothing')
  end
  local row = vim.api.nvim_win_get_cursor(0)[1]
  out(string.format('MIRROR %s %d %s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t'), row,
    vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1] or ''))
  vim.cmd('qall!')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail((tostring(err):gsub('\n', ' | ')))
end
