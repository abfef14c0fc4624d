-- Headless check of editors/nvim's commands and options against the real impactd:
-- setup{} with cmd as a string and a target (sent as initializationOptions, honoured by the
-- server: its impactd/status says "target main"), :ImpactRun (the report in a scratch buffer),
-- :checkhealth impactd, and :ImpactInfo where nothing works (a binary that does not exist, a file outside any git
-- repository).
--
--   IMPACTD=build/bin/impactd FIXTURE=/repo/file.cpp LOOSE=/not-a-repo/file.py \
--     nvim --headless -u NONE --cmd 'set rtp+=editors/nvim' -c 'luafile editors/nvim/test/commands.lua'
--
-- Prints "OK <check>" and "INFO <line>" lines; exits 0, or 1 after a "FAIL <reason>" line.

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function main()
  local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
  vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here, ':h'))
  vim.cmd('filetype on')
  local server = assert(os.getenv('IMPACTD'), 'set IMPACTD')
  local fixture = assert(os.getenv('FIXTURE'), 'set FIXTURE')
  local loose = assert(os.getenv('LOOSE'), 'set LOOSE')
  -- Notifications as lines of their own (headless Neovim writes them without a newline).
  vim.notify = function(msg)
    out('NOTIFY ' .. (tostring(msg):gsub('\n', ' ')))
  end
  local impactd = require('impactd')
  impactd.setup({ cmd = server, target = 'main' })
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local source = vim.api.nvim_get_current_buf()

  local client
  assert(vim.wait(10000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(source)) do
      if c.name == 'impactd' then
        client = c
      end
    end
    return client ~= nil
  end, 50), 'no client')
  assert(client.config.init_options.target == 'main', 'init_options.target: ' .. vim.inspect(client.config.init_options))
  -- The emitter runs repository code: off unless setup{ emitter = ... } says otherwise.
  assert(client.config.init_options.emitter == 'off', 'init_options.emitter: ' .. vim.inspect(client.config.init_options))
  assert(vim.fn.exists(':ImpactEmit') == 2, 'no :ImpactEmit')
  out('OK emitter ' .. client.config.init_options.emitter .. ', :ImpactEmit')
  assert(vim.wait(10000, function()
    local s = impactd.statuses[client.id]
    return s ~= nil and s.state == 'ready'
  end, 50), 'no impactd/status ready: ' .. vim.inspect(impactd.statuses[client.id]))
  local status = impactd.statuses[client.id]
  assert(status.message:find('target main', 1, true), 'the server did not use the target: ' .. status.message)
  out('OK target ' .. status.message)
  out('OK status_line ' .. impactd.status_line())

  -- :ImpactRun opens the text of the report in a scratch buffer.
  vim.cmd('ImpactRun')
  assert(vim.wait(20000, function() return vim.bo.filetype == 'impactreport' end, 50), 'no report buffer')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  assert(vim.bo.buftype == 'nofile', 'buftype')
  assert(lines[#lines] == 'Runtime impact: BREAKS', 'the report does not end with its verdict: ' .. vim.inspect(lines))
  assert(lines[1]:find('^mismatch  kernargs  '), 'the report does not start with the mismatch: ' .. lines[1])
  out('OK ImpactRun ' .. #lines .. ' lines, ' .. lines[#lines])
  vim.cmd('close')

  -- :checkhealth impactd says what :ImpactInfo says, in Neovim's health report.
  -- impact.run was answered after the server took the buffer's didOpen (one worker, in order),
  -- so the analysing it caused was sent already: ready now means that analysis is done.
  assert(vim.wait(10000, function() return impactd.statuses[client.id].state == 'ready' end, 50), 'not ready again')
  vim.cmd('checkhealth impactd')
  for _, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    out('HEALTH ' .. l)
  end
  vim.cmd('tabclose')

  -- Nothing works: a binary that does not exist, a file in no git repository.
  impactd.setup({ cmd = { '/nonexistent/impactd' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(loose))
  vim.wait(500)
  vim.cmd('ImpactInfo')
  for _, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    out('INFO ' .. l)
  end
  vim.cmd('close')
  vim.cmd('qall!')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  out('FAIL ' .. (tostring(err):gsub('\n', ' | ')))
  vim.cmd('1cquit')
end
