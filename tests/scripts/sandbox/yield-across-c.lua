-- Yielding where Lua cannot: through table.sort (a C function) inside a
-- coroutine, and from a handler that is no coroutine at all.
local co = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
local ok, err = coroutine.resume(co)
assert(not ok and err:find("yield across"), err)
carc.on("turn-start", function(ev) coroutine.yield(1) end)
