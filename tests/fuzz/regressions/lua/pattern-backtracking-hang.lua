local s = string.rep("a", 20000)
local x = string.find(s, ".-.-.-.-b")
