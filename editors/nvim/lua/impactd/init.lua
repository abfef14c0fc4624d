-- impactd for Neovim: starts the impactd language server for python, cpp, json and yaml
-- buffers (one client per project root), keeps the server's state (impactd/status) and adds
-- :ImpactRun (the rows in the quickfix list), :ImpactReport, :ImpactEmit and :ImpactInfo.
--
--   require('impactd').setup{}   -- or setup{ cmd = '/path/to/impactd', target = 'origin/develop' }
--   setup{ emitter = 'auto' }    -- run the emitter (repository code!) in trusted projects only
--
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client) and 0.8+ (vim.lsp.start).

local M = {}

local defaults = {
  cmd = { 'impactd' },
  target = nil, -- branch or revision compared with; nil: the server's default
  -- The emitter runs the repository's own Python builders (docs/emitter.md): 'auto' (after a
  -- save that changes a shipped Python module), 'manual' (:ImpactEmit only) or 'off'. Neovim has
  -- no workspace trust: set it only for repositories you trust.
  emitter = 'off',
  filetypes = { 'python', 'cpp', 'json', 'yaml' },
  root_markers = { '.git' },
  on_attach = nil, -- function(client, bufnr)
  inlay_hints = true, -- the builder argument at each copy's value (impactd/features.lua)
  codelens = true, -- "N copies · K stale" above builders, "copy of build_x: agrees" above copies
}

local config = vim.deepcopy(defaults)
local clients = {} -- root directory -> client id (Neovim 0.7 only)
-- client id -> the last impactd/status params: { state, mismatches, changed, message }
M.statuses = {}
local has_start = vim.lsp.start ~= nil -- Neovim 0.8+

local function notify(msg, level)
  vim.notify('impactd: ' .. msg, level or vim.log.levels.INFO)
end

-- The nearest directory above the file (or the file's own) that holds a root marker;
-- the file's directory when none does (second result false).
local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = vim.fn.fnamemodify(name, ':p:h')
  local dir = start
  while true do
    for _, marker in ipairs(config.root_markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir, true
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return start, false
    end
    dir = parent
  end
end
M._find_root = find_root

-- impactd/status: remembered per client (for :ImpactInfo and statuslines), then the
-- autocommand `User ImpactdStatus` fires.
local function on_status(_, params, ctx)
  if type(params) == 'table' and ctx and ctx.client_id then
    M.statuses[ctx.client_id] = params
    vim.schedule(function()
      vim.api.nvim_exec_autocmds('User', { pattern = 'ImpactdStatus', modeline = false })
    end)
  end
end

-- window/showDocument (built in from 0.8): open the uri, cursor at the start of the range.
local function show_document(_, params, ctx)
  if params.external then
    return { success = false }
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local range = params.selection or params.range
    or { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }
  local ok = vim.lsp.util.jump_to_location({ uri = params.uri, range = range },
    client and client.offset_encoding or 'utf-16')
  return { success = ok and true or false }
end

local function client_config(root)
  local features = require('impactd.features')
  local cfg = {
    name = 'impactd',
    cmd = config.cmd,
    root_dir = root,
    on_attach = function(client, bufnr)
      features.attach(client, bufnr, config)
      if config.on_attach then
        config.on_attach(client, bufnr)
      end
    end,
    handlers = vim.tbl_extend('force', { ['impactd/status'] = on_status }, features.handlers()),
    capabilities = features.capabilities(vim.lsp.protocol.make_client_capabilities()),
  }
  cfg.init_options = { emitter = config.emitter or 'off' }
  if config.target then
    cfg.init_options.target = config.target
    cfg.settings = { impactd = { target = config.target } }
  end
  if not has_start then
    cfg.capabilities.window = cfg.capabilities.window or {}
    cfg.capabilities.window.showDocument = { support = true }
    cfg.handlers['window/showDocument'] = show_document
  end
  return cfg
end

local function attach(bufnr)
  if vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then
    return
  end
  local root = find_root(bufnr)
  if has_start then
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(client_config(root), { bufnr = bufnr })
    end)
    return
  end
  local id = clients[root]
  if id == false then
    return -- the server failed to start for this root; said so once
  end
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    local ok, started = pcall(vim.lsp.start_client, client_config(root))
    if not ok or not started then
      clients[root] = false
      notify(string.format("cannot start '%s'; set cmd in require('impactd').setup{cmd = {...}}%s",
        table.concat(config.cmd, ' '), ok and '' or ': ' .. tostring(started)), vim.log.levels.WARN)
      return
    end
    id = started
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

-- The impactd client of the current buffer, else any running one.
function M.current_client()
  local fallback
  local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in pairs(get_clients()) do
    if client.name == 'impactd' then
      if client.attached_buffers and client.attached_buffers[vim.api.nvim_get_current_buf()] then
        return client
      end
      fallback = fallback or client
    end
  end
  return fallback
end

--- Runs workspace/executeCommand `command` on the current buffer's impactd client, saying
--- `doing` first (when given); on_result(err, result) gets the answer. Says so when no server runs.
local function execute(command, arguments, doing, on_result)
  local client = M.current_client()
  if not client then
    notify('no server is running; open a python, cpp, json or yaml file first', vim.log.levels.ERROR)
    return
  end
  if doing then
    notify(doing)
  end
  local params = { command = command, arguments = arguments }
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, on_result, bufnr)
  else
    client.request('workspace/executeCommand', params, on_result, bufnr)
  end
