-- Finding 7: a counter made by a function at load time keeps its count.
local function counter()
  local n = 0
  return function()
    n = n + 1
    return n
  end
end
local next_id = counter()
carc.on("turn-start", function(ev) next_id() end)
