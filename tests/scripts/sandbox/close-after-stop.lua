-- Finding: a coroutine the budget stops dies inside the hook, hooks off for
-- good; closing it in a later call ran its __close handler out of reach of
-- every limit. Now no coroutine outlives the call that made it: keeping
-- one in a table made at load time is refused.
local kept = {}
carc.on("turn-start", function(ev)
  if kept.co then
    coroutine.close(kept.co)
    error("closed the stopped coroutine and went on")
  end
  kept.co = coroutine.create(function()
    local x <close> = setmetatable({}, { __close = function() while true do end end })
    while true do end
  end)
  coroutine.resume(kept.co)
end)
