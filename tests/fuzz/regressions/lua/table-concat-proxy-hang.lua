local t = setmetatable({}, {__index = table.concat})
local s = table.concat(t, "", 1, math.maxinteger)
