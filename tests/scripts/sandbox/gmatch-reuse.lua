-- Finding: a gmatch iterator was charged when made, not when called: kept
-- and called again it ran 38 s of CPU in one call.
-- "a-b" on 3500 bytes: just under the pattern limit, and no match, so
-- each call scans the whole string again.
local s = string.rep("a", 3500)
carc.on("turn-start", function(ev)
  local it = s:gmatch("a-b")
  while true do it() end
end)
