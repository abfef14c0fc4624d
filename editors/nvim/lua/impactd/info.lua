-- :ImpactInfo, a :checkhealth-style account of the impactd module for the current buffer:
-- the server binary (path and --version), the root the client starts in (the git work tree),
-- whether a client is attached, and the server's state from impactd/status.
-- Works on Neovim 0.7 and later.

local M = {}

local function item(level, text)
  return string.format('- %s %s', level, text)
end

local function binary_lines(cmd)
  local name = cmd and cmd[1]
  local exe = name and vim.fn.exepath(name) or ''
  if exe == '' then
    return { item('ERROR', string.format("binary: '%s' is not an executable file or on PATH; "
      .. "set cmd in require('impactd').setup{ cmd = '/path/to/impactd' }", tostring(name))) }
  end
  local version = vim.fn.system({ exe, '--version' })
  if vim.v.shell_error ~= 0 then
    return { item('ERROR', string.format('binary: %s: --version exited with %d: %s', exe, vim.v.shell_error,
      vim.trim(version))) }
  end
  local lines = { item('OK', string.format('binary: %s (%s)', exe, vim.trim(version))) }
  if #cmd > 1 then
    table.insert(lines, '    arguments: ' .. table.concat(cmd, ' ', 2))
  end
  return lines
end

local function root_lines(impactd, bufnr)
  if vim.api.nvim_buf_get_name(bufnr) == '' then
    return { item('WARNING', 'root: this buffer has no file; open a file of the repository') }
  end
  local root, found = impactd._find_root(bufnr)
  if not found then
    return { item('WARNING', string.format('root: no %s above %s; the server will find no repository',
      table.concat(impactd.config().root_markers, ' or '), root)) }
  end
  return { item('OK', 'root: ' .. root .. ' (git work tree)') }
end

-- The impactd client attached to bufnr, and how many run in all.
local function clients_of(bufnr)
  local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients
  local attached, running = nil, 0
  for _, client in pairs(get_clients()) do
    if client.name == 'impactd' then
      running = running + 1
      if client.attached_buffers and client.attached_buffers[bufnr] then
        attached = client
      end
    end
  end
  return attached, running
end

local function client_lines(client, running, bufnr)
  if not client then
    return { item('WARNING', string.format('client: none attached to this buffer (filetype %s; impactd serves %s; '
      .. '%d impactd client%s running)', vim.bo[bufnr].filetype == '' and 'none' or vim.bo[bufnr].filetype,
      table.concat(require('impactd').config().filetypes, ', '), running, running == 1 and '' or 's')) }
  end
  return { item('OK', string.format('client: impactd (id %d) attached to this buffer, root %s', client.id,
    tostring(client.config.root_dir))) }
end

local function state_lines(status)
  if not status then
    return { item('WARNING', 'state: no impactd/status received yet') }
  end
  local counts = string.format('%d mismatch%s, %d changed', status.mismatches or 0,
    (status.mismatches or 0) == 1 and '' or 'es', status.changed or 0)
  local message = (status.message and status.message ~= '') and (' — ' .. status.message) or ''
  if status.state == 'error' then
    return { item('ERROR', 'state: error, ' .. counts .. message) }
  end
  return { item('OK', 'state: ' .. tostring(status.state) .. ', ' .. counts .. message) }
end

--- The lines :ImpactInfo shows, for the buffer bufnr (default: the current one).
function M.lines(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local impactd = require('impactd')
  local client, running = clients_of(bufnr)
  local lines = { 'impactd: require("impactd").setup{} module', '' }
  vim.list_extend(lines, binary_lines(impactd.config().cmd))
  vim.list_extend(lines, root_lines(impactd, bufnr))
  vim.list_extend(lines, client_lines(client, running, bufnr))
  if client then
    vim.list_extend(lines, state_lines(impactd.statuses[client.id]))
  end
  return lines
end

--- :ImpactInfo: the lines in a scratch buffer (filetype impactinfo).
function M.show()
  local lines = M.lines()
  vim.cmd('new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'impactinfo'
end

return M
