-- :ImpactRun [range] and :ImpactReport [range]: impact.run for a chosen range. :ImpactRun fills
-- the quickfix list (one entry per row, at the copy; the builder when the row has no copy) and
-- opens it; :ImpactReport opens the text report in a scratch buffer.
--
-- A range is what impact.run takes ({ base, head, targetTip }, docs/editors.md):
--   (none)          vim.ui.select offers the choices below and the repository's branches and tags
--   --target        the configured target against the working tree (the server's default)
--   --uncommitted   the uncommitted changes only (HEAD as the base)
--   --merged        the target against the working tree, with the target tip's merged view
--   A..B            the commits from A to B (B a commit: the working tree is not read)
--   REF             the working tree against the merge base with REF (a branch, tag or commit)

local M = {}

local function notify(msg, level)
  vim.notify('impactd: ' .. msg, level or vim.log.levels.INFO)
end

--- The range a :ImpactRun argument names: { label, args } (args: impact.run's argument object),
--- or nil and why. `target` is the server's target (impact.refs), for --merged.
function M.parse(arg, target)
  arg = vim.trim(arg or '')
  if arg == '' or arg == '--target' then
    return { label = 'target ' .. (target ~= '' and target or '(the server\'s default)'), args = vim.empty_dict() }
  end
  if arg == '--uncommitted' then
    return { label = 'uncommitted changes (HEAD..working tree)', args = { base = 'HEAD' } }
  end
  if arg == '--merged' then
    if not target or target == '' then
      return nil, 'the server has no target whose tip to merge into (set target in setup{})'
    end
    return { label = 'target ' .. target .. ' with its tip\'s merged view', args = { targetTip = target } }
  end
  if arg:sub(1, 2) == '--' then
    return nil, 'unknown range ' .. arg .. ' (a ref, A..B, --target, --uncommitted or --merged)'
  end
  local a, b = arg:match('^(.-)%.%.(.*)$')
  if a then
    if a == '' or b == '' then
      return nil, 'a commit range names both ends: A..B'
    end
    return { label = a .. '..' .. b, args = { base = a, head = b } }
  end
  return { label = arg .. '..working tree', args = { base = arg } }
end

-- The quickfix type of a row: E for a mismatch, W for changed, I for the rest.
local kinds = { mismatch = 'E', changed = 'W' }

--- The quickfix items of a JSON report (impact.run's `report`, with rows[i].mirror.location and
--- rows[i].python.location as LSP locations). A row with no location is an entry of text only.
function M.items(report)
  local items = {}
  for _, row in ipairs(report.rows or {}) do
    local side = (type(row.mirror) == 'table' and row.mirror.location) and row.mirror
      or (type(row.python) == 'table' and row.python.location) and row.python or nil
    local status = row.status .. (row.preexisting and ' (pre-existing)' or '')
      .. (row.view ~= nil and row.view ~= vim.NIL and (' [' .. row.view .. ' view]') or '')
    local item = {
      text = string.format('%s %s: %s', status, row.contract, row.message),
      type = kinds[row.status] or 'I',
    }
    if side then
      local start = side.location.range.start
      item.filename = vim.uri_to_fname(side.location.uri)
      item.lnum = start.line + 1
      item.col = start.character + 1
    else
      item.valid = 0
    end
    table.insert(items, item)
  end
  return items
end

local function verdict(report)
  local rollup = report.rollup or {}
  local line = 'Runtime impact: ' .. (rollup.verdict or '?')
  if rollup.verdict == 'NEEDS-DEVICE' and rollup.archs and #rollup.archs > 0 then
    line = line .. ' ' .. table.concat(rollup.archs, ', ')
  end
  return line
end

--- Fills the quickfix list with the report's rows and opens it.
function M.show_quickfix(range, report)
  local title = string.format('impactd: %s — %s', range.label, verdict(report))
  vim.fn.setqflist({}, ' ', { title = title, items = M.items(report) })
  vim.cmd('copen')
  return title
end

function M.open_text(text)
  vim.cmd('new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  local lines = vim.split((text:gsub('\r', '')), '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'impactreport'
end

-- The choices vim.ui.select offers: the fixed ranges, then every branch, remote branch and tag.
local function choices(refs)
  local target = refs.target or ''
  local list = {
    { arg = '--target', text = 'the target ' .. (target ~= '' and target or '(server default)') .. ' against the working tree' },
    { arg = '--merged', text = 'the target with its tip\'s merged view' },
    { arg = 'HEAD~1..HEAD', text = 'the last commit (HEAD~1..HEAD)' },
    { arg = '--uncommitted', text = 'uncommitted changes only (HEAD as base)' },
  }
  for _, group in ipairs({ { 'branches', 'branch' }, { 'remoteBranches', 'remote branch' }, { 'tags', 'tag' } }) do
    for _, name in ipairs(refs[group[1]] or {}) do
      if name ~= refs.headBranch then
        table.insert(list, { arg = name, text = group[2] .. ' ' .. name })
      end
    end
  end
  return list
end

--- Runs impact.run for `arg` (nil or '': vim.ui.select offers the choices) through `execute`
--- (init.lua's executeCommand helper); on_report(range, result) gets the answer.
function M.run(execute, arg, on_report)
  execute('impact.refs', {}, nil, function(err, refs)
    if err or type(refs) ~= 'table' then
      refs = { target = '' } -- an older server, or no repository: the ranges still work
    end
    local function go(chosen)
      local range, why = M.parse(chosen, refs.target)
      if not range then
        return notify(why, vim.log.levels.ERROR)
      end
      execute('impact.run', { range.args }, 'running impact for ' .. range.label .. '…', function(rerr, result)
        if rerr then
          notify('impact.run failed: ' .. (rerr.message or vim.inspect(rerr)), vim.log.levels.ERROR)
        elseif type(result) ~= 'table' or type(result.text) ~= 'string' or type(result.report) ~= 'table' then
          notify('impact.run returned no report', vim.log.levels.ERROR)
        else
          on_report(range, result)
        end
      end)
    end
    if arg and vim.trim(arg) ~= '' then
      return go(arg)
    end
    vim.ui.select(choices(refs), {
      prompt = 'impactd: run impact for',
      format_item = function(c)
        return c.text
      end,
    }, function(c)
      if c then
        go(c.arg)
      end
    end)
  end)
end

--- Completion of :ImpactRun's argument: the fixed ranges (refs come from the server only when run).
function M.complete(lead)
  local out = {}
  for _, c in ipairs({ '--target', '--uncommitted', '--merged', 'HEAD~1..HEAD' }) do
    if c:sub(1, #lead) == lead then
      table.insert(out, c)
    end
  end
  return out
end

return M
