-- Lua runs __gc finalizers with hooks off: a finalizer that loops would
-- escape every limit. setmetatable refuses a metatable with __gc ...
local ok, err = pcall(setmetatable, {}, {__gc = function() while true do end end})
assert(not ok and err:find("__gc"), err)
-- ... and __gc added to a metatable afterwards is never called.
for i = 1, 100 do
  local mt = {}
  setmetatable({}, mt)
  mt.__gc = function() while true do end end
end
carc.on("turn-start", function(ev)
  for i = 1, 200 do
    local mt = {}
    setmetatable({}, mt)
    mt.__gc = function() while true do end end
  end
end)
