-- Headless check of editors/nvim's commands and options against the real impactd:
-- setup{} with cmd as a string and a target (sent as initializationOptions, honoured by the
-- server: its impactd/status says "target main"), :ImpactReport (the report in a scratch buffer),
-- :ImpactRun develop / HEAD~1..HEAD (picked through vim.ui.select) / --uncommitted (the rows in the
-- quickfix list; :cc 1 lands on the copy),
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

  -- :ImpactReport opens the text of the report in a scratch buffer.
  local t0 = vim.loop.hrtime()
  vim.cmd('ImpactReport --target')
  assert(vim.wait(20000, function() return vim.bo.filetype == 'impactreport' end, 50), 'no report buffer')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  assert(vim.bo.buftype == 'nofile', 'buftype')
  assert(lines[#lines] == 'Runtime impact: BREAKS', 'the report does not end with its verdict: ' .. vim.inspect(lines))
  assert(lines[1]:find('^mismatch  kernargs  '), 'the report does not start with the mismatch: ' .. lines[1])
  out('OK ImpactReport ' .. #lines .. ' lines, ' .. lines[#lines] .. string.format(' (%.2f s)', (vim.loop.hrtime() - t0) / 1e9))
  vim.cmd('close')

  -- :ImpactRun develop: the rows in the quickfix list, which opens; :cc 1 lands on the copy.
  local function run_qf(cmd)
    impactd.last_run = nil
    vim.fn.setqflist({}, 'r', { title = '', items = {} })
    local started = vim.loop.hrtime()
    vim.cmd(cmd)
    assert(vim.wait(20000, function() return impactd.last_run ~= nil end, 50), cmd .. ': no quickfix list')
    local qf = vim.fn.getqflist({ title = 1, items = 1, winid = 1 })
    assert(qf.winid ~= 0, cmd .. ': the quickfix window is not open')
    return qf, (vim.loop.hrtime() - started) / 1e9
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local qf, took = run_qf('ImpactRun develop')
  assert(qf.title == 'impactd: develop..working tree — Runtime impact: BREAKS', 'title: ' .. qf.title)
  assert(#qf.items == #impactd.last_run.report.rows, 'one entry per row: ' .. #qf.items)
  local first = qf.items[1]
  local pin = vim.api.nvim_buf_get_name(first.bufnr)
  assert(first.type == 'E' and first.text:find('^mismatch kernargs: copy has 8 arguments, builder has 11'),
    'the first entry is the mismatch: ' .. vim.inspect(first))
  assert(pin:find('TestGfx950AttentionDenseSignature%.cpp$'), 'the mismatch is at the pin: ' .. pin)
  local types = {}
  for _, item in ipairs(qf.items) do
    types[item.type] = (types[item.type] or 0) + 1
    assert(item.text:find('^mismatch ') and item.type == 'E' or item.text:find('^changed ') and item.type == 'W'
      or item.type == 'I', 'the type follows the status: ' .. vim.inspect(item))
  end
  assert((types.W or 0) > 0, 'changed rows are warnings: ' .. vim.inspect(types))
  out(string.format('OK ImpactRun develop: %s, %d entries (%d E, %d W, %d I) (%.2f s)', qf.title, #qf.items,
    types.E or 0, types.W or 0, types.I or 0, took))
  for i, item in ipairs(qf.items) do
    out(string.format('QF %d %s:%d %s %s', i, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(item.bufnr), ':t'),
      item.lnum, item.type, item.text:sub(1, 100)))
  end
  vim.cmd('cc 1')
  assert(vim.api.nvim_buf_get_name(0) == pin, ':cc 1 opens the pin: ' .. vim.api.nvim_buf_get_name(0))
  local lnum = vim.api.nvim_win_get_cursor(0)[1]
  local text = vim.api.nvim_get_current_line()
  assert(lnum == first.lnum, ':cc 1 lands on the line ' .. first.lnum .. ': ' .. lnum)
  assert(text:find('KernelArgument{') or text:find('expectedSignature'), 'the line is the copy\'s: ' .. text)
  out(string.format('OK cc 1 %s:%d %s', vim.fn.fnamemodify(pin, ':t'), lnum, vim.trim(text)))
  vim.cmd('cclose')

  -- Without a range, vim.ui.select offers the choices: the last commit is picked.
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for _, c in ipairs(items) do
      if c.arg == 'HEAD~1..HEAD' then
        return on_choice(c)
      end
    end
    on_choice(nil)
  end
  qf, took = run_qf('ImpactRun')
  assert(vim.tbl_contains(offered, 'branch develop') and vim.tbl_contains(offered, 'branch main'),
    'the choices offer the branches: ' .. vim.inspect(offered))
  assert(not vim.tbl_contains(offered, 'branch feature'), 'the checked-out branch is not offered: ' .. vim.inspect(offered))
  assert(qf.title == 'impactd: HEAD~1..HEAD — Runtime impact: BREAKS', 'title: ' .. qf.title)
  out(string.format('OK ImpactRun (picked) %s; offered: %s (%.2f s)', qf.title, table.concat(offered, ' | '), took))
  vim.cmd('cclose')

  -- --uncommitted: nothing differs from HEAD, so no row and N/A.
  qf, took = run_qf('ImpactRun --uncommitted')
  assert(qf.title == 'impactd: uncommitted changes (HEAD..working tree) — Runtime impact: N/A', 'title: ' .. qf.title)
  assert(#qf.items == 0, 'no rows: ' .. vim.inspect(qf.items))
  out(string.format('OK ImpactRun --uncommitted: %s, %d entries (%.2f s)', qf.title, #qf.items, took))
  vim.cmd('cclose')

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
