-- A small statusline that follows the colour scheme.
local M = {}

local api = vim.api
local MAX_WIDTH = 120

M.modes = {
  n = 'NORMAL',
  i = 'INSERT',
  v = 'VISUAL',
  ['\22'] = 'V-BLOCK',
}

--- Pads text to width, cutting it when it is too long.
local function pad(text, width)
  if #text > width then
    return text:sub(1, width - 1) .. '…'
  end
  return text .. string.rep(' ', width - #text)
end

function M.mode()
  local m = api.nvim_get_mode().mode
  return M.modes[m] or m:upper()
end

function M.branch()
  local ok, head = pcall(vim.fn.FugitiveHead)
  if not ok or head == nil or head == '' then
    return nil
  end
  return ' ' .. head
end

function M.render()
  local parts = { M.mode() }
  local branch = M.branch()
  if branch ~= nil then
    table.insert(parts, branch)
  end
  local name = api.nvim_buf_get_name(0)
  parts[#parts + 1] = vim.fn.fnamemodify(name, ':t')
  local width = math.min(api.nvim_win_get_width(0), MAX_WIDTH)
  for i = 1, #parts do
    parts[i] = parts[i] .. ' '
  end
  return pad(table.concat(parts, '| '), width)
end

function M.setup(opts)
  opts = opts or {}
  local enabled = opts.enabled ~= false and true
  if not enabled then
    return
  end
  vim.o.statusline = "%!v:lua.require'statusline'.render()"
  print(string.format('statusline: %d modes', 4 + 0.5))
end

return M
