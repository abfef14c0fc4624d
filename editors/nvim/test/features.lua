-- Headless test of the features beyond diagnostics (issue 38) in the impactd Neovim module against
-- the real impactd (tests/clients/nvim-features.sh checks the output). Works on Neovim 0.7+.
--
--   IMPACTD=build/bin/impactd PIN=path/to/stale-pin.cpp BUILDER=path/to/builder.py PACK=path/to/pack.cpp \
--     nvim --headless -u NONE -c 'luafile editors/nvim/test/features.lua'
--
-- Writes, one line each:
--   HINT <lnum> <text>          the pin's inlay hints as drawn (0-based line; the joined labels)
--   LENS <lnum> <title>         the pin's resolved code lenses
--   JUMP <file name> <line>     where running the pin's lens (vim.lsp.codelens.run) landed, 1-based
--   BLENS <lnum> <title>        the builder's code lenses
--   PEEK <n> <title>            the builder lens's command: the quickfix list it filled
--   RENAMED <file name> <line>  after vim.lsp.buf.rename('batch_count') at the builder's
--                               b.param("batch"): each line now stating batch_count, in the builder
--                               and in the pack (never opened before the rename)
-- Exit 0; exit 1 with a "FAIL <reason>" line on a timeout or any error.

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function fail(reason)
  out('FAIL ' .. reason)
  vim.cmd('1cquit')
end

local function main()
  local server, pin, builder, pack = os.getenv('IMPACTD'), os.getenv('PIN'), os.getenv('BUILDER'), os.getenv('PACK')
  local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
  vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':h'))
  vim.cmd('filetype on')
  local impactd = require('impactd')
  impactd.setup({ cmd = { server } })
  vim.cmd('edit ' .. vim.fn.fnameescape(pin))
  local bufnr = vim.api.nvim_get_current_buf()
  local ready = vim.wait(20000, function()
    local c = impactd.current_client()
    return c and impactd.statuses[c.id] and impactd.statuses[c.id].state == 'ready'
  end, 100)
  if not ready then
    return fail('the server was not ready within 20 s')
  end

  -- Inlay hints: Neovim 0.10+ draws them itself; before, the module's virtual text.
  local features = require('impactd.features')
  local function drawn()
    if vim.lsp.inlay_hint and vim.lsp.inlay_hint.get then
      local found = {}
      for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
        local label = h.inlay_hint.label
        if type(label) == 'table' then
          local s = ''
          for _, part in ipairs(label) do
            s = s .. part.value
          end
          label = s
        end
        found[h.inlay_hint.position.line] = (found[h.inlay_hint.position.line] and found[h.inlay_hint.position.line] .. ' ' or '') .. label
      end
      return found
    end
    local found = {}
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, features.namespace, 0, -1, { details = true })) do
      local text = ''
      for _, chunk in ipairs(m[4].virt_text or {}) do
        text = text .. chunk[1]
      end
      found[m[2]] = text
    end
    return found
  end
  if not vim.wait(15000, function() return next(drawn()) ~= nil end, 100) then
    return fail('no inlay hints drawn in the pin within 15 s')
  end
  local lines = {}
  for lnum, text in pairs(drawn()) do
    table.insert(lines, { lnum, text })
  end
  table.sort(lines, function(a, b) return a[1] < b[1] end)
  for _, l in ipairs(lines) do
    out(string.format('HINT %d %s', l[1], l[2]))
  end

  -- Code lenses, resolved.
  local function lenses(buf)
    local all = {}
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if l.command and l.command.title then
        table.insert(all, l)
      end
    end
    return all
  end
  vim.lsp.codelens.refresh()
  if not vim.wait(15000, function() return #lenses(bufnr) > 0 end, 100) then
    return fail('no resolved code lens in the pin within 15 s')
  end
  local first
  for _, l in ipairs(lenses(bufnr)) do
    out(string.format('LENS %d %s', l.range.start.line, l.command.title))
    first = first or l
  end
  -- Run the first lens (its line): impact.showMirror, the builder at its def.
  vim.api.nvim_win_set_cursor(0, { first.range.start.line + 1, 0 })
  vim.lsp.codelens.run()
  if not vim.wait(10000, function() return vim.api.nvim_buf_get_name(0) ~= vim.api.nvim_buf_get_name(bufnr) end, 100) then
    return fail('running the code lens did not open another file')
  end
  out(string.format('JUMP %s %d', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t'), vim.api.nvim_win_get_cursor(0)[1]))

  -- The builder's lens: its command fills the quickfix list with the copies.
  local bbuf = vim.api.nvim_get_current_buf()
  -- The builder's lens: the file has two builders, whose lenses Neovim resolves one by one, so
  -- wait for the one of build_attention_dense itself, not the first to resolve.
  local function builderLens()
    for _, l in ipairs(lenses(bbuf)) do
      if l.command.command == 'impact.peekCopies' and vim.fn.getline(l.range.start.line + 1):find('build_attention_dense%(') then
        return l
      end
    end
  end
  vim.lsp.codelens.refresh()
  vim.wait(15000, function() return builderLens() ~= nil end, 100)
  for _, l in ipairs(lenses(bbuf)) do
    out(string.format('BLENS %d %s', l.range.start.line, l.command.title))
  end
  local blens = builderLens()
  if not blens then
    return fail('no impact.peekCopies lens on build_attention_dense')
  end
  vim.lsp.commands['impact.peekCopies'](blens.command, { client_id = impactd.current_client().id, bufnr = bbuf })
  local qf = vim.fn.getqflist({ items = 1, title = 1 })
  out(string.format('PEEK %d %s', #qf.items, qf.title))
  vim.cmd('cclose')
  vim.api.nvim_set_current_buf(bbuf)

  -- Rename at the builder's b.param("batch"): the builder and the (unopened) pack.
  local row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bbuf, 0, -1, false)) do
    if line:find('b.param("batch", I32)', 1, true) then
      row = i
    end
  end
  if not row then
    return fail('no b.param("batch", I32) in the builder')
  end
  local col = vim.fn.getline(row):find('"batch"', 1, true)
  vim.api.nvim_win_set_cursor(0, { row, col + 1 })
  vim.lsp.buf.rename('batch_count')
  local packbuf
  local renamed = vim.wait(10000, function()
    packbuf = vim.fn.bufnr(pack)
    return vim.fn.getline(row):find('batch_count', 1, true) ~= nil and packbuf > 0
      and vim.api.nvim_buf_is_loaded(packbuf)
  end, 100)
  if not renamed then
    return fail('the rename did not reach the builder and the pack within 10 s: ' .. vim.fn.getline(row))
  end
  for _, buf in ipairs({ bbuf, packbuf }) do
    for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      if line:find('batch_count', 1, true) then
        out(string.format('RENAMED %s %s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t'), vim.trim(line)))
      end
    end
  end
  vim.cmd('qa!')
end

local ok, err = pcall(main)
if not ok then
  fail(tostring(err))
end
