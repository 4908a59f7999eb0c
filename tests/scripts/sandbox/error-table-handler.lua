carc.on("turn-start", function(ev)
  error(setmetatable({}, {__tostring = function() while true do end end, __index = function() while true do end end}))
end)
