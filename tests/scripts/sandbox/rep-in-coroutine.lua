-- string.rep past the memory cap, inside a coroutine: its error, not a crash.
local co = coroutine.create(function() return ("x"):rep(1 << 20):rep(1 << 19) end)
local ok, err = coroutine.resume(co)
assert(not ok)
error(err, 0)
