-- table.concat over a proxy whose __index conjures empty strings forever.
local t = setmetatable({}, {__index = table.concat})
return table.concat(t, "", 1, math.maxinteger)