end

--- :ImpactRun [range]: impact.run for the range (impactd/run.lua: a ref, A..B, --target,
--- --uncommitted, --merged; none: vim.ui.select offers them); the rows fill the quickfix list,
--- which opens. M.last_run holds { range, title, report } of the last one.
function M.run(arg)
  require('impactd.run').run(execute, arg, function(range, result)
    local title = require('impactd.run').show_quickfix(range, result.report)
    M.last_run = { range = range, title = title, report = result.report }
  end)
end

--- :ImpactReport [range]: the same run; the text report opens in a scratch buffer.
function M.report(arg)
  require('impactd.run').run(execute, arg, function(_, result)
    require('impactd.run').open_text(result.text)
  end)
end

--- :ImpactEmit: impact.emit (the emitter now; refused by the server when emitter = 'off').
function M.emit()
  execute('impact.emit', {}, 'running the emitter…', function(err, result)
    if err then
      notify('impact.emit failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      notify(type(result) == 'table' and result.summary or 'emitter done')
    end
  end)
end

--- The server's state in a few words, for a statusline: "impactd: ready, 1 mismatch, 3 changed".
function M.status_line()
  local client = M.current_client()
  local s = client and M.statuses[client.id]
  if not s then
    return client and 'impactd: starting' or ''
  end
  if s.state == 'error' then
    return 'impactd: error'
  end
  return string.format('impactd: %s, %d mismatch%s, %d changed%s%s', s.state, s.mismatches or 0,
    (s.mismatches or 0) == 1 and '' or 'es', s.changed or 0, s.emitting and (', emitting ' .. s.emitting) or '',
    s.geometry and (', geometry ' .. s.geometry) or '')
end

function M.config()
  return config
end

function M.setup(opts)
  config = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  if type(config.cmd) == 'string' then
    config.cmd = { config.cmd }
  end
  for root, id in pairs(clients) do
    if id == false then
      clients[root] = nil -- try again with the new cmd
    end
  end
  local group = vim.api.nvim_create_augroup('impactd', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach(args.buf)
    end,
  })
  local function range_command(fn)
    return function(args)
      fn(args.args)
    end
  end
  local complete = function(lead)
    return require('impactd.run').complete(lead)
  end
  vim.api.nvim_create_user_command('ImpactRun', range_command(M.run),
    { nargs = '?', complete = complete, desc = 'impactd: run impact, the rows in the quickfix list' })
  vim.api.nvim_create_user_command('ImpactReport', range_command(M.report),
    { nargs = '?', complete = complete, desc = 'impactd: run impact, the text report in a scratch buffer' })
  vim.api.nvim_create_user_command('ImpactEmit', M.emit, { desc = 'impactd: run the emitter' })
  vim.api.nvim_create_user_command('ImpactInfo', function()
    require('impactd.info').show()
  end, { desc = 'impactd: binary, root, client and server state' })
  -- Buffers opened before setup.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach(bufnr)
    end
  end
end

return M
