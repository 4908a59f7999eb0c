-- Finding: print of a value whose __tostring returns a big string was
-- never charged: gigabytes to the standard error from one call.
local big = setmetatable({}, { __tostring = function() return string.rep(string.rep("x", 1000), 1000) end })
carc.on("turn-start", function(ev)
  while true do print(big) end
end)
