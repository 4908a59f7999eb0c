-- table.insert at the front of a table whose __len says 2^62.
local t = setmetatable({}, {__len = function() return 1 << 62 end})
table.insert(t, 1, "x")
