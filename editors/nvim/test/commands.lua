-- Headless check of :ImpactRun, window/showDocument and the target option, against
-- test/fake_server.py (it answers impact.run with its arguments and turns impact.showMirror
-- into window/showDocument).
--
--   FIXTURE=/some/repo/file.cpp nvim --headless -u NONE --cmd 'set rtp+=editors/nvim' \
--     -c 'luafile editors/nvim/test/commands.lua'
--
-- Prints "OK <check>" lines; exits 0, or 1 after a "FAIL <reason>" line.

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function main()
  local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
  vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':h'))
  vim.cmd('filetype on')
  local fixture = assert(os.getenv('FIXTURE'), 'set FIXTURE')
  require('impactd').setup({ cmd = { here .. '/fake_server.py' }, target = 'origin/develop' })
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local source = vim.api.nvim_get_current_buf()

  local client
  assert(vim.wait(10000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(source)) do
      if c.name == 'impactd' and c.initialized ~= false then
        client = c
      end
    end
    return client ~= nil
  end, 50), 'no client')
  assert(vim.wait(10000, function() return #vim.diagnostic.get(source) > 0 end, 50), 'no diagnostics')
  assert(client.config.init_options.target == 'origin/develop', 'init_options.target')
  out('OK init_options target')

  -- :ImpactRun opens the text of the report in a scratch buffer.
  vim.cmd('ImpactRun')
  assert(vim.wait(10000, function() return vim.bo.filetype == 'impactreport' end, 50), 'no report buffer')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  assert(lines[1] == 'fake report', 'report text: ' .. vim.inspect(lines))
  assert(lines[2] == 'args [{}]', 'impact.run arguments must be [{}]: ' .. lines[2])
  assert(vim.bo.buftype == 'nofile', 'buftype')
  out('OK ImpactRun ' .. table.concat(lines, ' / '))
  vim.cmd('close')

  -- impact.showMirror: the server sends window/showDocument; the cursor lands on range.start.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('enew')
  local result
  client.request('workspace/executeCommand', {
    command = 'impact.showMirror',
    arguments = { { uri = vim.uri_from_bufnr(source),
                    range = { start = { line = 1, character = 4 }, ['end'] = { line = 1, character = 9 } } } },
  }, function(err, res) result = err or res end, source)
  assert(vim.wait(10000, function() return result ~= nil end, 50), 'no showMirror answer')
  assert(result.showDocument and result.showDocument.success == true, 'showDocument: ' .. vim.inspect(result))
  local cursor = vim.api.nvim_win_get_cursor(0)
  assert(vim.api.nvim_get_current_buf() == source, 'showDocument did not open the file')
  assert(cursor[1] == 2 and cursor[2] == 4, 'cursor ' .. vim.inspect(cursor))
  out('OK showDocument')
  vim.cmd('qall!')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  out('FAIL ' .. (tostring(err):gsub('\n', ' | ')))
  vim.cmd('1cquit')
end
