-- :checkhealth impactd: the same account as :ImpactInfo (lua/impactd/info.lua), through
-- Neovim's health report (require('health') on 0.7, vim.health on 0.8+).

local M = {}

function M.check()
  local h = vim.health or require('health')
  local start = h.start or h.report_start
  local report = {
    OK = h.ok or h.report_ok,
    WARNING = h.warn or h.report_warn,
    ERROR = h.error or h.report_error,
  }
  local info = h.info or h.report_info
  start('impactd')
  -- :checkhealth reports in a buffer of its own: the file it was started from is the alternate.
  local bufnr = vim.api.nvim_get_current_buf()
  local alt = vim.fn.bufnr('#')
  if vim.bo[bufnr].buftype ~= '' and alt > 0 and vim.api.nvim_buf_is_valid(alt) then
    bufnr = alt
  end
  for _, line in ipairs(require('impactd.info').lines(bufnr)) do
    local level, text = line:match('^%- (%u+) (.*)$')
    if level and report[level] then
      report[level](text)
    elseif line:match('^    ') then
      info(vim.trim(line))
    end
  end
end

return M
