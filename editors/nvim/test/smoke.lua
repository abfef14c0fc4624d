-- Headless smoke test of the impactd Neovim module against a server.
--
--   IMPACTD=build/bin/impactd FIXTURE=path/to/file.cpp \
--     nvim --headless -u NONE --cmd 'set rtp+=editors/nvim' -c 'luafile editors/nvim/test/smoke.lua'
--
-- Opens FIXTURE (inside a git repository), waits up to 20 s for diagnostics from "impactd" and
-- writes to stdout, one line each:
--   DIAG <lnum> <severity> <message>   lnum 0-based (as in LSP), severity ERROR|WARN|INFO|HINT,
--                                      message JSON-encoded (one line)
--   HOVER <first non-empty line of the hover at the first diagnostic's start>
--   ACTION <title>                     for each code action there
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
  vim.cmd('qall!')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail((tostring(err):gsub('\n', ' | ')))
end
