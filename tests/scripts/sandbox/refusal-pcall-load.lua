-- A refused registration stops the load, even when the script catches the
-- refusal with pcall and goes on.
local ok = pcall(carc.add_phase, "x", "before", "no-such-phase", function() end)
assert(not ok)
