-- An error object that is a table, whose __tostring loops forever: the
-- error is reported without calling it.
error(setmetatable({}, {__tostring = function() while true do end end}))
