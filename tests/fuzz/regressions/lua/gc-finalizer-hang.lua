-- Lua runs finalizers with hooks off: this one looped for ever at the first
-- garbage collection, out of reach of the budget.
for i = 1, 1000 do setmetatable({}, {__gc = function() while true do end end}) end
local t = {}
for i = 1, 100000 do t[i] = {} end
