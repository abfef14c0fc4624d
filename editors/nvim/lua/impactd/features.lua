-- impactd's features beyond diagnostics in Neovim (issue 38): inlay hints (Neovim 0.10+'s own
-- vim.lsp.inlay_hint; before 0.10, the same hints as end-of-value virtual text drawn here), code
-- lenses (vim.lsp.codelens, refreshed on attach, on leaving insert mode, after a save and when
-- the server asks) with the client-side command impact.peekCopies (the copies in the quickfix
-- list), and rename (vim.lsp.buf.rename: the server's edit spans every copy, open or not).

local M = {}

local ns = vim.api.nvim_create_namespace('impactd_hints')
M.namespace = ns
local has_native_hints = vim.lsp.inlay_hint ~= nil and vim.lsp.inlay_hint.enable ~= nil

local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function supports(client, capability)
  return client.server_capabilities and client.server_capabilities[capability] ~= nil
end

-- Before 0.10: the hints of the whole buffer as inline-ish virtual text at each hint's line
-- (Neovim 0.7–0.9 cannot draw text inside a line: a line's hints are joined at its end).
local function draw_hints(bufnr, hints)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local by_line = {}
  for _, h in ipairs(hints or {}) do
    local label = type(h.label) == 'string' and h.label or ''
    if type(h.label) == 'table' then
      for _, part in ipairs(h.label) do
        label = label .. (part.value or '')
      end
    end
    local line = h.position.line
    by_line[line] = by_line[line] or {}
    table.insert(by_line[line], label)
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  for line, labels in pairs(by_line) do
    if line < count then
      vim.api.nvim_buf_set_extmark(bufnr, ns, line, 0, {
        virt_text = { { table.concat(labels, ' '), 'Comment' } },
        virt_text_pos = 'eol',
      })
    end
  end
  M.last_hints = M.last_hints or {}
  M.last_hints[bufnr] = hints or {}
end

function M.refresh_hints(client, bufnr)
  if has_native_hints or not supports(client, 'inlayHintProvider') then
    return
  end
  local last = math.max(0, vim.api.nvim_buf_line_count(bufnr) - 1)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last + 1, character = 0 } },
  }
  request(client, 'textDocument/inlayHint', params, function(err, result)
    if not err then
      vim.schedule(function()
        draw_hints(bufnr, result)
      end)
    end
  end, bufnr)
end

local function refresh_lenses(bufnr)
  if vim.lsp.codelens and vim.api.nvim_buf_is_loaded(bufnr) then
    vim.api.nvim_buf_call(bufnr, function()
      if vim.fn.has('nvim-0.10') == 1 then
        vim.lsp.codelens.refresh({ bufnr = bufnr })
      else
        vim.lsp.codelens.refresh()
      end
    end)
  end
end

-- Every buffer the client is attached to, to draw again after the server's refresh request.
local function attached(client)
  local out = {}
  for bufnr, on in pairs(client.attached_buffers or {}) do
    if on and vim.api.nvim_buf_is_loaded(bufnr) then
      table.insert(out, bufnr)
    end
  end
  return out
end

-- workspace/inlayHint/refresh and workspace/codeLens/refresh (the builder changed): draw again.
function M.handlers()
  return {
    ['workspace/inlayHint/refresh'] = function(_, _, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client and not has_native_hints then
        for _, bufnr in ipairs(attached(client)) do
          M.refresh_hints(client, bufnr)
        end
      elseif client and vim.lsp.handlers['workspace/inlayHint/refresh'] then
        return vim.lsp.handlers['workspace/inlayHint/refresh'](_, _, ctx)
      end
      return vim.NIL
    end,
    ['workspace/codeLens/refresh'] = function(_, _, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client then
        vim.schedule(function()
          for _, bufnr in ipairs(attached(client)) do
            refresh_lenses(bufnr)
          end
        end)
      end
      return vim.NIL
    end,
  }
end

-- What the client tells the server it can do beyond Neovim's defaults.
function M.capabilities(capabilities)
  capabilities.workspace = capabilities.workspace or {}
  capabilities.workspace.inlayHint = { refreshSupport = true }
  capabilities.workspace.codeLens = { refreshSupport = true }
  capabilities.textDocument = capabilities.textDocument or {}
  capabilities.textDocument.inlayHint = capabilities.textDocument.inlayHint or { dynamicRegistration = false }
  return capabilities
end

-- impact.peekCopies (the builder's code lens): the copies in the quickfix list, opened.
vim.lsp.commands['impact.peekCopies'] = function(command, ctx)
  local arg = command.arguments and command.arguments[1] or {}
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local items = vim.lsp.util.locations_to_items(arg.locations or {}, client and client.offset_encoding or 'utf-16')
  vim.fn.setqflist({}, ' ', { title = 'impactd: ' .. command.title, items = items })
  vim.cmd('copen')
end

function M.attach(client, bufnr, opts)
  if opts.inlay_hints ~= false and supports(client, 'inlayHintProvider') then
    if has_native_hints then
      pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
    else
      M.refresh_hints(client, bufnr)
      vim.api.nvim_create_autocmd({ 'InsertLeave', 'BufWritePost', 'TextChanged' }, {
        buffer = bufnr,
        group = vim.api.nvim_create_augroup('impactd_hints_' .. bufnr, { clear = true }),
        callback = function()
          M.refresh_hints(client, bufnr)
        end,
      })
    end
  end
  if opts.codelens ~= false and supports(client, 'codeLensProvider') then
    refresh_lenses(bufnr)
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      buffer = bufnr,
      group = vim.api.nvim_create_augroup('impactd_lens_' .. bufnr, { clear = true }),
      callback = function()
        refresh_lenses(bufnr)
      end,
    })
  end
end

return M
