-- The event and its award are read back raw: metamethods that loop or fail
-- are never run by carc itself.
carc.on("score-before", function(ev)
  ev.award = setmetatable({}, { __index = function() while true do end end })
  -- the event's own metatable is carc's: it cannot be replaced
  assert(not pcall(setmetatable, ev, { __index = function() error("read me") end }))
  ev.value = nil
end)
